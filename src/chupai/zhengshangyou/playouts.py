"""Playouts in C: whole Zheng Shangyou deals played to the end with the GIL released."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from chupai.engine.batch import BatchOptions, play_out, run_playouts
from chupai.state.base import check_players, check_rules
from chupai.zhengshangyou import _engine
from chupai.zhengshangyou.game import Deal, Match
from chupai.zhengshangyou.rules import Rules

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["PlayoutResult", "PlayoutResults", "playout", "playouts"]


class PlayoutResults(NamedTuple):
    """The outcome of each deal of a batch.

    Attributes:
        order: ``(n, players)`` int8, the seats in finishing order (the one left holding
            cards last).
        points: ``(n, players)`` int8, each seat's points: 2 for the first out, 1 for the
            second (none for the second of a 2-player deal, who never runs out).
        winner: ``(n,)`` int8, the first player out.
    """

    order: np.ndarray
    points: np.ndarray
    winner: np.ndarray


class PlayoutResult(NamedTuple):
    """The outcome of one deal: finishing order, points per seat, first player out."""

    order: tuple[int, ...]
    points: tuple[int, ...]
    winner: int


def playout(state: Any, *, seed: int, policy: str = "random") -> PlayoutResult:
    """Play the current deal of ``state`` (a ``Deal`` or ``Match``) to its end in C.

    ``state`` is not changed.  Decisions still due before the card play (the card
    exchange) are taken uniformly at random from the same seed; then the compiled
    engine plays the deal out with ``policy`` (see :func:`playouts`) with the GIL
    released.
    """
    order, points = play_out(_engine, state, "zhengshangyou", (Deal, Match), seed=seed, policy=policy)
    return PlayoutResult(tuple(order), tuple(points), order[0])


def playouts(
    n: int, *, seed: int, rules: Rules | None = None, players: int = 4, **options: Unpack[BatchOptions]
) -> PlayoutResults:
    """Deal ``n`` fresh random deals of ``players`` (2-8) and play each to the end in C.

    ``options``: how the batch runs (:class:`chupai.engine.batch.BatchOptions`:
    ``policy``, ``threads``, ``progress``, ``backend``, ``workers``, ``address``).  Deal
    ``i`` draws its dealer, its cards and its moves from its own stream of ``seed``, so
    the arrays are the same whatever the threads, processes or backend.  The
    ``"greedy"`` policy: leading, the play with the fewest wild cards, the lowest
    bottom rank, then the most cards; following, the lowest play that beats, wild
    cards, 2s and jokers kept for a player about to go out.

    >>> r = playouts(100, seed=1)
    >>> r.order.shape, sorted(r.points[0].tolist())
    ((100, 4), [0, 0, 1, 2])
    """
    players = check_players(players, _engine.MIN_PLAYERS, _engine.MAX_PLAYERS)
    rules = check_rules(rules, Rules, "zhengshangyou")
    row = run_playouts(_engine, n, seed=seed, options=options, players=players, rules=rules)
    return PlayoutResults(row["order"], row["points"], row["order"][:, 0].copy())
