"""chupai.rl.VectorEnv: shapes, agreement with the state API, auto-reset, opponents,
determinism across threads, bad input."""
from __future__ import annotations

import numpy as np
import pytest

from chupai import rl
from chupai import registry
from chupai.rl import VectorEnv
from vector_lockstep import same

GAMES = list(registry.GAMES)


def _pick(obs: dict, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]], dtype=np.int64)


@pytest.mark.parametrize("game", GAMES)
def test_steps_agree_with_the_state_api(game):
    env = VectorEnv(game, num_envs=3, seed=5)
    obs, info = env.reset()
    rng = np.random.default_rng(0)
    size, n_ids = rl.observation_size(game), rl.num_distinct_actions(game)
    ended = 0
    for _ in range(150):
        assert obs["observation"].shape == (3, size) and obs["observation"].dtype == np.float32
        assert obs["action_mask"].shape == (3, n_ids) and obs["action_mask"].dtype == np.int8
        for i, state in enumerate(env.states()):
            assert obs["player"][i] == state.current_player
            assert np.array_equal(obs["observation"][i], rl.observation_tensor(state, state.current_player))
            assert np.array_equal(obs["action_mask"][i], rl.legal_actions_mask(state))
        obs, rewards, terminated, truncated, info = env.step(_pick(obs, rng))
        assert rewards.shape == (3, env.players) and not truncated.any()
        for i in np.flatnonzero(terminated):
            ended += 1
            assert np.array_equal(rewards[i], info["final_returns"][i])
            assert abs(rewards[i].sum()) < 1e-9 and np.any(rewards[i] != 0)
        assert not rewards[~terminated].any() and np.isnan(info["final_returns"][~terminated]).all()
    if game == "chinese_ten":
        assert ended > 0  # short deals: the auto-reset was exercised


@pytest.mark.parametrize("game", ["guandan", "zhengshangyou"])
def test_same_seed_same_trajectories_for_any_threads(game):
    runs = []
    for threads in (1, 2, 3):
        env = VectorEnv(game, num_envs=4, seed=42, threads=threads, opponents={1: "random"})
        obs, _ = env.reset()
        rng = np.random.default_rng(7)
        trace = []
        for _ in range(40):
            obs, rewards, terminated, _, _ = env.step(_pick(obs, rng))
            trace.append((obs["observation"].copy(), obs["player"].copy(), rewards.copy(), terminated.copy()))
        env.close()
        runs.append(trace)
    for other in runs[1:]:
        for a, b in zip(runs[0], other):
            for x, y in zip(a, b):
                assert np.array_equal(x, y)
    env = VectorEnv(game, num_envs=4, seed=43)
    assert not np.array_equal(env.reset()[0]["observation"], runs[0][0][0])


def test_reset_seed_restarts_the_streams():
    env = VectorEnv("gandengyan", num_envs=2, seed=1)
    first = env.reset(seed=9)[0]["observation"]
    env.step(_pick(env.reset(seed=3)[0], np.random.default_rng(0)))
    assert np.array_equal(env.reset(seed=9)[0]["observation"], first)


def test_opponents_play_their_seats():
    env = VectorEnv("guandan", num_envs=2, seed=3, opponents="random")
    obs, _ = env.reset()
    rng = np.random.default_rng(1)
    for _ in range(60):
        assert (obs["player"] == 0).all()
        obs, *_ = env.step(_pick(obs, rng))
    env = VectorEnv("guandan", num_envs=2, seed=3, opponents=[None, "greedy", None, "greedy"])
    obs, _ = env.reset()
    for _ in range(60):
        assert set(obs["player"].tolist()) <= {0, 2}
        obs, *_ = env.step(_pick(obs, rng))
    env = VectorEnv("zhengshangyou", num_envs=2, seed=3, opponents="heuristic")  # any bot spec
    obs, _ = env.reset()
    for _ in range(30):
        assert (obs["player"] == 0).all()
        obs, *_ = env.step(_pick(obs, rng))
    with pytest.raises(ValueError, match="opponent: unknown bot 'smart'"):
        VectorEnv("guandan", 1, 0, opponents="smart")
    with pytest.raises(TypeError, match="opponent must be a bot"):
        VectorEnv("guandan", 1, 0, opponents=[None, 3, None, None])
    with pytest.raises(ValueError, match="caller"):
        VectorEnv("guandan", 1, 0, opponents=["random"] * 4)
    with pytest.raises(ValueError, match="seat"):
        VectorEnv("guandan", 1, 0, opponents={4: "random"})


def test_features_and_index_actions():
    env = VectorEnv("guandan", num_envs=2, seed=8, features=True, action_mode="index")
    obs, _ = env.reset()
    rng = np.random.default_rng(2)
    for _ in range(30):
        states = env.states()
        for i, state in enumerate(states):
            ids, cards = rl.legal_action_features(state)
            k = int(obs["num_actions"][i])
            assert k == len(ids)
            assert np.array_equal(obs["action_features"][i, :k], cards)
            assert np.array_equal(obs["action_ids"][i, :k], ids) and (obs["action_ids"][i, k:] == -1).all()
            assert not obs["action_features"][i, k:].any()
        idx = np.array([rng.integers(k) for k in obs["num_actions"]])
        want = []
        for state, k in zip(states, idx):
            state.apply(state.legal_actions()[int(k)])
            want.append(rl.observation_tensor(state, 0))
        obs, _, terminated, _, _ = env.step(idx)
        got = [rl.observation_tensor(s, 0) for s in env.states()]
        for w, g, term in zip(want, got, terminated):
            assert term or np.array_equal(w, g)


