"""Chinese Ten's compiled path of :class:`chupai.rl.VectorEnv` (the registry entry's
``vector_tables``): the shared driver (:class:`chupai.rl.compiled.CompiledTables`) over
Chinese Ten's tables (:class:`chupai.chinese_ten._tables.ChineseTenTables`).
"""
from __future__ import annotations

from typing import Any

from chupai.chinese_ten._rl import CARDS
from chupai.chinese_ten._tables import FIELDS, ChineseTenTables
from chupai.rl.compiled import CompiledTables

__all__ = ["ChineseTenCompiledTables"]

_SIZES = {"hand": lambda n: CARDS, "layout": lambda n: CARDS, "turned": lambda n: CARDS,
          "piles": lambda n: n * CARDS, "scores": lambda n: n, "hand_sizes": lambda n: n,
          "stock_size": lambda n: 1, "to_act": lambda n: n, "phase": None}


class ChineseTenCompiledTables(CompiledTables):
    """``num_envs`` Chinese Ten tables in C (first deals, dealer seat 0, any number of
    players its rules allow)."""

    TABLES = ChineseTenTables
    FIELDS = {"default": (0, tuple((name, _SIZES[name]) for name in FIELDS))}

    def phases(self) -> tuple[str, ...]:
        from chupai.chinese_ten._rl import ChineseTen

        return ChineseTen.phases

    def prototype(self, rules: Any, players: int) -> Any:
        from chupai.chinese_ten._engine import DealEngine

        return DealEngine.random(0, players=players, rules=rules)

    def weights(self, rules: Any, players: int) -> list[float]:
        """None: the engine's returns are the deal's (its scores less the par, the bonus)."""
        return []

    def deal(self, seed: int) -> Any:
        from chupai.chinese_ten import Deal

        return Deal(seed=seed, rules=self._rules, players=self.players)
