"""Guan Dan's registry entry (:class:`chupai.registry.entry.Game`): what shared code needs of it.

A light module: it imports nothing compiled, the entry names the game's modules.
"""
from __future__ import annotations

from typing import Any

from chupai.registry.entry import FOLLOW, Game, Option, PerftDepths

__all__ = ["GAME", "PRESETS"]

#: the named rule sets (``Rules`` classmethods), the first the default
PRESETS = ("pagat", "competition")


def outcome(rules: Any, out: Any) -> list[float]:
    """A playout's (finishing order, result 1..3) as returns: the winners' promotion
    ``rules.promotion[result - 1]``, its negative for the losers (``Deal.returns``)."""
    order, result = out
    gain = float(rules.promotion[result - 1])
    winners = order[0] % 2
    return [gain if s % 2 == winners else -gain for s in range(4)]


def max_length(players: int) -> int:
    """A bound on the moves of a deal: every play removes one of the 108 cards, at most
    ``players`` passes follow a play, and a few tribute steps and the chance node."""
    return 108 * (players + 1) + 16


GAME = Game(
    name="guandan", title="Guan Dan", package="chupai.guandan", players=(4, 4), default_players=4,
    teams=True, rule_presets=PRESETS,
    decision_policy="chupai.guandan.tribute:decision_choice", evaluate_rules=("promotion",),
    evaluate_win=((1, 1, 1),),
    outcome=outcome, utility=(-4.0, 4.0), max_length=max_length, encoder="chupai.guandan._rl:GuanDan",
    cli="chupai.guandan._cli",
    options=(Option("--level", "the level rank, 2..A", metavar="RANK", required=True),
             Option("--rules", "the rules preset", choices=PRESETS, default=PRESETS[0])),
    cli_options=(("plays", ("level", "rules", *FOLLOW)), ("playout", ("rules",)), ("arena", ("rules",))),
    bench="chupai.guandan._bench",
    perft=PerftDepths(full=4, quick=3, slow_path=2, slow_path_deep=3),
    sample_plays=("3D 3S 2H", "--level", "2", "--previous", "4S"),
    commands=("chupai.guandan.protocol.cli",),
    vector_tables="chupai.guandan._vector:GuanDanCompiledTables",
    observations=(("danzero", "chupai.guandan.danzero"),),
)
