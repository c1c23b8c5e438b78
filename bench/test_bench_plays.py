"""pytest-benchmark suite for the Python surface: ``pytest bench/test_bench_plays.py --benchmark-only``.

Cards parsing and the Play objects of seeded Guan Dan leads (the plain runner
``bench/surface.py`` prints the same cases for every game, µs per item and items/s).
Each round handles every position, so a round's time divided by the number of items
is the time per item.
"""
import random

import pytest

from chupai.cards import Cards
from chupai.guandan import legal_plays

_rng = random.Random(20261201)


def _hand() -> Cards:
    counts = [0] * 54
    for f in _rng.sample([f for f in range(54) for _ in range(2)], 27):
        counts[f] += 1
    return Cards.from_counts(counts)


HANDS = [_hand() for _ in range(100)]
TEXTS = [str(h) for h in HANDS]
LISTS = [legal_plays(h, _rng.choice("23456789TJQKA")) for h in HANDS]
PLAYS = [p for pl in LISTS for p in pl]


def _each(fn, items):
    for it in items:
        fn(it)


@pytest.mark.benchmark(group="surface-cards")
def test_parse_27_card_strings(benchmark):
    benchmark(_each, Cards, TEXTS)


@pytest.mark.benchmark(group="surface-cards")
def test_parse_27_token_lists(benchmark):
    tokens = [t.split() for t in TEXTS]
    benchmark(_each, Cards, tokens)


@pytest.mark.benchmark(group="surface-plays")
def test_materialise_playlists(benchmark):
    benchmark.extra_info["plays_per_round"] = len(PLAYS)
    benchmark(_each, list, LISTS)


@pytest.mark.benchmark(group="surface-plays")
@pytest.mark.parametrize("attr", ["type", "key", "cards", "bomb_class"])
def test_attribute_reads(benchmark, attr):
    benchmark.extra_info["plays_per_round"] = len(PLAYS)
    benchmark(_each, lambda p: getattr(p, attr), PLAYS)


@pytest.mark.benchmark(group="surface-plays")
def test_str(benchmark):
    benchmark(_each, str, PLAYS)


@pytest.mark.benchmark(group="surface-plays")
def test_to_protocol(benchmark):
    benchmark(_each, lambda p: p.to_protocol(), PLAYS)
