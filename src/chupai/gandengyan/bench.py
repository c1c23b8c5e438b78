"""The Gan Deng Yan benchmark runner (``python -m chupai.gandengyan.bench``).

Positions are in-game: every decision of seeded 4-player deals played to the end by
the C ``random`` policy (``DealCore.policy_choice``), each one the hand of the player to
act and the play to follow (``None`` on lead): the hands and tricks that a program
calling ``legal_plays`` during play meets.  Each figure is measured over all positions
in one timed loop, repeated; the report gives the mean per call of the median repeat
(the machines are shared and noisy).  The kernel alone is timed through
``kernel_count`` (no Python object per hand or play), the playouts through
``playouts`` on one thread.
"""
from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from chupai._timing import mean_per_item, median_run
from chupai.cards import Cards
from chupai.gandengyan import legal_plays
from chupai.gandengyan._engine import DealCore
from chupai.gandengyan._movegen import kernel_count
from chupai.gandengyan.play import Play
from chupai.gandengyan.playouts import playouts
from chupai.gandengyan.rules import Rules

__all__ = ["Position", "kernel_arrays", "main", "positions"]

SEED = 20261129
N_POSITIONS = 4000
PLAYERS = 4
N_PLAYOUTS = 50000


@dataclass(frozen=True)
class Position:
    hand: Cards
    previous: Play | None


def positions(
    n: int = N_POSITIONS, seed: int = SEED, rules: Rules | None = None, players: int = PLAYERS
) -> list[Position]:
    """The first ``n`` decisions of seeded deals played by the C random policy."""
    out: list[Position] = []
    deal = 0
    while len(out) < n:
        core = DealCore.random(seed + deal, players=players, rules=rules)
        step = 0
        while not core.over and len(out) < n:
            out.append(Position(core.hand(core.current), core.last_play))
            play = core.policy_choice("random", seed + deal * 1000 + step)
            if play is None:
                core.pass_turn()
            else:
                core.play(play)
            step += 1
        deal += 1
    return out


def kernel_arrays(pos: Sequence[Position]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The hands as mask arrays and the plays to follow as ``(type, key, length, cls)``
    rows (zeros on lead)."""
    los = np.array([p.hand.lo for p in pos], dtype=np.uint64)
    his = np.array([p.hand.hi for p in pos], dtype=np.uint64)
    targets = np.array(
        [
            [0, 0, 0, 0] if p.previous is None else [p.previous.type, p.previous.key, p.previous.length, p.previous.bomb_class]
            for p in pos
        ],
        dtype=np.uint8,
    )
    return los, his, targets


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m chupai.gandengyan.bench", description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=N_POSITIONS)
    ap.add_argument("--playouts", type=int, default=N_PLAYOUTS)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args(argv)
    pos = positions(args.positions)
    leads = [p for p in pos if p.previous is None]
    follows = [p for p in pos if p.previous is not None]
    sizes = statistics.mean(len(p.hand) for p in pos)
    n_plays = sum(len(legal_plays(p.hand, p.previous)) for p in pos)
    print(
        f"{len(pos)} in-game positions of 4-player deals ({len(leads)} leads, {len(follows)} follows; "
        f"{sizes:.1f} cards a hand, {max(len(p.hand) for p in pos)} at most; {n_plays / len(pos):.1f} plays a call)"
    )
    print(f"{'case':<40}{'mean µs/call':>14}")
    rows: list[tuple[str, Callable[[Position], Any], Sequence[Position]]] = [
        ("legal_plays, every position", lambda p: legal_plays(p.hand, p.previous), pos),
        ("legal_plays, leads", lambda p: legal_plays(p.hand), leads),
        ("legal_plays, follows", lambda p: legal_plays(p.hand, p.previous), follows),
        ("legal_plays, collapsed, every position", lambda p: legal_plays(p.hand, p.previous, collapse_suits=True), pos),
        ("legal_plays + materialise every Play", lambda p: list(legal_plays(p.hand, p.previous)), pos),
        ("empty loop (for reference)", lambda p: None, pos),
    ]
    for name, fn, items in rows:
        print(f"{name:<40}{mean_per_item(fn, items, args.repeat):>14.3f}")
    los, his, targets = kernel_arrays(pos)
    dt, _ = median_run(lambda: kernel_count(los, his, targets, repeat=10), args.repeat)
    print(f"{'kernel only, every position':<40}{dt / (10 * len(pos)) * 1e6:>14.3f}")
    print(f"{'playouts (4 players, 1 thread)':<40}{'deals/s':>14}")
    for policy in ("random", "greedy"):
        runs = []
        for k in range(3):
            t0 = time.perf_counter()
            playouts(args.playouts, seed=SEED + k, policy=policy)
            runs.append(time.perf_counter() - t0)
        print(f"{policy:<40}{args.playouts / statistics.median(runs):>14,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
