"""Guan Dan's compiled VectorEnv tables against the Python path under its own layouts
and rules (DanZero's observation and card order, other promotion and straight-flush
rules): every array equal at every step."""
from __future__ import annotations

import numpy as np
import pytest

from chupai.guandan import Rules, danzero
from chupai.rl import VectorEnv
from vector_lockstep import random_actions, same


@pytest.mark.parametrize(("observation", "features", "action_mode"), [
    ("default", False, "id"),
    ("default", "concrete", "index"),
    ("default", "ids", "id"),
    ("danzero", False, "id"),
    ("danzero", "concrete", "id"),
    ("danzero", "ids", "index"),
])
def test_guandan_compiled_equals_python_in_each_layout(observation, features, action_mode):
    """Every array of reset() and step() equal, and the same deals (histories), over
    several deals per table."""
    kw = dict(num_envs=4, seed=11, observation=observation, features=features, action_mode=action_mode)
    py, cc = VectorEnv("guandan", backend="python", **kw), VectorEnv("guandan", backend="compiled", **kw)
    assert (py.backend, cc.backend) == ("python", "compiled")
    assert py.observation_size == cc.observation_size == (513 if observation == "danzero" else 616)
    obs_p, _ = py.reset()
    obs_c, _ = cc.reset()
    rng = np.random.default_rng(5)
    ended, wild = 0, 0
    for step in range(320):
        assert same(obs_p, obs_c), step
        if observation == "danzero":
            wild += int(obs_c["observation"][:, danzero.LAYOUT.slice("wild_flags")][:, 1:].any(axis=1).sum())
        if step % 40 == 0:
            for a, b in zip(py.states(), cc.states()):
                assert a.history == b.history
        actions = random_actions(obs_p, rng, action_mode == "index")
        out_p, out_c = py.step(actions), cc.step(actions)
        for x, y in zip(out_p[1:], out_c[1:]):
            assert same(x, y), step
        obs_p, obs_c = out_p[0], out_c[0]
        ended += int(out_c[2].sum())
    assert ended >= 4  # the auto-reset was exercised
    if observation == "danzero":
        assert wild > 0  # the wild-card flags beyond "holds one" were exercised


def test_guandan_compiled_equals_python_with_other_rules():
    rules = Rules(promotion=(3, 2, 1), straight_flush_as_straight=False, joker_pair_in_full_house=False)
    py, cc = (VectorEnv("guandan", 3, seed=2, rules=rules, backend=b) for b in ("python", "compiled"))
    obs_p, obs_c = py.reset()[0], cc.reset()[0]
    rng = np.random.default_rng(1)
    finals = []
    for _ in range(400):
        assert same(obs_p, obs_c)
        a = random_actions(obs_p, rng, False)
        out_p, out_c = py.step(a), cc.step(a)
        assert all(same(x, y) for x, y in zip(out_p[1:], out_c[1:]))
        obs_p, obs_c = out_p[0], out_c[0]
        finals += [r for r, t in zip(out_c[1], out_c[2]) if t]
    assert finals and {abs(r[0]) for r in finals} <= {1.0, 2.0, 3.0}


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(("observation", "features", "action_mode"), [
    ("default", "concrete", "index"),
    ("danzero", "ids", "id"),
])
def test_guandan_compiled_equals_python_long(seed, observation, features, action_mode):
    """Many deals per table: every array equal at every step."""
    kw = dict(num_envs=8, seed=seed, observation=observation, features=features, action_mode=action_mode)
    py, cc = VectorEnv("guandan", backend="python", **kw), VectorEnv("guandan", backend="compiled", threads=2, **kw)
    obs_p, obs_c = py.reset()[0], cc.reset()[0]
    rng = np.random.default_rng(seed)
    ended = 0
    for step in range(1500):
        assert same(obs_p, obs_c), step
        a = random_actions(obs_p, rng, action_mode == "index")
        out_p, out_c = py.step(a), cc.step(a)
        assert all(same(x, y) for x, y in zip(out_p[1:], out_c[1:])), step
        obs_p, obs_c = out_p[0], out_c[0]
        ended += int(out_c[2].sum())
    assert ended >= 40
    cc.close()
