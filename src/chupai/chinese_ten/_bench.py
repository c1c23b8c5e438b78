"""The Chinese Ten benchmark runner (for ``chupai bench`` and ``bench/``).

Positions: the play steps of seeded random 4-player deals (the hand of the player to
play and the layout), every step of each deal.  Each figure is measured over all the
positions in one timed loop, repeated; the report gives the mean per call of the
median repeat (the machines are shared and noisy) and, for contrast, the median single
call.  Playouts are timed as whole batches, one thread and more.

    python -m chupai.chinese_ten._bench [--deals 500] [--repeat 5] [--playouts 200000]
"""
from __future__ import annotations

import argparse
from functools import partial
from typing import NamedTuple

import numpy as np

from chupai._timing import median_run, per_item
from chupai.cards import Cards
from chupai.chinese_ten._engine import DealCore
from chupai.chinese_ten._movegen import kernel_count, legal_plays
from chupai.chinese_ten.game import Deal
from chupai.chinese_ten.playouts import playouts

__all__ = ["Position", "kernel_arrays", "main", "positions"]

SEED = 20261129
N_DEALS = 500


class Position(NamedTuple):
    hand: Cards
    layout: Cards


def positions(n_deals: int = N_DEALS, seed: int = SEED) -> list[Position]:
    """The play-step positions of ``n_deals`` seeded random 4-player deals."""
    out = []
    for k in range(n_deals):
        core = DealCore.random(seed + k)
        step = 0
        while core.current >= 0:
            if core.phase == "play":
                out.append(Position(core.hand(core.current), core.layout))
            core.play(core.policy_choice("random", seed + k * 1000 + step))
            step += 1
    return out


def kernel_arrays(pos: list[Position]) -> tuple[np.ndarray, np.ndarray]:
    """The positions as mask arrays for ``kernel_count``."""
    return (np.array([p.hand.lo for p in pos], dtype=np.uint64),
            np.array([p.layout.lo for p in pos], dtype=np.uint64))


def _api_game(seed: int) -> None:
    deal = Deal(seed)
    while not deal.is_terminal():
        deal.apply(deal.legal_actions()[0])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="chupai bench chinese_ten", description="Time the Chinese Ten generator and playouts.")
    ap.add_argument("--deals", type=int, default=N_DEALS)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--playouts", type=int, default=200_000)
    args = ap.parse_args(argv)
    pos = positions(args.deals)
    n_conc = sum(len(legal_plays(p.hand, p.layout)) for p in pos)
    n_coll = sum(len(legal_plays(p.hand, p.layout, collapse_suits=True)) for p in pos)
    print(f"{len(pos)} play steps of {args.deals} random 4-player deals; plays per call: "
          f"{n_conc / len(pos):.2f} (collapsed {n_coll / len(pos):.2f})")
    print(f"{'case':<34}{'mean µs/call':>14}{'median µs':>12}{'plays/s':>14}")
    rows = [
        ("legal_plays (concrete)", lambda p: legal_plays(p.hand, p.layout), n_conc),
        ("legal_plays (collapsed)", lambda p: legal_plays(p.hand, p.layout, collapse_suits=True), n_coll),
        ("legal_plays + every Play", lambda p: list(legal_plays(p.hand, p.layout)), n_conc),
    ]
    for name, fn, nplays in rows:
        mean, median = per_item(fn, pos, args.repeat)
        print(f"{name:<34}{mean:>14.2f}{median:>12.2f}{nplays / len(pos) / mean * 1e6:>14.3g}")
    hands, layouts = kernel_arrays(pos)
    for name, coll in (("kernel only (concrete)", False), ("kernel only (collapsed)", True)):
        dt, total = median_run(partial(kernel_count, hands, layouts, collapse_suits=coll, repeat=10), args.repeat)
        print(f"{name:<34}{dt / (10 * len(pos)) * 1e6:>14.2f}{'':>12}{total / dt:>14.3g}")
    n = args.playouts
    print(f"\n{'playouts of 4-player deals':<34}{'deals/s':>14}")
    for policy in ("random", "greedy"):
        for threads in (1, 2):
            dt, _ = median_run(partial(playouts, n, seed=SEED, policy=policy, threads=threads), args.repeat)
            print(f"{f'{policy}, {threads} thread(s)':<34}{n / dt:>14,.0f}")
    games = max(1, args.deals // 5)
    mean, _ = per_item(_api_game, list(range(games)), args.repeat)
    print(f"{'Python Deal API, whole deal':<34}{mean:>14.1f} µs per deal ({1e6 / mean:,.0f} deals/s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
