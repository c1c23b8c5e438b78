"""The Zheng Shangyou parts of the ``chupai`` command (``chupai.cli`` dispatches here).

    chupai plays zhengshangyou "<hand>" [--previous "<cards>"] [--previous-type T] [--no-joker-pair] [--collapse] [--json]
    chupai playout zhengshangyou --deals 100000 [--players 4] [--policy random] [--threads 1]
"""
from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from chupai.zhengshangyou._movegen import legal_plays
from chupai.zhengshangyou.classify import classify
from chupai.zhengshangyou.play import Play, PlayType
from chupai.zhengshangyou.playouts import playouts
from chupai.zhengshangyou.rules import Rules

__all__ = ["cmd_playout", "cmd_plays", "previous_play", "rules_of"]


def rules_of(args: argparse.Namespace) -> Rules:
    """The rules the command line asks for (``--no-joker-pair``)."""
    return Rules(joker_pair=not getattr(args, "no_joker_pair", False))


def previous_play(cards: str, rules: Rules, type_name: str | None) -> Play:
    """The one play the cards ``cards`` name (``type_name`` picks among several readings,
    and a sequence's top rank may follow a colon: ``sequence:7``)."""
    readings = classify(cards, rules=rules)
    if type_name is not None:
        wanted, _, top = type_name.upper().replace("-", "_").replace(" ", "_").partition(":")
        if wanted not in PlayType.__members__:
            raise ValueError(f"unknown play type {type_name!r}; one of {', '.join(PlayType.__members__).lower()}")
        readings = [p for p in readings if p.type.name == wanted and (not top or p.rank == top)]
    if len(readings) != 1:
        listed = "; ".join(str(p) for p in readings) or "none"
        raise ValueError(f"{cards!r} must be one play (readings: {listed}); say which with --previous-type")
    return readings[0]


def cmd_plays(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    previous = previous_play(args.previous, rules, args.previous_type) if args.previous else None
    plays = legal_plays(args.hand, previous, rules=rules, collapse_suits=args.collapse)
    if args.json:
        json.dump(plays.to_protocol(), sys.stdout)
        print()
        return 0
    what = f"that beat {previous}" if previous else "to lead"
    print(f"{len(plays)} plays {what}{' (suits collapsed)' if args.collapse else ''}:")
    for p in plays:
        print(f"  {p}")
    if previous:
        print("  (or pass)")
    return 0


def cmd_playout(args: argparse.Namespace) -> int:
    players = 4 if args.players is None else args.players
    t0 = time.perf_counter()
    r = playouts(args.deals, seed=args.seed, policy=args.policy, threads=args.threads, players=players,
                 progress=not args.quiet)
    dt = time.perf_counter() - t0
    print(f"{args.deals} deals ({players} players), {args.policy} policy, {args.threads} thread(s): "
          f"{dt:.2f} s, {args.deals / dt:,.0f} deals/s")
    if args.deals:
        firsts = np.bincount(r.winner, minlength=players)
        for s in range(players):
            print(f"  seat {s}: first out {firsts[s] / args.deals:6.1%}, mean points {r.points[:, s].mean():.2f}")
    return 0
