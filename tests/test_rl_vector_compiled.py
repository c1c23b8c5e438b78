"""The compiled VectorEnv tables (``chupai.rl._tables`` and each game's own) against the
Python path, for every game of the registry: the same trajectories and the same arrays,
bit for bit, at every step, in every mode; determinism across threads; where the
compiled path is refused.  (A game's own fields under its own rules: its
``test_<game>_vector.py``.)"""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from chupai.rl import VectorEnv
from chupai.registry import GAMES
from vector_lockstep import lockstep, random_actions, replays_as_deals, same


#: the games with compiled tables, each at its fewest, default and most players
COMPILED = [(game, n) for game, entry in GAMES.items() if entry.vector_tables is not None
            for n in sorted({entry.players[0], entry.default_players, entry.players[1]})]


@pytest.mark.parametrize(("game", "players"), COMPILED, ids=[f"{g}-{n}" for g, n in COMPILED])
@pytest.mark.parametrize(("features", "action_mode", "opponents"), [
    (False, "id", None),
    ("concrete", "index", "random"),
    ("ids", "id", "greedy"),
    ("ids", "index", None),
    (False, "id", "heuristic"),
])
def test_every_game_compiled_equals_python(game, players, features, action_mode, opponents):
    """Every game with compiled tables, at its fewest, default and most players: every
    array of reset() and step() equal to the Python path's, over several deals a table
    (the built-in opponents' choices come from other streams on the two paths, so the
    paths are compared in self-play; with opponents, the compiled tables against the
    deals their moves replay to)."""
    kw = dict(num_envs=4, seed=21, players=players, features=features, action_mode=action_mode)
    index = action_mode == "index"
    if opponents is None:
        py, cc = VectorEnv(game, backend="python", **kw), VectorEnv(game, backend="compiled", **kw)

        def same_deals(step: int, obs: dict) -> None:
            if step % 50 == 0:
                assert [a.history for a in py.states()] == [b.history for b in cc.states()]

        assert lockstep(py, cc, 300, np.random.default_rng(7), index, same_deals) >= 2
    else:
        env = VectorEnv(game, backend="compiled", opponents=opponents, **kw)
        replays_as_deals(env, 60, np.random.default_rng(3), index)


#: the games with compiled tables, each under each of its rule presets
PRESETS = [(game, preset) for game, entry in GAMES.items() if entry.vector_tables is not None
           for preset in entry.rule_presets]


@pytest.mark.parametrize(("game", "preset"), PRESETS, ids=[f"{g}-{p}" for g, p in PRESETS])
@pytest.mark.parametrize(("features", "action_mode"), [("concrete", "index"), ("ids", "id")])
def test_every_game_compiled_equals_python_under_each_preset(game, preset, features, action_mode):
    """Both lists of the tables: the concrete plays (actions as indices) and, with ids,
    the plays a game's tables may list suit-collapsed (each id's concrete choice)."""
    entry = GAMES[game]
    rules = getattr(entry.module().Rules, preset)()
    allowed = [n for n in range(entry.players[0], entry.players[1] + 1) if _allowed(rules, n)]
    players = entry.default_players if entry.default_players in allowed else allowed[-1]
    kw = dict(num_envs=4, seed=13, players=players, rules=rules, features=features, action_mode=action_mode)
    py, cc = VectorEnv(game, backend="python", **kw), VectorEnv(game, backend="compiled", **kw)
    assert lockstep(py, cc, 250, np.random.default_rng(2), action_mode == "index") >= 1


def _allowed(rules: Any, n: int) -> bool:
    """Whether ``rules`` (a variant may allow fewer player counts than its game) allow ``n``."""
    try:
        getattr(rules, "check_players", lambda n: n)(n)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("opponents", ["random", "greedy", "heuristic", {1: "random", 3: "greedy"}])
