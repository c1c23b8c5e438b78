"""Gan Deng Yan scoring (``docs/rules/gandengyan.md``, "Play, drawing, end, scoring" and
the scoring variants).

A loser pays the winner ``cards x general x own``: ``cards`` is the number of cards
left in their hand; with ``multipliers`` the *general* multiplier is the product of the
factors of every bomb played in the deal (x2 a three of a kind, x4 a four of a kind, x8
the double joker; with ``soft_bombs`` x2 a bomb holding a joker and x4 a natural one)
and the loser's *own* multiplier is x2 per joker and per ace left in hand and, per
bomb left in hand, the factor it would have had if played.  ``ace_multiplier=m``
makes each ace left in hand count x m (with or without ``multipliers``).  With
``max_payment`` no loser pays more than that in one deal.

The bombs left in hand (``joker_bombs_in_hand``): by default (the source's table:
"x2 each joker ... each bomb") every bomb the hand can form counts, jokers included
(``BJ RJ`` a double-joker bomb, ``5S 5H BJ`` a three of a kind), each card in at most
one bomb; a joker in a bomb still counts its own x2, as an ace in a bomb does.  When
the hand can be split into bombs in several ways, the split with the largest product
of factors counts.  ``joker_bombs_in_hand=False`` (the spec's reading) counts only
natural bombs (the jokers count x2 each and nothing more).

Decisions where the spec is silent: ``ace_multiplier`` replaces the x2 per ace of
``multipliers`` (it does not compound with it); the double-joker bomb counts x8 with
``soft_bombs`` too; with two decks the cards of one rank held in hand are split into
the bombs (at most four cards each) that give the largest factor.

>>> from chupai.cards import Cards
>>> from chupai.gandengyan import Rules, classify
>>> rules = Rules(multipliers=True)
>>> bombs = [classify("5S 5H 5D")[0], classify("9S 9H 9C")[0]]      # pagat's example
>>> payment(Cards("3S 3H 3C 3D AS BJ"), general_multiplier(bombs, rules), rules)
384
>>> own_multiplier(Cards("BJ RJ"), rules), own_multiplier(Cards("BJ RJ"), rules.replace(joker_bombs_in_hand=False))
(32, 4)
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from chupai.core.records import (
    BITS_PER_RANK,
    BLACK_JOKER_BIT,
    NUM_RANKS,
    NUM_SUITS,
    RED_JOKER_BIT,
)
from chupai.cards import Cards
from chupai.gandengyan.play import Play, PlayType
from chupai.gandengyan.rules import Rules

__all__ = ["bomb_factor", "deal_returns", "general_multiplier", "held_bombs_factor", "own_multiplier", "payment"]

THREE_FACTOR = 2
FOUR_FACTOR = 4
JOKER_BOMB_FACTOR = 8
SOFT_FACTOR = 2
HARD_FACTOR = 4
#: the own factor of each joker (and, without ``ace_multiplier``, of each ace) in hand
HELD_FACTOR = 2
_ACE = NUM_RANKS - 1
_TWO = 0
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


def _held_factor(size: int, soft: bool, rules: Rules) -> int:
    """The factor of a bomb of ``size`` cards left in hand (with a joker: ``soft``)."""
    if size == _MIN_BOMB and not rules.triples_are_bombs:
        return 1
    return bomb_factor(PlayType.THREE_BOMB if size == _MIN_BOMB else PlayType.FOUR_BOMB, soft, rules)


@cache
def _rank_bombs_factor(naturals: int, jokers: int, rules: Rules) -> int:
    """The largest product of factors of bombs (3 or 4 cards, at least one natural
    each) made of ``naturals`` cards of one rank and at most ``jokers`` jokers."""
    best = 1
    for size in (_MIN_BOMB, _MAX_BOMB):
        for wild in range(min(jokers, size - 1) + 1):
            if size - wild <= naturals:
                rest = _rank_bombs_factor(naturals - size + wild, jokers - wild, rules)
                best = max(best, _held_factor(size, wild > 0, rules) * rest)
    return best


def held_bombs_factor(counts: Sequence[int], rules: Rules) -> int:
    """The product of the factors of the bombs left in a hand (face ``counts``), split
    the way that gives the largest product (see the module docstring)."""
    ranks = [sum(counts[r * BITS_PER_RANK + s] for s in range(NUM_SUITS)) for r in range(NUM_RANKS)]
    if not rules.joker_bombs_in_hand:
        out = 1
        for c in ranks:
            out *= _rank_bombs_factor(c, 0, rules)
        return out
    black, red = counts[BLACK_JOKER_BIT], counts[RED_JOKER_BIT]
    # best[j]: the largest product over the ranks seen with at most j jokers standing in
    best = [1] * (black + red + 1)
    for r, c in enumerate(ranks):
        if not c:
            continue
        usable = len(best) - 1 if r != _TWO or rules.joker_as_two else 0
        best = [max(best[j - k] * _rank_bombs_factor(c, k, rules) for k in range(min(j, usable) + 1))
                for j in range(len(best))]
    # then as many double-joker bombs (a black and a red joker each) as pay best
    out, doubles = best[black + red], 1
    for pairs in range(1, min(black, red) + 1):
        doubles *= bomb_factor(PlayType.JOKER_BOMB, False, rules)
        out = max(out, doubles * best[black + red - 2 * pairs])
    return out


def own_multiplier(hand: Cards, rules: Rules) -> int:
    """A loser's own multiplier for the cards left in their hand."""
    counts = hand.counts()
    aces = sum(counts[_ACE * BITS_PER_RANK + s] for s in range(NUM_SUITS))
    out = 1
    if rules.ace_multiplier is not None:
        out *= rules.ace_multiplier**aces
    elif rules.multipliers:
        out *= HELD_FACTOR**aces
    if rules.multipliers:
        out *= HELD_FACTOR ** (counts[BLACK_JOKER_BIT] + counts[RED_JOKER_BIT])
        out *= held_bombs_factor(counts, rules)
    return out


def payment(hand: Cards, general: int, rules: Rules) -> int:
    """What a loser holding ``hand`` pays the winner (at most ``max_payment``)."""
    pay = len(hand) * general * own_multiplier(hand, rules)
    return pay if rules.max_payment is None else min(pay, rules.max_payment)


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
