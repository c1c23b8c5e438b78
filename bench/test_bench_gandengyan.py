"""pytest-benchmark suite for Gan Deng Yan: ``pytest bench/ --benchmark-only``.

The generator benchmarks run one call per position over all the seeded in-game
positions of ``chupai.gandengyan._bench`` (every decision of 4-player deals played by the
C random policy), so a round's time divided by the number of positions is the mean time
per call.  The playout benchmarks play 10,000 4-player deals on one thread.
"""
import pytest

from chupai.gandengyan import legal_plays
from chupai.gandengyan._movegen import kernel_count
from chupai.gandengyan._bench import kernel_arrays, positions
from chupai.gandengyan.playouts import playouts

POS = positions()
LEADS = [p for p in POS if p.previous is None]
N_PLAYOUTS = 10000


def _all(fn, items=POS):
    for p in items:
        fn(p)


@pytest.mark.benchmark(group="gandengyan")
def test_every_position(benchmark):
    benchmark(_all, lambda p: legal_plays(p.hand, p.previous))


@pytest.mark.benchmark(group="gandengyan")
def test_leads(benchmark):
    benchmark(_all, lambda p: legal_plays(p.hand), LEADS)


@pytest.mark.benchmark(group="gandengyan")
def test_collapsed(benchmark):
    benchmark(_all, lambda p: legal_plays(p.hand, p.previous, collapse_suits=True))


@pytest.mark.benchmark(group="gandengyan-kernel")
def test_kernel(benchmark):
    los, his, targets = kernel_arrays(POS)
    total = benchmark(kernel_count, los, his, targets)
    benchmark.extra_info["plays_per_round"] = total


@pytest.mark.benchmark(group="gandengyan-playouts")
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_playouts(benchmark, policy):
    benchmark.pedantic(playouts, args=(N_PLAYOUTS,), kwargs={"seed": 1, "policy": policy}, rounds=3)
    benchmark.extra_info["deals_per_round"] = N_PLAYOUTS
