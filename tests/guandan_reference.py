"""Brute-force reference for Guan Dan legal plays, built only on ``classify``.

The compiled generator (``chupai.guandan.legal_plays``) is checked against
:func:`reference_plays`, which knows nothing about generation: it takes sub-multisets
of the hand and asks :func:`chupai.guandan.classify.classify` what each one can be
declared as.

Which sub-multisets are enough
------------------------------
Call a hand's *natural* cards those that are neither wild (the level hearts) nor
jokers.  Every Guan Dan combination's natural cards lie within one of these rank sets:

* one rank: singles, pairs, triples, n-of-a-kind bombs (no natural cards at all for
  wild singles and pairs, joker singles and pairs, four jokers);
* two ranks: full houses (one rank when the pair is two wilds or two jokers), plates
  (two consecutive ranks);
* three consecutive ranks in natural order, ace low or high: tubes;
* five consecutive ranks, ace low or high: straights and straight flushes;

no combination has more than 10 cards, and a combination whose natural cards have
two or more ranks (full house, straight, straight flush, tube, plate) has 5 or 6 cards
and no joker (the joker pair of a full house goes with a triple of one rank).  So
:func:`reference_plays` enumerates exactly the sub-multisets whose natural cards'
ranks are a subset of one of those rank sets, each with any number of the wild cards
held: with natural cards of at most one rank, any subset of the jokers held and 1..10
cards in all; with two or more ranks, no joker and 5 or 6 cards.  Each such
sub-multiset is produced once (by its exact set of natural ranks), so no classify
call is repeated.  :func:`full_power_set_plays`
classifies literally every sub-multiset of a small hand; the tests check that both
agree on many hands, which shows that the pruning loses nothing.

Also here: :func:`collapse_key` (the suit-collapsed view of ``docs/rules/cards.md``),
:func:`random_hand` and :func:`random_dense_hand` (seeded hands).
"""
from __future__ import annotations

import random
from collections.abc import Iterable

import numpy as np

from chupai.core.records import BITS_PER_RANK, BLACK_JOKER_BIT, NUM_FACES, NUM_RANKS, NUM_SUITS, RED_JOKER_BIT, SUITS
from chupai.cards import Cards
from chupai.guandan.classify import MAX_PLAY_CARDS, _plays_of_masks
from chupai.guandan.play import Play, PlayType, make_level, wild_face, window_ranks
from chupai.guandan.rules import Rules

__all__ = [
    "collapse_key",
    "full_power_set_plays",
    "random_dense_hand",
    "random_hand",
    "reference_plays",
    "POWER_SET_MAX_CARDS",
]

#: the largest hand :func:`full_power_set_plays` accepts (2**12 sub-multisets at most)
POWER_SET_MAX_CARDS = 12
DECK_SIZE = 2 * NUM_FACES
#: the sizes of the combinations whose natural cards have two or more ranks
MULTI_RANK_MIN_CARDS, MULTI_RANK_MAX_CARDS = 5, 6

Masks = tuple[int, int, int]  # (lo, hi, number of cards) of a sub-multiset


def _sub_multisets(held: Iterable[tuple[int, int]], limit: int = MAX_PLAY_CARDS) -> list[Masks]:
    """Every sub-multiset of at most ``limit`` cards of faces held ``(face, copies)``, the
    empty one included, as two-deck masks."""
    out: list[Masks] = [(0, 0, 0)]
    for face, copies in held:
        b = 1 << face
        grown = []
        for lo, hi, n in out:
            grown.append((lo, hi, n))
            if copies >= 1 and n + 1 <= limit:
                grown.append((lo | b, hi, n + 1))
            if copies == 2 and n + 2 <= limit:
                grown.append((lo | b, hi | b, n + 2))
        out = grown
    return out


def _submasks(mask: int) -> Iterable[int]:
    """Every non-empty subset of a bit set."""
    sub = mask
    while sub:
        yield sub
        sub = (sub - 1) & mask


def _rank_sets(held: int) -> set[int]:
    """Every set of held ranks (as a bit set) that lies within one rank, two ranks, three
    or five consecutive ranks (natural order, ace low or high); the empty set included."""
    ranks = [r for r in range(NUM_RANKS) if held >> r & 1]
    sets = {0}
    sets.update(1 << r for r in ranks)
    sets.update((1 << a) | (1 << b) for i, a in enumerate(ranks) for b in ranks[i + 1 :])
    for width in (3, 5):
        for position in range(NUM_RANKS + 2 - width):
            window = sum(1 << r for r in window_ranks(position, width))
            sets.update(_submasks(window & held))
    return sets


