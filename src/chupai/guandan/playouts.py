"""Playouts in C: whole Guan Dan deals played to the end with the GIL released."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple

import numpy as np
from tqdm import tqdm

from chupai.guandan._engine import POLICIES, _run_chunk
from chupai.guandan.rules import Rules, parse_rank

__all__ = ["PlayoutResult", "PlayoutResults", "playout", "playouts"]

# deals per task: small enough for a smooth progress bar and even thread loads
_CHUNK = 1000


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
    order, result = core.playout(seed, policy)
    return PlayoutResult(tuple(order), result, order[0] % 2)


def playouts(
    n: int,
    *,
    seed: int,
    policy: str = "random",
    threads: int = 1,
    rules: Rules | None = None,
    level: str = "2",
    progress: bool = False,
) -> PlayoutResults:
    """Deal ``n`` fresh random deals and play each to the end in C.

    Deal ``i`` draws its cards and its moves from its own stream of ``seed``, so the
    arrays are the same whatever ``threads`` is.  ``policy``: ``"random"`` (uniform over
    the suit-collapsed legal plays, and passing when following) or ``"greedy"`` (the
    smallest play that beats; bombs kept for an opponent about to go out; never over
    the partner).  ``level`` is the level rank every deal is played at.

    >>> r = playouts(100, seed=1)
    >>> r.order.shape, bool(((r.result >= 1) & (r.result <= 3)).all())
    ((100, 4), True)
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be a non-negative int, not {n!r}")
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive int, not {threads!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an int, not {seed!r}")
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; expected one of {sorted(POLICIES)}")
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a guandan.Rules, not {type(rules).__name__}")
    lv = parse_rank(level, "level")
    order = np.full((n, 4), -1, dtype=np.int8)
    result = np.zeros(n, dtype=np.int8)
    seed64 = seed & 0xFFFFFFFFFFFFFFFF
    bounds = [(a, min(a + _CHUNK, n)) for a in range(0, n, _CHUNK)]

    def task(b: tuple[int, int]) -> int:
        _run_chunk(seed64, b[0], b[1], lv, rules._flags, POLICIES[policy], order, result)
        return b[1] - b[0]

    with tqdm(total=n, unit="deal", disable=not progress) as bar:
        if threads == 1:
            for b in bounds:
                bar.update(task(b))
        else:
            with ThreadPoolExecutor(max_workers=threads) as pool:
                for done in pool.map(task, bounds):
                    bar.update(done)
    return PlayoutResults(order, result, (order[:, 0] % 2).astype(np.int8))
