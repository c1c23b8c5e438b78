"""Gan Deng Yan recognition: every play that a given set of cards can be declared as.

The second, independent path of ``docs/design.md`` ("Move generators"): it shares no logic with the compiled
generator.  It looks at the counts of the given cards (natural cards per rank, black and
red jokers) and decides which types and keys of ``docs/rules/gandengyan.md`` they form, so
that generator and recognizer check each other (the tests compare ``legal_plays`` with
a brute force over ``classify``).  The plays use exactly the record encoding of
:mod:`chupai.gandengyan.play`.

Jokers alone are the double-joker bomb, or the lone joker (two identical jokers with
two decks) that a player may lead only as their last cards: ``classify`` lists that
play for those cards (unless ``joker_lead_out=False``), and whether it is legal depends
on the hand it is led from (see ``legal_plays``).

>>> [str(p) for p in classify("9S 9D BJ")]
['three bomb 9: 9S 9D BJ(=9)']
>>> classify("2S BJ", rules=Rules(joker_as_two=False))
[]
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chupai.core.records import (
    BITS_PER_RANK,
    BLACK_JOKER_BIT,
    NUM_RANKS,
    NUM_SUITS,
    RED_JOKER_BIT,
    SUITS,
)
from chupai.core.interchange import entry_cards, select_play
from chupai.core.validate import check_rules
from chupai.cards import Cards
from chupai.gandengyan.play import (
    BOMB_CLASS,
    JOKER_VALUE,
    Play,
    PlayType,
    value_of_rank,
)
from chupai.gandengyan.rules import Rules

__all__ = ["MAX_PLAY_CARDS", "classify", "from_protocol"]

_SPADE = SUITS.index("S")
_TWO = 0
_LOWEST_RUN_RANK = 1  # the 3
_HIGHEST_RUN_RANK = NUM_RANKS - 1  # the ace
#: the largest play: a triple sequence of 3..A
MAX_PLAY_CARDS = 3 * (_HIGHEST_RUN_RANK - _LOWEST_RUN_RANK + 1)

#: one rank's n cards: the type of the play (a triple by the rules)
_SAME_RANK = {1: PlayType.SINGLE, 2: PlayType.PAIR, 4: PlayType.FOUR_BOMB}

#: (type, cards per rank, least ranks) of the sequence types
_RUNS = (
    (PlayType.SEQUENCE, 1, 3),
    (PlayType.DOUBLE_SEQUENCE, 2, 2),
    (PlayType.TRIPLE_SEQUENCE, 3, 2),
)

#: the readings of some cards: (type, key) -> the ranks the jokers stand for (ascending)
Readings = dict[tuple[PlayType, int], tuple[int, ...]]


def _recognize(rank_counts: Sequence[int], black: int, red: int, rules: Rules) -> Readings:
    """Every (type, key) that ``rank_counts[r]`` natural cards of each rank ``r`` and
    ``black`` + ``red`` jokers form, with the ranks the jokers stand for."""
    jokers = black + red
    n = sum(rank_counts) + jokers
    ranks = [r for r in range(NUM_RANKS) if rank_counts[r]]
    found: Readings = {}
    if not ranks:
        if black == 1 and red == 1:
            found[(PlayType.JOKER_BOMB, 0)] = ()
        elif rules.joker_lead_out and n in (1, 2) and (black == n or red == n):
            found[(PlayType.SINGLE if n == 1 else PlayType.PAIR, JOKER_VALUE)] = ()
        return found
    if len(ranks) == 1:
        rank = ranks[0]
        if jokers == 0 or rank != _TWO or rules.joker_as_two:
            if n == 3:
                found[(PlayType.THREE_BOMB if rules.triples_are_bombs else PlayType.TRIPLE, value_of_rank(rank))] = (
                    rank,
                ) * jokers
            elif n in _SAME_RANK:
                found[(_SAME_RANK[n], value_of_rank(rank))] = (rank,) * jokers
    if _TWO in ranks:
        return found  # 2s are never part of a sequence
    low, high = ranks[0], ranks[-1]
    for type_, width, least in _RUNS:
        if type_ == PlayType.TRIPLE_SEQUENCE and not rules.triple_sequences:
            continue
        if n % width or any(rank_counts[r] > width for r in ranks):
            continue
        length = n // width
        most = _HIGHEST_RUN_RANK if type_ == PlayType.TRIPLE_SEQUENCE else rules._max_ranks
        if not least <= length <= most:
            continue
        # every window of `length` ranks within 3..A that holds all the natural ranks
        for top in range(max(high, _LOWEST_RUN_RANK + length - 1), min(low + length - 1, _HIGHEST_RUN_RANK) + 1):
            window = range(top - length + 1, top + 1)
            found[(type_, top)] = tuple(r for r in window for _ in range(width - rank_counts[r]))
    return found


def _shape_of_masks(lo: int, hi: int) -> tuple[list[int], int, int]:
    """(natural cards per rank, black jokers, red jokers) of two-deck masks."""
    counts = [0] * NUM_RANKS
    for r in range(NUM_RANKS):
        for s in range(NUM_SUITS):
            face = r * BITS_PER_RANK + s
            counts[r] += (lo >> face & 1) + (hi >> face & 1)
    black = (lo >> BLACK_JOKER_BIT & 1) + (hi >> BLACK_JOKER_BIT & 1)
    red = (lo >> RED_JOKER_BIT & 1) + (hi >> RED_JOKER_BIT & 1)
    return counts, black, red


def _plays_of_masks(lo: int, hi: int, rules: Rules) -> list[Play]:
    """:func:`classify` on the core's two-deck masks (no checks)."""
    n = lo.bit_count() + hi.bit_count()
    if not 0 < n <= MAX_PLAY_CARDS:
        return []
    found = _recognize(*_shape_of_masks(lo, hi), rules)
    return [
        Play._from_record(
            lo,
            hi,
            int(type_),
            key,
            n,
            BOMB_CLASS.get(type_, 0),
            bytes(r * BITS_PER_RANK + _SPADE for r in decl),
            None,
        )
        for (type_, key), decl in sorted(found.items())
    ]


