"""Timing loops and the report shared by the benchmark runners (``chupai bench``, ``bench/``).

Every figure is CPU time of this process (:data:`CLOCK`, ``time.process_time``: what
other programs on a shared machine do does not count) and a median over repeats; only
the runs on several threads (their point is the elapsed time) and the single calls
(:func:`timed_calls`: their median and 99th percentile) are timed by the wall clock
(:data:`WALL`).

>>> mean_us = mean_per_args(abs, [(x,) for x in range(100)], repeat=3)
>>> mean_us > 0
True
>>> report = Report("demo", echo=False)
>>> report.add("a case", 2.0, items=10, unit="plays")
>>> report.rows[0].per_second
5000000.0
>>> calls = timed_calls(range, [(1,), (2,), (3,)])
>>> calls.sizes, len(calls.us), calls.p99 >= calls.median
((1, 2, 3), 3, True)
"""
from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from typing import Any


__all__ = [
    "CLOCK",
    "WALL",
    "Calls",
    "Report",
    "Row",
    "dealt_counts",
    "engine_report",
    "mean_per_call",
    "mean_per_args",
    "median_run",
    "per_call",
    "timed_calls",
    "target_rows",
]

#: the clock of every single-thread figure: CPU seconds of this process
CLOCK: Callable[[], float] = time.process_time
#: the clock of the multi-thread figures: elapsed seconds
WALL: Callable[[], float] = time.perf_counter


def dealt_counts(rng: Any, decks: int, size: int) -> list[int]:
    """The 54 face counts of ``size`` cards drawn at random from ``decks`` shuffled decks
    (``rng``: a ``numpy.random.Generator``), for seeded bench positions.

    >>> import numpy as np
    >>> counts = dealt_counts(np.random.default_rng(1), 2, 27)
    >>> len(counts), sum(counts), max(counts) <= 2
    (54, 27, True)
    """
    import numpy as np

    faces = np.arange(54 * decks) % 54
    return [int(c) for c in np.bincount(faces[rng.permutation(54 * decks)[:size]], minlength=54)]


def target_rows(previous: Sequence[Any]) -> Any:
    """The plays to follow as the bare kernels' ``(type, length, cls, key)`` rows (uint8;
    zeros for ``None``: a lead), for a game's ``kernel_count``."""
    import numpy as np

    return np.array([(0, 0, 0, 0) if p is None else (int(p.type), p.length, p.bomb_class, p.key) for p in previous],
                    dtype=np.uint8).reshape(-1, 4)


def mean_per_args(fn: Callable[..., Any], arglists: Sequence[tuple[Any, ...]], repeat: int) -> float:
    """Median over ``repeat`` timed loops over ``arglists`` of the mean CPU µs per
    ``fn(*args)``: the loop's own cost is one tuple unpacked a call (about 0.02 µs; a
    ``lambda`` reading its arguments from an object would add twice that)."""
    means = []
    for _ in range(repeat):
        t0 = CLOCK()
        for args in arglists:
            fn(*args)
        means.append((CLOCK() - t0) / len(arglists) * 1e6)
    return statistics.median(means)


@dataclass(frozen=True)
class Calls:
    """Single calls, each timed alone (:func:`timed_calls`).

    Attributes:
        us: the µs of each call (wall clock).
        sizes: the length of each call's result (``None`` where it has none): the
            plays of a generator call.
    """

    us: tuple[float, ...]
    sizes: tuple[int | None, ...]

    @property
    def median(self) -> float:
        """The median µs of one call."""
        return statistics.median(self.us)

    @property
    def p99(self) -> float:
        """The 99th percentile µs of one call (the largest below 100 calls' worth)."""
        if len(self.us) < 100:
            return max(self.us)
        return statistics.quantiles(self.us, n=100, method="inclusive")[98]


def timed_calls(fn: Callable[..., Any], arglists: Sequence[tuple[Any, ...]]) -> Calls:
    """Each ``fn(*args)`` call timed alone, with the length of its result.

    By the wall clock (:data:`WALL`): reading the CPU clock costs about as much as a
    sub-µs call; the median leaves out the calls the scheduler interrupted, the 99th
    percentile keeps the slow hands in (and, on a busy machine, some interruptions).
    """
    us = []
    sizes: list[int | None] = []
    for args in arglists:
        t0 = WALL()
        result = fn(*args)
        us.append((WALL() - t0) * 1e6)
        sizes.append(len(result) if hasattr(result, "__len__") else None)
    return Calls(tuple(us), tuple(sizes))


def per_call(fn: Callable[..., Any], arglists: Sequence[tuple[Any, ...]], repeat: int) -> tuple[float, Calls]:
    """:func:`mean_per_args` and the single calls (:func:`timed_calls`): a
    generator's figures, ``fn`` the generator itself and each tuple one position's
    arguments.

    >>> mean, calls = per_call(pow, [(2, 10), (3, 4)], repeat=3)
    >>> mean > 0, calls.sizes
    (True, (None, None))
    """
    return mean_per_args(fn, arglists, repeat), timed_calls(fn, arglists)


def median_run(fn: Callable[[], Any], repeat: int, clock: Callable[[], float] = CLOCK) -> tuple[float, Any]:
    """The median seconds (``clock``) of ``repeat`` calls of ``fn()``, and the last call's result."""
    runs = []
    result = None
    for _ in range(repeat):
        t0 = clock()
        result = fn()
        runs.append(clock() - t0)
    return statistics.median(runs), result


