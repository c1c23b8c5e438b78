"""chupai.rl.gymnasium: every game's single-agent environment passes Gymnasium's checker,
is made by its registered id, plays what a one-table VectorEnv plays, is deterministic by
its seed, ends an episode on an id that is not legal, and refuses bad input; its vector
env plays what Gymnasium's own SyncVectorEnv of it plays, in both auto-reset modes."""
from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from chupai.registry import GAMES  # noqa: E402
from chupai.rl import VectorEnv  # noqa: E402
from chupai.rl.gymnasium import ChupaiEnv, ChupaiVectorEnv, env_id, register_envs  # noqa: E402
from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402


def _legal(info: dict, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(info["action_mask"])))


@pytest.mark.parametrize("game", list(GAMES))
def test_gymnasiums_checker_passes(game):
    env = gymnasium.make(env_id(game), opponents="greedy")
    check_env(env.unwrapped, skip_render_check=True)


def test_every_game_is_registered():
    ids = register_envs()
    assert ids == [env_id(g) for g in GAMES] and "chupai/GuanDan-v0" in ids
    assert all(i in gymnasium.registry for i in ids)


@pytest.mark.parametrize("game", list(GAMES))
def test_episodes_are_a_one_table_vector_envs_and_end_with_the_agents_return(game):
    """The same observations, masks and rewards as VectorEnv seeded alike, seat 1 the
    agent's, over several deals; each deal's reward at its end is the agent's return."""
    players = GAMES[game].default_players
    specs = {s: "heuristic" for s in range(players) if s != 1}
    env = ChupaiEnv(game, specs, seat=1)
    vec = VectorEnv(game, 1, 5, opponents=specs, final_observation=1)
    obs, info = env.reset(seed=5)
    vobs, _ = vec.reset()
    rng = np.random.default_rng(0)
    ended = 0
    while ended < 3:
        assert np.array_equal(obs["observation"], vobs["observation"][0])
        assert np.array_equal(obs["action_mask"], vobs["action_mask"][0]) and vobs["player"][0] == 1
        assert env.observation_space.contains(obs)
        a = _legal(info, rng)
        obs, reward, terminated, truncated, info = env.step(a)
        vobs, rewards, vterm, _, vinfo = vec.step(np.array([a]))
        assert reward == rewards[0, 1] and terminated == vterm[0] and not truncated
        if terminated:
            ended += 1
            assert reward == vinfo["final_returns"][0, 1] and not info.get("illegal_action")
            # the finished deal as the agent sees it, nothing legal
            assert np.array_equal(obs["observation"], vinfo["final_observation"][0])
            assert not obs["action_mask"].any() and env.observation_space.contains(obs)
            with pytest.raises(RuntimeError, match="reset"):
                env.step(a)
            obs, info = env.reset()
        else:
            assert reward == 0


def test_same_seed_same_episode():
    def run(seed: int) -> list:
        env = gymnasium.make("chupai/DouDizhu-v0", opponents="greedy")
        obs, info = env.reset(seed=seed)
        rng, out = np.random.default_rng(1), [obs["observation"].copy()]
        for _ in range(40):
            obs, reward, terminated, _, info = env.step(_legal(info, rng))
            out.append((obs["observation"].copy(), reward))
            if terminated:
                obs, info = env.reset()
        return out

    a, b, c = run(11), run(11), run(12)
    assert all(np.array_equal(x[0], y[0]) and x[1] == y[1] for x, y in zip(a[1:], b[1:]))
    assert not all(np.array_equal(x[0], y[0]) for x, y in zip(a[1:], c[1:]))


def test_an_id_not_legal_ends_the_episode():
    env = ChupaiEnv("guandan", "random")
    obs, info = env.reset(seed=2)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info2 = env.step(bad)
    assert terminated and not truncated and info2["illegal_action"] and reward == GAMES["guandan"].utility[0]
    assert np.array_equal(obs2["observation"], obs["observation"]) and not np.shares_memory(obs2["observation"],
                                                                                          obs["observation"])
    with pytest.raises(RuntimeError, match="reset"):
        env.step(bad)
    assert ChupaiEnv("guandan", illegal_reward=-1).illegal_reward == -1.0
    obs, info = env.reset()
    assert env.step(env.num_actions)[3] is False and env._obs is None  # out of range: the same end


