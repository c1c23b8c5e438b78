"""The Gan Deng Yan parts of the ``chupai`` command (``chupai.cli`` dispatches here).

    chupai plays gandengyan "<hand>" [--previous "<cards>" [--previous-type T[:R]] [--previous-index N]]
                            [--decks 2] [--collapse] [--json]
    chupai playout gandengyan --deals 100000 [--players 4] [--decks 1] [--policy random] [--json]
"""
from __future__ import annotations

import argparse

import numpy as np

from chupai.cli.common import (
    check_previous_fits,
    choose_reading,
    plural,
    report_playout,
    report_plays,
    timed_playouts,
)
from chupai.gandengyan._movegen import legal_plays
from chupai.gandengyan.classify import classify
from chupai.gandengyan.play import PlayType
from chupai.gandengyan.playouts import playouts
from chupai.gandengyan.rules import Rules

__all__ = ["cmd_playout", "cmd_plays", "rules_of"]


def rules_of(args: argparse.Namespace) -> Rules:
    """The rules the command line asks for (``--decks``, default 1)."""
    decks = getattr(args, "decks", None)
    return Rules(decks=1 if decks is None else decks)


def cmd_plays(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    previous = None
    if args.previous is not None:
        check_previous_fits(args.hand, args.previous, rules.decks)
        previous = choose_reading(args.previous, classify(args.previous, rules=rules), PlayType, args.previous_type,
                                  args.previous_index)
    plays = legal_plays(args.hand, previous, rules=rules, collapse_suits=args.collapse)
    what = f"{plural(len(plays), 'play')} that may follow {previous}" if previous else f"{plural(len(plays), 'play')} to lead"
    collapsed = ", suits collapsed" if args.collapse else ""
    return report_plays(args, f"{what} ({plural(rules.decks, 'deck')}{collapsed}):",
                        plays, previous=previous, can_pass=previous is not None, options={"decks": rules.decks})


def cmd_playout(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    players = 4 if args.players is None else args.players
    r, seconds = timed_playouts(args, playouts, rules=rules, players=players)
    deals = max(args.deals, 1)
    wins = np.bincount(r.winner + 1, minlength=players + 1).tolist()
    mean_returns = r.returns.mean(axis=0) if args.deals else np.zeros(players)
    lines = [f"seat {s}: won {wins[s + 1]} ({wins[s + 1] / deals:.1%}), mean score {mean_returns[s]:+6.2f}"
             for s in range(players)]
    mean_tricks = float(r.tricks.mean()) if args.deals else 0.0
    lines.append(f"mean tricks {mean_tricks:.1f}; no winner in {plural(wins[0], 'deal')}")
    return report_playout(args, seconds, what=f" ({players} players, {plural(rules.decks, 'deck')})",
                          players=players, mean_returns=mean_returns.tolist(),
                          details={"wins": wins[1:], "no_winner": wins[0], "mean_tricks": mean_tricks}, lines=lines)
