"""Brute-force reference for Dou Dizhu legal plays, built only on ``classify``.

The compiled generator (``chupai.doudizhu.legal_plays``) is checked against two paths
that know nothing about generation:

* :func:`reference_plays`: every subset of the hand's cards, each asked of
  :func:`chupai.doudizhu.classify.classify` (its mask form) what it reads as; the one
  condition that depends on the rest of the hand (without ``kicker_splits_bomb`` no
  kicker comes from a rank the hand holds four times) is applied with
  :func:`~chupai.doudizhu.classify.kicker_values`.  Following, the plays are those that
  ``Play.beats`` the play to beat.
* :func:`reference_collapsed`: the same over the *count* vectors of the sub-multisets
  (each read with the lowest suits the hand holds of each rank, the collapsed view of
  ``docs/rules/cards.md``), for hands too large to enumerate card by card.
"""
from __future__ import annotations

import itertools
import random

from chupai.core.records import BITS_PER_RANK, BLACK_JOKER_BIT, RED_JOKER_BIT
from chupai.doudizhu.classify import _plays_of_mask, _recognize, kicker_values, value_counts
from chupai.doudizhu.play import CHAIN_WIDTH, Play, PlayType
from chupai.doudizhu.rules import Rules

__all__ = ["REFERENCE_MAX_CARDS", "Key", "dense_hand", "key", "reference_collapsed", "reference_plays"]

#: the largest hand :func:`reference_plays` accepts (2**13 subsets)
REFERENCE_MAX_CARDS = 13

#: a play's identity: cards (one-deck mask), type, key, length, bomb class
Key = tuple[int, int, int, int, int]


def key(play: Play) -> Key:
    return (play.cards.lo, int(play.type), play.key, play.length, play.bomb_class)


def _faces(lo: int) -> list[int]:
    return [f for f in range(54) if lo >> f & 1]


def _core_values(play: Play) -> set[int]:
    t = PlayType(play.type)
    if t in (PlayType.AIRPLANE_SINGLES, PlayType.AIRPLANE_PAIRS):
        n = play.length // CHAIN_WIDTH[t]
        return set(range(play.key - n + 1, play.key + 1))
    return {play.key}


def _allowed(play: Play, held: list[int], rules: Rules) -> bool:
    """Without ``kicker_splits_bomb``: no kicker of a rank held four times, unless it is
    the fourth card of one of the play's own trios (``kicker_trio_rank``)."""
    if rules.kicker_splits_bomb:
        return True
    core = _core_values(play)
    return all(held[v] < 4 or v in core for v in kicker_values(play))


def _keep(plays: list[Play], held: list[int], rules: Rules, previous: Play | None) -> set[Key]:
    return {key(p) for p in plays
            if _allowed(p, held, rules) and (previous is None or p.beats(previous))}


def reference_plays(hand: int, rules: Rules, previous: Play | None = None) -> set[Key]:
    """Every legal play of the one-deck mask ``hand``, card by card."""
    faces = _faces(hand)
    if len(faces) > REFERENCE_MAX_CARDS:
        raise ValueError(f"{len(faces)} cards: at most {REFERENCE_MAX_CARDS}")
    held = value_counts(hand)
    out: set[Key] = set()
    for r in range(1, len(faces) + 1):
        for chosen in itertools.combinations(faces, r):
            lo = sum(1 << f for f in chosen)
            out |= _keep(_plays_of_mask(lo, rules), held, rules, previous)
    return out


def _lowest(hand: int, value: int, k: int) -> int:
    """The ``k`` lowest-suited cards of ``value`` in ``hand`` (a mask)."""
    if value >= 13:
        return (1 << (BLACK_JOKER_BIT if value == 13 else RED_JOKER_BIT)) if k else 0
    rank = 0 if value == 12 else value + 1
    out = 0
    for suit in range(BITS_PER_RANK):
        face = rank * BITS_PER_RANK + suit
        if k and hand >> face & 1:
            out |= 1 << face
            k -= 1
    return out


def reference_collapsed(hand: int, rules: Rules, previous: Play | None = None) -> set[Key]:
    """Every legal play of ``hand`` in the suit-collapsed view, by count vectors."""
    held = value_counts(hand)
    out: set[Key] = set()
    for take in itertools.product(*(range(n + 1) for n in held)):
        if not any(take) or not _recognize(take, rules):  # most sub-multisets are no play
            continue
        lo = 0
        for v, k in enumerate(take):
            lo |= _lowest(hand, v, k)
        out |= _keep(_plays_of_mask(lo, rules), held, rules, previous)
    return out


def dense_hand(rng: random.Random, n: int) -> int:
    """A one-deck hand of ``n`` cards rich in pairs, trios, fours and runs (a mask)."""
    weights = [rng.choice((0.5, 1, 2, 4)) for _ in range(15)]
    start = rng.randrange(12)
    for v in range(start, min(start + rng.randrange(2, 7), 12)):  # a run of heavy ranks
        weights[v] *= 6
    cards = []
    for face in range(54):
        v = 13 if face == BLACK_JOKER_BIT else 14 if face == RED_JOKER_BIT else (
            12 if face // BITS_PER_RANK == 0 else face // BITS_PER_RANK - 1)
        cards.append((rng.random() ** (1 / weights[v]), face))
    cards.sort(reverse=True)
    return sum(1 << f for _, f in cards[:n])
