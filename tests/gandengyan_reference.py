"""Brute-force reference for Gan Deng Yan legal plays, built only on ``classify``.

The compiled generator (``chupai.gandengyan.legal_plays``) is checked against
:func:`reference_plays`, which knows nothing about generation: it takes every
sub-multiset of the hand (each once, however many copies of a card a two-deck hand
holds) and asks :func:`chupai.gandengyan.classify.classify` what it can be declared as.
Jokers led alone are plays only as the player's last cards on lead, so those readings
are kept only when the sub-multiset is the whole hand and nothing is to be followed.
Following, the plays are those that ``Play.beats`` the previous play.

Also here: :func:`collapse_key` (the suit-collapsed view of ``docs/rules/cards.md``) and
:func:`deal_hands` (seeded in-game hands: an n-player deal plus draws from the talon).
"""
from __future__ import annotations

import random
from collections.abc import Iterable
from functools import lru_cache

from chupai.core.records import (
    BITS_PER_RANK,
    BLACK_JOKER_BIT,
    NUM_FACES,
    NUM_RANKS,
    NUM_SUITS,
    RED_JOKER_BIT,
)
from chupai.cards import Cards
from chupai.gandengyan.classify import _plays_of_masks
from chupai.gandengyan.play import JOKER_VALUE, Play, PlayType
from chupai.gandengyan.rules import Rules

__all__ = ["REFERENCE_MAX_CARDS", "collapse_key", "deal_hands", "dense_hand", "reference_plays"]

#: the largest hand :func:`reference_plays` accepts (2**15 sub-multisets at most)
REFERENCE_MAX_CARDS = 15

Masks = tuple[int, int, int]  # (lo, hi, number of cards) of a sub-multiset


def _sub_multisets(held: Iterable[tuple[int, int]]) -> list[Masks]:
    """Every sub-multiset of the faces held ``(face, copies)``, the empty one included."""
    out: list[Masks] = [(0, 0, 0)]
    for face, copies in held:
        b = 1 << face
        grown = []
        for lo, hi, n in out:
            grown.append((lo, hi, n))
            if copies >= 1:
                grown.append((lo | b, hi, n + 1))
            if copies == 2:
                grown.append((lo | b, hi | b, n + 2))
        out = grown
    return out


def _is_lone_joker_lead(play: Play) -> bool:
    return play.key == JOKER_VALUE and play.type in (PlayType.SINGLE, PlayType.PAIR)


@lru_cache(maxsize=4096)
def _reference_leads(lo: int, hi: int, rules: Rules) -> frozenset[Play]:
    """Every play of the hand with masks lo/hi when leading (cached: the tests follow
    many plays with one hand)."""
    held = [(f, c) for f, c in enumerate(Cards.from_masks(lo, hi).counts()) if c]
    plays: set[Play] = set()
    for sub_lo, sub_hi, n in _sub_multisets(held):
        if not n:
            continue
        for play in _plays_of_masks(sub_lo, sub_hi, rules):
            if _is_lone_joker_lead(play) and (sub_lo, sub_hi) != (lo, hi):
                continue
            plays.add(play)
    return frozenset(plays)


def reference_plays(hand: Cards | str, previous: Play | None = None, rules: Rules | None = None) -> set[Play]:
    """Every distinct play the hand can make (that may follow ``previous``, when given)."""
    rules = Rules() if rules is None else rules
    cards = Cards(hand, decks=rules.decks)
    if len(cards) > REFERENCE_MAX_CARDS:
        raise ValueError(f"reference_plays takes at most {REFERENCE_MAX_CARDS} cards, not {len(cards)}")
    leads = _reference_leads(cards.lo, cards.hi, rules)
    if previous is None:
        return set(leads)
    return {p for p in leads if not _is_lone_joker_lead(p) and p.beats(previous, rules=rules)}


def collapse_key(play: Play) -> tuple[PlayType, int, tuple[int, ...]]:
    """The group of ``play`` in the suit-collapsed view of ``docs/rules/cards.md``:
    (type, key, cards of each rank 2..A, then ``BJ`` and ``RJ``)."""
    counts = play.cards.counts()
    per_rank = tuple(
        sum(counts[r * BITS_PER_RANK + s] for s in range(NUM_SUITS)) for r in range(NUM_RANKS)
    )
    return (play.type, play.key, per_rank + (counts[BLACK_JOKER_BIT], counts[RED_JOKER_BIT]))


def _deck(decks: int) -> list[int]:
    return list(range(NUM_FACES)) * decks


def _cards(faces: Iterable[int]) -> Cards:
    counts = [0] * NUM_FACES
    for f in faces:
        counts[f] += 1
    return Cards.from_counts(counts)


def deal_hands(rng: random.Random, players: int, decks: int, draws: int) -> list[Cards]:
    """The hands of an n-player deal (the dealer, seat 0, holds six cards, the others
    five) after each player has drawn ``draws`` more cards from the talon (fewer when
    it runs out) and played a random part of them: sizes as met in play."""
    deck = _deck(decks)
    rng.shuffle(deck)
    hands = [deck[:6]] + [deck[6 + 5 * (s - 1) : 6 + 5 * s] for s in range(1, players)]
    talon = deck[6 + 5 * (players - 1) :]
    for _ in range(draws):
        for h in hands:
            if talon:
                h.append(talon.pop())
            if len(h) > 2 and rng.random() < 0.5:
                del h[: rng.randint(1, 2)]  # some cards played meanwhile
    return [_cards(h) for h in hands]


def dense_hand(rng: random.Random, n: int, decks: int, width: int = 4) -> Cards:
    """``n`` cards drawn from a pool rich in combinations: every card of ``width``
    consecutive ranks (ranks 2..A, any window) and the jokers, ``decks`` times."""
    start = rng.randint(0, NUM_RANKS - width)
    pool = [r * BITS_PER_RANK + s for r in range(start, start + width) for s in range(NUM_SUITS)]
    pool += [BLACK_JOKER_BIT, RED_JOKER_BIT]
    return _cards(rng.sample(pool * decks, n))
