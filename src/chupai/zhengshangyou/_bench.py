"""The plain benchmark runner for the Zheng Shangyou generator and playouts (``python
-m chupai.zhengshangyou._bench``, ``chupai bench --game zhengshangyou`` once wired),
and the seeded positions of ``bench/``.

Positions: seeded deals of ``players`` (default 4), each the first seat's hand, and a
previous play drawn uniformly from the next seat's legal leads.  Each generator figure
is measured over all the positions in one timed loop, repeated; the report gives the
mean per call of the median repeat (the machines are shared and noisy) and, for
contrast, the median single call.  The kernel is timed apart, without Python objects;
then the engine: C playouts on one and two threads, deals through ``apply``,
``clone``, Monte Carlo decisions.
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from functools import partial

import numpy as np

from chupai._timing import engine_report, median_run, per_item
from chupai.cards import Cards
from chupai.zhengshangyou._movegen import kernel_count, legal_plays
from chupai.zhengshangyou.play import Play
from chupai.zhengshangyou.playouts import playouts

SEED = 20261129
N_DEALS = 1000
DECK = 54


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


def kernel_arrays(pos: list[Position]) -> tuple[np.ndarray, np.ndarray]:
    """The hands as masks and the previous plays as (type, length, cls, key) rows."""
    hands = np.array([p.hand.lo for p in pos], dtype=np.uint64)
    prev = np.array(
        [[p.previous.type, p.previous.length, p.previous.multiplicity, p.previous.key] for p in pos],
        dtype=np.uint8,
    )
    return hands, prev


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="chupai bench zhengshangyou", description="Time the Zheng Shangyou generator.")
    ap.add_argument("--deals", type=int, default=N_DEALS)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--playouts", type=int, default=20000, help="deals per playout timing")
    ap.add_argument("--no-engine", action="store_true", help="time the generator only")
    args = ap.parse_args(argv)
    pos = positions(args.deals, players=args.players)
    n_lead = sum(len(legal_plays(p.hand)) for p in pos)
    n_coll = sum(len(legal_plays(p.hand, collapse_suits=True)) for p in pos)
    n_follow = sum(len(legal_plays(p.hand, p.previous)) for p in pos)
    size = len(pos[0].hand)
    print(f"{len(pos)} deals ({args.players} players, {size}-card hands); plays per call: lead {n_lead / len(pos):.1f}, "
          f"collapsed lead {n_coll / len(pos):.1f}, follow {n_follow / len(pos):.2f}")
    print(f"{'case':<34}{'mean µs/call':>14}{'median µs':>12}{'plays/s':>14}")
    rows = [
        ("lead (concrete)", lambda p: legal_plays(p.hand), n_lead),
        ("follow", lambda p: legal_plays(p.hand, p.previous), n_follow),
        ("collapsed lead", lambda p: legal_plays(p.hand, collapse_suits=True), n_coll),
        ("lead + materialise every Play", lambda p: list(legal_plays(p.hand)), n_lead),
    ]
    for name, fn, nplays in rows:
        mean, median = per_item(fn, pos, args.repeat)
        print(f"{name:<34}{mean:>14.2f}{median:>12.2f}{nplays / len(pos) / mean * 1e6:>14.3g}")
    hands, prev = kernel_arrays(pos)
    for name, kw in (
        ("kernel only, lead", {}),
        ("kernel only, collapsed lead", {"collapse_suits": True}),
        ("kernel only, follow", {"previous": prev}),
    ):
        dt, total = median_run(partial(kernel_count, hands, repeat=10, **kw), args.repeat)
        print(f"{name:<34}{dt / (10 * len(pos)) * 1e6:>14.2f}{'':>12}{total / dt:>14.3g}")
    if not args.no_engine:
        engine(args.playouts, args.repeat, args.players)
    return 0


def engine(n: int, repeat: int, players: int = 4) -> None:
    """The game engine: C playouts, deals through ``apply``, ``clone``, MC decisions."""
    from chupai.zhengshangyou.game import Deal

    engine_report(Deal, playouts, n, repeat, title=f"engine ({players} players)", players=players)


if __name__ == "__main__":
    raise SystemExit(main())
