"""The players: everything that chooses an action for a seat.

* :mod:`chupai.players.bots`: the bot interface and the rule-based bots (random,
  greedy, heuristic, Monte Carlo);
* :mod:`chupai.players.search`: information-set search (ISMCTS), ``BestBot`` and the
  bot-spec language that names every bot (``"ismcts:iters=400"``);
* :mod:`chupai.players.network`: bots that play an ONNX network;
* :mod:`chupai.players.options`: the options a bot's ``repr`` names (those that differ
  from their defaults, so that reports tell two bots apart).

A player reads a game's state through the contract (``chupai.contract``) and its facts
through the registry; it imports no command line.
"""
