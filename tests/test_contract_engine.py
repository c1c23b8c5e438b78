"""The engines' shared Python-facing checks, written once in ``chupai.engine.base``:
``DealEngine.from_hands`` of every game refuses a non-sequence with a ``TypeError`` and a
card dealt more often than the decks hold it with a ``ValueError`` naming the card
(``checked_hands``)."""
from __future__ import annotations

from typing import Any

import pytest

from chupai.registry import GAMES

#: per game, what its from_hands takes beside the hands (a fishing game's table and stock)
SETTING: dict[str, dict[str, Any]] = {
    "guandan": {},
    "zhengshangyou": {},
    "gandengyan": {},
    "chinese_ten": {"layout": "7H 8H 9H TH", "stock": "JH QH KH AH"},
}
GOOD = ["3S", "4S", "5S", "6S"]
THRICE = ["3S", "3S", "3S", "6S"]  # 3S more often than one deck or two hold it


def _engine(game: str) -> Any:
    return type(GAMES[game].deal_class(seed=1).card_play())


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("hands", ["3S 4S 5S 6S", b"3S", 4, None])
def test_from_hands_of_no_sequence_is_a_type_error(game: str, hands: Any) -> None:
    with pytest.raises(TypeError, match="hands must be a sequence of hands"):
        _engine(game).from_hands(hands, **SETTING[game])


@pytest.mark.parametrize("game", list(GAMES))
def test_from_hands_names_the_card_dealt_too_often_and_the_count(game: str) -> None:
    engine = _engine(game)
    assert engine.from_hands(GOOD, **SETTING[game]).hand_sizes()[:4] == (1, 1, 1, 1)
    with pytest.raises(ValueError, match=r"card 3S is dealt 3 times, more than (once|twice)"):
        engine.from_hands(THRICE, **SETTING[game])
    with pytest.raises(ValueError, match="hands must be"):
        engine.from_hands(GOOD * 3, **SETTING[game])


@pytest.mark.parametrize("game", list(GAMES))
def test_the_engines_row_declaration_spans_its_batch_row(game: str) -> None:
    """``ROW`` (the fields ``h_row`` writes) takes exactly the engine's ``batch_width``
    columns, in a deal of every player count the game allows."""
    import importlib

    from chupai.engine.batch import row_width

    entry = GAMES[game]
    module = importlib.import_module(_engine(game).__module__)
    for players in range(entry.players[0], entry.players[1] + 1):
        engine = entry.deal_class(seed=1, **({} if entry.fixed_players else {"players": players})).card_play()
        assert row_width(module.ROW, engine.players) == engine.batch_width, (game, players)
