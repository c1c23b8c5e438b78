"""Type stubs for guandan's hook of the shared determinization."""
from collections.abc import Sequence

from chupai.cards import Cards
from chupai.guandan._engine import DealCore

__all__ = ["world"]

def world(
    core: DealCore,
    player: int,
    known: Sequence[Cards | int],
    forbid: Sequence[int] | None,
    must: Sequence[int] | None,
    seed: int,
) -> DealCore: ...
