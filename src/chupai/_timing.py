"""Timing loops shared by the benchmark runners (``chupai bench``, ``bench/``).

The machines are shared and noisy: every figure is a median over repeats.

>>> mean_us = mean_per_item(lambda x: x + 1, list(range(100)), repeat=3)
>>> mean_us > 0
True
"""
from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np

__all__ = ["engine_report", "mean_per_call", "mean_per_item", "median_run", "median_single_call", "per_item"]


def mean_per_item(fn: Callable[[Any], Any], items: Sequence[Any], repeat: int) -> float:
    """Median over ``repeat`` timed loops over ``items`` of the mean µs per ``fn(item)``."""
    means = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for it in items:
            fn(it)
        means.append((time.perf_counter() - t0) / len(items) * 1e6)
    return statistics.median(means)


def median_single_call(fn: Callable[[Any], Any], items: Sequence[Any]) -> float:
    """The median µs of one ``fn(item)`` call, each call timed alone."""
    singles = []
    for it in items:
        t0 = time.perf_counter()
        fn(it)
        singles.append((time.perf_counter() - t0) * 1e6)
    return statistics.median(singles)


def per_item(fn: Callable[[Any], Any], items: Sequence[Any], repeat: int) -> tuple[float, float]:
    """:func:`mean_per_item` and, for contrast, :func:`median_single_call` (both µs)."""
    return mean_per_item(fn, items, repeat), median_single_call(fn, items)


def median_run(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The median seconds of ``repeat`` calls of ``fn()``, and the last call's result."""
    runs = []
    result = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        runs.append(time.perf_counter() - t0)
    return statistics.median(runs), result


def mean_per_call(fn: Callable[[], Any], calls: int, repeat: int) -> float:
    """Median over ``repeat`` timed loops of ``calls`` calls of the mean µs per ``fn()``."""
    means = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        means.append((time.perf_counter() - t0) / calls * 1e6)
    return statistics.median(means)


def engine_report(
    deal: Callable[..., Any], playouts: Callable[..., Any], n: int, repeat: int, *, title: str = "engine",
    **game: Any,
) -> None:
    """Print the engine rows of a game's benchmark runner.

    C ``playouts`` of ``n`` deals (random and greedy, one and two threads), whole deals
    through ``apply`` with a ``RandomBot`` for one second, ``Deal.clone()`` and
    ``MonteCarloBot(200)`` decisions.  ``deal(seed=..., **game)`` makes a deal and
    ``playouts(n, seed=..., policy=..., threads=..., **game)`` runs the batch (``game``:
    e.g. ``players=5``).
    """
    from chupai.bots import MonteCarloBot, RandomBot

    print(f"\n{title:<34}{'median':>14}")
    for policy in ("random", "greedy"):
        for threads in (1, 2):
            dt, _ = median_run(partial(playouts, n, seed=1, policy=policy, threads=threads, **game), repeat)
            print(f"{f'C playouts, {policy}, {threads} thread(s)':<34}{n / dt:>14,.0f} deals/s")
    bot, rng = RandomBot(), np.random.default_rng(1)
    t0, actions, deals = time.perf_counter(), 0, 0
    while time.perf_counter() - t0 < 1.0:
        state = deal(seed=deals, **game)
        while not state.is_terminal():
            state.apply(bot.choose(state, rng))
            actions += 1
        deals += 1
    dt = time.perf_counter() - t0
    print(f"{'deals through apply (RandomBot)':<34}{deals / dt:>14,.1f} deals/s ({dt / actions * 1e6:.1f} µs per action)")
    state = deal(seed=2, **game)
    print(f"{'Deal.clone()':<34}{mean_per_call(state.clone, 2000, repeat):>14.2f} µs")
    mc, decisions = MonteCarloBot(200), 0
    t0 = time.perf_counter()
    state = deal(seed=3, **game)
    while not state.is_terminal() and decisions < 40:
        state.apply(mc.choose(state, rng))
        decisions += 1
    dt = time.perf_counter() - t0
    print(f"{'MonteCarloBot(200) decisions':<34}{decisions / dt:>14,.1f} decisions/s")