def reference_plays(
    hand: Cards | str, level: str | int, previous: Play | None = None, rules: Rules | None = None
) -> set[Play]:
    """Every distinct play the hand can make (that beats ``previous``, when given).

    A brute force over ``classify`` (see the module docstring for which sub-multisets
    it visits and why that is enough).
    """
    cards = Cards(hand)
    level_index = make_level(level)
    rules = Rules() if rules is None else rules
    counts = cards.counts()
    wild = wild_face(level_index)

    # non-empty sub-multisets of each rank's natural cards
    by_rank: dict[int, list[Masks]] = {}
    for r in range(NUM_RANKS):
        faces = range(r * BITS_PER_RANK, r * BITS_PER_RANK + NUM_SUITS)
        natural = [(f, counts[f]) for f in faces if counts[f] and f != wild]
        if natural:
            by_rank[r] = _sub_multisets(natural)[1:]
    # added to the natural cards: any number of the wild cards held, and with natural
    # cards of at most one rank also any subset of the jokers held
    wilds = _sub_multisets([(wild, counts[wild])])
    wilds_and_jokers = _sub_multisets((f, counts[f]) for f in (wild, BLACK_JOKER_BIT, RED_JOKER_BIT))

    plays: set[Play] = set()
    for rank_set in _rank_sets(sum(1 << r for r in by_rank)):
        several_ranks = rank_set & (rank_set - 1) != 0
        low, high = (MULTI_RANK_MIN_CARDS, MULTI_RANK_MAX_CARDS) if several_ranks else (1, MAX_PLAY_CARDS)
        parts: list[Masks] = [(0, 0, 0)]
        for r in range(NUM_RANKS):
            if rank_set >> r & 1:
                parts = [
                    (lo | a, hi | b, n + m)
                    for lo, hi, n in parts
                    for a, b, m in by_rank[r]
                    if n + m <= high
                ]
        for lo, hi, n in parts:
            for e_lo, e_hi, e_n in wilds if several_ranks else wilds_and_jokers:
                if low <= n + e_n <= high:
                    plays.update(_plays_of_masks(lo | e_lo, hi | e_hi, level_index, rules))
    if previous is not None:
        plays = {p for p in plays if p.beats(previous)}
    return plays


def full_power_set_plays(hand: Cards | str, level: str | int, rules: Rules | None = None) -> set[Play]:
    """Every play of a small hand, by classifying literally every sub-multiset of it."""
    cards = Cards(hand)
    if len(cards) > POWER_SET_MAX_CARDS:
        raise ValueError(f"full_power_set_plays takes at most {POWER_SET_MAX_CARDS} cards, not {len(cards)}")
    level_index = make_level(level)
    rules = Rules() if rules is None else rules
    held = [(f, c) for f, c in enumerate(cards.counts()) if c]
    plays: set[Play] = set()
    for lo, hi, n in _sub_multisets(held, limit=len(cards)):
        if n:
            plays.update(_plays_of_masks(lo, hi, level_index, rules))
    return plays


def collapse_key(play: Play) -> tuple[PlayType, int, tuple[int, ...], str | None]:
    """The group of ``play`` in the suit-collapsed view of ``docs/rules/cards.md``.

    (type, key, counts, suit): ``counts`` holds the number of natural cards of each
    rank 2..A, then ``BJ``, ``RJ`` and the wild cards (which count apart from the other
    cards of their rank); ``suit`` is the flush suit of a straight flush, else None.
    """
    counts = play.cards.counts()
    wild = wild_face(make_level(play.level))
    per_rank = tuple(
        sum(counts[f] for f in range(r * BITS_PER_RANK, r * BITS_PER_RANK + NUM_SUITS) if f != wild)
        for r in range(NUM_RANKS)
    )
    suit = None
    if play.type == PlayType.STRAIGHT_FLUSH:
        suit = SUITS[next(play.declared.faces()) % BITS_PER_RANK]
    return (play.type, play.key, per_rank + (counts[BLACK_JOKER_BIT], counts[RED_JOKER_BIT], counts[wild]), suit)


Rng = random.Random | np.random.Generator | int


def _as_rng(rng: Rng) -> random.Random | np.random.Generator:
    """A random.Random or numpy Generator; an int is a seed for a random.Random."""
    if isinstance(rng, (random.Random, np.random.Generator)):
        return rng
    if isinstance(rng, int) and not isinstance(rng, bool):
        return random.Random(rng)
    raise ValueError(f"rng must be a random.Random, a numpy Generator or an int seed, not {rng!r}")


def _draw(rng: random.Random | np.random.Generator, population: int, n: int) -> list[int]:
    """``n`` distinct indexes below ``population``."""
    if not 0 <= n <= population:
        raise ValueError(f"cannot draw {n} cards from {population}")
    if isinstance(rng, np.random.Generator):
        return [int(i) for i in rng.choice(population, size=n, replace=False)]
    return rng.sample(range(population), n)


def random_hand(rng: Rng, n: int) -> Cards:
    """``n`` cards drawn without replacement from the 108-card double deck."""
    counts = [0] * NUM_FACES
    for card in _draw(_as_rng(rng), DECK_SIZE, n):
        counts[card % NUM_FACES] += 1
    return Cards.from_counts(counts)


def random_dense_hand(rng: Rng, n: int, level: str | int, width: int = 5) -> Cards:
    """``n`` cards drawn from a small pool rich in combinations: both copies of every
    card of ``width`` consecutive ranks (a random window, ace low or high), the two wild
    cards of ``level`` and the four jokers."""
    rng = _as_rng(rng)
    start = _draw(rng, NUM_RANKS + 2 - width, 1)[0]
    faces = {r * BITS_PER_RANK + s for r in window_ranks(start, width) for s in range(NUM_SUITS)}
    faces |= {wild_face(make_level(level)), BLACK_JOKER_BIT, RED_JOKER_BIT}
    pool = sorted(faces) * 2
    counts = [0] * NUM_FACES
    for i in _draw(rng, len(pool), n):
        counts[pool[i]] += 1
    return Cards.from_counts(counts)
