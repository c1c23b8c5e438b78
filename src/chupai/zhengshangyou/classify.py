"""Zheng Shangyou recognition: every play that a given set of cards can be declared as.

This is the second, independent path of ``docs/design.md`` ("Move generators"): it shares no logic with the
compiled generator.  It looks at the given cards (the natural cards of each rank 3..A
with their suits, the 2s, the jokers) and decides which types, shapes and keys of
``docs/rules/zhengshangyou.md`` they form, so that generator and recognizer can check each
other (the tests compare ``legal_plays`` with a brute force over ``classify``).

The plays are built with exactly the record encoding of
:mod:`chupai.zhengshangyou.play` (type codes, key, multiplicity, canonical
declaration: see that module's docstring).

>>> [str(p) for p in classify("7S 2D 2C")]
['triple 7 impure: 2C(=7H) 2D(=7C) 7S']
>>> [str(p) for p in classify("BJ 2S AS AD KS KD")]
['double sequence Q-A impure: 2S(=QS) KS KD AS AD BJ(=QH)']
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from chupai.core.records import BITS_PER_RANK, BLACK_JOKER_BIT, NUM_RANKS, NUM_SUITS, RED_JOKER_BIT
from chupai.core.interchange import entry_cards, select_play
from chupai.core.validate import check_rules
from chupai.cards import Cards
from chupai.zhengshangyou.play import (
    BLACK_JOKER_VALUE,
    JOKER_PAIR_VALUE,
    RED_JOKER_VALUE,
    TWO_VALUE,
    Play,
    PlayType,
    make_key,
)
from chupai.zhengshangyou.rules import Rules

__all__ = ["MAX_MULTIPLICITY", "MAX_SET", "MIN_SEQUENCE", "classify", "from_protocol"]

#: sets have 2..MAX_SET cards; sequences at least MIN_SEQUENCE ranks
MAX_SET = 4
MIN_SEQUENCE = 3
MAX_MULTIPLICITY = 4
#: the ranks that sequences use: 3 .. A (rank indexes 1 .. 12)
SEQUENCE_RANKS = range(1, NUM_RANKS)
_SPADES = 0

# one reading: (type, key, multiplicity, declared faces in the order of the wild faces)
Reading = tuple[int, int, int, tuple[int, ...]]


def _face(rank: int, suit: int) -> int:
    return rank * BITS_PER_RANK + suit


def _missing_suits(held: list[int]) -> list[int]:
    return [s for s in range(NUM_SUITS) if s not in held]


def _sets(n: int, natural: dict[int, list[int]], twos: list[int], jokers: list[int], rules: Rules) -> list[Reading]:
    """Sets of 2..4 cards: one rank 3..A with 2s and jokers standing in, 2s with jokers,
    or the pair of jokers."""
    if not 2 <= n <= MAX_SET or len(natural) > 1:
        return []
    if natural:
        ((rank, suits),) = natural.items()
        wild_faces = [_face(0, s) for s in twos] + jokers
        decl = tuple(_face(rank, s) for s in _missing_suits(suits)[: len(wild_faces)])
        return [(PlayType.SET, make_key(rank - 1, not wild_faces), n, decl)]
    if twos:
        decl = tuple(_face(0, s) for s in _missing_suits(twos)[: len(jokers)])
        return [(PlayType.SET, make_key(TWO_VALUE, not jokers), n, decl)]
    if rules.joker_pair and n == 2:
        return [(PlayType.SET, make_key(JOKER_PAIR_VALUE, True), 2, ())]
    return []


def _single_sequences(n: int, natural: dict[int, list[int]], twos: list[int], jokers: list[int]) -> list[Reading]:
    """One card of each of n consecutive ranks 3..A, jokers standing in for any of them."""
    if n < MIN_SEQUENCE or twos or any(len(s) > 1 for s in natural.values()):
        return []
    suits = {s[0] for s in natural.values()}
    suited = len(suits) == 1
    suit = suits.pop() if suited else _SPADES
    out: list[tuple[int, int, int, tuple[int, ...]]] = []
    for low in SEQUENCE_RANKS:
        window = range(low, low + n)
        if window[-1] not in SEQUENCE_RANKS:
            break
        if any(r not in window for r in natural):
            continue
        gaps = [r for r in window if r not in natural]  # as many as jokers
        decl = tuple(_face(r, suit) for r in gaps)
        out.append((PlayType.SEQUENCE, make_key(window[-1] - 1, not jokers, suited), 1, decl))
    return out


def _multi_sequences(n: int, natural: dict[int, list[int]], twos: list[int], jokers: list[int]) -> list[Reading]:
    """m cards of each of at least three consecutive ranks 3..A; 2s (at most one a rank)
    and jokers stand in; each rank keeps a natural card or a joker."""
    out: list[tuple[int, int, int, tuple[int, ...]]] = []
    for m in range(2, MAX_MULTIPLICITY + 1):
        if n % m or n // m < MIN_SEQUENCE:
            continue
        width = n // m
        if any(len(s) > m for s in natural.values()):
            continue
        for low in SEQUENCE_RANKS:
            window = range(low, low + width)
            if window[-1] not in SEQUENCE_RANKS:
                break
            if any(r not in window for r in natural):
                continue
            short = {r: m - len(natural.get(r, [])) for r in window}
            # a 2 may fill one place of a rank, but never the last one of a rank that
            # has no natural card (that rank needs a joker)
            room_for_twos = sum(
                min(1, d - (0 if natural.get(r) else 1)) for r, d in short.items() if d > 0
            )
            if len(twos) > room_for_twos:
                continue
            out.append((PlayType.MULTI_SEQUENCE, make_key(window[-1] - 1, not (twos or jokers)), m,
                        _multi_declaration(window, m, natural, twos, jokers)))
    return out


def _multi_declaration(
    window: range, m: int, natural: dict[int, list[int]], twos: list[int], jokers: list[int]
) -> tuple[int, ...]:
    """The canonical declaration: 2s one each to the short ranks from the lowest, jokers
    filling the rest from the lowest rank; each takes the lowest suit its rank lacks."""
    lacking = {r: _missing_suits(natural.get(r, [])) for r in window}
    need = {r: m - len(natural.get(r, [])) for r in window}
    decl = []
    for r in [r for r in window if need[r] > 0][: len(twos)]:
        decl.append(_face(r, lacking[r].pop(0)))
        need[r] -= 1
    for _ in jokers:
        r = next(r for r in window if need[r] > 0)
        decl.append(_face(r, lacking[r].pop(0)))
        need[r] -= 1
    return tuple(decl)


def _readings(lo: int, rules: Rules) -> list[Reading]:
    """Every reading of the one-deck cards ``lo`` (a face mask)."""
    n = lo.bit_count()
    if n == 0:
        return []
    natural: dict[int, list[int]] = {}
    for r in SEQUENCE_RANKS:
        suits = [s for s in range(NUM_SUITS) if lo >> _face(r, s) & 1]
        if suits:
            natural[r] = suits
    twos = [s for s in range(NUM_SUITS) if lo >> _face(0, s) & 1]
    jokers = [f for f in (BLACK_JOKER_BIT, RED_JOKER_BIT) if lo >> f & 1]
    if n == 1:
        if jokers:
            value = BLACK_JOKER_VALUE if jokers[0] == BLACK_JOKER_BIT else RED_JOKER_VALUE
        elif twos:
            value = TWO_VALUE
        else:
            value = next(iter(natural)) - 1
        return [(PlayType.SINGLE, make_key(value, True), 1, ())]
    return (
        _sets(n, natural, twos, jokers, rules)
        + _single_sequences(n, natural, twos, jokers)
        + _multi_sequences(n, natural, twos, jokers)
    )


def _plays_of_mask(lo: int, rules: Rules) -> list[Play]:
    """:func:`classify` on a one-deck face mask (no checks)."""
    n = lo.bit_count()
    found = sorted(_readings(lo, rules), key=lambda r: (r[0], r[2], r[1]))
    return [Play._from_record(lo, 0, int(t), key, n, m, bytes(decl), None) for t, key, m, decl in found]


def classify(cards: Cards | str, *, rules: Rules | None = None) -> list[Play]:
    """Every play these exact cards can be declared as (``docs/rules/zhengshangyou.md``).

    ``cards`` is a one-deck :class:`~chupai.cards.Cards` or a card string.  The plays
    are distinct (by the identity of ``docs/rules/cards.md``) and sorted by type, then
    multiplicity, then key; ``[]`` if the cards form no play.  ``ValueError`` names a
    bad card token or a card given twice.

    >>> [str(p) for p in classify("9S 9D BJ")]
    ['triple 9 impure: 9S 9D BJ(=9H)']
    >>> [p.rank for p in classify("BJ RJ")], classify("BJ RJ", rules=Rules(joker_pair=False))
    (['JOKER'], [])
    """
    rules = check_rules(rules, Rules, "zhengshangyou")
    cards = Cards(cards, decks=1)
    return _plays_of_mask(cards.lo, rules)


def from_protocol(obj: Sequence[Any], *, rules: Rules | None = None) -> Play:
    """The play an entry ``[type, rank, cards]`` of :meth:`Play.to_protocol` names.

    ``ValueError`` if it is malformed (see :mod:`chupai.core.interchange`) or its cards
    cannot be that play under ``rules``.
    """

    return select_play(obj, classify(entry_cards(obj), rules=rules), "Zheng Shangyou")
