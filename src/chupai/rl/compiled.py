"""The compiled path of :class:`chupai.rl.VectorEnv`, written once for every game.

:class:`CompiledTables` drives a game's compiled tables (a subclass of
:class:`chupai.rl._tables.Tables` in its package, named by a subclass of
:class:`CompiledTables` there, its registry entry's ``vector_tables``): it allocates the
output arrays (uninitialised: the C kernels write every element; new ones at every
call, or the same memory with ``copy=False``: :mod:`chupai.rl.buffers`) and calls the tables,
which check the actions and step every table on their worker threads
(:mod:`chupai.rl._workers`, the GIL released); the deals' seeds are derived in C
(``deal_seed``, the same function the Python path calls, so the same deals). What is
left in the calling thread per step is O(1) numpy calls and the action check, one C
loop. It returns exactly what the Python path returns
(``tests/test_rl_vector_compiled.py``).

A game's subclass gives its facts: ``TABLES`` (its compiled tables class), ``FIELDS``
(per observation layout, its code and the fields whose offsets its encoder takes, with
the number of values it writes in each), and the hooks :meth:`prototype` (the engine
whose struct every table copies), :meth:`weights` (the outcome weights that make the
engine's returns the deal's ``returns()``) and, where the layout's card order is not the
card core's, :meth:`card_order`; :meth:`setup` for settings of its own.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from chupai.actions import PASS
from chupai.core.records import NUM_FACES
from chupai.core.seeds import SEED_MASK
from chupai.encoding.layout import Layout
from chupai.encoding.spaces import ActionSpace
from chupai.engine.base import POLICIES as ENGINE_POLICIES
from chupai.rl.buffers import Outputs

__all__ = ["CLIMBING_FIELDS", "CompiledTables"]

#: the climbing games' shared observation fields, in the order of the compiled tables'
#: offsets (``chupai.rl._tables``: F_HAND .. F_PHASE), with the values each takes at
#: ``n`` players (``chupai.encoding.climbing.ClimbingGame.layout``)
CLIMBING_FIELDS: tuple[tuple[str, Callable[[int], int] | None], ...] = (
    ("hand", lambda n: NUM_FACES), ("played", lambda n: n * NUM_FACES), ("known", lambda n: n * NUM_FACES),
    ("hand_sizes", lambda n: n), ("trick_cards", lambda n: NUM_FACES), ("trick_player", lambda n: n),
    ("passes", lambda n: 1), ("to_act", lambda n: n), ("finished", lambda n: n * n), ("phase", None),
)


def offsets(layout: Layout, fields: tuple[tuple[str, Callable[[int], int] | None], ...], n: int) -> list[int]:
    """The offsets of ``fields`` in ``layout``, checking the number of values the C
    encoder writes in each (``None``: any)."""
    out = []
    for name, size in fields:
        f = layout.field(name)
        if size is not None and f.size != size(n):
            raise RuntimeError(f"layout field {name!r} has {f.size} values; the compiled encoder writes {size(n)}")
        out.append(layout.offset(name))
    return out


class CompiledTables:
    """``num_envs`` tables of one game in C (see :class:`chupai.rl.VectorEnv`, which
    checks the arguments). ``policies``: per seat ``None`` (the caller's) or
    one of :attr:`POLICIES`; ``outputs``: where the returned arrays go."""

    #: the opponents the compiled tables play (bot specs): the engines' compiled policies
    #: (``"random"``, ``"greedy"``, ``"heuristic"``: the card play of
    #: :class:`chupai.players.bots.HeuristicBot`)
    POLICIES: ClassVar[tuple[str, ...]] = tuple(ENGINE_POLICIES)
    #: the game's compiled tables class (a chupai.rl._tables.Tables)
    TABLES: ClassVar[Any] = None
    #: per observation layout: (its code in the tables, its fields with their sizes)
    FIELDS: ClassVar[dict[str, tuple[int, tuple[tuple[str, Callable[[int], int] | None], ...]]]] = {}

    # -- the game's hooks ----------------------------------------------------------------------
    def prototype(self, rules: Any, players: int) -> Any:
        """The engine whose struct every table copies (its options; its cards are dealt anew)."""
        raise NotImplementedError

    def weights(self, rules: Any, players: int) -> list[float]:
        """The outcome weights with which the engine's ``h_returns`` is ``Deal.returns()``."""
        raise NotImplementedError

    def setup(self, tables: Any, rules: Any, space: ActionSpace) -> None:
        """Called once when the tables are made, before the first reset: a game's further
        settings of its tables (by default none)."""

    def card_order(self, observation: str) -> list[int]:
        """Per card face, its index in the layout's card vectors (the card core's order)."""
        return list(range(NUM_FACES))

    def phases(self) -> tuple[str, ...]:
        """The phases of the default layout's one-hot (the game's encoding's ``phases``):
        where the tables write "play" and "over"."""
        return ("play", "over")

    def check_layout(self, observation: str, layout: Layout) -> None:
        """``RuntimeError`` if ``layout`` is not where the compiled encoder writes (beyond
        the fields' sizes, which are checked for every game)."""

    def deal(self, seed: int) -> Any:
        """``Deal(seed=seed)`` of these tables' game, players and rules."""
        raise NotImplementedError

    # -- written once --------------------------------------------------------------------------
    def __init__(self, num_envs: int, rules: Any, threads: int, policies: list[str | None], *,
                 observation: str, features: str | bool, action_mode: str, space: ActionSpace,
                 layout: Layout, outputs: Outputs, final_seat: int | None = None,
                 feature_dtype: Any = np.float32) -> None:
        self.num_envs = num_envs
        self._out = outputs
        self.features = features
        self.feature_dtype = feature_dtype
        self.num_actions = space.size
        self.observation_size = layout.size
        self.players = len(policies)
        self._rules = rules
        code, fields = self.FIELDS[observation]
        self.check_layout(observation, layout)
        codes = [-1 if p is None else ENGINE_POLICIES[p] for p in policies]
        # the tables' lists are by id (the suit-collapsed plays, where a game's hold every
        # id's concrete choice) unless a caller reads the concrete plays: their feature
        # rows, or their indices as actions
        by_id = features == "ids" or (not features and action_mode == "id")
        self._t = self.TABLES(num_envs, threads, self.prototype(rules, self.players), codes, code,
                              by_id, action_mode == "index", space.patterns, space.capture_type,
                              offsets(layout, fields, self.players), self.phases().index("play"),
                              self.card_order(observation), self.weights(rules, self.players), space.size,
                              space.pass_id, layout.size)
        self.setup(self._t, rules, space)
        self.final_seat = final_seat
        if final_seat is not None:
            self._t.terminal(final_seat, self.phases().index("over"))
        self._started = False
        self._bound: tuple[Any, ...] | None = None  # (the last is None without final observations)
        self._started_arrays: tuple[Any, ...] | None = None  # the arrays of the step start handed out

    def seed(self, seed: int, first: int = 0) -> None:
        """Restart every table's deals and policy stream from ``(seed, first + table)``."""
        self._t.seed(seed & SEED_MASK, first)

    def _outputs(self) -> tuple[Any, ...]:
        """The arrays a call writes, bound to the tables (uninitialised: the tables write
        every element): observation, mask, player, rows, rewards, terminated, final, and
        the final observations (zeros, the tables writing the rows of the deals that end
        and clearing them at the next call) or None."""
        n, out = self.num_envs, self._out
        if not out.copy and self._bound is not None:
            return self._bound  # the env's own arrays, bound to the tables since the first call
        final_obs = (None if self.final_seat is None
                     else out.zeros("final_observation", (n, self.observation_size), np.float32))
        arrays = (out.empty("observation", (n, self.observation_size), np.float32),
                  out.empty("action_mask", (n, self.num_actions), np.int8),
                  out.empty("player", (n,), np.int64), out.empty("num_actions", (n,), np.int64),
                  out.empty("rewards", (n, self.players), np.float64),
                  out.empty("terminated", (n,), np.bool_),
                  out.empty("final_returns", (n, self.players), np.float64), final_obs)
        if self._bound is None or any(a is not b for a, b in zip(arrays, self._bound)):
            obs, mask, player, rows, rewards, terminated, final = arrays[:7]
            self._t.bind(obs, mask, player, rows, rewards, terminated.view(np.uint8), final, final_obs)
            self._bound = arrays
        return arrays

    def reset(self) -> dict[str, np.ndarray]:
        obs, mask, player, rows = self._outputs()[:4]
        top = self._t.reset()
        self._t.raise_error()
        self._started = True
        return self._observe(obs, mask, player, rows, top)

    def check(self, arr: np.ndarray) -> np.ndarray:
        """The actions as contiguous int64 (``ValueError`` naming the first bad table; the
        tables check the ids themselves, before any table advances, in ``step``)."""
        if not self._started:
            raise ValueError("call reset() before step()")
        if arr.dtype.kind == "u":
            big = np.flatnonzero(arr > np.iinfo(np.int64).max)
            if len(big):
                i = int(big[0])
                raise ValueError(f"table {i}: action {int(arr[i])} is out of range")
        return np.ascontiguousarray(arr, dtype=np.int64)

    def takes(self, actions: Any) -> bool:
        """Whether ``actions`` go to the tables as they are (after ``reset``, an int64
        C-contiguous array of one action per table; the tables check the ids)."""
        return (self._started and type(actions) is np.ndarray and actions.dtype == np.int64
                and actions.shape == (self.num_envs,) and actions.flags.c_contiguous)

    def step(self, a: np.ndarray, wait: np.ndarray | None = None
             ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every table with the actions ``a`` (:meth:`takes` them, or :meth:`check`
        made them) but those ``wait`` (bool) holds."""
        arrays = self._outputs()
        return self._results(arrays, self._t.step(a, None if wait is None else wait.view(np.uint8)))

    def start(self, queue: Any, a: np.ndarray) -> None:
        """:meth:`step` handed to one of ``queue``'s threads (a ``chupai.rl._workers.
        TaskQueue``); returns at once, the tables busy until :meth:`finish`."""
        arrays = self._outputs()
        self._t.start(queue, a)
        self._started_arrays = arrays

    def finish(self) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Wait for the step :meth:`start` handed out; what :meth:`step` returns."""
        arrays, self._started_arrays = self._started_arrays, None
        if arrays is None:
            raise RuntimeError("finish: no step was started")
        return self._results(arrays, self._t.finish())

    def _results(self, arrays: tuple[Any, ...], top: int
                 ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        obs, mask, player, rows, rewards, terminated, final, final_obs = arrays
        self._t.raise_error()
        truncated = self._out.zeros("truncated", (self.num_envs,), np.bool_)
        info: dict[str, Any] = {"final_returns": final}
        if final_obs is not None:
            info["final_observation"] = final_obs
        return self._observe(obs, mask, player, rows, top), rewards, terminated, truncated, info

    def _observe(self, obs: np.ndarray, mask: np.ndarray, player: np.ndarray, rows: np.ndarray,
                 top: int) -> dict[str, np.ndarray]:
        out = {"observation": obs, "action_mask": mask, "player": player}
        if self.features:
            feats = self._out.empty("action_features", (self.num_envs, top, NUM_FACES), self.feature_dtype)
            ids = self._out.empty("action_ids", (self.num_envs, top), np.int64)
            self._t.features(feats, ids)
            out.update(action_features=feats, action_ids=ids, num_actions=rows)
        return out

    def state(self, i: int) -> Any:
        """Table ``i``'s deal as the game's ``Deal``, rebuilt from its seed and moves."""
        seed, moves = self._t.history(i)
        deal = self.deal(seed)
        for m in moves:
            if m is None:
                deal.apply(PASS)
            elif m[0] == "concrete":
                deal.apply(deal.legal_actions()[m[1]])
            else:
                engine = deal.card_play()
                assert engine is not None  # a first deal: the card play from the start
                deal.apply(engine.legal_plays(collapse_suits=True)[m[1]])
        return deal

    def engine(self, i: int) -> Any:
        """A copy of table ``i``'s engine (its struct itself)."""
        return self._t.engine(i)

    def close(self) -> None:
        """Stop the worker threads (the tables still step, on the calling thread)."""
        self._t.close()
