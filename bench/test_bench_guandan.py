"""pytest-benchmark suite for the Guan Dan generator: ``pytest bench/ --benchmark-only``.

Each benchmark runs one call per position over all the seeded positions of ``chupai.guandan._bench``, so a
round's time divided by the number of deals is the mean time per call.
"""
import pytest

from chupai.guandan import legal_plays
from chupai.guandan._bench import kernel_arrays, positions
from chupai.guandan._movegen import kernel_count

POS = positions()


def _all(fn):
    for p in POS:
        fn(p)


@pytest.mark.benchmark(group="guandan")
def test_lead(benchmark):
    benchmark(_all, lambda p: legal_plays(p.hand, p.level))


@pytest.mark.benchmark(group="guandan")
def test_follow(benchmark):
    benchmark(_all, lambda p: legal_plays(p.hand, p.level, p.previous))


@pytest.mark.benchmark(group="guandan")
def test_collapsed_lead(benchmark):
    benchmark(_all, lambda p: legal_plays(p.hand, p.level, collapse_suits=True))


@pytest.mark.benchmark(group="guandan")
def test_lead_materialised(benchmark):
    benchmark.pedantic(_all, args=(lambda p: list(legal_plays(p.hand, p.level)),), rounds=3)


@pytest.mark.benchmark(group="guandan-kernel")
@pytest.mark.parametrize("collapse", [False, True], ids=["concrete", "collapsed"])
def test_kernel(benchmark, collapse):
    los, his, levels, _ = kernel_arrays(POS)
    total = benchmark(kernel_count, los, his, levels, collapse_suits=collapse)
    benchmark.extra_info["plays_per_round"] = total
