"""VectorEnv's threads and seeds: the deal seeds derived by ``table_deal`` on both paths,
the same trajectories bit for bit for any ``threads`` with enough tables that every
worker steps some, fresh arrays at every call, and the compiled worker pool
(``chupai.rl._workers``) after a fork."""
from __future__ import annotations

import multiprocessing

import numpy as np
import pytest

from chupai.guandan import Deal
from chupai.rl import VectorEnv
from chupai.core.seeds import table_deal
from chupai.rl._workers import Workers


def _pick(obs: dict, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]], dtype=np.int64)


def _random(obs: dict, rng: np.random.Generator, index: bool) -> np.ndarray:
    """A uniformly random legal id (or row index) per table, vectorised."""
    if index:
        return (rng.random(len(obs["num_actions"])) * obs["num_actions"]).astype(np.int64)
    return (rng.random(obs["action_mask"].shape) * obs["action_mask"]).argmax(axis=1)


def _same(a: object, b: object) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)  # type: ignore[union-attr]
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))  # type: ignore[arg-type]
    x, y = np.asarray(a), np.asarray(b)
    return x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y, equal_nan=x.dtype.kind == "f")


@pytest.mark.parametrize(("n", "kw"), [
    (200, dict()),
    (7, dict()),  # (blocks of one table: seven home regions' worth among three threads)
    (64, dict(features="concrete", action_mode="index")),  # (K reaches thousands of rows)
    (200, dict(observation="danzero", features="ids", opponents={1: "random", 3: "greedy"})),
])
def test_same_trajectories_for_1_2_3_threads_many_tables(n, kw):
    """Many tables stepped in lockstep with 1, 2 and 3 threads: the workers claim blocks of
    tables as they go (their home region's first, then any left), so which thread steps
    which table changes from call to call; every
    array at every step and every deal's record are the same."""
    envs = [VectorEnv("guandan", n, seed=21, threads=t, **kw) for t in (1, 2, 3)]
    assert [e.backend for e in envs] == ["compiled"] * 3
    outs = [e.reset()[0] for e in envs]
    assert all(_same(o, outs[0]) for o in outs[1:])
    rng = np.random.default_rng(8)
    ended = 0
    for _ in range(150):
        actions = _random(outs[0], rng, kw.get("action_mode") == "index")
        steps = [e.step(actions) for e in envs]
        assert all(_same(o, steps[0]) for o in steps[1:])
        outs = [o[0] for o in steps]
        ended += int(steps[0][2].sum())
    assert ended > 0  # deals ended and new ones were dealt inside the parallel part
    records = [[e._compiled._t.history(i) for i in range(n)] for e in envs]  # (seed, moves)
    assert records[1] == records[0] and records[2] == records[0]


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_deals_are_table_deal_of_seed_table_episode(backend):
    """Table i's deal number e is Deal(seed=table_deal(seed, i, e)) on both paths; a reset
    without a seed goes on to the next deal, a reset with one starts again at deal 0."""
    env = VectorEnv("guandan", 3, seed=77, backend=backend)
    obs, _ = env.reset()
    episodes = [0, 0, 0]

    def check() -> None:
        for i, state in enumerate(env.states()):
            assert state.seed == table_deal(77, i, episodes[i])
            replay = Deal(seed=table_deal(77, i, episodes[i]))
            for event in state.history:
                replay.apply(event.action)
            assert replay.history == state.history
            assert [h.counts() for h in replay.hands] == [h.counts() for h in state.hands]

    check()
    rng = np.random.default_rng(0)
    for _ in range(400):
        obs, _, terminated, _, _ = env.step(_pick(obs, rng))
        for i in np.flatnonzero(terminated):
            episodes[i] += 1
    assert sum(episodes) > 0
    check()
    env.reset()
    episodes = [e + 1 for e in episodes]
    check()
    env.reset(seed=77)
    episodes = [0, 0, 0]
    check()


def test_table_deal_values():
    seeds = {table_deal(s, t, e) for s in (0, 1, 2**64 - 1) for t in range(20) for e in range(20)}
    assert len(seeds) == 3 * 20 * 20 and all(0 <= x < 2**63 for x in seeds)
    assert table_deal(5, 1, 2) == table_deal(5, 1, 2)
    for bad in (-1, 2**64):
        with pytest.raises(ValueError, match="seed"):
            table_deal(bad, 0, 0)
    with pytest.raises(TypeError, match="seed"):
        table_deal(1.0, 0, 0)


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_returned_arrays_are_fresh_at_every_call(backend):
    env = VectorEnv("guandan", 4, seed=3, features="ids", backend=backend, threads=2)
    obs, _ = env.reset()
    rng = np.random.default_rng(1)
    for _ in range(30):
        kept = {k: v.copy() for k, v in obs.items()}
        out = env.step(_pick(obs, rng))
        assert all(np.array_equal(obs[k], kept[k]) for k in obs)  # the next step wrote elsewhere
        assert not any(np.shares_memory(obs[k], out[0][k]) for k in obs)
        obs = out[0]


