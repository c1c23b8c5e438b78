"""Dou Dizhu state machines: one deal (:class:`Deal`) and a series of deals (:class:`Match`).

The surface is the same for every game of the library (close to OpenSpiel's):
``current_player``, ``legal_actions()``, ``apply(action)``, ``clone()``,
``is_terminal()``, ``returns()``, ``history``, ``observation(player)``,
``determinize(player, rng)``.  The auction is :class:`chupai.doudizhu.auction.Auction`;
the card play runs in C (:class:`chupai.doudizhu._engine.DealEngine`); the scoring is
:mod:`chupai.doudizhu.scoring`; this module's classes join them with the record of the
deal, observations and determinization.

>>> deal = Deal(seed=3)
>>> while not deal.is_terminal():
...     deal.apply(deal.legal_actions()[-1])  # the highest bid, then the last play listed
>>> deal.landlord, deal.base, sum(deal.returns())
(0, 3, 0.0)

Actions: in the auction (phase ``"bid"``) a :class:`~chupai.doudizhu.auction.Bid`
(``Bid(0)`` passes); in the card play (``"play"``) a :class:`~chupai.doudizhu.Play`
(from ``legal_actions()`` or :func:`chupai.doudizhu.legal_plays`) or :data:`PASS`, legal
when following.  Anything else raises :class:`chupai.errors.IllegalActionError` (a
``ValueError``) naming the action, or ``TypeError`` for an action of another game; the
state is unchanged.

What is public: every bid, play and pass, the number of cards in each hand, and the
kitty once the auction ends (the landlord takes it face up).  What is hidden: the other
hands, and the kitty during the auction.
"""
from __future__ import annotations

from chupai.actions import PASS
from chupai.contract import TERMINAL
from chupai.errors import IllegalActionError
from chupai.doudizhu.deal import Deal
from chupai.doudizhu.match import Match

__all__ = ["PASS", "TERMINAL", "Deal", "IllegalActionError", "Match"]
