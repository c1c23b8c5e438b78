"""The Dou Dizhu benchmark runner (``chupai bench doudizhu``, ``python -m chupai.doudizhu._bench``).

Positions are in-game: every decision of ``--deals`` seeded deals (a random landlord at a
base of 1) played to the end by the C ``random`` policy (``DealEngine.policy_choice``),
each the hand of the player to act and the play to follow (``None`` on lead): what a
program calling ``legal_plays`` during play meets.  Each figure is measured over all
positions in one timed loop, repeated; the report gives the mean per call of the median
repeat (CPU time).  The kernel alone is timed through ``kernel_count`` (no Python
object per hand or play); then the engine (C playouts, ``clone``) and the Python
surface (:mod:`chupai.evaluation.speed`).
"""
from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from chupai.cards import Cards
from chupai.cli.bench import run
from chupai.doudizhu._engine import DealEngine
from chupai.doudizhu._movegen import kernel_count, legal_plays
from chupai.doudizhu.play import Play
from chupai.doudizhu.playouts import playouts
from chupai.evaluation.timing import Report, dealt_counts, engine_report, median_run, per_call, target_rows

__all__ = ["Position", "kernel_arrays", "lead_calls", "main", "positions"]

SEED = 20261205
N_DEALS = 100  # about 3,000 positions


@dataclass(frozen=True)
class Position:
    hand: Cards
    previous: Play | None


def positions(deals: int = N_DEALS, seed: int = SEED) -> list[Position]:
    """Every decision of ``deals`` seeded deals played by the C random policy."""
    out: list[Position] = []
    for deal in range(deals):
        eng = DealEngine.random(seed + deal)
        step = 0
        while eng.current >= 0:
            out.append(Position(eng.hand(eng.current), eng.last_play))
            play = eng.policy_choice("random", seed + deal * 1000 + step)
            if play is None:
                eng.pass_turn()
            else:
                eng.play(play)
            step += 1
    return out


def kernel_arrays(pos: Sequence[Position]) -> tuple[np.ndarray, np.ndarray]:
    """The hands as masks and the plays to beat as (type, length, cls, key) rows (type 0:
    leading)."""
    return np.array([p.hand.lo for p in pos], dtype=np.uint64), target_rows([p.previous for p in pos])


def lead_calls(n: int, seed: int) -> list[partial[Any]]:
    """``n`` seeded calls of ``legal_plays`` at a lead, each making a fresh list: 17-card
    hands of one deck (``bench/surface.py``'s Dou Dizhu positions)."""
    rng = np.random.default_rng(seed)
    return [partial(legal_plays, Cards.from_counts(dealt_counts(rng, 1, 17))) for _ in range(n)]


def generator(report: Report, args: argparse.Namespace) -> None:
    """The generator rows: leads and follows (concrete and collapsed), the kernel."""
    pos = positions(args.deals)
    leads = [p for p in pos if p.previous is None]
    follows = [p for p in pos if p.previous is not None]
    n_lead = sum(len(legal_plays(p.hand)) for p in leads)
    n_coll = sum(len(legal_plays(p.hand, collapse_suits=True)) for p in leads)
    n_follow = sum(len(legal_plays(p.hand, p.previous)) for p in follows)
    report.line(f"{args.deals} deals: {len(leads)} leads, {len(follows)} follows; plays per call: lead "
                f"{n_lead / len(leads):.1f}, collapsed lead {n_coll / len(leads):.1f}, follow "
                f"{n_follow / len(follows):.2f}")
    lead_args = [(p.hand,) for p in leads]
    rows: list[tuple[str, list[tuple[Any, ...]], Callable[..., Any], int]] = [
        ("lead (concrete)", lead_args, legal_plays, n_lead),
        ("collapsed lead", lead_args, lambda hand: legal_plays(hand, collapse_suits=True), n_coll),
        ("follow", [(p.hand, p.previous) for p in follows], legal_plays, n_follow),
    ]
    for name, sample, fn, nplays in rows:
        mean, calls = per_call(fn, sample, args.repeat)
        report.add(name, mean, items=nplays / len(sample), unit="plays", calls=calls)
    lead_hands, _ = kernel_arrays(leads)
    follow_hands, follow_prev = kernel_arrays(follows)
    kernels: list[tuple[str, int, partial[int]]] = [
        ("kernel only, lead", len(leads), partial(kernel_count, lead_hands, repeat=10)),
        ("kernel only, collapsed lead", len(leads), partial(kernel_count, lead_hands, repeat=10, collapse_suits=True)),
        ("kernel only, follow", len(follows), partial(kernel_count, follow_hands, follow_prev, repeat=10)),
    ]
    for name, n, run_kernel in kernels:
        dt, total = median_run(run_kernel, args.repeat)
        report.add(name, dt / (10 * n) * 1e6, items=total / (10 * n), unit="plays")


def engine(report: Report, args: argparse.Namespace) -> None:
    """The game engine: C playouts, ``clone``."""
    from chupai.doudizhu.game import Deal

    engine_report(report, Deal, playouts, args.playouts, args.repeat)


def main(argv: Sequence[str] | None = None) -> int:
    return run("doudizhu", argv, generator, engine, deals=N_DEALS,
               description="Time the Dou Dizhu generator, engine and Python surface.")


if __name__ == "__main__":
    raise SystemExit(main())
