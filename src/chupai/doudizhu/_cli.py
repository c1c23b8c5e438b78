"""The Dou Dizhu parts of the ``chupai`` command (``chupai.cli`` dispatches here).

    chupai plays doudizhu "<hand>" [--previous "<cards>" [--previous-type T[:R]] [--previous-index N]]
                          [--rules standard|openspiel|rlcard|douzero] [--collapse] [--json]
    chupai playout doudizhu --deals 100000 [--rules standard] [--policy random] [--threads 1] [--json]
"""
from __future__ import annotations

import argparse

import numpy as np

from chupai.cli.common import (
    check_previous_fits,
    choose_reading,
    plays_that,
    plural,
    report_playout,
    report_plays,
    timed_playouts,
)
from chupai.doudizhu._entry import PRESETS
from chupai.doudizhu._movegen import legal_plays
from chupai.doudizhu.auction import SEATS
from chupai.doudizhu.classify import classify
from chupai.doudizhu.play import PlayType
from chupai.doudizhu.playouts import playouts
from chupai.doudizhu.rules import Rules

__all__ = ["cmd_playout", "cmd_plays", "rules_of"]

#: Dou Dizhu is played with one deck (a hand and the play to beat share no card)
DECKS = 1


def rules_of(args: argparse.Namespace) -> Rules:
    """The rules the command line asks for (``--rules``, a preset, default ``standard``)."""
    preset: Rules = getattr(Rules, getattr(args, "rules", None) or PRESETS[0])()
    return preset


def cmd_plays(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    preset = getattr(args, "rules", None) or PRESETS[0]
    previous = None
    if args.previous is not None:
        check_previous_fits(args.hand, args.previous, DECKS)
        previous = choose_reading(args.previous, classify(args.previous, rules=rules), PlayType, args.previous_type,
                                  args.previous_index)
    plays = legal_plays(args.hand, previous, rules=rules, collapse_suits=args.collapse)
    what = f"{plays_that(len(plays), 'beat')} {previous}" if previous else f"{plural(len(plays), 'play')} to lead"
    collapsed = ", suits collapsed" if args.collapse else ""
    return report_plays(args, f"{what} ({preset} rules{collapsed}):", plays, previous=previous,
                        can_pass=previous is not None, options={"rules": preset})


def cmd_playout(args: argparse.Namespace) -> int:
    r, seconds = timed_playouts(args, playouts, rules=rules_of(args))
    deals = max(args.deals, 1)
    landlord_won = float(np.mean(r.winner == r.landlord)) if args.deals else 0.0
    mean_returns = r.returns.mean(axis=0) if args.deals else np.zeros(SEATS)
    mean_stake = float(r.stake.mean()) if args.deals else 0.0
    lines = [f"seat {s}: landlord {np.count_nonzero(r.landlord == s) / deals:6.1%}, mean return {mean_returns[s]:+.3f}"
             for s in range(SEATS)]
    lines.append(f"the landlord won {landlord_won:.1%}; mean stake {mean_stake:.2f}")
    return report_playout(args, seconds, what=f" ({SEATS} players)", players=SEATS,
                          mean_returns=mean_returns.tolist(),
                          details={"landlord_won": landlord_won, "mean_stake": mean_stake}, lines=lines)
