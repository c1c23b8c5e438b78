"""Playouts in C: whole Chinese Ten deals played to the end with the GIL released."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from chupai.engine.batch import BatchOptions, play_out, run_playouts
from chupai.state.base import check_rules
from chupai.chinese_ten import _engine
from chupai.chinese_ten.game import Deal, Match
from chupai.chinese_ten.rules import RED_FIVE_BONUS, Rules

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["PlayoutResult", "PlayoutResults", "playout", "playouts", "results_of"]


class PlayoutResults(NamedTuple):
    """The outcome of each deal of a batch.

    Attributes:
        scores: ``(n, players)`` int16, the points of each player's captured cards.
        returns: ``(n, players)`` float64, each player's result: score - par, plus the
            red five bonus when the rules have it.
        bonus: ``(n,)`` int8, the player who captured a red 5 with the other red 5
            (whether or not the bonus rule is on), or -1.
        redeals: ``(n,)`` int16, layouts thrown in before the deal (main_merah).
    """

    scores: np.ndarray
    returns: np.ndarray
    bonus: np.ndarray
    redeals: np.ndarray


class PlayoutResult(NamedTuple):
    """The outcome of one deal: scores, returns and the red-five capturer (or None)."""

    scores: tuple[int, ...]
    returns: tuple[float, ...]
    bonus: int | None


def results_of(scores: np.ndarray, bonus: np.ndarray, rules: Rules, players: int) -> np.ndarray:
    """Each player's result from the scores and red-five capturers (``(n, players)``)."""
    out = scores.astype(np.float64) - rules.par(players)
    if rules.red_five_bonus:
        got = bonus >= 0
        seats = np.arange(players)
        mine = got[:, None] & (bonus[:, None] == seats[None, :])
        out += np.where(mine, RED_FIVE_BONUS * (players - 1), 0)
        out -= np.where(got[:, None] & ~mine, RED_FIVE_BONUS, 0)
    return out


def playout(state: Any, *, seed: int, policy: str = "random") -> PlayoutResult:
    """Play the current deal of ``state`` (a ``Deal`` or ``Match``) to its end in C.

    ``state`` is not changed; ``policy`` as in :func:`playouts`.
    """
    scores, returns, bonus = play_out(_engine, state, "chinese_ten", (Deal, Match), seed=seed, policy=policy)
    return PlayoutResult(tuple(scores), tuple(returns), bonus)


def playouts(
    n: int, *, seed: int, rules: Rules | None = None, players: int = 4, **options: Unpack[BatchOptions]
) -> PlayoutResults:
    """Deal ``n`` fresh random deals (dealer seat 0) and play each to the end in C.

    ``options``: how the batch runs (:class:`chupai.engine.batch.BatchOptions`:
    ``policy``, ``threads``, ``progress``, ``backend``, ``workers``, ``address``).  Deal
    ``i`` draws its cards and its choices from its own stream of ``seed``, so the arrays
    are the same whatever the threads, processes or backend; deal 0 is
    ``Deal(seed)``'s deal.  The ``"random"`` policy is uniform over the suit-collapsed
    choices of each step; ``"greedy"`` takes the capture taking the most points, red
    five bonus included (with no capture, the card worth least joins the layout).

    >>> r = playouts(100, seed=1)
    >>> r.scores.shape, bool((r.scores.sum(axis=1) == 280).all())
    ((100, 4), True)
    """
    rules = check_rules(rules, Rules, "chinese_ten")
    rules.check_players(players)
    row = run_playouts(_engine, n, seed=seed, options=options, players=players, rules=rules)
    return PlayoutResults(row["scores"], results_of(row["scores"], row["bonus"], rules, players), row["bonus"],
                          row["redeals"])
