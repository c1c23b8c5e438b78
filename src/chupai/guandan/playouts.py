"""Playouts in C: whole Guan Dan deals played to the end with the GIL released."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from chupai.engine.batch import BatchOptions, play_out, run_playouts
from chupai.state.base import check_rules
from chupai.guandan import _engine
from chupai.guandan.game import Deal, Match
from chupai.guandan.rules import Rules

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["PlayoutResult", "PlayoutResults", "playout", "playouts"]


class PlayoutResults(NamedTuple):
    """The outcome of each deal of a batch.

    Attributes:
        order: ``(n, 4)`` int8, the seats in finishing order; ``-1`` for the 3rd and 4th
            places after a 1-2 (the deal ends at once).
        result: ``(n,)`` int8, 1 for a 1-2 win, 2 for 1-3, 3 for 1-4.
        winner: ``(n,)`` int8, the winning team (0: seats 0 and 2, 1: seats 1 and 3).
    """

    order: np.ndarray
    result: np.ndarray
    winner: np.ndarray


class PlayoutResult(NamedTuple):
    """The outcome of one deal: finishing order (-1 for undecided places after a 1-2),
    result (1: 1-2, 2: 1-3, 3: 1-4) and the winning team."""

    order: tuple[int, ...]
    result: int
    winner: int


def playout(state: Any, *, seed: int, policy: str = "random") -> PlayoutResult:
    """Play the current deal of ``state`` (a ``Deal`` or ``Match``) to its end in C.

    ``state`` is not changed.  Decisions still due before the card play (tribute,
    returns) are taken uniformly at random from the same seed; then the compiled
    engine plays the deal out with ``policy`` (see :func:`playouts`) with the GIL
    released.
    """
    order, result = play_out(_engine, state, "guandan", (Deal, Match), seed=seed, policy=policy)
    return PlayoutResult(tuple(order), result, order[0] % 2)


def playouts(
    n: int, *, seed: int, rules: Rules | None = None, level: str = "2", **options: Unpack[BatchOptions]
) -> PlayoutResults:
    """Deal ``n`` fresh random deals and play each to the end in C.

    ``options``: how the batch runs (:class:`chupai.engine.batch.BatchOptions`:
    ``policy``, ``threads``, ``progress``, ``backend``, ``workers``, ``address``).  Deal
    ``i`` draws its cards and its moves from its own stream of ``seed``, so the arrays
    are the same whatever the threads, processes or backend.  The ``"greedy"`` policy
    plays the smallest play that beats; bombs kept for an opponent about to go out;
    never over the partner.  ``level`` is the level rank every deal is played at.

    >>> r = playouts(100, seed=1)
    >>> r.order.shape, bool(((r.result >= 1) & (r.result <= 3)).all())
    ((100, 4), True)
    """
    rules = check_rules(rules, Rules, "guandan")
    row = run_playouts(_engine, n, seed=seed, options=options, level=level, rules=rules)
    return PlayoutResults(row["order"], row["result"], row["order"][:, 0] % 2)
