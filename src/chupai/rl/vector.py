"""``VectorEnv``: many tables of one game stepped per call, numpy in and out.

>>> import numpy as np
>>> env = VectorEnv("guandan", num_envs=3, seed=0)
>>> obs, info = env.reset()
>>> obs["observation"].shape, obs["action_mask"].shape
((3, 616), (3, 360))
>>> ids = np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]])
>>> obs, rewards, terminated, truncated, info = env.step(ids)
>>> rewards.shape, terminated.tolist()
((3, 4), [False, False, False])

Conventions (Gymnasium's vector API):

* ``reset(seed=None)`` returns ``(obs, info)``; ``step(actions)`` returns ``(obs,
  rewards, terminated, truncated, info)``.
* ``obs`` is a dict of arrays, one row per table: ``"observation"`` (float32, the
  acting player's :func:`chupai.rl.observation_tensor`), ``"action_mask"`` (int8 over
  the ids), ``"player"`` (the acting seat); with ``features`` also
  ``"action_features"`` (float32, ``(num_envs, K, 54)``: the card counts of the legal
  actions, zero rows after the last), ``"action_ids"`` (int64, the id of each row, -1
  for padding) and ``"num_actions"`` (rows per table).  ``features="concrete"`` (or
  ``True``): one row per concrete legal action (every suit and wild choice, the order of
  ``state.legal_actions()``); ``features="ids"``: one row per legal id, its concrete
  choice, in id order.  ``K`` is the largest number of rows in the batch, so it varies
  between calls.
* ``actions``: one int per table, an id (``action_mode="id"``, the concrete choice of
  :func:`chupai.rl.id_to_action`) or, with ``action_mode="index"``, an index into the
  table's rows of ``action_features`` (without features: into
  ``state.legal_actions()``).
* ``rewards``: float64 ``(num_envs, players)``, each seat's reward for this step: zero
  until a deal ends, then the deal's ``returns()``.
* ``terminated``: the deal of that table ended in this step; ``truncated`` is always
  False (deals always end).  **Auto-reset, same step**: a table whose deal ended starts
  a new deal at once and the returned observation is the new deal's;
  ``info["final_returns"]`` holds the finished deal's returns (NaN rows elsewhere), and
  with ``final_observation=seat`` ``info["final_observation"]`` the finished deal seen
  by that seat (zero rows elsewhere).  ``step(actions, wait)``: the tables where the
  bool array ``wait`` is True do not move (their action unread, their observation
  returned again, reward 0): what Gymnasium's next-step auto-reset needs
  (:mod:`chupai.rl.gymnasium`).
* ``opponents``: seats played by bots: a spec of :func:`chupai.players.search.make_bot`
  (``"random"``, ``"greedy"``, ``"heuristic"``, ``"mc:50"``, ...) or any bot with
  ``choose(state, rng)``; ``None`` is self-play (every seat is the caller's).
  A policy (str or bot) plays every seat but 0; a sequence gives one entry per seat
  (``None`` for the caller's seats); a dict maps seats to policies.  The tables run the
  opponents' moves before returning, so the acting player is always the caller's.
* ``observation``: ``"default"``, or a layout of the game's own (its registry entry's
  ``observations``; Guan Dan's ``"danzero"``: DanZero's 513 values,
  :func:`chupai.guandan.danzero.observation`, with the action features in DanZero's
  card order, :func:`chupai.guandan.danzero.card_vector`).
* Backends: ``backend="auto"`` (default) runs the **compiled tables** where the game has
  them (its registry entry's ``vector_tables``: every game's, with opponents the
  tables play, ``"random"``/``"greedy"``/``"heuristic"``, or none; every
  table stepped in C with the GIL released, the tensors written in C) and the Python
  path elsewhere (a game without them, or a bot object as an opponent; a ``RuntimeWarning`` says so, once a process for each
  reason); ``"python"`` forces the Python path, ``"compiled"`` refuses with
  ``ValueError`` where it cannot run.  ``env.backend`` says which runs.  Both
  give the same arrays, bit for bit, in self-play (``tests/test_rl_vector_compiled.py``).
* Determinism: deal ``e`` (0, 1, ... since the last seeding) of table ``i`` is
  ``Deal(seed=table_deal(seed, first_table + i, e))`` on both paths
  (:func:`chupai.core.seeds.table_deal`, a splitmix64 hash computed in C, so
  no Python runs per deal and the split of the tables between threads cannot matter);
  the opponents' random choices come from a numpy generator seeded by ``(seed,
  first_table + i)`` on the Python path, from a C stream seeded by the same on the
  compiled path (so
  with ``"random"`` opponents the two backends play different games, each
  deterministic).  The same seed gives the same trajectories for any ``threads``:
  with ``threads > 1`` the compiled path steps the tables on its worker threads
  (:mod:`chupai.rl._workers`, the GIL released; each claims blocks of tables as it
  goes, so which thread steps a table varies and cannot matter); the Python path steps
  contiguous chunks in a thread pool that holds the GIL and gains nothing.
* ``copy=True`` (default, Gymnasium's): returned arrays are fresh at every call (the
  caller owns them: keeping an observation across steps is safe); the compiled path
  allocates them uninitialised and its workers write every element, so the allocation
  costs no serial pass over the data.  ``copy=False``: every call writes the same
  memory and returns views of it, valid until the next ``reset`` or ``step``
  (:mod:`chupai.rl.buffers`); copy what you keep.  With worker threads each thread then
  writes the rows it wrote the step before, which may still be in its core's cache
  (fresh arrays may land on memory another thread last wrote): ``bench/rl.py
  --no-copy``.
* Bad input raises ``ValueError`` naming the table and the id (wrong shape, non-integer
  dtype, an id out of range or not legal now) before any table advances.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
import warnings
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from chupai.registry import game as registry_entry
from chupai.registry.entry import resolve
from chupai.core.seeds import SEED_MASK, stream, table_deal
from chupai.core.validate import check_int
from chupai.state.base import check_seed, is_int
from chupai.core.records import NUM_FACES
from chupai.encoding.tensors import (
    _concrete_index,
    _features,
    _legal_with_records,
    action_space,
    observation_layout,
    observation_tensor,
)
from chupai.encoding.spaces import ActionSpace
from chupai.rl.buffers import Outputs
from chupai.rl.compiled import CompiledTables

__all__ = ["VectorEnv"]

_MODES = ("id", "index")
_FEATURES = (False, True, "concrete", "ids")
_BACKENDS = ("auto", "compiled", "python")
_FEATURE_DTYPES = (np.dtype(np.float32), np.dtype(np.int8))
#: why a VectorEnv of backend "auto" ran on the Python path, each said once a process
_SAID: set[str] = set()


def _policy(spec: Any) -> Any:
    """The opponent a spec names: ``None`` (the caller's seat), a bot, or a bot spec
    of :func:`chupai.players.search.make_bot` (``"random"``, ``"greedy"`` and ``"heuristic"`` also run compiled)."""
    from chupai.players.search.registry import as_bot

    return None if spec is None else as_bot(spec, what="opponent")


def opponents_specs(opponents: Any, n: int) -> list[Any]:
    """Per seat, the opponent spec as given (``None`` for the caller's seats); the
    arguments are checked by :func:`_opponents`."""
    if opponents is None:
        return [None] * n
    if isinstance(opponents, str) or callable(getattr(opponents, "choose", None)):
        return [None] + [opponents] * (n - 1)
    if isinstance(opponents, Mapping):
        return [opponents.get(s) for s in range(n)]
    return list(opponents)


def _opponents(opponents: Any, n: int) -> list[Any]:
    if opponents is None:
        return [None] * n
    if isinstance(opponents, str) or callable(getattr(opponents, "choose", None)):
        return [None] + [_policy(opponents)] * (n - 1)
    if isinstance(opponents, Mapping):
        out: list[Any] = [None] * n
        for seat, spec in opponents.items():
            if not is_int(seat) or not 0 <= seat < n:
                raise ValueError(f"opponents: seat must be 0-{n - 1}, not {seat!r}")
            out[int(seat)] = _policy(spec)
    elif isinstance(opponents, Sequence):
        if len(opponents) != n:
            raise ValueError(f"opponents must have one entry per seat ({n}), not {len(opponents)}")
        out = [_policy(s) for s in opponents]
    else:
        raise ValueError(f"opponents must be None, a policy, a sequence or a dict, not {opponents!r}")
    if all(p is not None for p in out):
        raise ValueError("opponents: at least one seat must be the caller's")
    return out


class _Table:
    """One table: its deal (and how many it dealt), its generator, and the current legal
    actions."""

    __slots__ = ("index", "episode", "deal", "rng", "legal", "ids", "rec", "rows")

    def __init__(self, index: int, rng: np.random.Generator) -> None:
        self.index = index
        self.episode = 0
        self.rng = rng
        self.deal: Any = None
        self.legal: Sequence[Any] = []
        self.ids = np.empty(0, dtype=np.int64)
        self.rec: Any = None
        self.rows = np.empty(0, dtype=np.int64)

    def refresh(self, by_id: bool) -> None:
        """Read the legal actions; ``rows`` indexes them: all of them, or with ``by_id``
        the concrete choice of each legal id, in id order."""
        self.legal, self.ids, self.rec, _ = _legal_with_records(self.deal)
        if not by_id:
            self.rows = np.arange(len(self.legal))
            return
        k = 0 if self.rec is None else len(self.rec)
        order = ActionSpace.concrete_order(self.rec, self.ids[:k]) if k else np.empty(0, dtype=np.int64)
        _, first = np.unique(self.ids[:k][order], return_index=True)
        self.rows = np.concatenate([order[first], np.arange(k, len(self.legal))]).astype(np.int64)


class VectorEnv:
    """``num_envs`` tables of ``game`` (module doc).

    Args:
        game: a registered game name.
        num_envs: the number of tables (at least 1).
        seed: the seed of every table's stream of deals (``None``: a random one).
        rules: the game's rules object (default rules for ``None``).
        threads: worker threads stepping the tables (at least 1).
        opponents: the seats played by built-in policies (module doc).
        players: the number of players (games with a variable number; default 4).
        features: add the legal actions' card features to the observations:
            ``"concrete"`` (or ``True``) one row per concrete action, ``"ids"`` one
            row per legal id.
        action_mode: ``"id"`` (actions are ids) or ``"index"`` (indices into the
            concrete legal actions).
        observation: ``"default"`` (:func:`chupai.rl.observation_tensor`) or
            a layout of the game's own (Guan Dan: ``"danzero"``, DanZero's 513 values).
        backend: ``"auto"``, ``"compiled"`` or ``"python"`` (module doc).
        copy: ``True`` (new output arrays at every call) or ``False`` (the env's own,
            overwritten by the next call; module doc).
        first_table: the number of table 0 in the seeds (module doc, determinism): the
            tables of ``VectorEnv(..., n, first_table=k)`` deal what tables ``k ..
            k + n - 1`` of one larger env of the same seed deal.
        feature_dtype: the type of ``action_features``: ``np.float32`` (default) or
            ``np.int8`` (the same card counts, 0..2, in a quarter of the bytes).
        final_observation: a seat: ``step``'s ``info["final_observation"]`` holds, for
            each table whose deal ended in the call, the finished deal seen by that seat
            (:func:`chupai.rl.observation_tensor`; zero rows elsewhere); the default
            observation only.
    """

    def __init__(self, game: str, num_envs: int, seed: int | None = None, rules: Any = None, threads: int = 1,
                 opponents: Any = None, *, players: int | None = None, features: bool | str = False,
                 action_mode: str = "id", observation: str = "default", backend: str = "auto",
                 copy: bool = True, first_table: int = 0, final_observation: int | None = None,
                 feature_dtype: Any = np.float32) -> None:
        entry = registry_entry(game)
        self._out = Outputs(copy)
        check_int(num_envs, "num_envs", 1)
        check_int(threads, "threads", 1)
        self.first_table = check_int(first_table, "first_table", 0)
        if action_mode not in _MODES:
            raise ValueError(f"action_mode must be one of {_MODES}, not {action_mode!r}")
        low, high = entry.players
        n = low if entry.fixed_players else (4 if players is None else players)
        if not is_int(n) or not low <= n <= high or (entry.fixed_players and players not in (None, low)):
            raise ValueError(f"players must be an int {low}..{high} for {game}, not {players!r}")
        self.game = entry.name
        self.num_envs = int(num_envs)
        self.threads = int(threads)
        self.players = int(n)
        if not any(features is f or (isinstance(f, str) and features == f) for f in _FEATURES):
            raise ValueError(f"features must be False, True, 'concrete' or 'ids', not {features!r}")
        self.features = "concrete" if features is True else features
        try:
            self.feature_dtype = np.dtype(feature_dtype)
        except TypeError:
            raise TypeError(f"feature_dtype must be a numpy dtype (float32 or int8), not {feature_dtype!r}") from None
        if self.feature_dtype not in _FEATURE_DTYPES:
            raise ValueError(f"feature_dtype must be float32 or int8, not {self.feature_dtype}")
        self.action_mode = action_mode
        self._deal_cls = entry.module().Deal
        self._kwargs: dict[str, Any] = {} if entry.fixed_players else {"players": self.players}
        if rules is not None:
            self._kwargs["rules"] = rules
        if not isinstance(observation, str):
            raise TypeError(f"observation must be a str, not {type(observation).__name__}")
        self._encoding: Any = None if observation == "default" else entry.observation_module(observation)
        if backend not in _BACKENDS:
            raise ValueError(f"backend must be one of {_BACKENDS}, not {backend!r}")
        self.observation = observation
        self._opponents = _opponents(opponents, self.players)
        if final_observation is not None:
            check_int(final_observation, "final_observation", 0, self.players - 1)
            if observation != "default":
                raise ValueError(f"final_observation needs the default observation, not {observation!r}")
        self.final_observation = final_observation
        space = action_space(self.game)
        self.num_actions = space.size
        layout = observation_layout(self.game, self.players) if self._encoding is None else self._encoding.LAYOUT
        self.observation_size = layout.size
        self._seed = check_seed(seed)
        self._tables: list[_Table] = []
        self._pool: ThreadPoolExecutor | None = None
        self._compiled: CompiledTables | None = None
        first = self._new_deal(0)  # bad rules fail here (the game's own check), not at the first reset
        tables = None if entry.vector_tables is None else resolve(entry.vector_tables)
        why = self._not_compiled(tables, opponents)
        if backend == "compiled" and why:
            raise ValueError(f"backend='compiled' is not available here: {why}")
        self.backend = "python" if backend == "python" or why else "compiled"
        if backend == "auto" and why and why not in _SAID:
            _SAID.add(why)
            warnings.warn(f"VectorEnv runs on the Python path: {why}", RuntimeWarning, stacklevel=2)
        if self.backend == "compiled" and tables is not None:
            policies = [None if o is None else str(o) for o in opponents_specs(opponents, self.players)]
            self._compiled = tables(self.num_envs, first.rules, self.threads, policies,
                                    observation=observation, features=self.features,
                                    action_mode=action_mode, space=space, layout=layout, outputs=self._out,
                                    final_seat=final_observation, feature_dtype=self.feature_dtype)
            self._compiled.seed(self._seed, self.first_table)
            return
        self._pool = ThreadPoolExecutor(self.threads) if self.threads > 1 else None
        self._seed_tables(self._seed)

    def _not_compiled(self, tables: Any, opponents: Any) -> str:
        """Why the compiled ``tables`` (the game's class, or None) cannot run these tables
        ('' if they can)."""
        if tables is None:
            return f"{self.game} has no compiled tables"
        policies = tables.POLICIES
        specs = opponents_specs(opponents, self.players)
        if any(o is not None and o not in policies for o in specs):
            return (f"a seat is played by a bot other than {', '.join(map(repr, policies[:-1]))} or "
                    f"{policies[-1]!r} "
                    "(the compiled tables run those only)")
        return ""

    # -- tables --------------------------------------------------------------------------------
    def _new_deal(self, deal_seed: int) -> Any:
        return self._deal_cls(seed=deal_seed, **self._kwargs)

    def _seed_tables(self, seed: int) -> None:
        self._tables = [_Table(i, stream(seed & SEED_MASK, i))
                        for i in range(self.first_table, self.first_table + self.num_envs)]

    def _advance(self, table: _Table, rewards: np.ndarray) -> bool:
        """Run the opponents' moves; True if the deal ended on the way (then a new one
        is started).  ``rewards`` collects the returns."""
        deal = table.deal
        while not deal.is_terminal():
            bot = self._opponents[deal.current_player]
            if bot is None:
                table.refresh(self.features == "ids")
                return False
            deal.apply(bot.choose(deal, table.rng))
        rewards += deal.returns()
        return True

    def _run(self, fn: Any, items: Sequence[Any]) -> list[Any]:
        if self._pool is None:
            return [fn(x) for x in items]
        return list(self._pool.map(fn, items))

    # -- the API -------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: Any = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start a new deal at every table (``seed``: reseed every table's stream first)."""
        if seed is not None:
            self._seed = check_seed(seed)
            if self._compiled is not None:
                self._compiled.seed(self._seed, self.first_table)
            else:
                self._seed_tables(self._seed)
        if self._compiled is not None:
            return self._compiled.reset(), {}
        for t in self._tables:
            t.deal = None
        self._run(self._reset_table, self._tables)
        return self._observe(), {}

    def _reset_table(self, table: _Table) -> None:
        while True:
            table.deal = self._new_deal(table_deal(self._seed & SEED_MASK, table.index, table.episode))
            table.episode += 1
            if not self._advance(table, np.zeros(self.players)):
                return

    def _check_wait(self, wait: Any) -> np.ndarray | None:
        if wait is None:
            return None
        arr = np.asarray(wait)
        if arr.shape != (self.num_envs,) or arr.dtype != np.bool_:
            raise ValueError(f"wait must be a bool array of shape ({self.num_envs},), not {arr.dtype} {arr.shape}")
        return np.ascontiguousarray(arr)

    def _check(self, actions: Any, wait: np.ndarray | None = None) -> np.ndarray:
        arr = np.asarray(actions)
        if arr.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), not {arr.shape}")
        if arr.dtype.kind not in "iu":
            raise ValueError(f"actions must be integers, not dtype {arr.dtype}")
        if self._compiled is not None:
            return self._compiled.check(arr)
        for i, (t, a) in enumerate(zip(self._tables, arr.tolist())):
            if t.deal is None:
                raise ValueError("call reset() before step()")
            if wait is not None and wait[i]:
                continue
            if self.action_mode == "index":
                if not 0 <= a < len(t.rows):
                    raise ValueError(f"table {i}: action index {a} is outside 0..{len(t.rows) - 1}")
            elif not 0 <= a < self.num_actions:
                raise ValueError(f"table {i}: action id {a} is outside 0..{self.num_actions - 1}")
            elif not (t.ids == a).any():
                raise ValueError(f"table {i}: action id {a} is not legal now")
        return arr.astype(np.int64)

    def step(self, actions: Any, wait: Any = None
             ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Apply one action per table (module doc); every table is checked first.  The
        tables where ``wait`` (a bool array, one per table) is True do not move: their
        action is not read and their observation is returned again, reward 0."""
        if wait is None and self._compiled is not None:
            return self._compiled.step(actions if self._compiled.takes(actions) else self._check(actions))
        hold = self._check_wait(wait)
        arr = self._check(actions, hold)
        if self._compiled is not None:
            return self._compiled.step(arr, hold)
        n, out = self.num_envs, self._out
        rewards = out.zeros("rewards", (n, self.players), np.float64)
        terminated = out.zeros("terminated", (n,), np.bool_)
        final = out.full("final_returns", (n, self.players), np.nan, np.float64)
        seat = self.final_observation
        final_obs = None if seat is None else out.zeros("final_observation", (n, self.observation_size), np.float32)

        def one(i: int) -> None:
            if hold is not None and hold[i]:
                return
            t = self._tables[i]
            a = int(arr[i])
            k = int(t.rows[a]) if self.action_mode == "index" else _concrete_index(t.ids, t.rec, a)
            t.deal.apply(t.legal[k])
            if self._advance(t, rewards[i]):
                terminated[i] = True
                final[i] = rewards[i]
                if final_obs is not None and seat is not None:
                    final_obs[i] = observation_tensor(t.deal, seat)
                self._reset_table(t)

        self._run(one, range(self.num_envs))
        truncated = out.zeros("truncated", (n,), np.bool_)
        info: dict[str, Any] = {"final_returns": final}
        if final_obs is not None:
            info["final_observation"] = final_obs
        return self._observe(), rewards, terminated, truncated, info

    def _observe(self) -> dict[str, np.ndarray]:
        n, out = self.num_envs, self._out
        obs = out.empty("observation", (n, self.observation_size), np.float32)
        mask = out.zeros("action_mask", (n, self.num_actions), np.int8)
        player = out.empty("player", (n,), np.int64)
        for i, t in enumerate(self._tables):
            p = t.deal.current_player
            player[i] = p
            obs[i] = observation_tensor(t.deal, p) if self._encoding is None else self._encoding.observation(t.deal, p)
            mask[i, t.ids] = 1
        result: dict[str, np.ndarray] = {"observation": obs, "action_mask": mask, "player": player}
        if self.features:
            counts = out.empty("num_actions", (n,), np.int64)
            counts[:] = [len(t.rows) for t in self._tables]
            k = int(counts.max())
            feats = out.zeros("action_features", (n, k, NUM_FACES), self.feature_dtype)
            ids = out.full("action_ids", (n, k), -1, np.int64)
            for i, t in enumerate(self._tables):
                rows = t.rows
                feats[i, : len(rows)] = _features(t.legal, t.rec)[rows]
                ids[i, : len(rows)] = t.ids[rows]
            if self._encoding is not None:
                feats = self._encoding.card_vector(feats).astype(self.feature_dtype, copy=False)
            result.update(action_features=feats, action_ids=ids, num_actions=counts)
        return result

    @property
    def copy(self) -> bool:
        """Whether every call returns new arrays (``False``: the env's own, module doc)."""
        return self._out.copy

    def states(self) -> list[Any]:
        """Copies of the tables' current states (for inspection and tests; the compiled
        path rebuilds each ``Deal`` from its seed and moves)."""
        if self._compiled is not None:
            return [self._compiled.state(i) for i in range(self.num_envs)]
        return [t.deal.clone() for t in self._tables]

    def close(self) -> None:
        """Stop the worker threads (the env still works, stepping every table in the
        calling thread)."""
        if self._compiled is not None:
            self._compiled.close()
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None
