"""The Zheng Shangyou card exchange: its actions, its steps and the bots' choice.

From the second deal on the new hands are dealt (from the next dealer, ``Rules.dealer_after``,
who deals and leads), then, for n >= 4 players, in this order:

1. the (n-1)th and then the nth finisher of the previous deal each put their highest
   card face up (:class:`PayCard`; order 3 < .. < A < 2 < BJ < RJ; a decision only
   when several suits of the highest rank are held, otherwise automatic);
2. the first finisher takes one of the two (:class:`TakeCard`), the second finisher
   the other (automatic);
3. the first and then the second finisher each put any card of their hand face up
   (:class:`GiveCard`; the card just received included);
4. the (n-1)th finisher takes one of the two (:class:`TakeCard`), the nth the other.

With n = 3 only the last finisher pays: they pay, the first finisher takes the card
(automatic), gives a card, and the last takes it (automatic).  With n = 2 there is no
exchange.  Automatic steps appear in ``history`` as events with ``automatic=True``.
Every card of the exchange is public: a card taken stays publicly known to be in its
taker's hand until they play it.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from chupai.core.records import NUM_FACES
from chupai.state.decisions import CardDecision
from chupai.cards import parse_face
from chupai.zhengshangyou.play import face_value

__all__ = ["ExchangeStep", "GiveCard", "PayCard", "TakeCard", "decision_choice", "exchange_choice", "exchange_steps"]

#: the game-order value of every face
VALUES = tuple(face_value(f) for f in range(NUM_FACES))


@dataclass(frozen=True, repr=False)
class PayCard(CardDecision):
    """A last finisher puts ``card``, their highest, face up (a decision only among tied
    suits)."""


@dataclass(frozen=True, repr=False)
class TakeCard(CardDecision):
    """A player takes the face-up card ``card`` (the other one goes to their partner in
    the exchange)."""


@dataclass(frozen=True, repr=False)
class GiveCard(CardDecision):
    """The first or second finisher puts ``card``, an unwanted card, face up (automatic
    only for a hand of one card)."""


EXCHANGE_ACTIONS = (PayCard, TakeCard, GiveCard)


class ExchangeStep(Enum):
    """One step of the exchange (who does it: :func:`exchange_steps`)."""

    #: a last finisher puts their highest card face up
    PAY = "pay"
    #: the first finisher takes a paid card (the second finisher gets the other)
    TAKE_PAID = "take_paid"
    #: a winner puts any card face up
    GIVE = "give"
    #: the (n-1)th finisher takes a given card (the nth gets the other)
    TAKE_GIVEN = "take_given"


def exchange_steps(previous: tuple[int, ...]) -> tuple[tuple[ExchangeStep, int], ...]:
    """The exchange steps after a deal with this finishing order: (step, seat)."""
    n = len(previous)
    first, second, penult, last = previous[0], previous[1], previous[-2], previous[-1]
    if n == 2:
        return ()
    if n == 3:
        return ((ExchangeStep.PAY, last), (ExchangeStep.TAKE_PAID, first), (ExchangeStep.GIVE, first),
                (ExchangeStep.TAKE_GIVEN, last))
    return (
        (ExchangeStep.PAY, penult),
        (ExchangeStep.PAY, last),
        (ExchangeStep.TAKE_PAID, first),
        (ExchangeStep.GIVE, first),
        (ExchangeStep.GIVE, second),
        (ExchangeStep.TAKE_GIVEN, penult),
    )


def exchange_choice(actions: Sequence[Any]) -> Any:
    """A sensible choice among the exchange actions of one step (for bots): take the
    highest card, give the lowest, pay any of the tied suits.

    >>> exchange_choice([GiveCard("2S"), GiveCard("5H"), GiveCard("KD")])
    GiveCard('5H')
    """
    if not actions:
        raise ValueError("no actions to choose from")
    value = [face_value(parse_face(a.card)) for a in actions]
    best = max(value) if isinstance(actions[0], TakeCard) else min(value)
    return actions[value.index(best)]


def decision_choice(state: Any, actions: Sequence[Any]) -> Any:
    """The bots' choice outside card play (the registry's ``decision_policy``):
    :func:`exchange_choice`."""
    return exchange_choice(actions)
