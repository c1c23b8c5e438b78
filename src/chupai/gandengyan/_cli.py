"""The Gan Deng Yan parts of the ``chupai`` command (``chupai.cli`` dispatches here).

    chupai plays gandengyan "<hand>" [--previous "<cards>"] [--decks 2] [--collapse] [--json]
    chupai playout gandengyan --deals 100000 [--players 4] [--decks 1] [--policy random]
"""
from __future__ import annotations

import argparse

import numpy as np

from chupai._cli_common import (
    dump_json,
    one_reading,
    print_plays,
    timed_playouts,
    type_member_name,
)
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
            wanted = type_member_name(args.previous_type)
            readings = [p for p in readings if p.type.name == wanted]
        previous = one_reading(args.previous, readings)
    plays = legal_plays(args.hand, previous, rules=rules, collapse_suits=args.collapse)
    if args.json:
        return dump_json(plays.to_protocol())
    what = f"that may follow {previous}" if previous else "to lead"
    collapsed = ", suits collapsed" if args.collapse else ""
    return print_plays(f"{len(plays)} plays {what} ({args.decks} deck(s){collapsed}):", plays,
                       or_pass=previous is not None)


def cmd_playout(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    players = 4 if args.players is None else args.players
    r = timed_playouts(args, playouts, f" ({players} players, {args.decks} deck(s))", rules=rules, players=players)
    if args.deals:
        wins = np.bincount(r.winner + 1, minlength=players + 1)
        for s in range(players):
            print(f"  seat {s}: won {wins[s + 1]} ({wins[s + 1] / args.deals:.1%}), mean score {r.returns[:, s].mean():+6.2f}")
        print(f"  mean tricks {r.tricks.mean():.1f}; no winner in {wins[0]} deal(s)")
    return 0
