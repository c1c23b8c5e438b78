"""chupai.rl.TablePool: send/recv over batches of a VectorEnv's tables."""
import gc
import multiprocessing
import sys

import numpy as np
import pytest

from chupai.registry import GAMES
from chupai.rl import TablePool, VectorEnv


def pick(mask, rng):
    return ((rng.random(mask.shape) + 1) * mask).argmax(axis=1)


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("backend,threads,copy", [("compiled", 1, True), ("compiled", 2, True), ("python", 1, True),
                                                 ("python", 2, True), ("compiled", 2, False), ("python", 2, False)])
def test_the_batches_play_the_tables_of_one_env(game, backend, threads, copy):
    """Every batch's results are the rows of one VectorEnv of the same seed stepped
    with the same actions: observations, masks, rewards, terminations, final returns
    (with ``copy=False`` each read before its batch is sent again)."""
    whole = VectorEnv(game, 6, seed=3, opponents={1: "random"}, backend=backend)
    pool = TablePool(game, 6, batch_size=2, seed=3, threads=threads, opponents={1: "random"}, backend=backend,
                     copy=copy)
    assert pool.backend == backend
    rng = np.random.default_rng(0)
    obs, _ = whole.reset()
    pool.async_reset()
    results = [pool.recv() for _ in range(3)]
    ended = 0
    rounds = 0
    while rounds < 40 or ended < 2:  # until deals ended on the way (the auto-reset compared)
        rounds += 1
        assert rounds < 2000
        for b, (o, r, term, trunc, info) in enumerate(results):
            rows = slice(2 * b, 2 * b + 2)
            assert info["env_id"].tolist() == [2 * b, 2 * b + 1]
            for key in ("observation", "action_mask", "player"):
                assert np.array_equal(o[key], obs[key][rows]), key
        actions = pick(obs["action_mask"], rng)
        for b in range(3):
            pool.send(actions[2 * b: 2 * b + 2], np.arange(2 * b, 2 * b + 2))
        obs, rewards, terminated, _, info = whole.step(actions)
        results = [pool.recv() for _ in range(3)]
        for b, (o, r, term, trunc, got) in enumerate(results):
            rows = slice(2 * b, 2 * b + 2)
            assert np.array_equal(r, rewards[rows]) and np.array_equal(term, terminated[rows])
            assert np.array_equal(got["final_returns"], info["final_returns"][rows], equal_nan=True)
            assert not trunc.any()
        ended += int(terminated.sum())
    pool.close()


def test_recv_returns_the_batches_in_the_order_sent():
    pool = TablePool("guandan", 6, batch_size=3, seed=1, threads=2)
    pool.async_reset()
    first, second = pool.recv(), pool.recv()
    pool.send(second[0]["action_mask"].argmax(axis=1), second[4]["env_id"])
    pool.send(first[0]["action_mask"].argmax(axis=1), first[4]["env_id"])
    assert pool.recv()[4]["env_id"].tolist() == [3, 4, 5]
    assert pool.recv()[4]["env_id"].tolist() == [0, 1, 2]
    pool.close()


