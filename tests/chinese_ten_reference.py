"""Brute-force reference for Chinese Ten plays, built only on ``classify``.

The compiled generator (``chupai.chinese_ten.legal_plays`` / ``captures``) is checked
against :func:`reference_plays`, which knows nothing about generation: for each card
of the hand it asks :func:`chupai.chinese_ten.classify.classify_faces` about every
set of layout cards, then applies the position rules of ``docs/rules/chinese_ten.md``:

* the fourth card of a rank that captures itself, with the other three on the
  layout, takes the three at once (so its single captures of that rank are not plays);
* a card with a capture must capture (``forced_capture``), else it may also join the
  layout; a card with none joins the layout.

:func:`reference_plays` looks at sets of up to ``MAX_CAPTURED`` (3) layout cards,
since ``classify`` accepts nothing larger; :func:`power_set_plays` looks at every
subset of a small layout, and the tests check both agree, which shows the bound
loses nothing.  Also here: :func:`collapse_key` (the suit-collapsed view),
:func:`random_position` and :func:`triple_position` (seeded positions).
"""
from __future__ import annotations

import random
from itertools import combinations

from chupai.cards import RANKS
from chupai.chinese_ten.classify import MAX_CAPTURED, classify_faces
from chupai.chinese_ten.play import Play, PlayType, score_class
from chupai.chinese_ten.rules import DECK_SIZE, Rules

__all__ = [
    "collapse_key",
    "power_set_plays",
    "random_position",
    "reference_plays",
    "triple_position",
    "POWER_SET_MAX_LAYOUT",
]

#: the largest layout :func:`power_set_plays` accepts (2**10 subsets per card)
POWER_SET_MAX_LAYOUT = 10


def faces_of(mask: int) -> list[int]:
    return [f for f in range(DECK_SIZE) if mask >> f & 1]


def _plays(hand: int, layout: int, rules: Rules, sizes: range) -> set[tuple[int, int]]:
    """(card face, captured mask) of every legal play, looking at subsets of ``sizes``."""
    table = faces_of(layout)
    out = set()
    for card in faces_of(hand):
        found: dict[PlayType, list[int]] = {PlayType.CAPTURE: [], PlayType.TRIPLE: []}
        for k in sizes:
            for subset in combinations(table, k):
                kind = classify_faces(card, subset)
                if kind in found:
                    found[kind].append(sum(1 << f for f in subset))
        options = found[PlayType.TRIPLE] or found[PlayType.CAPTURE]
        out.update((card, m) for m in options)
        if not options or not rules.forced_capture:
            out.add((card, 0))
    return out


def reference_plays(hand: int, layout: int, rules: Rules) -> set[tuple[int, int]]:
    """Every legal play of the cards of ``hand`` (a mask) on ``layout`` (a mask)."""
    return _plays(hand, layout, rules, range(1, MAX_CAPTURED + 1))


def power_set_plays(hand: int, layout: int, rules: Rules) -> set[tuple[int, int]]:
    """As :func:`reference_plays`, classifying every subset of a small layout."""
    n = layout.bit_count()
    if n > POWER_SET_MAX_LAYOUT:
        raise ValueError(f"layout of {n} cards is too large for the power set")
    return _plays(hand, layout, rules, range(1, n + 1))


def identity(play: Play) -> tuple[int, int]:
    return (play._card, play._captured)


def collapse_key(card: int, captured: int) -> tuple:
    """The suit-collapsed group of a play: score classes of the card and of the captures."""
    return (score_class(card), tuple(sorted(score_class(f) for f in faces_of(captured))))


def random_position(rng: random.Random, hand_size: int, layout_size: int) -> tuple[int, int]:
    """A hand and a disjoint layout drawn from one shuffled deck."""
    deck = rng.sample(range(DECK_SIZE), hand_size + layout_size)
    hand = sum(1 << f for f in deck[:hand_size])
    layout = sum(1 << f for f in deck[hand_size:])
    return hand, layout


def triple_position(rng: random.Random, hand_size: int, layout_size: int) -> tuple[int, int]:
    """A position with three cards of a self-capturing rank on the layout and the
    fourth in the hand, the rest random."""
    rank = RANKS.index(rng.choice("5TJQK"))
    suits = rng.sample(range(4), 4)
    fourth = rank * 4 + suits[3]
    triple = [rank * 4 + s for s in suits[:3]]
    rest = [f for f in range(DECK_SIZE) if f // 4 != rank]
    others = rng.sample(rest, hand_size - 1 + layout_size - 3)
    hand = (1 << fourth) | sum(1 << f for f in others[: hand_size - 1])
    layout = sum(1 << f for f in triple) | sum(1 << f for f in others[hand_size - 1 :])
    return hand, layout