def mean_per_call(fn: Callable[[], Any], calls: int, repeat: int) -> float:
    """Median over ``repeat`` timed loops of ``calls`` calls of the mean CPU µs per ``fn()``."""
    means = []
    for _ in range(repeat):
        t0 = CLOCK()
        for _ in range(calls):
            fn()
        means.append((CLOCK() - t0) / calls * 1e6)
    return statistics.median(means)


def _number(x: float) -> str:
    """``x`` with three significant digits, thousands separated: 1,230,000 or 12.3."""
    if x >= 1000:
        return f"{float(f'{x:.3g}'):,.0f}"
    return f"{x:.3g}"


@dataclass(frozen=True)
class Row:
    """One figure of a benchmark report.

    Attributes:
        section: the part of the report (``generator``, ``engine``, ``surface``, ...).
        case: what was timed.
        us: CPU µs per call (per deal, per action, ...: see ``case``); ``None`` if the
            case could not run here (``note`` says why).
        per_second: ``unit`` per second (``items`` per call / ``us``).
        unit: what ``per_second`` counts (``plays``, ``deals``, ``calls``, ...).
        median_call_us: the median of single calls (wall clock), where measured.
        p99_call_us: their 99th percentile, where measured.
        note: a remark (e.g. the share of a decision spent in ``determinize``).
        calls: each single call's ``[size, µs]`` (its result's length, ``None`` where
            it has none), kept when the report asks (``Report.keep_calls``).
    """

    section: str
    case: str
    us: float | None
    per_second: float | None
    unit: str
    median_call_us: float | None = None
    p99_call_us: float | None = None
    note: str = ""
    calls: list[list[Any]] | None = None


@dataclass
class Report:
    """The rows of one benchmark run, printed as they come (``echo``) and as JSON
    (:meth:`to_json`, the same keys for every game); ``keep_calls``: each row's single
    calls too (:attr:`Row.calls`)."""

    game: str
    echo: bool = True
    keep_calls: bool = False
    rows: list[Row] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)
    _section: str = "generator"

    def line(self, text: str) -> None:
        """Print a line of context (not a figure); kept in :attr:`info` under ``notes``."""
        self.info.setdefault("notes", []).append(text)
        if self.echo:
            print(text)

    def section(self, name: str, title: str | None = None) -> None:
        """Start the section ``name`` (printed as ``title``)."""
        self._section = name
        if self.echo:
            print(f"\n{title or name:<46}{'µs/call':>12}{'per second':>22}")

    def add(
        self,
        case: str,
        us: float | None,
        *,
        items: float = 1.0,
        unit: str = "calls",
        calls: Calls | None = None,
        note: str = "",
        per_second: float | None = None,
    ) -> None:
        """Add a figure: ``us`` CPU µs per call of ``items`` ``unit`` (or ``per_second``
        given directly, e.g. for a run on several threads); ``calls``: the same calls
        timed one by one (their median and 99th percentile)."""
        if per_second is None and us:
            per_second = items / us * 1e6
        median = p99 = None
        kept = None
        if calls is not None:
            median, p99 = calls.median, calls.p99
            if self.keep_calls:
                kept = [[size, t] for size, t in zip(calls.sizes, calls.us)]
        row = Row(self._section, case, us, per_second, unit, median, p99, note, kept)
        self.rows.append(row)
        if self.echo:
            us_text = "-" if us is None else f"{us:.3f}"
            rate = "" if per_second is None else f"{_number(per_second)} {unit}"
            extra = f"  median call {median:.3f} µs, p99 {p99:.3f}" if median is not None and p99 is not None else ""
            print(f"{case:<46}{us_text:>12}{rate:>22}{extra}{'  ' + note if note else ''}")
            sys.stdout.flush()

    def to_json(self) -> dict[str, Any]:
        """``{game, clock, info, rows}``, each row as :class:`Row`'s fields."""
        return {"game": self.game, "clock": "process_time (CPU); threads > 1: wall clock",
                "info": self.info, "rows": [asdict(r) for r in self.rows]}


def engine_report(
    report: Report, deal: Callable[..., Any], playouts: Callable[..., Any], n: int, repeat: int, **game: Any
) -> None:
    """The engine rows of a game's benchmark runner.

    C ``playouts`` of ``n`` deals (random and greedy; one thread in CPU time, two
    threads by the wall clock) and ``Deal.clone()``.
    ``deal(seed=..., **game)`` makes a deal and ``playouts(n, seed=..., policy=...,
    threads=..., **game)`` runs the batch (``game``: e.g. ``players=5``).
    """
    report.section("engine", f"engine ({n} deals a playout run)")
    for policy in ("random", "greedy"):
        dt, _ = median_run(partial(playouts, n, seed=1, policy=policy, threads=1, **game), repeat)
        report.add(f"C playouts, {policy}, 1 thread", dt / n * 1e6, unit="deals")
        dt, _ = median_run(partial(playouts, n, seed=1, policy=policy, threads=2, **game), repeat, WALL)
        report.add(f"C playouts, {policy}, 2 threads (wall clock)", None, per_second=n / dt, unit="deals")
    state = deal(seed=2, **game)
    report.add("Deal.clone()", mean_per_call(state.clone, 2000, repeat))
