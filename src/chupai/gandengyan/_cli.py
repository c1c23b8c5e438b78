"""The Gan Deng Yan parts of the ``chupai`` command (``chupai.cli`` dispatches here).

    chupai plays gandengyan "<hand>" [--previous "<cards>"] [--decks 2] [--collapse] [--json]
    chupai playout gandengyan --deals 100000 [--players 4] [--decks 1] [--policy random]
"""
from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from chupai.gandengyan._movegen import legal_plays
from chupai.gandengyan.classify import classify
from chupai.gandengyan.playouts import playouts
from chupai.gandengyan.rules import Rules

__all__ = ["cmd_playout", "cmd_plays", "rules_of"]


def rules_of(args: argparse.Namespace) -> Rules:
    """The rules the command line asks for (``--decks``)."""
    return Rules(decks=args.decks)


def cmd_plays(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    previous = None
    if args.previous:
        readings = classify(args.previous, rules=rules)
        if args.previous_type is not None:
            wanted = args.previous_type.upper().replace("-", "_").replace(" ", "_")
            readings = [p for p in readings if p.type.name == wanted]
        if len(readings) != 1:
            listed = "; ".join(str(p) for p in readings) or "none"
            raise ValueError(f"{args.previous!r} must be one play (readings: {listed}); say which with --previous-type")
        previous = readings[0]
    plays = legal_plays(args.hand, previous, rules=rules, collapse_suits=args.collapse)
    if args.json:
        json.dump(plays.to_protocol(), sys.stdout)
        print()
        return 0
    what = f"that may follow {previous}" if previous else "to lead"
    print(f"{len(plays)} plays {what} ({args.decks} deck(s){', suits collapsed' if args.collapse else ''}):")
    for p in plays:
        print(f"  {p}")
    if previous:
        print("  (or pass)")
    return 0


def cmd_playout(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    players = 4 if args.players is None else args.players
    t0 = time.perf_counter()
    r = playouts(args.deals, seed=args.seed, policy=args.policy, threads=args.threads, rules=rules,
                 players=players, progress=not args.quiet)
    dt = time.perf_counter() - t0
    print(f"{args.deals} deals ({players} players, {args.decks} deck(s)), {args.policy} policy, {args.threads} "
          f"thread(s): {dt:.2f} s, {args.deals / dt:,.0f} deals/s")
    if args.deals:
        wins = np.bincount(r.winner + 1, minlength=players + 1)
        for s in range(players):
            print(f"  seat {s}: won {wins[s + 1]} ({wins[s + 1] / args.deals:.1%}), mean score {r.returns[:, s].mean():+6.2f}")
        print(f"  mean tricks {r.tricks.mean():.1f}; no winner in {wins[0]} deal(s)")
    return 0
