"""Type stubs for doudizhu's hook of the shared determinization."""
from collections.abc import Sequence

from chupai.cards import Cards
from chupai.doudizhu._engine import DealEngine

__all__ = ["world"]

def world(engine: DealEngine, player: int, known: Sequence[Cards | int], seed: int) -> DealEngine: ...
