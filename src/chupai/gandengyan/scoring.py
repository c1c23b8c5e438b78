"""Gan Deng Yan scoring (``spec/gandengyan.md``, "Play, drawing, end and scoring" and
the scoring variants).

A loser pays the winner ``cards x general x own``: ``cards`` is the number of cards
left in their hand; with ``multipliers`` the *general* multiplier is the product of the
factors of every bomb played in the deal (x2 a three of a kind, x4 a four of a kind, x8
the double joker; with ``soft_bombs`` x2 a bomb holding a joker and x4 a natural one)
and the loser's *own* multiplier is x2 per joker and per ace left in hand, and, per
natural bomb left in hand, the factor it would have had if played.  ``ace_multiplier=m``
makes each ace left in hand count x m (with or without ``multipliers``).

Decisions where the spec is silent: ``ace_multiplier`` replaces the x2 per ace of
``multipliers`` (it does not compound with it); the double-joker bomb counts x8 with
``soft_bombs`` too; with two decks the natural cards of one rank held in hand are
split into the bombs (at most four cards each) that give the largest factor.

>>> from chupai.cards import Cards
>>> from chupai.gandengyan import Rules, classify
>>> rules = Rules(multipliers=True)
>>> bombs = [classify("5S 5H 5D")[0], classify("9S 9H 9C")[0]]      # pagat's example
>>> payment(Cards("3S 3H 3C 3D AS BJ"), general_multiplier(bombs, rules), rules)
384
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from chupai._core import (
    BITS_PER_RANK,
    BLACK_JOKER_BIT,
    NUM_RANKS,
    NUM_SUITS,
    RED_JOKER_BIT,
)
from chupai.cards import Cards
from chupai.gandengyan.play import Play, PlayType
from chupai.gandengyan.rules import Rules

__all__ = ["bomb_factor", "deal_returns", "general_multiplier", "own_multiplier", "payment"]

THREE_FACTOR = 2
FOUR_FACTOR = 4
JOKER_BOMB_FACTOR = 8
SOFT_FACTOR = 2
HARD_FACTOR = 4
#: the own factor of each joker (and, without ``ace_multiplier``, of each ace) in hand
HELD_FACTOR = 2
_ACE = NUM_RANKS - 1
_MAX_BOMB = 4
_MIN_BOMB = 3


def bomb_factor(type_: PlayType, soft: bool, rules: Rules) -> int:
    """The general-multiplier factor of one bomb played (1 without ``multipliers``)."""
    if not rules.multipliers or type_ not in (PlayType.THREE_BOMB, PlayType.FOUR_BOMB, PlayType.JOKER_BOMB):
        return 1
    if type_ == PlayType.JOKER_BOMB:
        return JOKER_BOMB_FACTOR
    if rules.soft_bombs:
        return SOFT_FACTOR if soft else HARD_FACTOR
    return THREE_FACTOR if type_ == PlayType.THREE_BOMB else FOUR_FACTOR


def general_multiplier(plays: Iterable[Play], rules: Rules) -> int:
    """The product of the factors of the bombs among ``plays`` (the deal's plays)."""
    out = 1
    for p in plays:
        if p.is_bomb:
            out *= bomb_factor(p.type, p.is_soft, rules)
    return out


def _natural_bombs_factor(count: int, rules: Rules) -> int:
    """The largest factor of natural bombs (3 or 4 equal cards each) among ``count``
    natural cards of one rank."""
    four = bomb_factor(PlayType.FOUR_BOMB, False, rules)
    three = bomb_factor(PlayType.THREE_BOMB, False, rules) if rules.triples_are_bombs else 1
    best = 1
    for fours in range(count // _MAX_BOMB + 1):
        threes = (count - _MAX_BOMB * fours) // _MIN_BOMB
        best = max(best, four**fours * three**threes)
    return best


def own_multiplier(hand: Cards, rules: Rules) -> int:
    """A loser's own multiplier for the cards left in their hand."""
    counts = hand.counts()
    ranks = [sum(counts[r * BITS_PER_RANK + s] for s in range(NUM_SUITS)) for r in range(NUM_RANKS)]
    out = 1
    if rules.ace_multiplier is not None:
        out *= rules.ace_multiplier ** ranks[_ACE]
    elif rules.multipliers:
        out *= HELD_FACTOR ** ranks[_ACE]
    if rules.multipliers:
        out *= HELD_FACTOR ** (counts[BLACK_JOKER_BIT] + counts[RED_JOKER_BIT])
        for c in ranks:
            out *= _natural_bombs_factor(c, rules)
    return out


def payment(hand: Cards, general: int, rules: Rules) -> int:
    """What a loser holding ``hand`` pays the winner."""
    return len(hand) * general * own_multiplier(hand, rules)


def deal_returns(hands: Sequence[Cards], winner: int | None, general: int, rules: Rules) -> tuple[int, ...]:
    """Each player's score for the deal: the winner receives every loser's payment;
    with ``positive_only`` the losers score 0 instead of paying.  No winner (a deal
    nobody can finish): all 0."""
    n = len(hands)
    if winner is None:
        return (0,) * n
    pays = [0 if s == winner else payment(hands[s], general, rules) for s in range(n)]
    total = sum(pays)
    return tuple(total if s == winner else (0 if rules.positive_only else -pays[s]) for s in range(n))
