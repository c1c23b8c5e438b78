"""Type stubs for the compiled Dou Dizhu generator."""
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from chupai.core.records import GameClasses, PlayList
from chupai.cards import Cards
from chupai.doudizhu.play import Play
from chupai.doudizhu.rules import Rules

__pyx_capi__: dict[str, Any]
__test__: dict[str, str]

GAME_CLASSES: GameClasses
FLAG_FOUR_TWO_PAIR: int
FLAG_KICKER_ROCKET: int
FLAG_REPEAT_KICKERS: int
FLAG_KICKER_SPLITS_BOMB: int
FLAG_KICKER_TRIO_RANK: int
FLAG_FOUR_WITH_TWO: int

def legal_plays(
    hand: Cards | str | Iterable[str],
    previous: Play | None = None,
    *,
    rules: Rules | None = None,
    collapse_suits: bool = False,
) -> PlayList[Play]: ...
def legal_plays_batch(
    hands: np.ndarray | Sequence[Cards | str | Iterable[str]],
    previous: Sequence[Play | None] | None = None,
    *,
    rules: Rules | None = None,
    collapse_suits: bool = False,
) -> tuple[PlayList[Play], np.ndarray]: ...
def kernel_count(
    hands: np.ndarray,
    previous: np.ndarray | None = None,
    *,
    rules: Rules | None = None,
    collapse_suits: bool = False,
    repeat: int = 1,
) -> int: ...
