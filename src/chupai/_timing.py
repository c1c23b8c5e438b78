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
from typing import Any

__all__ = ["mean_per_item", "median_run", "median_single_call", "per_item"]


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