def test_compiled_same_trajectories_for_any_threads(opponents):
    runs = []
    for threads in (1, 2, 3):
        env = VectorEnv("guandan", 7, seed=3, threads=threads, opponents=opponents, features="ids",
                        observation="danzero")
        assert env.backend == "compiled"
        obs, _ = env.reset()
        rng = np.random.default_rng(4)
        trace = [obs]
        for _ in range(150):
            obs, rewards, terminated, _, info = env.step(random_actions(obs, rng, False))
            trace.append((obs, rewards, terminated, info))
        runs.append((trace, [s.history for s in env.states()]))
        env.close()
    for trace, hist in runs[1:]:
        assert hist == runs[0][1]
        assert all(same(a, b) for a, b in zip(trace, runs[0][0]))
    caller = {0} if isinstance(opponents, str) else {0, 2}
    assert set(np.concatenate([t[0]["player"] for t in runs[0][0][1:]]).tolist()) <= caller


def test_compiled_opponent_moves_replay_as_deals():
    """The built-in policies' moves are real plays: states() rebuilds every deal from its
    seed and moves, and its tensors are the env's."""
    replays_as_deals(VectorEnv("guandan", 3, seed=9, opponents="greedy"), 80, np.random.default_rng(0), False)


def test_compiled_bad_input_leaves_every_table_alone():
    env = VectorEnv("guandan", 4, seed=6, features="concrete", action_mode="index")
    obs, _ = env.reset()
    before = [s.history for s in env.states()]
    a = random_actions(obs, np.random.default_rng(0), True)
    bad = a.copy()
    bad[3] = obs["num_actions"][3]
    with pytest.raises(ValueError, match=f"table 3: action index {bad[3]} is outside"):
        env.step(bad)
    bad = a.copy()
    bad[1] = -1
    with pytest.raises(ValueError, match="table 1: action index -1 is outside"):
        env.step(bad)
    with pytest.raises(ValueError, match="table 0: action 18446744073709551615 is out of range"):
        env.step(np.full(4, 2**64 - 1, dtype=np.uint64))
    assert [s.history for s in env.states()] == before
    env.step(a)
    assert [len(s.history) for s in env.states()] > [len(h) for h in before]


def test_backend_choice():
    from chupai.players.bots import RandomBot

    assert GAMES["guandan"].vector_tables is not None
    assert VectorEnv("guandan", 1, 0).backend == "compiled"
    assert VectorEnv("guandan", 1, 0, opponents=RandomBot()).backend == "python"
    for game, entry in GAMES.items():
        if entry.vector_tables is not None:
            continue
        assert VectorEnv(game, 1, 0).backend == "python"
        with pytest.raises(ValueError, match=f"{game} has no compiled tables"):
            VectorEnv(game, 1, 0, backend="compiled")
    with pytest.raises(ValueError, match="a bot other than .random., .greedy. or .heuristic."):
        VectorEnv("guandan", 1, 0, opponents=RandomBot(), backend="compiled")
    with pytest.raises(ValueError, match="backend"):
        VectorEnv("guandan", 1, 0, backend="c")
    with pytest.raises(ValueError, match="observation"):
        VectorEnv("gandengyan", 1, 0, observation="danzero")


def test_the_python_path_says_so_once(monkeypatch):
    """A VectorEnv of backend "auto" that cannot run compiled warns, once a process for
    each reason; one asked for the Python path does not."""
    import warnings

    from chupai.players.bots import RandomBot
    from chupai.rl import vector

    monkeypatch.setattr(vector, "_SAID", set())
    without = [game for game, entry in GAMES.items() if entry.vector_tables is None]
    cases = [(without[0], {})] if without else []
    cases.append(("guandan", {"opponents": RandomBot()}))
    for game, kw in cases:
        with pytest.warns(RuntimeWarning, match="runs on the Python path"):
            assert VectorEnv(game, 1, 0, **kw).backend == "python"
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert VectorEnv(game, 1, 0, **kw).backend == "python"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        monkeypatch.setattr(vector, "_SAID", set())
        assert VectorEnv("guandan", 1, 0, backend="python").backend == "python"

