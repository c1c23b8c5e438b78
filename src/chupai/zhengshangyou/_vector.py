"""Zheng Shangyou's compiled path of :class:`chupai.rl.VectorEnv` (the registry entry's
``vector_tables``): the shared driver (:class:`chupai.rl.compiled.CompiledTables`) over
Zheng Shangyou's tables (:class:`chupai.zhengshangyou._tables.ZhengShangyouTables`).
"""
from __future__ import annotations

from typing import Any

from chupai.core.records import NUM_FACES
from chupai.rl.compiled import CLIMBING_FIELDS, CompiledTables
from chupai.zhengshangyou._tables import ZhengShangyouTables

__all__ = ["ZhengShangyouCompiledTables"]


class ZhengShangyouCompiledTables(CompiledTables):
    """``num_envs`` Zheng Shangyou tables in C (first deals, any number of players)."""

    TABLES = ZhengShangyouTables
    FIELDS = {"default": (0, CLIMBING_FIELDS + (("table", lambda n: NUM_FACES), ("points", lambda n: n)))}

    def prototype(self, rules: Any, players: int) -> Any:
        from chupai.zhengshangyou._engine import DealEngine

        return DealEngine.random(0, players=players, rules=rules)

    def weights(self, rules: Any, players: int) -> list[float]:
        """Per finishing place, its points less the deal's mean (``Deal.returns()``)."""
        from chupai.zhengshangyou._engine import PLACE_POINTS

        # (the last holder scores nothing, even when second)
        points = [PLACE_POINTS[k] if k < min(len(PLACE_POINTS), players - 1) else 0 for k in range(players)]
        mean = sum(points) / players
        return [p - mean for p in points]

    def phases(self) -> tuple[str, ...]:
        from chupai.zhengshangyou._rl import ZhengShangyou

        return ZhengShangyou.phases

    def deal(self, seed: int) -> Any:
        from chupai.zhengshangyou import Deal

        return Deal(seed=seed, rules=self._rules, players=self.players)
