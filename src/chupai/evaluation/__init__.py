"""Evaluating bots and generators, and where the batches run.

* :mod:`chupai.evaluation.arena`: two bots on the same deals or matches, win rates with
  intervals (``chupai.arena`` is its ``arena``);
* :mod:`chupai.evaluation.ladder`: every pair of bots, seats swapped, and a rating;
* :mod:`chupai.evaluation.perft`: counts of action sequences, golden numbers of the
  generators and trick engines.

Deals and games run on :mod:`chupai.engine.backends` (this process, local worker
processes or Ray).

This layer plays the players (``chupai.players.bots``, ``chupai.players.search``) on the games' states
and engines; it imports nothing of the command line or the RL layer above it.
"""
