"""Gan Deng Yan's compiled path of :class:`chupai.rl.VectorEnv` (the registry entry's
``vector_tables``): the shared driver (:class:`chupai.rl.compiled.CompiledTables`) over
Gan Deng Yan's tables (:class:`chupai.gandengyan._tables.GanDengYanTables`).
"""
from __future__ import annotations

from typing import Any

from chupai.gandengyan._tables import GanDengYanTables
from chupai.rl.compiled import CLIMBING_FIELDS, CompiledTables

__all__ = ["GanDengYanCompiledTables"]


class GanDengYanCompiledTables(CompiledTables):
    """``num_envs`` Gan Deng Yan tables in C (first deals, any number of players)."""

    TABLES = GanDengYanTables
    FIELDS = {"default": (0, CLIMBING_FIELDS + (("talon_size", lambda n: 1), ("multiplier", lambda n: 1)))}

    def prototype(self, rules: Any, players: int) -> Any:
        from chupai.gandengyan._engine import DealEngine

        return DealEngine.random(0, players=players, rules=rules)

    def weights(self, rules: Any, players: int) -> list[float]:
        """None: the engine's returns are the scores (``Deal.returns()``)."""
        return []

    def phases(self) -> tuple[str, ...]:
        from chupai.gandengyan._rl import GanDengYan

        return GanDengYan.phases

    def deal(self, seed: int) -> Any:
        from chupai.gandengyan import Deal

        return Deal(seed=seed, rules=self._rules, players=self.players)
