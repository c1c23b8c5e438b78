"""Each player's return from a compiled playout of a game's card-play engine.

Every game's ``DealCore.playout(seed, policy)`` plays the rest of the deal in C and
reports the outcome in the game's own shape (issue 9 will give them one shape); this
module turns that outcome into ``returns()`` as the game's ``Deal`` defines them, so
that the search needs nothing else of a game.  It is the only place in
``chupai.search`` that knows how a game scores, and it holds no rule: each entry
mirrors the game's ``Deal.returns`` (a test checks every entry against it).

A terminal engine's playout reports the final outcome, so the same call scores a deal
that ended inside the tree.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chupai._games import GAMES

__all__ = ["game_of", "outcome_function"]

#: (rules, playout tuple) -> each seat's return
Outcome = Callable[[Any, Any], list[float]]


def _guandan(rules: Any, out: Any) -> list[float]:
    # (finishing order, result 1..3): the winners' promotion, its negative for the losers
    order, result = out
    gain = float(rules.promotion[result - 1])
    winners = order[0] % 2
    return [gain if s % 2 == winners else -gain for s in range(4)]


def _zhengshangyou(rules: Any, out: Any) -> list[float]:
    # (finishing order, points per seat): points less their mean, a zero sum
    points = out[1]
    mean = sum(points) / len(points)
    return [p - mean for p in points]


def _returns_field(rules: Any, out: Any) -> list[float]:
    # Gan Deng Yan (winner, returns, cards) and Chinese Ten (scores, returns, bonus)
    return [float(x) for x in out[1]]


_OUTCOMES: dict[str, Outcome] = {
    "guandan": _guandan,
    "zhengshangyou": _zhengshangyou,
    "gandengyan": _returns_field,
    "chinese_ten": _returns_field,
}


def game_of(state: Any) -> str:
    """The registry name of the game ``state`` (a ``Deal`` or ``Match``) belongs to.

    >>> from chupai.guandan import Deal
    >>> game_of(Deal(1))
    'guandan'
    """
    module = type(state).__module__
    for name, entry in GAMES.items():
        if module == entry.package or module.startswith(entry.package + "."):
            return name
    raise TypeError(f"state must be a Deal or Match of a registered game, not {type(state).__name__}")


def outcome_function(game: str) -> Outcome:
    """The function ``(rules, core.playout(...)) -> returns`` of ``game``."""
    try:
        return _OUTCOMES[game]
    except KeyError:
        raise ValueError(f"no playout outcome known for game {game!r}") from None
