"""``TablePool``: a :class:`~chupai.rl.VectorEnv`'s tables stepped in batches while the
caller works (EnvPool's ``send``/``recv``).

The ``num_envs`` tables form ``num_envs // batch_size`` batches of ``batch_size``
neighbouring tables (batch ``b`` holds ids ``b * batch_size ..``); each batch is a
``VectorEnv`` of its own (``first_table``: the pool's table ``i`` deals what table
``i`` of one ``VectorEnv(game, num_envs, seed)`` deals).  ``send(actions, env_ids)``
hands one batch's actions to ``threads`` threads and returns at once; the batch steps
with the GIL released while the caller picks the actions of another (compiled batches
go to a ``chupai.rl._workers.TaskQueue``, POSIX threads that never take the GIL; the
Python path's to a ``ThreadPoolExecutor``); ``recv()`` waits
for the batch sent first of those not yet received and returns its
``(obs, rewards, terminated, truncated, info)``, ``info["env_id"]`` naming its tables:

>>> import numpy as np
>>> pool = TablePool("guandan", num_envs=4, batch_size=2, seed=1)
>>> pool.async_reset()
>>> for _ in range(4):
...     obs, rewards, terminated, truncated, info = pool.recv()
...     actions = obs["action_mask"].argmax(axis=1)
...     pool.send(actions, info["env_id"])
>>> info["env_id"].tolist(), obs["observation"].shape
([2, 3], (2, 616))
>>> pool.close()

A batch sent is received before it is sent again (``ValueError`` otherwise).  The
arrays ``recv`` returns are fresh (``copy=True``, the default), or (``copy=False``)
the batch's own memory, reused: valid until that batch is sent again, whose step
writes them while it runs (copy what you keep before ``send``).  An action the batch
refuses (an id not legal now) raises its ``ValueError`` at the ``recv`` of that batch, no table of it
advanced; send the batch again.  With one thread the batches step one after another
(on the caller's thread, at ``recv``: nothing overlaps); with two, a thread steps
the batches sent while the caller works, and a ``recv`` whose batch it has not
started yet steps that batch itself.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from chupai.core.validate import check_int
from chupai.rl._workers import TaskQueue
from chupai.rl.vector import VectorEnv

__all__ = ["TablePool"]

_Result = tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]


def _ready(result: _Result) -> Callable[[], _Result]:
    """What returns ``result``, already there."""
    return lambda: result


class TablePool:
    """``num_envs`` tables of ``game`` in batches of ``batch_size`` (module doc).

    Args:
        game: a registered game name.
        num_envs: the number of tables (a multiple of ``batch_size``).
        batch_size: the tables a ``recv`` returns (default ``num_envs``).
        seed: the seed of every table's stream of deals (``None``: a random one).
        threads: the threads stepping batches, the caller's included (as
            :class:`~chupai.rl.VectorEnv`'s): ``threads - 1`` threads step the batches
            sent, and a ``recv`` whose batch none has started steps it itself.
        copy: ``True`` (new arrays at every ``recv``) or ``False`` (each batch's own,
            overwritten once the batch is sent again; module doc).
        **kwargs: the other arguments of :class:`~chupai.rl.VectorEnv` (``rules``,
            ``opponents``, ``players``, ``features``, ``action_mode``, ``observation``,
            ``backend``).
    """

    def __init__(self, game: str, num_envs: int, batch_size: int | None = None, seed: int | None = None,
                 threads: int = 1, copy: bool = True, **kwargs: Any) -> None:
        n = check_int(num_envs, "num_envs", 1)
        size = n if batch_size is None else check_int(batch_size, "batch_size", 1, n)
        if n % size:
            raise ValueError(f"num_envs ({n}) must be a multiple of batch_size ({size})")
        check_int(threads, "threads", 1)
        for key in ("first_table", "num_envs"):
            if key in kwargs:
                raise TypeError(f"TablePool sets {key} of its batches itself")
        first = VectorEnv(game, size, seed, threads=1, copy=copy, first_table=0, **kwargs)
        seed = first._seed  # the batches share one seed (a random one drawn once)
        self._batches = [first] + [VectorEnv(game, size, seed, threads=1, copy=copy, first_table=b * size, **kwargs)
                                   for b in range(1, n // size)]
        self.game = first.game
        self.num_envs = n
        self.batch_size = size
        self.threads = int(threads)
        self.copy = copy
        self.players = first.players
        self.num_actions = first.num_actions
        self.observation_size = first.observation_size
        self.backend = first.backend
        self._ids = [np.arange(b * size, (b + 1) * size, dtype=np.int64) for b in range(len(self._batches))]
        # the threads beside the caller's (which steps a batch it waits for if none has)
        self._queue = TaskQueue(self.threads - 1) if first._compiled is not None else None
        self._pool = (ThreadPoolExecutor(self.threads - 1, thread_name_prefix="chupai-pool")
                      if self._queue is None and self.threads > 1 else None)
        # per batch sent, oldest first: (its number, what returns its results)
        self._sent: deque[tuple[int, Callable[[], _Result]]] = deque()

    def _batch(self, env_ids: Any) -> int:
        """The batch whose ids ``env_ids`` are (``ValueError`` otherwise)."""
        ids = np.asarray(env_ids)
        if ids.shape != (self.batch_size,) or ids.dtype.kind not in "iu":
            raise ValueError(f"env_ids must be {self.batch_size} ints (a batch's ids, as recv returned them), "
                             f"not shape {ids.shape} dtype {ids.dtype}")
        b = int(ids[0]) // self.batch_size if 0 <= int(ids[0]) < self.num_envs else -1
        if b < 0 or not np.array_equal(ids, self._ids[b]):
            raise ValueError(f"env_ids must be one batch's ids, b * {self.batch_size} .. (b + 1) * "
                             f"{self.batch_size} - 1 in order, not {ids.tolist()}")
        return b

    def _idle(self, b: int) -> VectorEnv:
        """Batch ``b``'s env (``ValueError`` while it is sent and not received)."""
        if any(sent == b for sent, _ in self._sent):
            raise ValueError(f"batch {b} (tables {self._ids[b][0]}..{self._ids[b][-1]}) was sent and not received yet")
        return self._batches[b]

    def async_reset(self, seed: int | None = None) -> None:
        """Start a new deal at every table (``seed``: reseed first); every batch is then
        sent (``recv`` returns each, its ``rewards`` zero)."""
        if self._sent:
            raise ValueError("async_reset: receive every batch sent first")
        for b, env in enumerate(self._batches):
            if self._pool is None:  # dealing is quick: here and now
                self._sent.append((b, _ready(self._reset(env, seed))))
            else:
                self._sent.append((b, self._pool.submit(self._reset, env, seed).result))

    def _reset(self, env: VectorEnv, seed: int | None) -> _Result:
        obs, info = env.reset(seed=seed)
        zeros = np.zeros(env.num_envs, dtype=bool)
        return (obs, np.zeros((env.num_envs, env.players)), zeros, zeros.copy(),
                dict(info, final_returns=np.full((env.num_envs, env.players), np.nan)))

    def send(self, actions: Any, env_ids: Any) -> None:
        """Step the batch ``env_ids`` (as ``recv`` returned them) with ``actions``, one per
        table; returns at once."""
        b = self._batch(env_ids)
        env = self._idle(b)
        arr = np.array(env._check(actions))  # checked now, and the caller's array free to change
        if env._compiled is not None and self._queue is not None:
            env._compiled.start(self._queue, arr)
            self._sent.append((b, env._compiled.finish))
        elif self._pool is not None:
            self._sent.append((b, self._pool.submit(env.step, arr).result))
        else:  # one thread: the batch steps when it is received
            self._sent.append((b, lambda: env.step(arr)))

    def recv(self) -> _Result:
        """The batch sent first of those not received: its step's (or reset's) results,
        ``info["env_id"]`` its tables' ids."""
        if not self._sent:
            raise ValueError("recv: no batch was sent (call async_reset or send first)")
        b, receive = self._sent.popleft()
        obs, rewards, terminated, truncated, info = receive()
        return obs, rewards, terminated, truncated, dict(info, env_id=self._ids[b])

    def __del__(self) -> None:
        # a batch still stepping holds its tables until received: receive it
        if getattr(self, "_sent", None):
            self.close()

    def close(self) -> None:
        """Wait for the batches sent, then stop the threads and the batches' tables (the
        pool takes no more calls)."""
        while self._sent:
            try:
                self._sent.popleft()[1]()
            except ValueError:  # a refused action: that batch did not step
                pass
        if self._pool is not None:
            self._pool.shutdown(wait=True)
        if self._queue is not None:
            self._queue.close()
        for env in self._batches:
            env.close()
