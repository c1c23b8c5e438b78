"""Type stubs for guandan's hook of the shared determinization."""
from collections.abc import Sequence
from typing import Any

from chupai.cards import Cards
from chupai.guandan._engine import DealEngine

__all__ = ["options", "return_faces", "top_faces", "tribute_hands", "world"]

def world(
    engine: DealEngine,
    player: int,
    known: Sequence[Cards | int],
    forbid: Sequence[int] | None,
    must: Sequence[int] | None,
    seed: int,
) -> DealEngine: ...
def top_faces(hand: Cards, level: int) -> int: ...
def return_faces(hand: Cards, received: int, low: int | None) -> int: ...
def options(mask: int, table: tuple[Any, ...]) -> tuple[Any, ...]: ...
def tribute_hands(
    hands: Sequence[Cards],
    player: int,
    known: Sequence[Cards | int],
    forbid: Sequence[int] | None,
    must: Sequence[int] | None,
    seed: int,
    level: int,
    payers: int,
    unpaid: int,
    reds: int,
    tied: int,
) -> list[Cards]: ...
