"""The Gan Deng Yan benchmark runner (``chupai bench gandengyan``, ``python -m chupai.gandengyan._bench``).

Positions are in-game: every decision of ``--deals`` seeded 4-player deals played to the end by
the C ``random`` policy (``DealEngine.policy_choice``), each one the hand of the player to
act and the play to follow (``None`` on lead): the hands and tricks that a program
calling ``legal_plays`` during play meets.  Each figure is measured over all positions
in one timed loop, repeated; the report gives the mean per call of the median repeat
(CPU time).  The kernel alone is timed through ``kernel_count`` (no Python object per
hand or play); then the engine (C playouts, ``clone``) and the Python surface
(:mod:`chupai.evaluation.speed`).
"""
from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from chupai.cli.bench import run
from chupai.evaluation.timing import Report, dealt_counts, engine_report, median_run, per_call, target_rows
from chupai.cards import Cards
from chupai.gandengyan import legal_plays
from chupai.gandengyan._engine import DealEngine
from chupai.gandengyan._movegen import kernel_count
from chupai.gandengyan.play import Play
from chupai.gandengyan.playouts import playouts
from chupai.gandengyan.rules import Rules

__all__ = ["Position", "kernel_arrays", "lead_calls", "main", "positions"]

SEED = 20261129
N_DEALS = 50  # about 4300 positions
PLAYERS = 4
N_PLAYOUTS = 50000


@dataclass(frozen=True)
class Position:
    hand: Cards
    previous: Play | None


def positions(
    deals: int = N_DEALS, seed: int = SEED, rules: Rules | None = None, players: int = PLAYERS
) -> list[Position]:
    """Every decision of ``deals`` seeded deals played by the C random policy."""
    out: list[Position] = []
    for deal in range(deals):
        eng = DealEngine.random(seed + deal, players=players, rules=rules)
        step = 0
        while not eng.over:
            out.append(Position(eng.hand(eng.current), eng.last_play))
            play = eng.policy_choice("random", seed + deal * 1000 + step)
            if play is None:
                eng.pass_turn()
            else:
                eng.play(play)
            step += 1
    return out


def kernel_arrays(pos: Sequence[Position]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The hands as mask arrays and the plays to follow as ``(type, length, cls, key)``
    rows (zeros on lead)."""
    los = np.array([p.hand.lo for p in pos], dtype=np.uint64)
    his = np.array([p.hand.hi for p in pos], dtype=np.uint64)
    return los, his, target_rows([p.previous for p in pos])


def lead_calls(n: int, seed: int) -> list[partial[Any]]:
    """``n`` seeded calls of ``legal_plays`` at a lead, each making a fresh list: 6-card
    hands of one deck (``bench/surface.py``'s Gan Deng Yan positions)."""
    rng = np.random.default_rng(seed)
    return [partial(legal_plays, Cards.from_counts(dealt_counts(rng, 1, 6))) for _ in range(n)]


def generator(report: Report, args: argparse.Namespace) -> None:
    """The generator rows (every position, leads, follows, collapsed, materialised) and the kernel."""
    pos = positions(args.deals)
    leads = [p for p in pos if p.previous is None]
    follows = [p for p in pos if p.previous is not None]
    sizes = statistics.mean(len(p.hand) for p in pos)
    n_plays = sum(len(legal_plays(p.hand, p.previous)) for p in pos)
    n_leads = sum(len(legal_plays(p.hand)) for p in leads)
    n_follows = sum(len(legal_plays(p.hand, p.previous)) for p in follows)
    n_coll = sum(len(legal_plays(p.hand, p.previous, collapse_suits=True)) for p in pos)
    report.line(
        f"{len(pos)} in-game positions of {args.deals} 4-player deals ({len(leads)} leads, {len(follows)} follows; "
        f"{sizes:.1f} cards a hand, {max(len(p.hand) for p in pos)} at most; {n_plays / len(pos):.1f} plays a call)"
    )
    every = [(p.hand, p.previous) for p in pos]
    rows: list[tuple[str, Callable[..., Any], list[tuple[Any, ...]], int]] = [
        ("legal_plays, every position", legal_plays, every, n_plays),
        ("legal_plays, leads", legal_plays, [(p.hand,) for p in leads], n_leads),
        ("legal_plays, follows", legal_plays, [(p.hand, p.previous) for p in follows], n_follows),
        ("legal_plays, collapsed, every position", lambda hand, previous: legal_plays(hand, previous, collapse_suits=True),
         every, n_coll),
        ("legal_plays + materialise every Play", lambda hand, previous: list(legal_plays(hand, previous)), every,
         n_plays),
    ]
    for name, fn, items, nplays in rows:
        mean, calls = per_call(fn, items, args.repeat)
        report.add(name, mean, items=nplays / max(len(items), 1), unit="plays", calls=calls)
    los, his, targets = kernel_arrays(pos)
    dt, total = median_run(lambda: kernel_count(los, his, targets, repeat=10), args.repeat)
    report.add("kernel only, every position", dt / (10 * len(pos)) * 1e6, items=total / (10 * len(pos)),
               unit="plays")


def engine(report: Report, args: argparse.Namespace) -> None:
    """The game engine: C playouts, ``clone``."""
    from chupai.gandengyan.game import Deal

    engine_report(report, Deal, playouts, args.playouts, args.repeat, players=PLAYERS)


def main(argv: Sequence[str] | None = None) -> int:
    return run("gandengyan", argv, generator, engine, deals=N_DEALS, playouts=N_PLAYOUTS,
               description="Time the Gan Deng Yan generator, engine and Python surface (4 players).")


if __name__ == "__main__":
    raise SystemExit(main())
