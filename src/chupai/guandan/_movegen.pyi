"""Type stubs for the compiled Guan Dan generator."""
from collections.abc import Iterable
from typing import Any

import numpy as np

from chupai.core.records import GameClasses, PlayList
from chupai.cards import Cards
from chupai.guandan.play import Play
from chupai.guandan.rules import Rules

__pyx_capi__: dict[str, Any]
__test__: dict[str, str]

GAME_CLASSES: GameClasses
FLAG_SF_AS_STRAIGHT: int
FLAG_JOKER_PAIR_IN_FULL_HOUSE: int

def parse_rank(rank: Any, what: str = "rank") -> int:
    """Rank index 0..12 (2..A) of a rank character, ``'10'``, or an int 2..14."""

def legal_plays(
    hand: Cards | str | Iterable[str],
    level: str | int,
    previous: Play | None = None,
    *,
    rules: Rules | None = None,
    collapse_suits: bool = False,
) -> PlayList[Play]: ...
def kernel_count(
    los: np.ndarray,
    his: np.ndarray,
    levels: np.ndarray,
    previous: np.ndarray | None = None,
    *,
    rules: Rules | None = None,
    collapse_suits: bool = False,
    repeat: int = 1,
) -> int: ...
