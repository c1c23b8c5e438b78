"""The Zheng Shangyou benchmark runner (``chupai bench zhengshangyou``, ``python -m
chupai.zhengshangyou._bench``) and the seeded positions of ``bench/``.

Positions: seeded deals of ``players`` (default 4), each the first seat's hand, and a
previous play drawn uniformly from the next seat's legal leads.  Each generator figure
is measured over all the positions in one timed loop, repeated; the report gives the
mean per call of the median repeat (the machines are shared and noisy) and, for
contrast, the median single call (CPU time).  The kernel is timed apart, without
Python objects; then the engine (C playouts on one and two threads, ``clone``) and the
Python surface (:mod:`chupai.evaluation.speed`).
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
from chupai.cards import Cards
from chupai.zhengshangyou._movegen import kernel_count, legal_plays
from chupai.zhengshangyou.play import Play
from chupai.zhengshangyou.playouts import playouts

__all__ = ["Position", "kernel_arrays", "lead_calls", "main", "positions"]

SEED = 20261129
N_DEALS = 1000
DECK = 54
PLAYERS = 4


@dataclass(frozen=True)
class Position:
    hand: Cards
    previous: Play


def positions(n: int = N_DEALS, seed: int = SEED, players: int = 4) -> list[Position]:
    """``n`` positions from a fixed seed (the same on every machine)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        order = rng.permutation(DECK)
        hands = [Cards.from_masks(sum(1 << int(f) for f in order[s::players])) for s in range(2)]
        leads = legal_plays(hands[1])
        out.append(Position(hands[0], leads[int(rng.integers(len(leads)))]))
    return out


def kernel_arrays(pos: Sequence[Position]) -> tuple[np.ndarray, np.ndarray]:
    """The hands as masks and the previous plays as (type, length, cls, key) rows."""
    hands = np.array([p.hand.lo for p in pos], dtype=np.uint64)
    prev = np.array(
        [[p.previous.type, p.previous.length, p.previous.multiplicity, p.previous.key] for p in pos],
        dtype=np.uint8,
    )
    return hands, prev


def lead_calls(n: int, seed: int) -> list[partial[Any]]:
    """``n`` seeded calls of ``legal_plays`` at a lead, each making a fresh list: 13-card
    hands of one deck (``bench/surface.py``'s Zheng Shangyou positions)."""
    rng = np.random.default_rng(seed)
    return [partial(legal_plays, Cards.from_counts(dealt_counts(rng, 1, 13))) for _ in range(n)]


def generator(report: Report, args: argparse.Namespace) -> None:
    """The generator rows: leads, follows, collapsed leads, materialised Plays, the kernel."""
    pos = positions(args.deals, players=PLAYERS)
    n_lead = sum(len(legal_plays(p.hand)) for p in pos)
    n_coll = sum(len(legal_plays(p.hand, collapse_suits=True)) for p in pos)
    n_follow = sum(len(legal_plays(p.hand, p.previous)) for p in pos)
    size = len(pos[0].hand)
    report.line(f"{len(pos)} deals ({PLAYERS} players, {size}-card hands); plays per call: lead {n_lead / len(pos):.1f}, "
                f"collapsed lead {n_coll / len(pos):.1f}, follow {n_follow / len(pos):.2f}")
    leads = [(p.hand,) for p in pos]
    rows: list[tuple[str, Callable[..., Any], list[tuple[Any, ...]], int]] = [
        ("lead (concrete)", legal_plays, leads, n_lead),
        ("follow", legal_plays, [(p.hand, p.previous) for p in pos], n_follow),
        ("collapsed lead", lambda hand: legal_plays(hand, collapse_suits=True), leads, n_coll),
        ("lead + materialise every Play", lambda hand: list(legal_plays(hand)), leads, n_lead),
    ]
    for name, fn, arglists, nplays in rows:
        mean, calls = per_call(fn, arglists, args.repeat)
        report.add(name, mean, items=nplays / len(pos), unit="plays", calls=calls)
    hands, prev = kernel_arrays(pos)
    kernels: list[tuple[str, dict[str, Any]]] = [
        ("kernel only, lead", {}),
        ("kernel only, collapsed lead", {"collapse_suits": True}),
        ("kernel only, follow", {"previous": prev}),
    ]
    for name, kw in kernels:
        dt, total = median_run(partial(kernel_count, hands, repeat=10, **kw), args.repeat)
        report.add(name, dt / (10 * len(pos)) * 1e6, items=total / (10 * len(pos)), unit="plays")


def engine(report: Report, args: argparse.Namespace) -> None:
    """The game engine: C playouts, ``clone``."""
    from chupai.zhengshangyou.game import Deal

    engine_report(report, Deal, playouts, args.playouts, args.repeat, players=PLAYERS)


def main(argv: Sequence[str] | None = None) -> int:
    return run("zhengshangyou", argv, generator, engine, deals=N_DEALS,
               description="Time the Zheng Shangyou generator, engine and Python surface (4 players).")


if __name__ == "__main__":
    raise SystemExit(main())