def classify(cards: Cards | str, *, rules: Rules | None = None) -> list[Play]:
    """Every play these exact cards can be declared as (``docs/rules/gandengyan.md``), ``[]`` if none.

    ``cards`` is a :class:`~chupai.cards.Cards` or a card string.  The plays are distinct
    (by the identity of ``docs/rules/cards.md``) and sorted by type, then key.  ``ValueError``
    names a bad card token or a card held more often than ``rules.decks`` allows.

    >>> [str(p) for p in classify("BJ RJ 5S")]
    ['sequence 3-5: 5S BJ(=3) RJ(=4)', 'sequence 4-6: 5S BJ(=4) RJ(=6)', 'sequence 5-7: 5S BJ(=6) RJ(=7)', 'three bomb 5: 5S BJ(=5) RJ(=5)']
    """
    rules = check_rules(rules, Rules, "gandengyan")
    if not isinstance(cards, Cards):
        cards = Cards(cards, decks=rules.decks)
    if len(cards.layers) > rules.decks:
        raise ValueError(f"{cards} holds a card more than {rules.decks} time(s); the rules use {rules.decks} deck(s)")
    return _plays_of_masks(cards.lo, cards.hi, rules)


def from_protocol(obj: Sequence[Any], *, rules: Rules | None = None) -> Play:
    """The play an entry ``[type, rank, cards]`` of :meth:`Play.to_protocol` names.

    ``ValueError`` if it is malformed (see :mod:`chupai.core.interchange`) or its cards
    cannot be that play under ``rules``.
    """

    return select_play(obj, classify(entry_cards(obj), rules=rules), "Gan Deng Yan")
