"""Zheng Shangyou state machines: one deal (:class:`Deal`, :mod:`chupai.zhengshangyou.deal`)
and a whole game (:class:`Match`, :mod:`chupai.zhengshangyou.match`), with the card
exchange of :mod:`chupai.zhengshangyou.exchange`.

The surface is the library's (:mod:`chupai.contract`): ``current_player``, ``phase``,
``legal_actions()``, ``apply(action)``, ``clone()``, ``is_terminal()``, ``returns()``,
``scores()``, ``history``, ``observation(player)``, ``determinize(player, rng)``,
``card_play()``.  The card play runs in C (:class:`chupai.zhengshangyou._engine.DealEngine`).

Actions
-------
* during the card play: a :class:`~chupai.zhengshangyou.Play` (from
  ``legal_actions()``, :func:`~chupai.zhengshangyou.legal_plays` or
  :func:`~chupai.zhengshangyou.classify`) or :data:`PASS`;
* during the exchange: :class:`PayCard`, :class:`TakeCard`, :class:`GiveCard`.

Anything not legal now raises :class:`chupai.errors.IllegalActionError` (a
``ValueError``) naming the action; anything that is no action of this game (a Play of
another game, a string) :class:`chupai.errors.ActionTypeError` (also a ``TypeError``).
The state is unchanged either way.
"""
from __future__ import annotations

from chupai.actions import PASS
from chupai.contract import TERMINAL
from chupai.errors import IllegalActionError
from chupai.zhengshangyou.deal import Deal
from chupai.zhengshangyou.exchange import (
    ExchangeStep,
    GiveCard,
    PayCard,
    TakeCard,
    decision_choice,
    exchange_choice,
)
from chupai.zhengshangyou.match import Match, winner_of

__all__ = [
    "PASS",
    "TERMINAL",
    "Deal",
    "ExchangeStep",
    "GiveCard",
    "IllegalActionError",
    "Match",
    "PayCard",
    "TakeCard",
    "decision_choice",
    "exchange_choice",
    "winner_of",
]
