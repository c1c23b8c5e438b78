"""Type stubs for the compiled Chinese Ten capture generator."""
from collections.abc import Iterable
from typing import Any

import numpy as np

from chupai.core.records import GameClasses, PlayList
from chupai.cards import Cards
from chupai.chinese_ten.play import Play
from chupai.chinese_ten.rules import Rules

__pyx_capi__: dict[str, Any]
__test__: dict[str, str]

GAME_CLASSES: GameClasses
FLAG_FORCED_CAPTURE: int
FLAG_RED_FIVE_BONUS: int
FLAG_REDEAL: int
FLAG_REDEAL_CROWDED: int

def parse_card(card: Any, what: str = "card") -> int:
    """The face number of one card token (no jokers); ``ValueError`` naming the token."""
def parse_cards(cards: Any, what: str = "cards") -> int:
    """The mask of a set of cards (a ``Cards``, a card string or an iterable of tokens)."""

def legal_plays(
    hand: Cards | str | Iterable[str],
    layout: Cards | str | Iterable[str],
    *,
    rules: Rules | None = None,
    collapse_suits: bool = False,
) -> PlayList[Play]: ...
def captures(
    card: str | Cards,
    layout: Cards | str | Iterable[str],
    *,
    rules: Rules | None = None,
    collapse_suits: bool = False,
) -> PlayList[Play]: ...
def kernel_count(
    hands: np.ndarray,
    layouts: np.ndarray,
    *,
    rules: Rules | None = None,
    collapse_suits: bool = False,
    repeat: int = 1,
) -> int: ...
