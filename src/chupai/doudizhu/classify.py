"""Dou Dizhu recognition: every play that a given set of cards can be read as.

The second, independent path of ``docs/design.md`` ("Move generators"): it shares no
logic with the compiled generator.  It looks at the number of cards of each value
(3..A, 2, BJ, RJ) and decides which types and keys of ``docs/rules/doudizhu.md`` they
form, so that generator and recognizer check each other (the tests compare
``legal_plays`` with a brute force over ``classify``).  The plays use exactly the record
encoding of :mod:`chupai.doudizhu.play`.

One condition depends on the hand and not on the cards played: without
``kicker_splits_bomb`` a kicker may not come from a rank of which the hand holds four.
``classify`` reads the cards alone (as if that rank were not held four times);
:func:`kicker_values` names the kickers a hand must be checked for.

>>> [str(p) for p in classify("5S 5H 5C 5D")]
['bomb 5: 5S 5H 5C 5D']
>>> [str(p) for p in classify("5S 5H 5C 5D", rules=Rules(kicker_trio_rank=True))]
['trio 5 with a single: 5S 5H 5C 5D', 'bomb 5: 5S 5H 5C 5D']
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chupai.core.interchange import entry_cards, select_play
from chupai.core.validate import check_rules
from chupai.cards import Cards
from chupai.doudizhu.play import (
    ACE_VALUE,
    BLACK_JOKER_VALUE,
    BOMB_CLASS,
    CHAIN_WIDTH,
    RED_JOKER_VALUE,
    ROCKET_CLASS,
    TWO_VALUE,
    Play,
    PlayType,
    value_of_face,
)
from chupai.doudizhu.rules import Rules

__all__ = ["classify", "from_protocol", "kicker_values", "value_counts"]

_N_VALUES = RED_JOKER_VALUE + 1
_FACES = 54
#: (type, cards per rank, least ranks) of the chains without kickers
_CHAINS = (
    (PlayType.STRAIGHT, 1, 5),
    (PlayType.PAIR_SEQUENCE, 2, 3),
    (PlayType.AIRPLANE, 3, 2),
)
_LEAST_TRIOS = 2

#: one reading of some cards: (type, key)
Reading = tuple[PlayType, int]


def value_counts(lo: int) -> list[int]:
    """The cards of each value 0..14 in a one-deck mask."""
    counts = [0] * _N_VALUES
    for face in range(_FACES):
        if lo >> face & 1:
            counts[value_of_face(face)] += 1
    return counts


def _kickers_ok(rest: Sequence[int], per: int, rules: Rules) -> bool:
    """Whether ``rest`` (cards of each value) are single kickers: at most ``per`` of a
    value, and not both jokers unless ``kicker_rocket``."""
    if any(n > per for n in rest):
        return False
    return rules.kicker_rocket or not (rest[BLACK_JOKER_VALUE] and rest[RED_JOKER_VALUE])


def _kicker_pairs(rest: Sequence[int], need: int) -> bool:
    """Whether ``rest`` is exactly ``need`` pairs of distinct values."""
    return all(n in (0, 2) for n in rest) and sum(rest) == 2 * need


def _recognize(c: Sequence[int], rules: Rules) -> list[Reading]:
    """Every (type, key) that ``c[v]`` cards of each value ``v`` form."""
    n = sum(c)
    held = [v for v in range(_N_VALUES) if c[v]]
    found: list[Reading] = []
    if n == 0:
        return found
    if len(held) == 1:
        v = held[0]
        same = {1: PlayType.SINGLE, 2: PlayType.PAIR, 3: PlayType.TRIO, 4: PlayType.BOMB}
        found.append((same[n], v))
    if n == 2 and held == [BLACK_JOKER_VALUE, RED_JOKER_VALUE]:
        found.append((PlayType.ROCKET, RED_JOKER_VALUE))
    # chains of width cards per rank: exactly the ranks held, consecutive within 3..A
    lo, hi = held[0], held[-1]
    for type_, width, least in _CHAINS:
        if hi <= ACE_VALUE and all(c[v] == width for v in range(lo, hi + 1)) and hi - lo + 1 >= least:
            found.append((type_, hi))
    # a trio with a single or a pair
    for t in range(TWO_VALUE + 1):
        if c[t] < 3:
            continue
        rest = list(c)
        rest[t] -= 3
        if n == 4 and (rest[t] == 0 or rules.kicker_trio_rank) and _kickers_ok(rest, 1, rules):
            found.append((PlayType.TRIO_SINGLE, t))
        if n == 5 and rest[t] == 0 and _kicker_pairs(rest, 1):
            found.append((PlayType.TRIO_PAIR, t))
    # airplanes with kickers: m trios top..top-m+1 and m singles or m pairs
    for m, kind in ((n // 4, PlayType.AIRPLANE_SINGLES), (n // 5, PlayType.AIRPLANE_PAIRS)):
        if m < _LEAST_TRIOS or n != CHAIN_WIDTH[kind] * m:
            continue
        for top in range(m - 1, ACE_VALUE + 1):
            window = range(top - m + 1, top + 1)
            if any(c[v] < 3 for v in window):
                continue
            rest = list(c)
            for v in window:
                rest[v] -= 3
            if kind == PlayType.AIRPLANE_PAIRS:
                if all(rest[v] == 0 for v in window) and _kicker_pairs(rest, m):
                    found.append((kind, top))
            elif (rules.kicker_trio_rank or all(rest[v] == 0 for v in window)) and _kickers_ok(
                rest, m if rules.airplane_repeat_kickers else 1, rules
            ):
                found.append((kind, top))
    # four with two
    if rules.four_with_two:
        for f in range(TWO_VALUE + 1):
            if c[f] != 4:
                continue
            rest = list(c)
            rest[f] = 0
            if n == 6 and _kickers_ok(rest, 2 if rules.four_two_pair else 1, rules):
                found.append((PlayType.FOUR_TWO_SINGLES, f))
            if n == 8 and _kicker_pairs(rest, 2):
                found.append((PlayType.FOUR_TWO_PAIRS, f))
    return sorted(found)


_CLASS = {PlayType.BOMB: BOMB_CLASS, PlayType.ROCKET: ROCKET_CLASS}


def _plays_of_mask(lo: int, rules: Rules) -> list[Play]:
    """:func:`classify` on a one-deck mask (no checks)."""
    n = lo.bit_count()
    return [
        Play._from_record(lo, 0, int(t), key, n, _CLASS.get(t, 0), b"", None)
        for t, key in _recognize(value_counts(lo), rules)
    ]


def kicker_values(play: Play) -> list[int]:
    """The values of a play's kicker cards, each once, ascending (``[]`` if it has none)."""
    t = PlayType(play.type)
    c = value_counts(play.cards.lo)
    if t in (PlayType.TRIO_SINGLE, PlayType.TRIO_PAIR):
        core = [play.key]
        take = 3
    elif t in (PlayType.AIRPLANE_SINGLES, PlayType.AIRPLANE_PAIRS):
        core = list(range(play.key - play.length // CHAIN_WIDTH[t] + 1, play.key + 1))
        take = 3
    elif t in (PlayType.FOUR_TWO_SINGLES, PlayType.FOUR_TWO_PAIRS):
        core = [play.key]
        take = 4
    else:
        return []
    return [v for v in range(_N_VALUES) if c[v] > (take if v in core else 0)]


def classify(cards: Cards | str, *, rules: Rules | None = None) -> list[Play]:
    """Every play these exact cards can be read as (``docs/rules/doudizhu.md``), ``[]`` if none.

    ``cards`` is a one-deck :class:`~chupai.cards.Cards` or a card string.  The plays are
    distinct (by the identity of ``docs/rules/cards.md``) and sorted by type, then key.
    ``ValueError`` names a bad card token or a card given twice.

    >>> [str(p) for p in classify("3S 3H 3C 4S 4H 4C 5S 5H 5C 6S 6H 6C", rules=Rules(airplane_repeat_kickers=True))]
    ['airplane 3-6: 3S 3H 3C 4S 4H 4C 5S 5H 5C 6S 6H 6C', 'airplane 3-5 with singles: 3S 3H 3C 4S 4H 4C 5S 5H 5C 6S 6H 6C', 'airplane 4-6 with singles: 3S 3H 3C 4S 4H 4C 5S 5H 5C 6S 6H 6C']
    """
    rules = check_rules(rules, Rules, "doudizhu")
    if not isinstance(cards, Cards):
        cards = Cards(cards)
    if cards.hi:
        raise ValueError(f"{cards} holds a card twice; Dou Dizhu is played with one deck")
    return _plays_of_mask(cards.lo, rules)


def from_protocol(obj: Sequence[Any], *, rules: Rules | None = None) -> Play:
    """The play an entry ``[type, rank, cards]`` of :meth:`Play.to_protocol` names.

    ``ValueError`` if it is malformed (see :mod:`chupai.core.interchange`) or its cards
    cannot be that play under ``rules``.
    """

    return select_play(obj, classify(entry_cards(obj), rules=rules), "Dou Dizhu")
