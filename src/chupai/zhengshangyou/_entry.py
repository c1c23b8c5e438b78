"""Zheng Shangyou's registry entry (:class:`chupai.registry.entry.Game`): what shared code needs of it.

A light module: it imports nothing compiled, the entry names the game's modules.
"""
from __future__ import annotations

from typing import Any

from chupai.registry.entry import FOLLOW, Game, Option, PerftDepths

__all__ = ["GAME"]


def outcome(rules: Any, out: Any) -> list[float]:
    """A playout's (finishing order, points per seat) as returns: each seat's points less
    their mean, a zero sum (``Deal.returns``)."""
    points = out[1]
    mean = sum(points) / len(points)
    return [p - mean for p in points]


def max_length(players: int) -> int:
    """A bound on the moves of a deal: every play removes one of the 54 cards, at most
    ``players`` passes follow a play, and a few exchange steps and the chance node."""
    return 54 * (players + 1) + 16


GAME = Game(
    name="zhengshangyou", title="Zheng Shangyou", package="chupai.zhengshangyou", players=(2, 8),
    default_players=4, teams=False, rule_presets=("pagat",),
    decision_policy="chupai.zhengshangyou.exchange:decision_choice", evaluate_rules=(),
    outcome=outcome, utility=(-1.5, 2.0), max_length=max_length, encoder="chupai.zhengshangyou._rl:ZhengShangyou",
    vector_tables="chupai.zhengshangyou._vector:ZhengShangyouCompiledTables",
    cli="chupai.zhengshangyou._cli",
    options=(Option("--no-joker-pair", "the two jokers are not a pair", switch=True),),
    cli_options=(("plays", ("no_joker_pair", *FOLLOW)), ("playout", ("players", "no_joker_pair")),
                 ("arena", ("players", "no_joker_pair"))),
    bench="chupai.zhengshangyou._bench",
    perft=PerftDepths(full=8, quick=6, slow_path=4, slow_path_deep=6),
    sample_plays=("3D 3S BJ", "--previous", "4S"),
)
