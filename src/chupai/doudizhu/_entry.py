"""Dou Dizhu's registry entry (:class:`chupai.registry.entry.Game`): what shared code needs of it.

A light module: it imports nothing compiled, the entry names the game's modules.
"""
from __future__ import annotations

from typing import Any

from chupai.registry.entry import FOLLOW, Game, Option, PerftDepths

__all__ = ["GAME", "PRESETS"]

#: the named rule sets (``Rules`` classmethods), the first the default (``Rules()``)
PRESETS = ("standard", "openspiel", "rlcard", "douzero")

#: the most a seat can win or lose in one deal under the default rules: the landlord
#: takes twice the stake, which is the top bid (3) doubled by at most 13 bombs, the
#: rocket and a spring or anti-spring
MOST_RETURN = 2.0 * 3 * 2 ** 15


def outcome(rules: Any, out: Any) -> list[float]:
    """A playout's (landlord, winner, stake, returns) as returns: each seat's payment
    (``Deal.returns``)."""
    return [float(x) for x in out[3]]


def max_length(players: int) -> int:
    """A bound on the moves of a deal: at most four auctions (the first and three dealt
    again, ``chupai.doudizhu.deal.MAX_REDEALS``) of at most five bids each and their
    redeal events, then the card play, where every play removes one of the 54 cards and
    at most two passes follow it, and the chance node."""
    return 4 * 6 + 54 * 3 + 1


GAME = Game(
    name="doudizhu", title="Dou Dizhu", package="chupai.doudizhu", players=(3, 3), default_players=3,
    teams=False, rule_presets=PRESETS,
    decision_policy="chupai.doudizhu.bidding:decision_choice", evaluate_rules=(),
    outcome=outcome, utility=(-MOST_RETURN, MOST_RETURN), max_length=max_length,
    encoder="chupai.doudizhu._rl:DouDizhu",
    vector_tables="chupai.doudizhu._vector:DouDizhuCompiledTables",
    cli="chupai.doudizhu._cli",
    options=(Option("--rules", "the rules preset", choices=PRESETS, default=PRESETS[0]),),
    cli_options=(("plays", ("rules", *FOLLOW)), ("playout", ("rules",)), ("arena", ("rules",))),
    bench="chupai.doudizhu._bench",
    perft=PerftDepths(full=8, quick=6, slow_path=4, slow_path_deep=5),
    sample_plays=("3D 3S 4H 4S", "--previous", "3C 3H"),
    roles="chupai.doudizhu.scoring:roles", side_role="landlord",
    networks=(("douzero", "chupai.doudizhu.douzero"),),
)
