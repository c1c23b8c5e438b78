"""Type stubs for the compiled Gan Deng Yan generator."""
from collections.abc import Iterable
from typing import Any

import numpy as np

from chupai.core.records import GameClasses, PlayList
from chupai.cards import Cards
from chupai.gandengyan.play import Play
from chupai.gandengyan.rules import Rules

__pyx_capi__: dict[str, Any]
__test__: dict[str, str]

GAME_CLASSES: GameClasses
FLAG_TRIPLES_ARE_BOMBS: int
FLAG_TRIPLE_SEQUENCES: int
FLAG_JOKER_AS_TWO: int
FLAG_JOKER_LEAD_OUT: int
FLAG_FOLLOW_SAME_RANK: int

def legal_plays(
    hand: Cards | str | Iterable[str],
    previous: Play | None = None,
    *,
    rules: Rules | None = None,
    collapse_suits: bool = False,
) -> PlayList[Play]: ...
def kernel_count(
    los: np.ndarray,
    his: np.ndarray,
    targets: np.ndarray | None = None,
    *,
    rules: Rules | None = None,
    collapse_suits: bool = False,
    repeat: int = 1,
) -> int: ...
