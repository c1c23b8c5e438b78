"""Type stubs for zhengshangyou's hook of the shared determinization."""
from collections.abc import Sequence

from chupai.cards import Cards
from chupai.zhengshangyou._engine import DealEngine

__all__ = ["exchange_hands", "world"]

def world(
    engine: DealEngine,
    player: int,
    known: Sequence[Cards | int],
    forbid: Sequence[int] | None,
    must: Sequence[int] | None,
    seed: int,
) -> DealEngine: ...
def exchange_hands(
    hands: Sequence[Cards | int],
    player: int,
    known: Sequence[Cards | int],
    forbid: Sequence[int] | None,
    must: Sequence[int] | None,
    seed: int,
    tied: int,
) -> list[int]: ...