def test_bad_input_names_the_table_and_no_table_advances():
    env = VectorEnv("guandan", num_envs=3, seed=2)
    obs, _ = env.reset()
    good = _pick(obs, np.random.default_rng(0))
    before = [rl.observation_tensor(s, 0) for s in env.states()]
    illegal = good.copy()
    illegal[2] = int(np.flatnonzero(obs["action_mask"][2] == 0)[0])
    with pytest.raises(ValueError, match=f"table 2: action id {illegal[2]} is not legal"):
        env.step(illegal)
    out = good.copy()
    out[1] = env.num_actions
    with pytest.raises(ValueError, match=f"table 1: action id {env.num_actions} is outside"):
        env.step(out)
    with pytest.raises(ValueError, match="shape"):
        env.step(good[:2])
    with pytest.raises(ValueError, match="integers"):
        env.step(good.astype(float))
    with pytest.raises(ValueError, match="shape"):
        env.step(good.reshape(3, 1))
    assert all(np.array_equal(b, rl.observation_tensor(s, 0)) for b, s in zip(before, env.states()))
    env.step(good)  # the good actions still apply
    for bad in (0, -1):
        with pytest.raises(ValueError, match="num_envs"):
            VectorEnv("guandan", bad, 0)
    for bad in (1.5, True, "4"):  # a wrong type is a TypeError, a wrong value a ValueError
        with pytest.raises(TypeError, match="num_envs must be an int"):
            VectorEnv("guandan", bad, 0)
    with pytest.raises(ValueError, match="threads"):
        VectorEnv("guandan", 1, 0, threads=0)
    with pytest.raises(TypeError, match="threads must be an int"):
        VectorEnv("guandan", 1, 0, threads="2")
    with pytest.raises(ValueError, match="players"):
        VectorEnv("guandan", 1, 0, players=3)
    with pytest.raises(ValueError, match="action_mode"):
        VectorEnv("guandan", 1, 0, action_mode="name")
    with pytest.raises(TypeError, match="copy must be a bool"):
        VectorEnv("guandan", 1, 0, copy="no")
    fresh = VectorEnv("guandan", 1, 0)
    with pytest.raises(ValueError, match="reset"):
        fresh.step(np.array([0]))


#: the observations of fixed shape (the action features' rows vary with the batch)
_FIXED = ("observation", "action_mask", "player", "num_actions")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_copy_false_writes_the_values_of_fresh_arrays_into_its_own(game, backend):
    """copy=False gives the values copy=True gives at every call, in the env's own memory:
    each output shares its memory with the same output of the call before."""
    kw = dict(num_envs=3, seed=9, features="ids", backend=backend, threads=2 if backend == "compiled" else 1)
    fresh, own = VectorEnv(game, **kw), VectorEnv(game, copy=False, **kw)
    assert fresh.copy and not own.copy
    (a, _), (b, _) = fresh.reset(), own.reset()
    rng = np.random.default_rng(4)
    last = None
    ended = 0
    for _ in range(120):
        assert same(a, b)
        actions = _pick(a, rng)
        out_a, out_b = fresh.step(actions), own.step(actions)
        assert all(same(x, y) for x, y in zip(out_a[1:], out_b[1:]))
        assert all(np.shares_memory(b[k], out_b[0][k]) for k in _FIXED)
        assert not np.shares_memory(a["observation"], out_a[0]["observation"])
        if last is not None:
            assert all(np.shares_memory(x, y) for x, y in zip(last[1:4], out_b[1:4]))
            assert np.shares_memory(last[4]["final_returns"], out_b[4]["final_returns"])
        last = out_b
        (a, *_), (b, *_) = out_a, out_b
        ended += int(out_b[2].sum())
    assert ended


def test_features_one_row_per_legal_id():
    env = VectorEnv("guandan", num_envs=2, seed=4, features="ids", action_mode="index")
    obs, _ = env.reset()
    rng = np.random.default_rng(3)
    for _ in range(30):
        states = env.states()
        for i, state in enumerate(states):
            k = int(obs["num_actions"][i])
            ids = obs["action_ids"][i, :k]
            assert ids.tolist() == np.flatnonzero(rl.legal_actions_mask(state)).tolist()
            for row, aid in zip(obs["action_features"][i, :k], ids):
                chosen = rl.id_to_action(state, int(aid))
                want = np.zeros(54) if not hasattr(chosen, "cards") else np.asarray(chosen.cards.counts())
                assert np.array_equal(row, want)
        idx = np.array([rng.integers(k) for k in obs["num_actions"]])
        want_obs = []
        for state, i, k in zip(states, range(2), idx):
            state.apply(rl.id_to_action(state, int(obs["action_ids"][i, k])))
            want_obs.append(rl.observation_tensor(state, 1))
        obs, _, terminated, _, _ = env.step(idx)
        for w, s, term in zip(want_obs, env.states(), terminated):
            assert term or np.array_equal(w, rl.observation_tensor(s, 1))
    with pytest.raises(ValueError, match="features"):
        VectorEnv("guandan", 1, 0, features="all")
