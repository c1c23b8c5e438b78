"""pytest-benchmark suite for Zheng Shangyou: ``pytest bench/test_bench_zhengshangyou.py --benchmark-only``.

The generator benchmarks run one call per position over all the seeded 4-player
positions of ``chupai.zhengshangyou._bench``, so a round's time divided by the number
of positions is the mean time per call.
"""
import pytest

from chupai.zhengshangyou import legal_plays
from chupai.zhengshangyou._bench import kernel_arrays, positions
from chupai.zhengshangyou._movegen import kernel_count

POS = positions()


def _all(fn):
    for p in POS:
        fn(p)


@pytest.mark.benchmark(group="zhengshangyou")
def test_lead(benchmark):
    benchmark(_all, lambda p: legal_plays(p.hand))


@pytest.mark.benchmark(group="zhengshangyou")
def test_follow(benchmark):
    benchmark(_all, lambda p: legal_plays(p.hand, p.previous))


@pytest.mark.benchmark(group="zhengshangyou")
def test_collapsed_lead(benchmark):
    benchmark(_all, lambda p: legal_plays(p.hand, collapse_suits=True))


@pytest.mark.benchmark(group="zhengshangyou-kernel")
@pytest.mark.parametrize("case", ["lead", "collapsed", "follow"])
def test_kernel(benchmark, case):
    hands, prev = kernel_arrays(POS)
    kw = {"collapsed": {"collapse_suits": True}, "follow": {"previous": prev}}.get(case, {})
    total = benchmark(kernel_count, hands, **kw)
    benchmark.extra_info["plays_per_round"] = total


@pytest.mark.benchmark(group="zhengshangyou-playouts")
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_playouts_4_players(benchmark, policy):
    from chupai.zhengshangyou.playouts import playouts

    n = 2000
    benchmark.pedantic(playouts, args=(n,), kwargs={"seed": 1, "policy": policy}, rounds=5)
    benchmark.extra_info["deals_per_round"] = n
