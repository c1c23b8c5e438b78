"""The plain benchmark runner behind ``chupai bench`` and ``python bench/run.py``.

Positions: seeded Guan Dan deals, each a 27-card hand of a fresh deal, a uniformly
drawn level, and a previous play drawn uniformly from another seat's legal leads.
Each figure is measured over all the deals in one timed loop, repeated; the report
gives the mean per call of the median repeat (the machines are shared and noisy)
and, for contrast, the median single call.
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from functools import partial

import numpy as np

from chupai._timing import engine_report, median_run, per_item
from chupai.cards import Cards
from chupai.guandan import Play, legal_plays
from chupai.guandan._movegen import kernel_count

SEED = 20261129
N_DEALS = 1000
LEVELS = "23456789TJQKA"


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
        level = LEVELS[rng.integers(len(LEVELS))]
        leads = legal_plays(seats[1], level)
        out.append(Position(seats[0], level, leads[int(rng.integers(len(leads)))]))
    return out


def kernel_arrays(pos: list[Position]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The hands as mask arrays and level indexes, for ``kernel_count``."""
    los = np.array([p.hand.lo for p in pos], dtype=np.uint64)
    his = np.array([p.hand.hi for p in pos], dtype=np.uint64)
    levels = np.array([LEVELS.index(p.level) for p in pos], dtype=np.uint8)
    return los, his, levels


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="chupai bench", description="Time the Guan Dan generator and engine.")
    ap.add_argument("--deals", type=int, default=N_DEALS)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--playouts", type=int, default=20000, help="deals per C playout measurement")
    ap.add_argument("--no-engine", action="store_true", help="only the generator figures")
    args = ap.parse_args(argv)
    pos = positions(args.deals)
    n_lead = sum(len(legal_plays(p.hand, p.level)) for p in pos)
    n_coll = sum(len(legal_plays(p.hand, p.level, collapse_suits=True)) for p in pos)
    n_follow = sum(len(legal_plays(p.hand, p.level, p.previous)) for p in pos)
    print(f"{len(pos)} deals (27-card hands, random level); plays per call: lead {n_lead / len(pos):.1f}, "
          f"collapsed lead {n_coll / len(pos):.1f}, follow {n_follow / len(pos):.1f}")
    print(f"{'case':<34}{'mean µs/call':>14}{'median µs':>12}{'plays/s':>14}")
    rows = [
        ("lead (concrete)", lambda p: legal_plays(p.hand, p.level), n_lead),
        ("follow", lambda p: legal_plays(p.hand, p.level, p.previous), n_follow),
        ("collapsed lead", lambda p: legal_plays(p.hand, p.level, collapse_suits=True), n_coll),
        ("lead + materialise every Play", lambda p: list(legal_plays(p.hand, p.level)), n_lead),
        ("lead + len() only", lambda p: len(legal_plays(p.hand, p.level)), n_lead),
    ]
    for name, fn, nplays in rows:
        mean, median = per_item(fn, pos, args.repeat)
        print(f"{name:<34}{mean:>14.2f}{median:>12.2f}{nplays / len(pos) / mean * 1e6:>14.3g}")
    los, his, levels = kernel_arrays(pos)
    for name, coll in (("kernel only, lead", False), ("kernel only, collapsed lead", True)):
        dt, total = median_run(partial(kernel_count, los, his, levels, collapse_suits=coll, repeat=10), args.repeat)
        print(f"{name:<34}{dt / (10 * len(pos)) * 1e6:>14.2f}{'':>12}{total / dt:>14.3g}")
    if not args.no_engine:
        engine(args.playouts, args.repeat)
    return 0


def engine(n: int, repeat: int) -> None:
    """The game engine: C playouts, deals through ``apply``, ``clone``, MC decisions."""
    from chupai.guandan import Deal, playouts

    engine_report(Deal, playouts, n, repeat)
