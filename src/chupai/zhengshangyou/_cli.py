"""The Zheng Shangyou parts of the ``chupai`` command (``chupai.cli`` dispatches here).

    chupai plays zhengshangyou "<hand>" [--previous "<cards>"] [--previous-type T] [--no-joker-pair] [--collapse] [--json]
    chupai playout zhengshangyou --deals 100000 [--players 4] [--policy random] [--threads 1]
"""
from __future__ import annotations

import argparse

import numpy as np

from chupai._cli_common import (
    check_type_name,
    dump_json,
    one_reading,
    print_plays,
    timed_playouts,
    type_member_name,
)
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
        wanted, _, top = type_member_name(type_name).partition(":")
        check_type_name(wanted, type_name, PlayType)
        readings = [p for p in readings if p.type.name == wanted and (not top or p.rank == top)]
    return one_reading(cards, readings)


def cmd_plays(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    previous = previous_play(args.previous, rules, args.previous_type) if args.previous else None
    plays = legal_plays(args.hand, previous, rules=rules, collapse_suits=args.collapse)
    if args.json:
        return dump_json(plays.to_protocol())
    what = f"that beat {previous}" if previous else "to lead"
    collapsed = " (suits collapsed)" if args.collapse else ""
    return print_plays(f"{len(plays)} plays {what}{collapsed}:", plays, or_pass=previous is not None)


def cmd_playout(args: argparse.Namespace) -> int:
    players = 4 if args.players is None else args.players
    r = timed_playouts(args, playouts, f" ({players} players)", players=players)
    if args.deals:
        firsts = np.bincount(r.winner, minlength=players)
        for s in range(players):
            print(f"  seat {s}: first out {firsts[s] / args.deals:6.1%}, mean points {r.points[:, s].mean():.2f}")
    return 0
