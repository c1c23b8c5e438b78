"""Fixtures of the conformance suite: every registered game (``chupai.registry.GAMES``),
and sample states of each (deals and matches at random points, the phases before the
card play included where the game has them)."""
from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pytest

from chupai.registry import GAMES, Game


def play_random(state: Any, rng: np.random.Generator, steps: int) -> Any:
    """Make up to ``steps`` uniformly random legal actions (fewer if the state ends)."""
    for _ in range(steps):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply(actions[int(rng.integers(len(actions)))])
    return state


def snapshot(state: Any) -> tuple[Any, ...]:
    """Everything a state shows, to compare before and after."""
    players = state.observation(0)["players"]
    return (str(state), tuple(state.observation(p) for p in range(players)), state.history,
            state.legal_actions(), state.current_player, state.returns(), state.is_terminal(), state.phase)


@cache
def samples(name: str) -> tuple[Any, ...]:
    """Sample states of game ``name``: fresh and played-into deals, a finished deal, and
    match states, one in each phase the first deals of a few matches reach."""
    entry = GAMES[name]
    rng = np.random.default_rng(2024)
    out: list[Any] = [entry.new(11), play_random(entry.new(12), rng, 7), play_random(entry.new(13), rng, 10**6)]
    seen: set[Any] = set()
    for seed in range(3):
        match = entry.new(20 + seed, match=True)
        for _ in range(4000):
            if match.is_terminal() or match.deals_played >= 3:
                break
            if match.phase not in seen or rng.random() < 0.004:
                seen.add(match.phase)
                out.append(match.clone())
            play_random(match, rng, 1)
    return tuple(out)


def _sample_ids() -> list[tuple[str, int]]:
    return [(name, i) for name in GAMES for i in range(len(samples(name)))]


@pytest.fixture(params=list(GAMES))
def entry(request: pytest.FixtureRequest) -> Game:
    """Each registered game."""
    return GAMES[request.param]


@pytest.fixture(params=_sample_ids(), ids=lambda p: f"{p[0]}-{p[1]}")
def sample(request: pytest.FixtureRequest) -> tuple[Game, Any]:
    """Each sample state (a fresh clone) with its game."""
    name, i = request.param
    return GAMES[name], samples(name)[i].clone()