def test_compiled_tables_check_what_python_can_reach():
    """The private C object refuses bad ranges, shapes and actions (no out-of-bounds access)."""
    env = VectorEnv("guandan", 3, seed=1, features="ids")
    obs, _ = env.reset()
    assert env._compiled is not None
    t = env._compiled._t
    n, size, ids = 3, env.observation_size, env.num_actions
    o, m, p = np.empty((n, size), np.float32), np.empty((n, ids), np.int8), np.empty(n, np.int64)
    rows, r, term, f = np.empty(n, np.int64), np.zeros((n, 4)), np.zeros(n, np.uint8), np.zeros((n, 4))
    good = obs["action_mask"].argmax(axis=1).astype(np.int64)
    with pytest.raises(ValueError, match="obs must have shape"):
        t.bind(o[:2], m, p, rows, r, term, f)
    with pytest.raises(ValueError, match="mask must have shape"):
        t.bind(o, np.empty((n, 5), np.int8), p, rows, r, term, f)
    with pytest.raises(ValueError, match="rows must have shape"):
        t.bind(o, m, p, rows[:2], r, term, f)
    with pytest.raises(ValueError, match="rewards must have shape"):
        t.bind(o, m, p, rows, np.zeros((n, 2)), term, f)
    with pytest.raises(ValueError, match="actions must have shape"):
        t.step(good[:2])
    bad = good.copy()
    bad[2] = ids
    with pytest.raises(ValueError, match="table 2: action id"):
        t.step(bad)
    with pytest.raises(RuntimeError, match="bind"):
        type(t)(3, 1, t.engine(0), [-1] * 4, 0, False, False, [(1, 0, 1, 0)], -1, [0] * 15, 3, list(range(54)),
                [0.0, 4, 2, 1], ids, 193, size).step(good)
    with pytest.raises(ValueError, match="more than K"):
        t.features(np.zeros((n, 1, 54), np.float32), np.zeros((n, 1), np.int64))
    with pytest.raises(ValueError, match="shape"):
        t.features(np.zeros((n, 400, 53), np.float32), np.zeros((n, 400), np.int64))
    for bad_seed in (-1, 2**64):
        with pytest.raises(ValueError, match="seed"):
            t.seed(bad_seed)
    with pytest.raises(TypeError, match="seed"):
        t.seed(1.5)
    for i in (-1, 3):
        with pytest.raises(IndexError):
            t.history(i)
        with pytest.raises(IndexError):
            t.engine(i)
    with pytest.raises(RuntimeError, match="once"):
        t.__init__(3, 1, t.engine(0), [-1] * 4, 0, False, False, [(1, 0, 1, 0)], -1, [0] * 15, 3, list(range(54)),
                   [0.0, 4, 2, 1], ids, 193, size)
    env.step(good)  # still consistent


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_bad_rules_refused_at_construction(backend):
    with pytest.raises(TypeError, match="rules"):
        VectorEnv("guandan", 2, 0, rules="pagat", backend=backend)


def test_tables_arguments_are_named_when_out_of_range(monkeypatch):
    """The compiled tables check what chupai.rl.compiled hands them, naming the argument."""
    from chupai.registry.entry import resolve

    driver = resolve(GAMES["guandan"].vector_tables)
    cls = driver.TABLES
    seen: list[tuple] = []

    def record(*args):
        seen.append(args)
        return cls(*args)

    monkeypatch.setattr(driver, "TABLES", staticmethod(record))
    VectorEnv("guandan", 2, seed=1)
    good = list(seen[0])
    for index, value, message in [(0, 0, "n must be >= 1, not 0"),
                                  (3, good[3][:-1], r"policies must hold one entry per seat \(4\), not 3"),
                                  (11, good[11][:-1], "perm must hold 54 faces, not 53"),
                                  (7, (), "patterns must name at least one"),
                                  (14, good[13], "pass_id must be -1 or an action id below num_actions")]:
        args = list(good)
        args[index] = value
        with pytest.raises(ValueError, match=message):
            cls(*args)
    cls(*good)


