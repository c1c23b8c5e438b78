"""Gan Deng Yan's registry entry (:class:`chupai.registry.entry.Game`): what shared code needs of it.

A light module: it imports nothing compiled, the entry names the game's modules.
"""
from __future__ import annotations

from chupai.registry.entry import FOLLOW, Game, Option, PerftDepths, returns_field

__all__ = ["DECKS", "GAME"]

#: the numbers of decks played with, the first the default (``Rules().decks``)
DECKS = (1, 2)


def max_length(players: int) -> int:
    """A bound on the moves of a deal: every play removes a card of the 54 (a deck's
    worth drawn and played), at most ``players`` passes follow a play, and the chance node."""
    return 54 * (players + 1) + 16


GAME = Game(
    name="gandengyan", title="Gan Deng Yan", package="chupai.gandengyan", players=(2, 6),
    default_players=4, teams=False, rule_presets=("pagat",),
    decision_policy=None, evaluate_rules=(),
    outcome=returns_field, utility=(-54.0, 54.0 * 5), max_length=max_length,
    encoder="chupai.gandengyan._rl:GanDengYan",
    vector_tables="chupai.gandengyan._vector:GanDengYanCompiledTables",
    cli="chupai.gandengyan._cli",
    options=(Option("--decks", "one or two decks", type=int, choices=DECKS, default=DECKS[0]),),
    cli_options=(("plays", ("decks", *FOLLOW)), ("playout", ("players", "decks")),
                 ("arena", ("players", "decks"))),
    bench="chupai.gandengyan._bench",
    perft=PerftDepths(full=18, quick=13, slow_path=11, slow_path_deep=15),
    sample_plays=("3D 3S BJ", "--previous", "2S"),
)
