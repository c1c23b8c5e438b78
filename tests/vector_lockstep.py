"""Helpers of the VectorEnv tests: random legal actions, array equality, the Python and
the compiled path stepped in lockstep, the compiled tables' moves replayed as deals."""
from __future__ import annotations

from typing import Any

import numpy as np

from chupai import rl
from chupai.rl import VectorEnv


def random_actions(obs: dict, rng: np.random.Generator, index: bool) -> np.ndarray:
    if index:
        return np.array([rng.integers(k) for k in obs["num_actions"]], dtype=np.int64)
    return np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]], dtype=np.int64)


def same(a: object, b: object) -> bool:
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys()
        return all(same(a[k], b[k]) for k in a)
    if isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b)
        return all(same(x, y) for x, y in zip(a, b))
    x, y = np.asarray(a), np.asarray(b)
    return x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y, equal_nan=x.dtype.kind == "f")


def lockstep(py: VectorEnv, cc: VectorEnv, steps: int, rng: np.random.Generator, index: bool,
              watch: Any = None) -> int:
    """Step the Python and the compiled env with the same actions, every array equal at
    every step (``watch(step, obs)`` sees the compiled observations); the deals ended."""
    obs_p, obs_c = py.reset()[0], cc.reset()[0]
    ended = 0
    for step in range(steps):
        assert same(obs_p, obs_c), step
        if watch is not None:
            watch(step, obs_c)
        a = random_actions(obs_p, rng, index)
        out_p, out_c = py.step(a), cc.step(a)
        assert all(same(x, y) for x, y in zip(out_p[1:], out_c[1:])), step
        obs_p, obs_c = out_p[0], out_c[0]
        ended += int(out_c[2].sum())
    return ended


def replays_as_deals(env: VectorEnv, steps: int, rng: np.random.Generator, index: bool) -> None:
    """The compiled tables' moves (the caller's and the built-in opponents') are real
    plays: ``states()`` rebuilds every deal, whose tensors are the env's."""
    obs, _ = env.reset()
    for _ in range(steps):
        for i, s in enumerate(env.states()):
            assert s.current_player == obs["player"][i] == 0
            assert np.array_equal(obs["observation"][i], rl.observation_tensor(s, 0))
            assert np.array_equal(obs["action_mask"][i], rl.legal_actions_mask(s))
        obs, *_ = env.step(random_actions(obs, rng, index))
