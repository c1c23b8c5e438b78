"""The Guan Dan benchmark runner behind ``chupai bench guandan``.

Positions: seeded Guan Dan deals, each a 27-card hand of a fresh deal, a uniformly
drawn level, and a previous play drawn uniformly from another seat's legal leads.
Each figure is measured over all the deals in one timed loop, repeated; the report
gives the CPU µs per call of the median repeat and, for contrast, the median single
call.  Then the engine (:func:`chupai.evaluation.timing.engine_report`) and the Python surface
(:mod:`chupai.evaluation.speed`).
"""
from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from chupai.cli.bench import run
from chupai.evaluation.timing import Report, dealt_counts, engine_report, median_run, per_call
from chupai.cards import RANKS, Cards
from chupai.guandan import Play, legal_plays
from chupai.guandan._movegen import kernel_count

__all__ = ["Position", "kernel_arrays", "lead_calls", "main", "positions"]

SEED = 20261129
N_DEALS = 1000


@dataclass(frozen=True)
class Position:
    hand: Cards
    level: str
    previous: Play


def positions(n: int = N_DEALS, seed: int = SEED) -> list[Position]:
    """``n`` positions from a fixed seed (the same on every machine)."""
    rng = np.random.default_rng(seed)
    faces = np.arange(108) % 54  # the two-deck: every face twice
    out = []
    for _ in range(n):
        order = rng.permutation(108)
        seats = [Cards.from_counts(np.bincount(faces[order[27 * s : 27 * s + 27]], minlength=54).tolist()) for s in range(4)]
        level = RANKS[rng.integers(len(RANKS))]
        leads = legal_plays(seats[1], level)
        out.append(Position(seats[0], level, leads[int(rng.integers(len(leads)))]))
    return out


def kernel_arrays(pos: Sequence[Position]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The hands as mask arrays, level indexes and the previous plays as (type, length,
    cls, key) rows, for ``kernel_count``."""
    los = np.array([p.hand.lo for p in pos], dtype=np.uint64)
    his = np.array([p.hand.hi for p in pos], dtype=np.uint64)
    levels = np.array([RANKS.index(p.level) for p in pos], dtype=np.uint8)
    prev = np.array([[p.previous.type, p.previous.length, p.previous.bomb_class, p.previous.key] for p in pos],
                    dtype=np.uint8).reshape(len(pos), 4)
    return los, his, levels, prev


def lead_calls(n: int, seed: int) -> list[partial[Any]]:
    """``n`` seeded calls of ``legal_plays`` at a lead, each making a fresh list: 27-card
    hands of two decks at a random level (``bench/surface.py``'s Guan Dan positions)."""
    rng = np.random.default_rng(seed)
    return [partial(legal_plays, Cards.from_counts(dealt_counts(rng, 2, 27)), RANKS[int(rng.integers(13))])
            for _ in range(n)]


def generator(report: Report, args: argparse.Namespace) -> None:
    """The generator rows: leads, follows, collapsed leads, materialised Plays, the kernel."""
    pos = positions(args.deals)
    n_lead = sum(len(legal_plays(p.hand, p.level)) for p in pos)
    n_coll = sum(len(legal_plays(p.hand, p.level, collapse_suits=True)) for p in pos)
    n_follow = sum(len(legal_plays(p.hand, p.level, p.previous)) for p in pos)
    report.line(f"{len(pos)} deals (27-card hands, random level); plays per call: lead {n_lead / len(pos):.1f}, "
                f"collapsed lead {n_coll / len(pos):.1f}, follow {n_follow / len(pos):.1f}")
    leads = [(p.hand, p.level) for p in pos]
    rows: list[tuple[str, Callable[..., Any], list[tuple[Any, ...]], int]] = [
        ("lead (concrete)", legal_plays, leads, n_lead),
        ("follow", legal_plays, [(p.hand, p.level, p.previous) for p in pos], n_follow),
        ("collapsed lead", lambda hand, level: legal_plays(hand, level, collapse_suits=True), leads,
         n_coll),
        ("lead + materialise every Play", lambda hand, level: list(legal_plays(hand, level)), leads, n_lead),
        ("lead + len() only", lambda hand, level: len(legal_plays(hand, level)), leads, n_lead),
    ]
    for name, fn, arglists, nplays in rows:
        mean, calls = per_call(fn, arglists, args.repeat)
        report.add(name, mean, items=nplays / len(pos), unit="plays", calls=calls)
    los, his, levels, prev = kernel_arrays(pos)
    kernels: list[tuple[str, dict[str, Any]]] = [
        ("kernel only, lead", {}),
        ("kernel only, collapsed lead", {"collapse_suits": True}),
        ("kernel only, follow", {"previous": prev}),
    ]
    for name, kw in kernels:
        dt, total = median_run(partial(kernel_count, los, his, levels, repeat=10, **kw), args.repeat)
        report.add(name, dt / (10 * len(pos)) * 1e6, items=total / (10 * len(pos)), unit="plays")


def engine(report: Report, args: argparse.Namespace) -> None:
    """The game engine: C playouts, ``clone``."""
    from chupai.guandan import Deal, playouts

    engine_report(report, Deal, playouts, args.playouts, args.repeat)


def main(argv: Sequence[str] | None = None) -> int:
    return run("guandan", argv, generator, engine, deals=N_DEALS, description="Time the Guan Dan generator, "
               "engine and Python surface.")


if __name__ == "__main__":
    raise SystemExit(main())
