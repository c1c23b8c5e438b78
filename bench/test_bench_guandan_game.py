"""pytest-benchmark suite for the Guan Dan engine: ``pytest bench/ --benchmark-only``.

C playouts (per round of 2000 deals), deals driven from Python through ``apply``,
``clone()``, and MonteCarloBot decisions.
"""
import numpy as np
import pytest

from chupai.players.bots import MonteCarloBot, RandomBot
from chupai.guandan import Deal
from chupai.guandan.playouts import playouts


@pytest.mark.benchmark(group="guandan-playouts")
@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("threads", [1, 2])
def test_c_playouts(benchmark, policy, threads):
    """2000 full deals per round."""
    benchmark(playouts, 2000, seed=1, policy=policy, threads=threads)


@pytest.mark.benchmark(group="guandan-python")
def test_deal_through_apply(benchmark):
    """One deal played to the end from Python, a RandomBot at every seat."""
    bot = RandomBot()

    def run():
        rng = np.random.default_rng(1)
        state = Deal(seed=1)
        while not state.is_terminal():
            state.apply(bot.choose(state, rng))

    benchmark(run)


@pytest.mark.benchmark(group="guandan-python")
def test_clone(benchmark):
    state = Deal(seed=2)
    benchmark(state.clone)


@pytest.mark.benchmark(group="guandan-python")
def test_monte_carlo_decision(benchmark):
    """One MonteCarloBot decision (200 playouts) on a fresh deal's first lead."""
    bot = MonteCarloBot(200)
    state = Deal(seed=3)
    rng = np.random.default_rng(0)
    benchmark.pedantic(bot.choose, args=(state, rng), rounds=10)
