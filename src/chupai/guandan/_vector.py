"""Guan Dan's compiled path of :class:`chupai.rl.VectorEnv` (the registry entry's
``vector_tables``): the shared driver (:class:`chupai.rl.compiled.CompiledTables`) over
Guan Dan's tables (:class:`chupai.guandan._tables.GuanDanTables`), with the default
layout and DanZero's.
"""
from __future__ import annotations

from typing import Any

from chupai.core.records import NUM_FACES
from chupai.encoding.layout import Layout
from chupai.guandan import danzero
from chupai.guandan._tables import DANZERO_FIELDS, DEFAULT_FIELDS, GuanDanTables
from chupai.rl.compiled import CLIMBING_FIELDS, CompiledTables

__all__ = ["GuanDanCompiledTables"]

_LEVELS = 13


def _sized(names: tuple[str, ...], sizes: dict[str, int]) -> tuple[tuple[str, Any], ...]:
    return tuple((name, (lambda n, k=sizes[name]: k)) for name in names)


class GuanDanCompiledTables(CompiledTables):
    """``num_envs`` Guan Dan tables in C (first deals at level 2)."""

    TABLES = GuanDanTables
    FIELDS = {
        "default": (0, CLIMBING_FIELDS + _sized(DEFAULT_FIELDS[len(CLIMBING_FIELDS):], {
            "own_level": _LEVELS, "opponent_level": _LEVELS, "level": _LEVELS, "declarers": 3})),
        "danzero": (1, _sized(DANZERO_FIELDS, {
            "hand": NUM_FACES, "wild_flags": 12, "unseen": NUM_FACES, "last_action": NUM_FACES,
            "partner_action": NUM_FACES, "played_next": NUM_FACES, "left_next": danzero.MAX_HAND + 1,
            "own_level": _LEVELS, "opponent_level": _LEVELS, "level": _LEVELS})),
    }

    def prototype(self, rules: Any, players: int) -> Any:
        from chupai.guandan._engine import DealEngine

        return DealEngine.random(0, level="2", rules=rules)

    def weights(self, rules: Any, players: int) -> list[float]:
        from chupai.guandan.rules import PAGAT

        promotion = getattr(rules, "promotion", PAGAT.promotion)  # (the engine checks the rules' type)
        return [0.0] + [float(x) for x in promotion]

    def card_order(self, observation: str) -> list[int]:
        return [int(x) for x in danzero._PERM] if observation == "danzero" else list(range(NUM_FACES))

    def phases(self) -> tuple[str, ...]:
        from chupai.guandan._rl import GuanDan

        return GuanDan.phases

    def check_layout(self, observation: str, layout: Layout) -> None:
        """DanZero's triples (next, partner, previous) lie back to back, as the encoder writes them."""
        if observation != "danzero":
            return
        for first, rest in (("played_next", ("played_partner", "played_previous")),
                            ("left_next", ("left_partner", "left_previous"))):
            step = layout.field(first).size
            if [layout.offset(r) for r in rest] != [layout.offset(first) + step, layout.offset(first) + 2 * step]:
                raise RuntimeError(f"the fields after {first!r} are not where the compiled encoder writes them")

    def deal(self, seed: int) -> Any:
        from chupai.guandan import Deal

        return Deal(seed=seed, rules=self._rules)
