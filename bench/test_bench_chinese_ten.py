"""pytest-benchmark suite for Chinese Ten: ``pytest bench/ --benchmark-only``.

Generator benchmarks run one call per position over all the seeded play-step positions
of ``chupai.chinese_ten._bench`` (a round's time divided by the number of positions is
the mean time per call); playout benchmarks run one batch of 4-player deals per round.
"""
import pytest

from chupai.chinese_ten import Deal, legal_plays
from chupai.chinese_ten._bench import kernel_arrays, positions
from chupai.chinese_ten._movegen import kernel_count
from chupai.chinese_ten.playouts import playouts

POS = positions(200)
BATCH = 20_000


def _all(fn):
    for p in POS:
        fn(p)


@pytest.mark.benchmark(group="chinese_ten")
def test_legal_plays(benchmark):
    benchmark(_all, lambda p: legal_plays(p.hand, p.layout))


@pytest.mark.benchmark(group="chinese_ten")
def test_legal_plays_collapsed(benchmark):
    benchmark(_all, lambda p: legal_plays(p.hand, p.layout, collapse_suits=True))


@pytest.mark.benchmark(group="chinese_ten")
def test_legal_plays_materialised(benchmark):
    benchmark.pedantic(_all, args=(lambda p: list(legal_plays(p.hand, p.layout)),), rounds=5)


@pytest.mark.benchmark(group="chinese_ten-kernel")
@pytest.mark.parametrize("collapse", [False, True], ids=["concrete", "collapsed"])
def test_kernel(benchmark, collapse):
    hands, layouts = kernel_arrays(POS)
    total = benchmark(kernel_count, hands, layouts, collapse_suits=collapse)
    benchmark.extra_info["plays_per_round"] = total


@pytest.mark.benchmark(group="chinese_ten-playouts")
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_playouts(benchmark, policy):
    benchmark.extra_info["deals_per_round"] = BATCH
    benchmark(playouts, BATCH, seed=1, policy=policy)


@pytest.mark.benchmark(group="chinese_ten-playouts")
def test_playouts_two_threads(benchmark):
    benchmark.extra_info["deals_per_round"] = BATCH
    benchmark(playouts, BATCH, seed=1, threads=2)


@pytest.mark.benchmark(group="chinese_ten-api")
def test_python_deal_api(benchmark):
    def game():
        deal = Deal(5)
        while not deal.is_terminal():
            deal.apply(deal.legal_actions()[0])

    benchmark(game)
