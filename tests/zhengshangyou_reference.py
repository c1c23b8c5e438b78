"""Brute-force reference for Zheng Shangyou legal plays, built only on ``classify``.

The compiled generator (``chupai.zhengshangyou.legal_plays``) is checked against
:func:`reference_plays`, which knows nothing about generation: it takes subsets of the
hand and asks :func:`chupai.zhengshangyou.classify.classify` what each one can be
declared as.

Which subsets are enough
------------------------
Call a hand's *natural* cards those of ranks 3..A, its *wild* cards the 2s and the
jokers.  Every combination of ``docs/rules/zhengshangyou.md`` is one of:

* a single or a set: at most 4 cards, natural cards of at most one rank;
* a single sequence: no 2s, at most one natural card of each rank, the natural ranks
  spanning no more ranks than there are cards (the jokers fill the gaps), so the gaps
  between natural ranks number at most the jokers;
* a multiple sequence of ``m`` (2..4) cards a rank over a window of ``w >= 3``
  consecutive ranks 3..A: at most ``m`` natural cards of each rank of the window and
  none outside it, and wild cards making up the ``m * w`` cards.

:func:`reference_plays` visits every subset of those forms (a superset of the plays:
classify rejects the rest, e.g. two 2s for one rank) and collects classify's
readings.  :func:`full_power_set_plays` classifies literally every subset of a small
hand; the tests check both agree on many hands, which shows that the pruning loses
nothing.

Also here: :func:`collapse_key` (the suit-collapsed view of ``docs/rules/cards.md``) and
:func:`random_deal` (seeded deals for 2..8 players).
"""
from __future__ import annotations

import itertools
import random

from chupai.core.records import BITS_PER_RANK, BLACK_JOKER_BIT, NUM_FACES, NUM_RANKS, NUM_SUITS, RED_JOKER_BIT
from chupai.cards import Cards
from chupai.zhengshangyou import Play, PlayType, Rules
from chupai.zhengshangyou.classify import MAX_MULTIPLICITY, MAX_SET, MIN_SEQUENCE, _plays_of_mask

__all__ = ["POWER_SET_MAX_CARDS", "collapse_key", "full_power_set_plays", "random_deal", "reference_plays"]

POWER_SET_MAX_CARDS = 12
SEQUENCE_RANKS = range(1, NUM_RANKS)  # 3..A


def _subsets(faces: list[int], sizes: range | None = None) -> list[int]:
    """Every subset of ``faces`` as a mask (of the given sizes, default all)."""
    out = []
    for k in sizes if sizes is not None else range(len(faces) + 1):
        for combo in itertools.combinations(faces, k):
            out.append(sum(1 << f for f in combo))
    return out


def _faces_of_rank(lo: int, r: int) -> list[int]:
    return [f for f in range(r * BITS_PER_RANK, r * BITS_PER_RANK + NUM_SUITS) if lo >> f & 1]


def _candidates(lo: int) -> set[int]:
    """The subsets of the hand ``lo`` that can be plays (see the module docstring)."""
    natural = {r: _faces_of_rank(lo, r) for r in SEQUENCE_RANKS}
    twos = _faces_of_rank(lo, 0)
    jokers = [f for f in (BLACK_JOKER_BIT, RED_JOKER_BIT) if lo >> f & 1]
    wild_sets = _subsets(twos + jokers)
    joker_sets = _subsets(jokers)
    out: set[int] = set()
    # singles and sets
    for w in wild_sets:
        if 1 <= w.bit_count() <= MAX_SET:
            out.add(w)
    for r in SEQUENCE_RANKS:
        for nat in _subsets(natural[r], range(1, MAX_SET + 1)):
            for w in wild_sets:
                if nat.bit_count() + w.bit_count() <= MAX_SET:
                    out.add(nat | w)

    # single sequences: a first natural rank, then one card or a gap at each rank above
    def extend(r: int, chosen: int, gaps: int, pending: int) -> None:
        for j in joker_sets:
            if (chosen | j).bit_count() >= MIN_SEQUENCE:
                out.add(chosen | j)
        if r not in SEQUENCE_RANKS:
            return
        for f in natural[r]:
            extend(r + 1, chosen | 1 << f, gaps + pending, 0)
        if gaps + pending + 1 <= len(jokers):
            extend(r + 1, chosen, gaps, pending + 1)

    for start in SEQUENCE_RANKS:
        for f in natural[start]:
            extend(start + 1, 1 << f, 0, 0)
    # multiple sequences
    wild = twos + jokers
    for m in range(2, MAX_MULTIPLICITY + 1):
        for low in SEQUENCE_RANKS:
            for high in range(low + MIN_SEQUENCE - 1, NUM_RANKS):
                window = range(low, high + 1)
                partial = [(0, 0)]  # (natural cards, cards short)
                for r in window:
                    grown = []
                    for nat, short in partial:
                        for sub in _subsets(natural[r], range(min(m, len(natural[r])) + 1)):
                            s = short + m - sub.bit_count()
                            if s <= len(wild):
                                grown.append((nat | sub, s))
                    partial = grown
                for nat, short in partial:
                    for w in _subsets(wild, range(short, short + 1)):
                        out.add(nat | w)
    return out


def reference_plays(hand: Cards | str, previous: Play | None = None, rules: Rules | None = None) -> set[Play]:
    """Every distinct play the hand can make (that beats ``previous``, when given)."""
    lo = Cards(hand, decks=1).lo
    rules = Rules() if rules is None else rules
    plays: set[Play] = set()
    for sub in _candidates(lo):
        plays.update(_plays_of_mask(sub, rules))
    if previous is not None:
        plays = {p for p in plays if p.beats(previous)}
    return plays


def full_power_set_plays(hand: Cards | str, rules: Rules | None = None) -> set[Play]:
    """Every play of a small hand, by classifying literally every subset of it."""
    cards = Cards(hand, decks=1)
    if len(cards) > POWER_SET_MAX_CARDS:
        raise ValueError(f"full_power_set_plays takes at most {POWER_SET_MAX_CARDS} cards, not {len(cards)}")
    rules = Rules() if rules is None else rules
    plays: set[Play] = set()
    for sub in _subsets(list(cards.faces())):
        plays.update(_plays_of_mask(sub, rules))
    return plays


def collapse_key(play: Play) -> tuple:
    """The group of ``play`` in the suit-collapsed view of ``docs/rules/cards.md``:
    (type, multiplicity, key, cards of each rank 2..A then BJ and RJ, suit of a suited
    sequence or None)."""
    counts = play.cards.counts()
    per_rank = tuple(sum(counts[r * BITS_PER_RANK : (r + 1) * BITS_PER_RANK]) for r in range(NUM_RANKS))
    suit = None
    if play.type == PlayType.SEQUENCE and play.suited:
        suit = next(f for f in play.cards.faces() if f < BLACK_JOKER_BIT) % BITS_PER_RANK
    return (play.type, play.multiplicity, play.key, per_rank + (counts[BLACK_JOKER_BIT], counts[RED_JOKER_BIT]), suit)


def random_deal(rng: random.Random, players: int, dealer: int = 0) -> list[Cards]:
    """The 54 cards shuffled and dealt one at a time from ``dealer``: one hand a seat."""
    deck = list(range(NUM_FACES))
    rng.shuffle(deck)
    masks = [0] * players
    for i, f in enumerate(deck):
        masks[(dealer + i) % players] |= 1 << f
    return [Cards.from_masks(m) for m in masks]