def test_bad_input():
    with pytest.raises(ValueError, match="multiple of batch_size"):
        TablePool("guandan", 5, batch_size=2)
    with pytest.raises(ValueError, match="batch_size"):
        TablePool("guandan", 4, batch_size=8)
    with pytest.raises(TypeError, match="batch_size"):
        TablePool("guandan", 4, batch_size=2.0)
    with pytest.raises(TypeError, match="copy"):
        TablePool("guandan", 4, batch_size=2, copy=0)
    with pytest.raises(TypeError, match="first_table"):
        TablePool("guandan", 4, batch_size=2, first_table=2)
    pool = TablePool("guandan", 4, batch_size=2, seed=1)
    with pytest.raises(ValueError, match="no batch was sent"):
        pool.recv()
    pool.async_reset()
    with pytest.raises(ValueError, match="receive every batch"):
        pool.async_reset()
    obs, *_, info = pool.recv()
    good = obs["action_mask"].argmax(axis=1)
    for ids in ([1, 2], [0], [2, 3, 4], np.array([0.0, 1.0]), [4, 5]):
        with pytest.raises(ValueError, match="env_ids"):
            pool.send(good, ids)
    with pytest.raises(ValueError, match="was sent and not received"):
        pool.send(good, [2, 3])
    with pytest.raises(ValueError, match="integers"):
        pool.send(good.astype(float), [0, 1])
    bad = good.copy()
    bad[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    pool.send(bad, [0, 1])
    pool.recv()  # the batch [2, 3] of the reset
    with pytest.raises(ValueError, match="table 1: action id"):
        pool.recv()
    pool.send(good, [0, 1])  # refused, the batch is unchanged: send it again
    again, *_ = pool.recv()
    whole = VectorEnv("guandan", 4, seed=1)
    ref, _ = whole.reset()
    ref, *_ = whole.step(np.concatenate([good, ref["action_mask"][2:].argmax(axis=1)]))
    assert np.array_equal(again["observation"], ref["observation"][:2])
    pool.close()


@pytest.mark.parametrize("backend", ["compiled", "python"])
def test_copy_false_reuses_each_batch_s_arrays(backend):
    """``copy=False``: a batch's arrays are the same memory at every ``recv`` of it, the
    other batch's apart; ``copy=True``: new at every ``recv``."""
    for copy in (False, True):
        pool = TablePool("guandan", 4, batch_size=2, seed=1, threads=2, copy=copy, backend=backend)
        pool.async_reset()
        seen = {0: [], 2: []}
        for _ in range(6):
            obs, rewards, terminated, _, info = pool.recv()
            seen[int(info["env_id"][0])].append((obs["observation"], obs["action_mask"], rewards))
            pool.send(obs["action_mask"].argmax(axis=1), info["env_id"])
        pool.close()
        for arrays in seen.values():  # the reset's arrays, then the steps' (where reuse begins)
            for k in range(3):
                same = [np.shares_memory(a[k], arrays[1][k]) for a in arrays[2:]]
                assert same == [not copy] * len(same)
        assert not np.shares_memory(seen[0][-1][0], seen[2][-1][0])


def test_first_table_is_checked():
    with pytest.raises(ValueError, match="first_table"):
        VectorEnv("guandan", 2, first_table=-1)
    with pytest.raises(TypeError, match="first_table"):
        VectorEnv("guandan", 2, first_table=1.0)


def test_action_features_of_a_batch_are_the_env_rows():
    """With action features (computed when a batch is received), each table's rows are
    the ones one VectorEnv gives it."""
    whole = VectorEnv("guandan", 8, seed=2, features=True)
    pool = TablePool("guandan", 8, batch_size=4, seed=2, threads=2, features=True)
    obs, _ = whole.reset()
    pool.async_reset()
    for rounds in range(30):
        got = [pool.recv()[0] for _ in range(2)]
        for i in range(8):
            mine, k = got[i // 4], obs["num_actions"][i]
            assert mine["num_actions"][i % 4] == k
            assert np.array_equal(mine["action_ids"][i % 4, :k], obs["action_ids"][i, :k])
            assert np.array_equal(mine["action_features"][i % 4, :k], obs["action_features"][i, :k])
        actions = obs["action_mask"].argmax(axis=1)
        for b in range(2):
            pool.send(actions[4 * b: 4 * b + 4], np.arange(4 * b, 4 * b + 4))
        obs, *_ = whole.step(actions)
    pool.close()


def test_a_pool_dropped_with_batches_stepping():
    """The batches sent are received before the pool goes (their tables are in use), and
    then the tables go too."""
    pool = TablePool("guandan", 64, batch_size=16, seed=1, threads=2)
    pool.async_reset()
    for _ in range(4):
        obs, *_, info = pool.recv()
        pool.send(obs["action_mask"].argmax(axis=1), info["env_id"])
    tables = [env._compiled._t for env in pool._batches]
    del pool
    gc.collect()
    assert [sys.getrefcount(t) for t in tables] == [3] * 4  # the list's, the loop's, the argument's


def _child(conn, pool) -> None:  # runs in a forked process
    for _ in range(8):
        obs, *_, info = pool.recv()
        pool.send(obs["action_mask"].argmax(axis=1), info["env_id"])
    conn.send(sorted((info["env_id"][0], pool.recv()[0]["observation"].sum()) for _ in range(4)))


def test_a_forked_child_steps_its_copy_of_the_pool():
    """A process forked with no batch stepping starts the pool's threads of its own and
    steps what the parent steps."""
    pool = TablePool("guandan", 64, batch_size=16, seed=1, threads=2)
    pool.async_reset()  # the compiled batches are dealt at once: none steps at the fork
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe()
    proc = ctx.Process(target=_child, args=(child, pool))
    proc.start()
    assert parent.poll(120), "the forked child did not answer (a task queue hang)"
    got = parent.recv()
    proc.join(30)
    assert proc.exitcode == 0
    _child(child, pool)
    assert parent.recv() == got
    pool.close()
