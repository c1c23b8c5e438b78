"""The Guan Dan parts of the ``chupai`` command (``chupai.cli`` dispatches here).

    chupai plays guandan "<hand>" --level 7 [--previous "<cards>" [--previous-type T[:R]] [--previous-index N]]
                         [--rules competition] [--collapse] [--json]
    chupai playout guandan --deals 100000 --seed 1 [--rules competition] [--policy random] [--threads 1] [--json]
"""
from __future__ import annotations

import argparse

import numpy as np

from chupai.cli.common import (
    check_previous_fits,
    choose_reading,
    level_name,
    plays_that,
    plural,
    report_playout,
    report_plays,
    timed_playouts,
)
from chupai.guandan._movegen import legal_plays
from chupai.guandan.classify import classify
from chupai.guandan.play import Play, PlayType
from chupai.guandan.playouts import playouts
from chupai.guandan.rules import Rules

__all__ = ["DECKS", "cmd_playout", "cmd_plays", "previous_play", "rules_of"]

#: Guan Dan is played with two decks (a hand and the play to beat hold a card at most twice)
DECKS = 2
# the names of r.result 1, 2, 3: the partner of the first out finished second, third, last
_RESULTS = ("1-2", "1-3", "1-4")


def rules_of(args: argparse.Namespace) -> Rules:
    """The rules the command line asks for (``--rules pagat|competition``, default pagat)."""
    return Rules.competition() if getattr(args, "rules", None) == "competition" else Rules.pagat()


def previous_play(cards: str, level: str, rules: Rules, type_name: str | None, index: int | None = None) -> Play:
    """The one play the cards ``cards`` name at ``level`` (``type_name`` ``TYPE[:RANK]``
    and ``index`` pick among several readings, :func:`chupai.cli.common.choose_reading`)."""
    result: Play = choose_reading(cards, classify(cards, level, rules=rules), PlayType, type_name, index,
                                 f" at level {level}")
    return result


def cmd_plays(args: argparse.Namespace) -> int:
    if args.level is None:
        raise ValueError("guandan needs --level (the level rank, 2..A)")
    level = level_name(args.level)
    rules = rules_of(args)
    previous = None
    if args.previous is not None:
        check_previous_fits(args.hand, args.previous, DECKS)
        previous = previous_play(args.previous, level, rules, args.previous_type, args.previous_index)
    plays = legal_plays(args.hand, level, previous, rules=rules, collapse_suits=args.collapse)
    what = f"{plays_that(len(plays), 'beat')} {previous}" if previous else f"{plural(len(plays), 'play')} to lead"
    preset = args.rules or "pagat"
    collapsed = ", suits collapsed" if args.collapse else ""
    return report_plays(args, f"{what} (level {level}, {preset} rules{collapsed}):",
                        plays, previous=previous, can_pass=previous is not None,
                        options={"level": level, "rules": preset})


def cmd_playout(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    r, seconds = timed_playouts(args, playouts, rules=rules)
    counts = np.bincount(r.result, minlength=4)[1:].tolist()
    wins = np.bincount(r.winner, minlength=2).tolist()
    # a seat's return: the levels its team gained (rules.promotion by result), negated for the losers
    gain = np.array((0, *rules.promotion), dtype=np.float64)[r.result]
    team = np.array([s % 2 for s in range(4)])
    sign = np.where(r.winner[:, None] == team[None, :], 1.0, -1.0)
    mean_returns = (sign * gain[:, None]).mean(axis=0) if args.deals else np.zeros(4)
    deals = max(args.deals, 1)
    lines = [f"{name}: {n:>8} ({n / deals:.1%})" for name, n in zip(_RESULTS, counts)]
    lines.append(f"team 0 (seats 0, 2) won {wins[0]}, team 1 (seats 1, 3) won {wins[1]}")
    return report_playout(args, seconds, what="", players=4, mean_returns=mean_returns.tolist(),
                          details={"results": dict(zip(_RESULTS, counts)), "team_wins": wins}, lines=lines)
