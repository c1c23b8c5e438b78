"""Chinese Ten's registry entry (:class:`chupai.registry.entry.Game`): what shared code needs of it.

A light module: it imports nothing compiled, the entry names the game's modules.
:data:`VARIANTS` is the one list of the variants (``Rules.variant``, the rule presets
and the ``--variant`` choices).
"""
from __future__ import annotations

from chupai.registry.entry import Game, Option, PerftDepths, returns_field

__all__ = ["GAME", "VARIANTS"]

#: the variants, the first the default; each is a ``Rules`` classmethod (a rule preset)
VARIANTS = ("pagat", "taiwanese", "barraco", "gob_dum_gob_dang", "main_merah")


def max_length(players: int) -> int:
    """A bound on the moves of a deal: each of the 52 cards is played or turned from the
    stock once (at most two moves each), and the chance node."""
    return 2 * 52 + 1


GAME = Game(
    name="chinese_ten", title="Chinese Ten", package="chupai.chinese_ten", players=(2, 4),
    default_players=4, teams=False, rule_presets=VARIANTS,
    decision_policy=None, evaluate_rules=(),
    outcome=returns_field, utility=(-280.0, 280.0), max_length=max_length,
    encoder="chupai.chinese_ten._rl:ChineseTen",
    vector_tables="chupai.chinese_ten._vector:ChineseTenCompiledTables",
    cli="chupai.chinese_ten._cli",
    options=(Option("--layout", 'the face-up cards, e.g. "QD 3S 3H 6C" ("" for none)', metavar="CARDS",
                    required=True),
             Option("--turned", "the hand is the card turned from the stock", switch=True),
             Option("--free", "capturing is optional (forced_capture off)", switch=True),
             Option("--variant", "the variant", choices=VARIANTS, default=VARIANTS[0])),
    cli_options=(("plays", ("layout", "turned", "free", "variant")),
                 ("playout", ("players", "variant", "free")), ("arena", ("players", "variant", "free"))),
    bench="chupai.chinese_ten._bench",
    perft=PerftDepths(full=9, quick=7, slow_path=5, slow_path_deep=7),
    sample_plays=("7S AS", "--layout", "QD 3S 3H 6C"),
)
