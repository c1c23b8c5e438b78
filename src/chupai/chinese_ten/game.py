"""Chinese Ten state machines: one deal (:class:`Deal`) and a game of deals (:class:`Match`).

The surface is the library's common one (see ``chupai.guandan.game``):
``current_player``, ``legal_actions()``, ``apply(action)``, ``clone()``,
``is_terminal()``, ``returns()``, ``history``, ``observation(player)``,
``determinize(player, rng)``, and ``card_play()`` (the compiled engine the bots use).
The play itself runs in C (:class:`chupai.chinese_ten._engine.DealEngine`).

>>> deal = Deal(seed=7, players=2)
>>> deal.phase, deal.hand_sizes(), len(deal.layout), deal.stock_size
(<Phase.PLAY: 'play'>, (12, 12), 4, 24)
>>> while not deal.is_terminal():
...     deal.apply(deal.legal_actions()[0])
>>> sum(deal.scores()), sum(deal.returns())
(210, 0.0)

A turn (``docs/rules/chinese_ten.md``, "A turn"), exactly as implemented
-------------------------------------------------------------------
* Phase ``Phase.PLAY``: the current player plays a card from the hand; the actions are
  the :class:`~chupai.chinese_ten.Play` objects of ``legal_plays`` (the card and the
  layout card it captures, or none).  The top stock card is then turned at once.
* If the turned card has one possible outcome (nothing to capture; under forced
  capture, one target, or the opening triple) it is resolved automatically (an
  ``automatic`` event in ``history``).  Otherwise the phase becomes ``Phase.TURN`` and the
  same player chooses among the turned card's :func:`~chupai.chinese_ten.captures`.
* Then the next seat plays; the deal ends when the hands and the stock are empty.
* Nobody ever passes: there is no pass action.

The opening: with four of a kind of K, Q, J, T or 5 on the layout the dealer captures
them before play (:attr:`Deal.opening`); a triple of those ranks is taken whole by the
fourth card.  In ``main_merah`` a layout with three or four of those ranks, or with
five or more cards of one capture group, is thrown in and the cards are dealt again
(:attr:`Deal.redeals`).

Anything not legal now raises :class:`chupai.errors.IllegalActionError` (a
``ValueError``) naming the action; the state is unchanged.
"""
from __future__ import annotations

from chupai.chinese_ten.deal import Deal, first_player
from chupai.chinese_ten.match import Match, next_dealer
from chupai.contract import TERMINAL, Event
from chupai.errors import IllegalActionError

__all__ = ["TERMINAL", "Deal", "Event", "IllegalActionError", "Match", "first_player", "next_dealer"]
