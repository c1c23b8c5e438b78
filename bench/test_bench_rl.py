"""pytest-benchmark suite for chupai.rl: ``pytest bench/test_bench_rl.py --benchmark-only``.

VectorEnv steps (64 tables, self-play, observation tensors and masks every step; with
``features=True`` also the padded concrete-action features) and the encodings alone.
The plain runner is ``python bench/rl.py``.
"""
import numpy as np
import pytest

from chupai import rl
from chupai.registry import GAMES
from chupai.guandan import Deal
from chupai.rl import VectorEnv


def _first_legal(mask: np.ndarray) -> np.ndarray:
    return mask.argmax(axis=1)


@pytest.mark.benchmark(group="rl-vector")
@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("features", [False, True])
def test_vector_step(benchmark, game, features):
    """One step of 64 tables (Guan Dan: the compiled tables)."""
    env = VectorEnv(game, num_envs=64, seed=1, features=features)
    obs, _ = env.reset()
    state = {"obs": obs}

    def step():
        state["obs"] = env.step(_first_legal(state["obs"]["action_mask"]))[0]

    benchmark(step)


@pytest.mark.benchmark(group="rl-vector-guandan")
@pytest.mark.parametrize(("backend", "threads"), [("python", 1), ("compiled", 1), ("compiled", 2)])
@pytest.mark.parametrize("observation", ["default", "danzero"])
def test_guandan_vector_step(benchmark, backend, threads, observation):
    """One step of 256 Guan Dan tables: the Python path against the compiled tables on
    one and two threads."""
    env = VectorEnv("guandan", num_envs=256, seed=1, threads=threads, observation=observation, backend=backend)
    obs, _ = env.reset()
    state = {"obs": obs}

    def step():
        state["obs"] = env.step(_first_legal(state["obs"]["action_mask"]))[0]

    benchmark(step)
    env.close()


@pytest.mark.benchmark(group="rl-encode")
def test_guandan_observation_tensor(benchmark):
    deal = Deal(seed=3)
    benchmark(rl.observation_tensor, deal, 0)


@pytest.mark.benchmark(group="rl-encode")
def test_guandan_legal_actions_mask(benchmark):
    deal = Deal(seed=3)
    benchmark(rl.legal_actions_mask, deal)
