"""The Zheng Shangyou parts of the ``chupai`` command (``chupai.cli`` dispatches here).

    chupai plays zhengshangyou "<hand>" [--previous "<cards>" [--previous-type T[:R]] [--previous-index N]]
                               [--no-joker-pair] [--collapse] [--json]
    chupai playout zhengshangyou --deals 100000 [--players 4] [--policy random] [--threads 1] [--json]
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
from chupai.zhengshangyou._movegen import legal_plays
from chupai.zhengshangyou.classify import classify
from chupai.zhengshangyou.play import Play, PlayType
from chupai.zhengshangyou.playouts import playouts
from chupai.zhengshangyou.rules import Rules

__all__ = ["DECKS", "cmd_playout", "cmd_plays", "previous_play", "rules_of"]

#: Zheng Shangyou is played with one deck (a hand and the play to beat share no card)
DECKS = 1


def rules_of(args: argparse.Namespace) -> Rules:
    """The rules the command line asks for (``--no-joker-pair``)."""
    return Rules(joker_pair=not getattr(args, "no_joker_pair", False))


def previous_play(cards: str, rules: Rules, type_name: str | None, index: int | None = None) -> Play:
    """The one play the cards ``cards`` name (``type_name`` ``TYPE[:RANK]``, the rank of
    a sequence being its top, and ``index`` pick among several readings)."""
    result: Play = choose_reading(cards, classify(cards, rules=rules), PlayType, type_name, index)
    return result


def cmd_plays(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    previous = None
    if args.previous is not None:
        check_previous_fits(args.hand, args.previous, DECKS)
        previous = previous_play(args.previous, rules, args.previous_type, args.previous_index)
    plays = legal_plays(args.hand, previous, rules=rules, collapse_suits=args.collapse)
    what = f"{plays_that(len(plays), 'beat')} {previous}" if previous else f"{plural(len(plays), 'play')} to lead"
    collapsed = " (suits collapsed)" if args.collapse else ""
    return report_plays(args, f"{what}{collapsed}:", plays, previous=previous,
                        can_pass=previous is not None, options={"joker_pair": rules.joker_pair})


def cmd_playout(args: argparse.Namespace) -> int:
    players = 4 if args.players is None else args.players
    r, seconds = timed_playouts(args, playouts, rules=rules_of(args), players=players)
    deals = max(args.deals, 1)
    firsts = np.bincount(r.winner, minlength=players)[:players].tolist()
    points = r.points.astype(np.float64)
    mean_points = points.mean(axis=0) if args.deals else np.zeros(players)
    # Deal.returns(): each seat's points less the deal's mean points
    mean_returns = mean_points - mean_points.mean()
    lines = [f"seat {s}: first out {firsts[s] / deals:6.1%}, mean points {mean_points[s]:.2f}" for s in range(players)]
    return report_playout(args, seconds, what=f" ({players} players)", players=players,
                          mean_returns=mean_returns.tolist(),
                          details={"first_out": firsts, "mean_points": mean_points.tolist()}, lines=lines)