def _child(conn, env_steps: int) -> None:  # runs in a forked process
    env = VectorEnv("guandan", 64, seed=5, threads=2)
    obs, _ = env.reset()
    for _ in range(env_steps):
        obs = env.step(obs["action_mask"].argmax(axis=1))[0]
    conn.send((obs["observation"], env._compiled._t.workers.running))


def test_workers_survive_a_fork():
    """A process forked after the parent's workers ran starts its own threads (the parent's
    are not in the child) and gets the same arrays."""
    env = VectorEnv("guandan", 64, seed=5, threads=2)
    obs, _ = env.reset()
    for _ in range(20):
        obs = env.step(obs["action_mask"].argmax(axis=1))[0]
    assert env._compiled is not None and env._compiled._t.workers.running == 1
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe()
    proc = ctx.Process(target=_child, args=(child, 20))
    proc.start()
    assert parent.poll(120), "the forked child did not answer (a worker pool hang)"
    got, running = parent.recv()
    proc.join(30)
    assert proc.exitcode == 0 and running == 1
    assert np.array_equal(got, obs["observation"])


def test_workers_arguments_and_profile():
    with pytest.raises(ValueError, match="threads"):
        Workers(0)
    w = Workers(3)
    assert w.threads == 3 and w.running == 2
    with pytest.raises(RuntimeError, match="once"):
        w.__init__(2)
    env = VectorEnv("guandan", 50, seed=1, threads=2)
    assert env._compiled is not None
    workers = env._compiled._t.workers
    assert workers.threads == 2 and not workers.profile
    obs, _ = env.reset()
    workers.profile = True
    workers.stats()
    for _ in range(5):
        obs = env.step(obs["action_mask"].argmax(axis=1))[0]
    stats = workers.stats()
    # a step is two jobs: the actions checked, then the tables stepped
    assert stats["jobs"] == 10 and 0 < stats["max_cpu"] <= stats["cpu"] and stats["wall"] > 0
    assert workers.stats()["jobs"] == 0
    env.close()  # the workers stop; the tables still step, on this thread, the same way
    assert workers.running == 0
    ref = VectorEnv("guandan", 50, seed=1, threads=1)
    want, _ = ref.reset()
    for _ in range(5):
        want = ref.step(want["action_mask"].argmax(axis=1))[0]
    for _ in range(3):
        obs = env.step(obs["action_mask"].argmax(axis=1))[0]
        want = ref.step(want["action_mask"].argmax(axis=1))[0]
        assert _same(obs, want)
    env.close()
    assert VectorEnv("guandan", 1, seed=1, threads=4)._compiled._t.workers.threads == 1  # no more than tables


@pytest.mark.parametrize("threads", [2, 3])
def test_bad_input_with_threads_names_the_table_and_no_table_advances(threads):
    env = VectorEnv("guandan", 64, seed=12, threads=threads, features="ids")
    obs, _ = env.reset()
    assert env._compiled is not None
    before = [env._compiled._t.history(i) for i in range(64)]
    good = obs["action_mask"].argmax(axis=1)
    for i, bad_id, what in ((63, int(np.flatnonzero(obs["action_mask"][63] == 0)[0]), "is not legal now"),
                            (40, env.num_actions, "is outside"), (0, -1, "is outside")):
        bad = good.copy()
        bad[i] = bad_id
        with pytest.raises(ValueError, match=f"table {i}: action id {bad_id} {what}"):
            env.step(bad)
    bad = good.copy()
    bad[[5, 33, 60]] = env.num_actions  # in different workers' blocks: the first is named
    with pytest.raises(ValueError, match=f"table 5: action id {env.num_actions} is outside"):
        env.step(bad)
    with pytest.raises(ValueError, match="shape"):
        env.step(good[:10])
    assert [env._compiled._t.history(i) for i in range(64)] == before
    after = env.step(good)[0]  # still consistent: the good actions apply
    assert all(len(env._compiled._t.history(i)[1]) > len(before[i][1]) for i in range(64))
    assert after["action_ids"].shape[0] == 64


def test_one_call_at_a_time():
    """While one Python thread steps the tables (GIL released), a second thread's call on
    the same env is refused with RuntimeError instead of racing it."""
    import threading

    env = VectorEnv("guandan", 4096, seed=2, threads=2)
    env.reset()
    stop = threading.Event()
    refused = [0, 0]
    errors: list[BaseException] = []

    def calls(k: int) -> None:
        try:
            for _ in range(200):
                if stop.is_set():
                    return
                try:
                    env.reset()
                except RuntimeError as e:
                    assert "one call at a time" in str(e)
                    refused[k] += 1
                    if sum(refused) >= 3:
                        stop.set()
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    t = threading.Thread(target=calls, args=(1,))
    t.start()
    calls(0)
    stop.set()
    t.join(60)
    assert not errors and sum(refused) >= 1
    obs, _ = env.reset()  # the tables are consistent afterwards
    env.step(obs["action_mask"].argmax(axis=1))
