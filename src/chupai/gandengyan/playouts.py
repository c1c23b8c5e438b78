"""Playouts in C: whole Gan Deng Yan deals played to the end with the GIL released."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple

import numpy as np
from tqdm import tqdm

from chupai.gandengyan._engine import MAX_PLAYERS, MIN_PLAYERS, POLICIES, _run_chunk
from chupai.gandengyan.rules import Rules

__all__ = ["PlayoutResult", "PlayoutResults", "playout", "playouts"]

# deals per task: small enough for a smooth progress bar and even thread loads
_CHUNK = 2000


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


def _check(seed: Any, policy: Any) -> None:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an int, not {seed!r}")
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; expected one of {sorted(POLICIES)}")


def playout(state: Any, *, seed: int, policy: str = "random") -> PlayoutResult:
    """Play the current deal of ``state`` (a ``Deal`` or ``Match``) to its end in C.

    ``state`` is not changed; ``policy`` as in :func:`playouts`.
    """
    _check(seed, policy)
    if state.is_terminal():
        raise ValueError("the state is terminal: there is nothing to play out")
    winner, returns, cards = state.card_play().playout(seed, policy)
    return PlayoutResult(winner, returns, cards)


def playouts(
    n: int,
    *,
    seed: int,
    policy: str = "random",
    threads: int = 1,
    rules: Rules | None = None,
    players: int = 4,
    progress: bool = False,
) -> PlayoutResults:
    """Deal ``n`` fresh random deals (random dealers) and play each to the end in C.

    Deal ``i`` draws its cards and its moves from its own stream of ``seed``, so the
    arrays are the same whatever ``threads`` is.  ``policy``: ``"random"`` (uniform over
    the suit-collapsed legal plays, and passing when following) or ``"greedy"`` (go out
    when a play empties the hand; lead the longest ordinary play; follow with the
    cheapest one, fewest jokers first; a bomb only on a player holding at most three
    cards).

    >>> r = playouts(100, seed=1, players=5)
    >>> r.returns.shape, bool((r.returns.sum(axis=1) == 0).all())
    ((100, 5), True)
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be a non-negative int, not {n!r}")
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive int, not {threads!r}")
    _check(seed, policy)
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be an int {MIN_PLAYERS}..{MAX_PLAYERS}, not {players!r}")
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a gandengyan.Rules, not {type(rules).__name__}")
    winner = np.full(n, -1, dtype=np.int8)
    returns = np.zeros((n, players), dtype=np.float64)
    cards = np.zeros((n, players), dtype=np.int16)
    tricks = np.zeros(n, dtype=np.int32)
    seed64 = seed & 0xFFFFFFFFFFFFFFFF
    bounds = [(a, min(a + _CHUNK, n)) for a in range(0, n, _CHUNK)]

    def task(b: tuple[int, int]) -> int:
        _run_chunk(seed64, b[0], b[1], players, rules, POLICIES[policy], winner, returns, cards, tricks)
        return b[1] - b[0]

    with tqdm(total=n, unit="deal", disable=not progress) as bar:
        if threads == 1:
            for b in bounds:
                bar.update(task(b))
        else:
            with ThreadPoolExecutor(max_workers=threads) as pool:
                for done in pool.map(task, bounds):
                    bar.update(done)
    return PlayoutResults(winner, returns, cards, tricks)
