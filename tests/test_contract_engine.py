"""The engines' shared Python-facing checks, written once in ``chupai.engine.base``:
``DealCore.from_hands`` of every game with trick hands refuses a non-sequence with a
``TypeError`` and a card dealt more often than the decks hold it with a ``ValueError``
naming the card (``checked_hands``)."""
from __future__ import annotations

from typing import Any

import pytest

from chupai.gandengyan._engine import DealCore as GDY
from chupai.guandan._engine import DealCore as GD
from chupai.zhengshangyou._engine import DealCore as ZS

# per game: the core, four good hands, and four hands dealing 3S once too often
CASES: dict[str, tuple[Any, list[str], list[str]]] = {
    "guandan": (GD, ["3S", "4S", "5S", "6S"], ["3S 3S", "3S", "5S", "6S"]),
    "zhengshangyou": (ZS, ["3S", "4S", "5S", "6S"], ["3S", "3S", "5S", "6S"]),
    "gandengyan": (GDY, ["3S", "4S", "5S", "6S"], ["3S", "3S", "5S", "6S"]),
}


@pytest.mark.parametrize("game", list(CASES))
@pytest.mark.parametrize("hands", ["3S 4S 5S 6S", b"3S", 4, None])
def test_from_hands_of_no_sequence_is_a_type_error(game: str, hands: Any) -> None:
    core = CASES[game][0]
    with pytest.raises(TypeError, match="hands must be a sequence of hands"):
        core.from_hands(hands)


@pytest.mark.parametrize("game", list(CASES))
def test_from_hands_names_the_card_dealt_too_often_and_the_count(game: str) -> None:
    core, good, bad = CASES[game]
    assert core.from_hands(good).hand_sizes()[:4] == (1, 1, 1, 1)
    with pytest.raises(ValueError, match=r"card 3S is dealt \d times, more than"):
        core.from_hands(bad)
    with pytest.raises(ValueError, match="hands must be"):
        core.from_hands(good * 3)
