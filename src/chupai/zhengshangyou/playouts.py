"""Playouts in C: whole Zheng Shangyou deals played to the end with the GIL released."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple

import numpy as np
from tqdm import tqdm

from chupai.zhengshangyou._engine import MAX_PLAYERS, MIN_PLAYERS, POLICIES, _run_chunk
from chupai.zhengshangyou.rules import Rules

__all__ = ["PlayoutResult", "PlayoutResults", "playout", "playouts"]

# deals per task: small enough for a smooth progress bar and even thread loads
_CHUNK = 1000


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
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an int, not {seed!r}")
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; expected one of {sorted(POLICIES)}")
    if state.is_terminal():
        raise ValueError("the state is terminal: there is nothing to play out")
    core = state.card_play()
    if core is None:
        rng = np.random.default_rng(seed)
        state = state.clone()
        while state.card_play() is None:
            actions = state.legal_actions()
            state.apply(actions[int(rng.integers(len(actions)))])
        core = state.card_play()
    order, points = core.playout(seed, policy)
    return PlayoutResult(tuple(order), tuple(points), order[0])


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
    """Deal ``n`` fresh random deals of ``players`` (2-8) and play each to the end in C.

    Deal ``i`` draws its dealer, its cards and its moves from its own stream of
    ``seed``, so the arrays are the same whatever ``threads`` is.  ``policy``:
    ``"random"`` (uniform over the suit-collapsed legal plays, and passing when
    following) or ``"greedy"`` (leading, the play with the fewest wild cards, the lowest
    bottom rank, then the most cards; following, the lowest play that beats, wild
    cards, 2s and jokers kept for a player about to go out).

    >>> r = playouts(100, seed=1)
    >>> r.order.shape, sorted(r.points[0].tolist())
    ((100, 4), [0, 0, 1, 2])
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be a non-negative int, not {n!r}")
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive int, not {threads!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an int, not {seed!r}")
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; expected one of {sorted(POLICIES)}")
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be an int from {MIN_PLAYERS} to {MAX_PLAYERS}, not {players!r}")
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a zhengshangyou.Rules, not {type(rules).__name__}")
    order = np.full((n, players), -1, dtype=np.int8)
    points = np.zeros((n, players), dtype=np.int8)
    seed64 = seed & 0xFFFFFFFFFFFFFFFF
    bounds = [(a, min(a + _CHUNK, n)) for a in range(0, n, _CHUNK)]

    def task(b: tuple[int, int]) -> int:
        _run_chunk(seed64, b[0], b[1], players, rules._flags, POLICIES[policy], order, points)
        return b[1] - b[0]

    with tqdm(total=n, unit="deal", disable=not progress) as bar:
        if threads == 1:
            for b in bounds:
                bar.update(task(b))
        else:
            with ThreadPoolExecutor(max_workers=threads) as pool:
                for done in pool.map(task, bounds):
                    bar.update(done)
    return PlayoutResults(order, points, order[:, 0].copy())