def test_bad_input():
    env = ChupaiEnv("zhengshangyou", "greedy", players=3)
    env.reset(seed=1)
    for bad in ("3", 1.5, True, None):
        with pytest.raises(TypeError, match="action must be an int"):
            env.step(bad)
    with pytest.raises(TypeError, match="seat must be an int"):
        ChupaiEnv("guandan", seat="0")
    with pytest.raises(ValueError, match="seat must be an int 0..3"):
        ChupaiEnv("guandan", seat=4)
    with pytest.raises(ValueError, match="opponents must map every seat but 0"):
        ChupaiEnv("guandan", {1: "greedy", 2: "greedy"})
    for bad in ("low", True):
        with pytest.raises(TypeError, match="illegal_reward"):
            ChupaiEnv("guandan", illegal_reward=bad)
    with pytest.raises(ValueError, match="players"):
        ChupaiEnv("guandan", players=5)


MODES = [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP]


def _same(a, b):
    assert a.keys() == b.keys()
    for key in a:
        assert np.array_equal(a[key], b[key]), key


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("game", list(GAMES))
def test_the_vector_env_plays_what_gymnasiums_sync_vector_env_plays(game, mode):
    """One table, seeded alike: observations, rewards, terminations and the finished
    deals (returned, NEXT_STEP; in info["final_obs"], SAME_STEP) equal those of
    gymnasium.vector.SyncVectorEnv over ChupaiEnv, across the ends of several deals."""
    ours = gymnasium.make_vec(env_id(game), num_envs=1, opponents="greedy", autoreset_mode=mode)
    theirs = SyncVectorEnv([lambda: ChupaiEnv(game, "greedy")], autoreset_mode=mode)
    assert ours.metadata["autoreset_mode"] == mode == theirs.metadata["autoreset_mode"]
    assert ours.single_observation_space == theirs.single_observation_space
    assert ours.observation_space == theirs.observation_space and ours.action_space == theirs.action_space
    a, _ = ours.reset(seed=7)
    b, _ = theirs.reset(seed=7)
    rng = np.random.default_rng(1)
    ended = 0
    while ended < 3:
        _same(a, b)
        assert ours.observation_space.contains(a)
        legal = np.flatnonzero(a["action_mask"][0])
        action = np.array([rng.choice(legal) if len(legal) else 0])
        a, ra, ta, ua, ia = ours.step(action)
        b, rb, tb, ub, ib = theirs.step(action)
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb) and np.array_equal(ua, ub)
        assert ra.dtype == np.float64 and ta.dtype == np.bool_
        if mode == AutoresetMode.SAME_STEP and ta[0]:
            _same(ia["final_obs"][0], ib["final_obs"][0])
            assert ia["_final_obs"].tolist() == ib["_final_obs"].tolist() == [True]
        ended += int(ta[0])
    ours.close()


@pytest.mark.parametrize("mode", MODES)
def test_many_tables_end_and_restart_by_their_mode(mode):
    """Four tables: the step a deal ends and the step after, as the mode says."""
    envs = ChupaiVectorEnv("doudizhu", 4, opponents="random", autoreset_mode=mode)
    obs, _ = envs.reset(seed=3)
    rng = np.random.default_rng(0)
    waiting = np.zeros(4, bool)
    seen = 0
    for _ in range(400):
        assert envs.observation_space.contains(obs)
        m = obs["action_mask"]
        actions = ((rng.random(m.shape) + 1) * m).argmax(axis=1)
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert not truncated.any()
        if mode == AutoresetMode.NEXT_STEP:
            assert not (terminated & waiting).any() and not rewards[waiting].any()
            assert not obs["action_mask"][terminated].any()  # the finished deal, nothing legal
            assert obs["action_mask"][~terminated].any(axis=1).all()
            waiting = terminated
        else:
            assert obs["action_mask"].any(axis=1).all()
            if terminated.any():
                assert info["_final_obs"].tolist() == terminated.tolist()
                assert all((info["final_obs"][i] is None) != terminated[i] for i in range(4))
        seen += int(terminated.sum())
    assert seen >= 4
    envs.close()


def test_the_vector_env_refuses_bad_input():
    with pytest.raises(ValueError, match="autoreset_mode"):
        ChupaiVectorEnv("guandan", 2, autoreset_mode="Disabled")
    with pytest.raises(ValueError, match="autoreset_mode"):
        ChupaiVectorEnv("guandan", 2, autoreset_mode="sometimes")
    with pytest.raises(TypeError, match="autoreset_mode"):
        ChupaiVectorEnv("guandan", 2, autoreset_mode=[1])
    with pytest.raises(ValueError, match="seat"):
        ChupaiVectorEnv("guandan", 2, seat=4)
    envs = ChupaiVectorEnv("guandan", 2)
    obs, _ = envs.reset(seed=1)
    bad = obs["action_mask"].argmax(axis=1)
    bad[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    with pytest.raises(ValueError, match="table 1"):
        envs.step(bad)
    with pytest.raises(ValueError, match="shape"):
        envs.step(bad[:1])
