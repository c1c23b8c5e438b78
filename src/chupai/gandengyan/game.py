"""Gan Deng Yan state machines: one deal (:class:`Deal`) and a series of deals (:class:`Match`).

The surface is the same for every game of the library (close to OpenSpiel's):
``current_player``, ``legal_actions()``, ``apply(action)``, ``clone()``,
``is_terminal()``, ``returns()``, ``history``, ``observation(player)``,
``determinize(player, rng)``.  The card play runs in C
(:class:`chupai.gandengyan._engine.DealEngine`, whose docstring lists how it reads the
spec where the spec is silent); this module adds the record of the deal, scoring
(:mod:`chupai.gandengyan.scoring`), observations and determinization.

>>> deal = Deal(seed=7, players=3)
>>> deal.hand_sizes(), deal.talon_size, deal.current_player == deal.dealer
((5, 5, 6), 38, True)
>>> while not deal.is_terminal():
...     deal.apply(deal.legal_actions()[0])
>>> sum(deal.returns()), deal.winner is not None
(0.0, True)

Actions: a :class:`~chupai.gandengyan.Play` (from ``legal_actions()`` or
:func:`chupai.gandengyan.legal_plays`) or :data:`PASS`.  ``PASS`` is legal when
following, and for a leader without a legal play (a lone joker with
``joker_lead_out=False``: the lead passes to the next player).  Anything else raises
:class:`chupai.errors.IllegalActionError` (a ``ValueError``) naming the action; the
state is unchanged.

What is public: every play and pass, the number of cards in each hand and in the
talon.  What is hidden: the other hands and the talon (its order too).  A leader who
passes the lead shows their hand (only jokers): those cards stay publicly known until
played (:attr:`Deal.known_cards`).
"""
from __future__ import annotations

from chupai.actions import PASS
from chupai.contract import TERMINAL
from chupai.errors import IllegalActionError
from chupai.gandengyan.deal import Deal
from chupai.gandengyan.match import Match

__all__ = ["PASS", "TERMINAL", "Deal", "IllegalActionError", "Match"]
