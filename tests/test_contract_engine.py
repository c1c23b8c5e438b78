"""The engines' shared Python-facing checks, written once in ``chupai.engine.base``:
``DealEngine.from_hands`` of every game refuses a non-sequence with a ``TypeError`` and a
card dealt more often than the decks hold it with a ``ValueError`` naming the card
(``checked_hands``)."""
from __future__ import annotations

import importlib
from typing import Any

import pytest

from chupai.registry import GAMES

#: per game, what its from_hands takes beside the hands (a fishing game's table and stock)
SETTING: dict[str, dict[str, Any]] = {
    "guandan": {},
    "zhengshangyou": {},
    "gandengyan": {},
    "chinese_ten": {"layout": "7H 8H 9H TH", "stock": "JH QH KH AH"},
    "doudizhu": {},
}


def _good(game: str) -> list[str]:
    """One card a seat, at the most seats the game's engine takes (at most four)."""
    return ["3S", "4S", "5S", "6S"][:min(4, GAMES[game].players[1])]


def _thrice(game: str) -> list[str]:
    """3S more often than one deck or two hold it."""
    return ["3S", "3S", "3S", "6S"][:min(4, GAMES[game].players[1])]


def _engine(game: str) -> Any:
    """The compiled engine class (``DealEngine``) of a registered game (its package's ``_engine``)."""
    return importlib.import_module(f"{GAMES[game].package}._engine").DealEngine


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("hands", ["3S 4S 5S 6S", b"3S", 4, None])
def test_from_hands_of_no_sequence_is_a_type_error(game: str, hands: Any) -> None:
    with pytest.raises(TypeError, match="hands must be a sequence of hands"):
        _engine(game).from_hands(hands, **SETTING[game])


@pytest.mark.parametrize("game", list(GAMES))
def test_from_hands_names_the_card_dealt_too_often_and_the_count(game: str) -> None:
    engine, good = _engine(game), _good(game)
    assert engine.from_hands(good, **SETTING[game]).hand_sizes()[:4] == (1,) * len(good)
    with pytest.raises(ValueError, match=r"card 3S is dealt 3 times, more than (once|twice)"):
        engine.from_hands(_thrice(game), **SETTING[game])
    with pytest.raises(ValueError, match="hands must be"):
        engine.from_hands(good * 3, **SETTING[game])


@pytest.mark.parametrize("game", list(GAMES))
def test_the_engines_row_declaration_spans_its_batch_row(game: str) -> None:
    """``ROW`` (the fields ``h_row`` writes) takes exactly the engine's ``batch_width``
    columns, in a deal of every player count the game allows."""
    import importlib

    from chupai.engine.batch import row_width

    entry = GAMES[game]
    module = importlib.import_module(_engine(game).__module__)
    for players in range(entry.players[0], entry.players[1] + 1):
        state = entry.new(1, players=players)
        while state.card_play() is None:  # decisions before the card play (an auction): the last option
            state.apply(state.legal_actions()[-1])
        engine = state.card_play()
        assert row_width(module.ROW, engine.players) == engine.batch_width, (game, players)
