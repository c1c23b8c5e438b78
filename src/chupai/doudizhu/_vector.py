"""Dou Dizhu's compiled path of :class:`chupai.rl.VectorEnv` (the registry entry's
``vector_tables``): the shared driver (:class:`chupai.rl.compiled.CompiledTables`) over
Dou Dizhu's tables (:class:`chupai.doudizhu._tables.DouDizhuTables`), for rules without
an auction (``Rules(bidding="none")``, as the ``rlcard`` and ``douzero`` presets): the
first bidder, seat 0, is the landlord at a base of 1.  Rules with an auction run on the
Python path.
"""
from __future__ import annotations

from typing import Any

from chupai.core.records import NUM_FACES
from chupai.doudizhu._tables import DouDizhuTables
from chupai.rl.compiled import CLIMBING_FIELDS, CompiledTables

__all__ = ["DouDizhuCompiledTables"]


class DouDizhuCompiledTables(CompiledTables):
    """``num_envs`` Dou Dizhu tables in C (deals without an auction)."""

    TABLES = DouDizhuTables
    FIELDS = {"default": (0, CLIMBING_FIELDS + (("landlord", lambda n: n), ("kitty", lambda n: NUM_FACES),
                                                ("base", lambda n: 1), ("stake", lambda n: 1)))}

    @classmethod
    def refuses(cls, rules: Any) -> str:
        """The tables play the card play only: rules with an auction are refused."""
        if rules.bidding == "none":
            return ""
        return (f"Dou Dizhu's compiled tables play deals without an auction (Rules(bidding='none'), as the "
                f"rlcard and douzero presets), not bidding={rules.bidding!r}")

    def prototype(self, rules: Any, players: int) -> Any:
        from chupai.doudizhu._engine import DealEngine

        return DealEngine.random(0, landlord=0, rules=rules)

    def weights(self, rules: Any, players: int) -> list[float]:
        """None: the engine's returns are the payments (``Deal.returns()``)."""
        return []

    def play_phase(self, observation: str) -> int:
        from chupai.doudizhu._rl import DouDizhu

        return DouDizhu.phases.index("play")

    def deal(self, seed: int) -> Any:
        from chupai.doudizhu import Deal

        return Deal(seed=seed, rules=self._rules)
