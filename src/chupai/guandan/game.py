"""Guan Dan state machines: one deal (:class:`Deal`, :mod:`chupai.guandan.deal`) and a
whole game (:class:`Match`, :mod:`chupai.guandan.match`), with the tribute of
:mod:`chupai.guandan.tribute` (whose docstring gives its rules exactly as implemented).

The surface is the library's (:mod:`chupai.contract`, close to OpenSpiel's):
``current_player``, ``phase``, ``legal_actions()``, ``apply(action)``, ``clone()``,
``is_terminal()``, ``returns()``, ``scores()``, ``history``, ``observation(player)``,
``determinize(player, rng)``, ``card_play()``.  The card play itself runs in C
(:class:`chupai.guandan._engine.DealEngine`).

Actions
-------
* during play: a :class:`~chupai.guandan.Play` (from ``legal_actions()`` or
  :func:`chupai.guandan.legal_plays`), :data:`PASS` (or the protocol pass
  ``["PASS", "PASS", "PASS"]``), or a protocol list ``[type, rank, cards]``;
* during the tribute phase: :class:`PayTribute`, :class:`TakeTribute`,
  :class:`ReturnCard`, :class:`ChooseLeader`.

Anything not legal now raises :class:`chupai.errors.IllegalActionError` (a
``ValueError``) naming the action; anything that is no action of this game (a Play of
another game) :class:`chupai.errors.ActionTypeError` (also a ``TypeError``).  The state
is unchanged either way.
"""
from __future__ import annotations

from chupai.actions import PASS
from chupai.contract import TERMINAL
from chupai.errors import IllegalActionError
from chupai.guandan.deal import Deal
from chupai.guandan.match import Match, settle
from chupai.guandan.tribute import (
    ChooseLeader,
    PayTribute,
    ReturnCard,
    TakeTribute,
    TributeStep,
    decision_choice,
)

__all__ = [
    "PASS",
    "TERMINAL",
    "ChooseLeader",
    "Deal",
    "IllegalActionError",
    "Match",
    "PayTribute",
    "ReturnCard",
    "TakeTribute",
    "TributeStep",
    "decision_choice",
    "settle",
]
