"""Type stubs for the compiled Zheng Shangyou generator."""
from collections.abc import Iterable
from typing import Any

import numpy as np

from chupai.core.records import GameClasses, PlayList
from chupai.cards import Cards
from chupai.zhengshangyou.play import Play
from chupai.zhengshangyou.rules import Rules

__pyx_capi__: dict[str, Any]
__test__: dict[str, str]

GAME_CLASSES: GameClasses
FLAG_JOKER_PAIR: int

def legal_plays(
    hand: Cards | str | Iterable[str],
    previous: Play | None = None,
    *,
    rules: Rules | None = None,
    collapse_suits: bool = False,
) -> PlayList[Play]: ...
def kernel_count(
    hands: np.ndarray,
    previous: np.ndarray | None = None,
    *,
    rules: Rules | None = None,
    collapse_suits: bool = False,
    repeat: int = 1,
) -> int: ...
