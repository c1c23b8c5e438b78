"""Type stubs for the compiled Chinese Ten capture generator."""
from collections.abc import Iterable
from typing import Any

import numpy as np

from chupai._core import PlayList
from chupai.cards import Cards
from chupai.chinese_ten.rules import Rules

__pyx_capi__: dict[str, Any]
__test__: dict[str, str]

def legal_plays(
    hand: Cards | str | Iterable[str],
    layout: Cards | str | Iterable[str],
    *,
    rules: Rules | None = None,
    collapse_suits: bool = False,
) -> PlayList: ...
def captures(
    card: str | Cards,
    layout: Cards | str | Iterable[str],
    *,
    rules: Rules | None = None,
    collapse_suits: bool = False,
) -> PlayList: ...
def kernel_count(
    hands: np.ndarray,
    layouts: np.ndarray,
    *,
    rules: Rules | None = None,
    collapse_suits: bool = False,
    repeat: int = 1,
) -> int: ...
