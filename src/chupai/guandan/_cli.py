"""The Guan Dan parts of the ``chupai`` command (``chupai.cli`` dispatches here).

    chupai plays guandan "<hand>" --level 7 [--previous "<cards>"] [--rules competition] [--collapse] [--json]
    chupai playout guandan --deals 100000 --seed 1 [--policy random] [--threads 1]
"""
from __future__ import annotations

import argparse

import numpy as np

from chupai._cli_common import (
    check_type_name,
    dump_json,
    print_plays,
    timed_playouts,
    type_member_name,
)
from chupai.guandan._movegen import legal_plays
from chupai.guandan.classify import classify
from chupai.guandan.play import Play, PlayType
from chupai.guandan.playouts import playouts
from chupai.guandan.rules import Rules

__all__ = ["cmd_playout", "cmd_plays", "previous_play", "rules_of"]


def rules_of(args: argparse.Namespace) -> Rules:
    """The rules the command line asks for (``--rules pagat|competition``)."""
    return Rules.competition() if getattr(args, "rules", "pagat") == "competition" else Rules.pagat()


def previous_play(cards: str, level: str, rules: Rules, type_name: str | None) -> Play:
    """The one play the cards ``cards`` name at ``level`` (``type_name`` picks among several readings)."""
    readings = classify(cards, level, rules=rules)
    if type_name is not None:
        wanted = type_member_name(type_name)
        check_type_name(wanted, type_name, PlayType)
        readings = [p for p in readings if p.type.name == wanted]
    if not readings:
        raise ValueError(f"{cards!r} is not a play at level {level}")
    if len(readings) > 1:
        listed = "; ".join(str(p) for p in readings)
        raise ValueError(f"{cards!r} can be played {len(readings)} ways ({listed}); say which with --previous-type")
    return readings[0]


def cmd_plays(args: argparse.Namespace) -> int:
    if args.level is None:
        raise ValueError("guandan needs --level (the level rank, 2..A)")
    rules = rules_of(args)
    previous = None
    if args.previous:
        previous = previous_play(args.previous, args.level, rules, args.previous_type)
    plays = legal_plays(args.hand, args.level, previous, rules=rules, collapse_suits=args.collapse)
    if args.json:
        return dump_json(plays.to_protocol())
    what = f"that beat {previous}" if previous else "to lead"
    collapsed = ", suits collapsed" if args.collapse else ""
    return print_plays(f"{len(plays)} plays {what} (level {args.level}, {args.rules} rules{collapsed}):", plays,
                       or_pass=previous is not None)


def cmd_playout(args: argparse.Namespace) -> int:
    if args.players not in (None, 4):
        raise ValueError("guandan is played by 4 players")
    r = timed_playouts(args, playouts)
    counts = np.bincount(r.result, minlength=4)[1:]
    for name, n in zip(("1-2", "1-3", "1-4"), counts):
        print(f"  {name}: {n:>8} ({n / max(args.deals, 1):.1%})")
    wins = np.bincount(r.winner, minlength=2)
    print(f"  team 0 (seats 0, 2) won {wins[0]}, team 1 (seats 1, 3) won {wins[1]}")
    return 0
