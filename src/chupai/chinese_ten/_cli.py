"""The Chinese Ten parts of the ``chupai`` command (``chupai.cli`` dispatches here).

    chupai plays chinese_ten "<hand>" --layout "<cards>" [--turned] [--free] [--variant pagat] [--collapse] [--json]
    chupai playout chinese_ten --deals 100000 [--players 4] [--variant pagat] [--free] [--policy random] [--json]
"""
from __future__ import annotations

import argparse

from chupai.cli.common import plural, report_playout, report_plays, timed_playouts
from chupai.cards import Cards
from chupai.chinese_ten._movegen import captures, legal_plays
from chupai.chinese_ten.playouts import playouts
from chupai.chinese_ten.rules import Rules

__all__ = ["cmd_playout", "cmd_plays", "rules_of"]


def rules_of(args: argparse.Namespace) -> Rules:
    """The rules the command line asks for (``--variant``, default pagat; ``--free``)."""
    variant = getattr(args, "variant", None)
    return Rules(variant="pagat" if variant is None else variant, forced_capture=not getattr(args, "free", False))


def cmd_plays(args: argparse.Namespace) -> int:
    if args.layout is None:
        raise ValueError("chinese_ten needs --layout (the face-up cards)")
    rules = rules_of(args)
    if args.turned:
        plays = captures(args.hand, args.layout, rules=rules, collapse_suits=args.collapse)
    else:
        plays = legal_plays(args.hand, args.layout, rules=rules, collapse_suits=args.collapse)
    layout = Cards(args.layout, decks=1)
    what = f"for the turned {args.hand}" if args.turned else "to play"
    on = f"on the layout {layout}" if len(layout) else "on an empty layout"
    header = (f"{plural(len(plays), 'play')} {what} {on}"
              f"{', capture optional' if args.free else ''}{', suits collapsed' if args.collapse else ''}:")
    return report_plays(args, header, plays, previous=None, can_pass=False,
                        options={"layout": list(layout), "turned": args.turned, "variant": rules.variant,
                                 "forced_capture": rules.forced_capture})


def cmd_playout(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    players = 4 if args.players is None else args.players
    r, seconds = timed_playouts(args, playouts, rules=rules, players=players)
    mean_scores = r.scores.mean(axis=0).tolist() if args.deals else [0.0] * players
    mean_returns = r.returns.mean(axis=0).tolist() if args.deals else [0.0] * players
    bonus = float((r.bonus >= 0).mean()) if args.deals else 0.0
    lines = [f"seat {s}: mean score {mean_scores[s]:6.1f}, mean result {mean_returns[s]:+6.2f}" for s in range(players)]
    lines.append(f"a red 5 took the other in {bonus:.1%} of the deals")
    return report_playout(args, seconds, what=f" ({rules.variant}, {players} players)", players=players,
                          mean_returns=mean_returns,
                          details={"mean_scores": mean_scores, "red_five_bonus_share": bonus}, lines=lines)