@pytest.mark.parametrize("game", list(GAMES))
def test_final_observations_and_waiting_tables_agree(game):
    """Both paths give the same finished deals seen by a seat (info["final_observation"],
    zero rows where no deal ended) and leave the tables that wait where they are."""
    envs = {b: VectorEnv(game, 8, seed=2, backend=b, final_observation=1) for b in ("compiled", "python")}
    obs = {b: e.reset()[0] for b, e in envs.items()}
    rng = np.random.default_rng(0)
    ended = waited = 0
    for _ in range(300):
        m = obs["compiled"]["action_mask"]
        actions = ((rng.random(m.shape) + 1) * m).argmax(axis=1)
        wait = rng.random(8) < 0.2
        before = obs["compiled"]["observation"][wait].copy()
        got = {b: e.step(actions, wait) for b, e in envs.items()}
        c, p = got["compiled"], got["python"]
        for key in ("observation", "action_mask", "player"):
            assert np.array_equal(c[0][key], p[0][key]), key
        assert np.array_equal(c[1], p[1]) and np.array_equal(c[2], p[2])
        assert np.array_equal(c[4]["final_observation"], p[4]["final_observation"])
        assert not c[4]["final_observation"][~c[2]].any()
        assert np.array_equal(c[0]["observation"][wait], before) and not c[1][wait].any()
        obs = {b: r[0] for b, r in got.items()}
        ended += int(c[2].sum())
        waited += int(wait.sum())
    assert ended and waited


def test_final_observation_and_wait_refuse_bad_input():
    with pytest.raises(ValueError, match="final_observation"):
        VectorEnv("guandan", 2, final_observation=4)
    with pytest.raises(TypeError, match="final_observation"):
        VectorEnv("guandan", 2, final_observation="0")
    with pytest.raises(ValueError, match="default observation"):
        VectorEnv("guandan", 2, final_observation=0, observation="danzero")
    env = VectorEnv("guandan", 2, seed=1)
    obs, _ = env.reset()
    good = obs["action_mask"].argmax(axis=1)
    for wait in (np.zeros(3, bool), np.zeros(2, np.int8)):
        with pytest.raises(ValueError, match="wait"):
            env.step(good, wait)
    bad = good.copy()
    bad[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    _, rewards, *_ = env.step(bad, np.array([False, True]))  # the waiting table's action is not read
    assert not rewards[1].any()


@pytest.mark.parametrize("game", list(GAMES))
def test_int8_features_hold_the_float_features_counts(game):
    """feature_dtype=np.int8: the same card counts, on both paths, in a quarter of the bytes."""
    made = {(b, d): VectorEnv(game, 4, seed=3, backend=b, features="concrete", feature_dtype=d)
            for b in ("compiled", "python") for d in (np.float32, np.int8)}
    obs = {k: e.reset()[0] for k, e in made.items()}
    rng = np.random.default_rng(0)
    for _ in range(60):
        ref = obs["python", np.float32]
        for (_, dtype), o in obs.items():
            assert o["action_features"].dtype == dtype
            assert np.array_equal(o["action_features"], ref["action_features"])
            assert np.array_equal(o["action_ids"], ref["action_ids"])
        m = ref["action_mask"]
        actions = ((rng.random(m.shape) + 1) * m).argmax(axis=1)
        obs = {k: e.step(actions)[0] for k, e in made.items()}


def test_feature_dtype_is_checked():
    with pytest.raises(ValueError, match="feature_dtype"):
        VectorEnv("guandan", 2, features="ids", feature_dtype=np.float64)
    with pytest.raises(TypeError, match="feature_dtype"):
        VectorEnv("guandan", 2, features="ids", feature_dtype="no such type")
