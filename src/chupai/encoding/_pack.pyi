"""Type stubs of chupai.encoding._pack (see the .pyx)."""
from typing import Any

from chupai.core.cardset import Cards

__all__ = ["put_cards", "put_one"]

def put_cards(out: Any, at: int, cards: Cards, width: int = ...) -> None: ...
def put_one(out: Any, at: int, index: int, size: int) -> None: ...
