"""The Chinese Ten benchmark runner (for ``chupai bench`` and ``bench/``).

Positions: the play steps of seeded random 4-player deals (the hand of the player to
play and the layout), every step of each deal.  Each figure is measured over all the
positions in one timed loop, repeated; the report gives the mean per call of the
median repeat (CPU time) and, for contrast, the median single call.  Playouts are
timed as whole batches, one thread and more; then the Python surface
(:mod:`chupai.evaluation.speed`).

    chupai bench chinese_ten [--deals 500] [--repeat 5] [--playouts 200000] [--json]
"""
from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, NamedTuple

import numpy as np

from chupai.cli.bench import run
from chupai.evaluation.timing import Report, engine_report, median_run, per_call
from chupai.cards import Cards
from chupai.chinese_ten._engine import DealEngine
from chupai.chinese_ten._movegen import kernel_count, legal_plays
from chupai.chinese_ten.game import Deal
from chupai.chinese_ten.playouts import playouts

__all__ = ["Position", "kernel_arrays", "lead_calls", "main", "positions"]

SEED = 20261129
N_DEALS = 500


class Position(NamedTuple):
    hand: Cards
    layout: Cards


def positions(n_deals: int = N_DEALS, seed: int = SEED) -> list[Position]:
    """The play-step positions of ``n_deals`` seeded random 4-player deals."""
    out = []
    for k in range(n_deals):
        eng = DealEngine.random(seed + k)
        step = 0
        while eng.current >= 0:
            if eng.phase == "play":
                out.append(Position(eng.hand(eng.current), eng.layout))
            eng.play(eng.policy_choice("random", seed + k * 1000 + step))
            step += 1
    return out


def kernel_arrays(pos: Sequence[Position]) -> tuple[np.ndarray, np.ndarray]:
    """The positions as mask arrays for ``kernel_count``."""
    return (np.array([p.hand.lo for p in pos], dtype=np.uint64),
            np.array([p.layout.lo for p in pos], dtype=np.uint64))


def lead_calls(n: int, seed: int) -> list[partial[Any]]:
    """``n`` seeded calls of ``legal_plays``, each making a fresh list: a 12-card hand on a
    4-card layout of one 52-card deck (``bench/surface.py``'s Chinese Ten positions)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        order = rng.permutation(52)
        hand = Cards.from_counts(np.bincount(order[:12], minlength=54).tolist())
        layout = Cards.from_counts(np.bincount(order[12:16], minlength=54).tolist())
        out.append(partial(legal_plays, hand, layout))
    return out


def generator(report: Report, args: argparse.Namespace) -> None:
    """The generator rows and the kernel."""
    pos = positions(args.deals)
    n_conc = sum(len(legal_plays(p.hand, p.layout)) for p in pos)
    n_coll = sum(len(legal_plays(p.hand, p.layout, collapse_suits=True)) for p in pos)
    report.line(f"{len(pos)} play steps of {args.deals} random 4-player deals; plays per call: "
                f"{n_conc / len(pos):.2f} (collapsed {n_coll / len(pos):.2f})")
    calls_of = [(p.hand, p.layout) for p in pos]
    rows: list[tuple[str, Callable[..., Any], int]] = [
        ("legal_plays (concrete)", legal_plays, n_conc),
        ("legal_plays (collapsed)", lambda hand, layout: legal_plays(hand, layout, collapse_suits=True), n_coll),
        ("legal_plays + every Play", lambda hand, layout: list(legal_plays(hand, layout)), n_conc),
    ]
    for name, fn, nplays in rows:
        mean, calls = per_call(fn, calls_of, args.repeat)
        report.add(name, mean, items=nplays / len(pos), unit="plays", calls=calls)
    hands, layouts = kernel_arrays(pos)
    for name, coll in (("kernel only (concrete)", False), ("kernel only (collapsed)", True)):
        dt, total = median_run(partial(kernel_count, hands, layouts, collapse_suits=coll, repeat=10), args.repeat)
        report.add(name, dt / (10 * len(pos)) * 1e6, items=total / (10 * len(pos)), unit="plays")


def engine(report: Report, args: argparse.Namespace) -> None:
    """The game engine: C playouts, ``clone``."""
    engine_report(report, Deal, playouts, args.playouts, args.repeat)


def main(argv: Sequence[str] | None = None) -> int:
    return run("chinese_ten", argv, generator, engine, deals=N_DEALS, playouts=200_000,
               description="Time the Chinese Ten generator, engine and Python surface.")


if __name__ == "__main__":
    raise SystemExit(main())
