"""Dou Dizhu's compiled path of :class:`chupai.rl.VectorEnv` (the registry entry's
``vector_tables``): the shared driver (:class:`chupai.rl.compiled.CompiledTables`) over
Dou Dizhu's tables (:class:`chupai.doudizhu._tables.DouDizhuTables`): the auction of the
rules (every ``bidding`` and ``all_pass``), then the card play.
"""
from __future__ import annotations

from typing import Any

from chupai.core.records import NUM_FACES
from chupai.doudizhu._tables import DouDizhuTables
from chupai.encoding.spaces import ActionSpace
from chupai.rl.compiled import CLIMBING_FIELDS, CompiledTables

__all__ = ["DouDizhuCompiledTables"]


class DouDizhuCompiledTables(CompiledTables):
    """``num_envs`` Dou Dizhu tables in C (first deals: seat 0 bids first)."""

    TABLES = DouDizhuTables
    FIELDS = {"default": (0, CLIMBING_FIELDS + (
        ("landlord", lambda n: n), ("kitty", lambda n: NUM_FACES), ("bids", lambda n: 4 * n),
        ("base", lambda n: 1), ("stake", lambda n: 1)))}

    def setup(self, tables: Any, rules: Any, space: ActionSpace) -> None:
        """The id of ``Bid(0)`` and the phase "bid" (the auction's rules are the prototype's)."""
        from chupai.doudizhu._rl import DouDizhu
        from chupai.doudizhu.auction import Bid

        tables.auction(space.decision_id(Bid(0)), DouDizhu.phases.index("bid"))

    def prototype(self, rules: Any, players: int) -> Any:
        from chupai.doudizhu._engine import DealEngine

        return DealEngine.random(0, landlord=0, rules=rules)

    def weights(self, rules: Any, players: int) -> list[float]:
        """None: the engine's returns are the payments (``Deal.returns()``)."""
        return []

    def phases(self) -> tuple[str, ...]:
        from chupai.doudizhu._rl import DouDizhu

        return DouDizhu.phases

    def deal(self, seed: int) -> Any:
        from chupai.doudizhu import Deal

        return Deal(seed=seed, rules=self._rules)
