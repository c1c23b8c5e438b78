"""The Chinese Ten parts of the ``chupai`` command (``chupai.cli`` dispatches here).

    chupai plays chinese_ten "<hand>" --layout "<cards>" [--turned] [--free] [--variant pagat] [--collapse] [--json]
    chupai playout chinese_ten --deals 100000 [--players 4] [--variant pagat] [--policy random]
"""
from __future__ import annotations

import argparse

from chupai._cli_common import dump_json, print_plays, timed_playouts
from chupai.cards import Cards
from chupai.chinese_ten._movegen import captures, legal_plays
from chupai.chinese_ten.playouts import playouts
from chupai.chinese_ten.rules import Rules

__all__ = ["cmd_playout", "cmd_plays", "rules_of"]


def rules_of(args: argparse.Namespace) -> Rules:
    """The rules the command line asks for (``--variant``, ``--free``)."""
    return Rules(variant=args.variant, forced_capture=not getattr(args, "free", False))


def cmd_plays(args: argparse.Namespace) -> int:
    if args.layout is None:
        raise ValueError("chinese_ten needs --layout (the face-up cards)")
    rules = rules_of(args)
    if args.turned:
        plays = captures(args.hand, args.layout, rules=rules, collapse_suits=args.collapse)
    else:
        plays = legal_plays(args.hand, args.layout, rules=rules, collapse_suits=args.collapse)
    if args.json:
        return dump_json([[p.card, list(p.captured)] for p in plays])
    what = f"for the turned {args.hand}" if args.turned else "to play"
    return print_plays(f"{len(plays)} plays {what} on the layout {Cards(args.layout, decks=1)}"
                       f"{', capture optional' if args.free else ''}{', suits collapsed' if args.collapse else ''}:",
                       plays, or_pass=False)


def cmd_playout(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    players = 4 if args.players is None else args.players
    r = timed_playouts(args, playouts, f" ({rules.variant}, {players} players)", rules=rules, players=players)
    if args.deals:
        for s in range(players):
            print(f"  seat {s}: mean score {r.scores[:, s].mean():6.1f}, mean result {r.returns[:, s].mean():+6.2f}")
        print(f"  a red 5 took the other in {(r.bonus >= 0).mean():.1%} of the deals")
    return 0
