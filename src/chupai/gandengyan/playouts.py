"""Playouts in C: whole Gan Deng Yan deals played to the end with the GIL released."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from chupai.engine.batch import BatchOptions, play_out, run_playouts
from chupai.state.base import check_players, check_rules
from chupai.gandengyan import _engine
from chupai.gandengyan.game import Deal, Match
from chupai.gandengyan.rules import Rules

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["PlayoutResult", "PlayoutResults", "playout", "playouts"]


class PlayoutResults(NamedTuple):
    """The outcome of each deal of a batch.

    Attributes:
        winner: ``(n,)`` int8, the seat that went out (-1: a deal nobody could finish,
            possible only with ``joker_lead_out=False``).
        returns: ``(n, players)`` float64, each seat's score (``chupai.gandengyan.scoring``).
        cards: ``(n, players)`` int16, the cards each seat held at the end.
        tricks: ``(n,)`` int32, the tricks completed.
    """

    winner: np.ndarray
    returns: np.ndarray
    cards: np.ndarray
    tricks: np.ndarray


class PlayoutResult(NamedTuple):
    """The outcome of one deal: the winner (-1 for none), each seat's score and cards left."""

    winner: int
    returns: tuple[float, ...]
    cards: tuple[int, ...]


def playout(state: Any, *, seed: int, policy: str = "random") -> PlayoutResult:
    """Play the current deal of ``state`` (a ``Deal`` or ``Match``) to its end in C.

    ``state`` is not changed; ``policy`` as in :func:`playouts`.
    """
    winner, returns, cards = play_out(_engine, state, "gandengyan", (Deal, Match), seed=seed, policy=policy)
    return PlayoutResult(winner, returns, cards)


def playouts(
    n: int, *, seed: int, rules: Rules | None = None, players: int = 4, **options: Unpack[BatchOptions]
) -> PlayoutResults:
    """Deal ``n`` fresh random deals (random dealers) and play each to the end in C.

    ``options``: how the batch runs (:class:`chupai.engine.batch.BatchOptions`:
    ``policy``, ``threads``, ``progress``, ``backend``, ``workers``, ``address``).  Deal
    ``i`` draws its cards and its moves from its own stream of ``seed``, so the arrays
    are the same whatever the threads, processes or backend.  The ``"greedy"`` policy:
    go out when a play empties the hand; lead the longest ordinary play; follow with
    the cheapest one, fewest jokers first; a bomb only on a player holding at most
    three cards.

    >>> r = playouts(100, seed=1, players=5)
    >>> r.returns.shape, bool((r.returns.sum(axis=1) == 0).all())
    ((100, 5), True)
    """
    players = check_players(players, _engine.MIN_PLAYERS, _engine.MAX_PLAYERS)
    rules = check_rules(rules, Rules, "gandengyan")
    row = run_playouts(_engine, n, seed=seed, options=options, players=players, rules=rules)
    return PlayoutResults(row["winner"], row["returns"], row["cards"], row["tricks"])
