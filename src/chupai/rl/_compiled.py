"""The compiled path of :class:`chupai.rl.VectorEnv`: Guan Dan tables stepped in C.

:class:`CompiledTables` drives :class:`chupai.rl._guandan_tables.GuanDanTables`: it
checks the actions, keeps every table's queue of deal seeds filled from the table's
numpy generator (the same generator and draws as the Python path, so the same deals),
allocates the output arrays and hands the C kernels contiguous chunks of tables, one
per worker thread (each chunk runs with the GIL released).  It returns exactly what
the Python path returns (``tests/test_rl_vector_compiled.py``).
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from chupai._core import NUM_FACES
from chupai._state import SEED_MASK
from chupai.rl import danzero
from chupai.rl._climbing import GuanDan
from chupai.rl._guandan_tables import DANZERO_FIELDS, DEFAULT_FIELDS, GuanDanTables
from chupai.rl._layout import Layout
from chupai.rl._spaces import ActionSpace

__all__ = ["COMPILED_GAMES", "CompiledTables"]

#: the games whose VectorEnv runs compiled (the others keep the Python path)
COMPILED_GAMES = ("guandan",)
_POLICY_CODES = {"random": 0, "greedy": 1}  # chupai._engine_base POLICY_RANDOM, POLICY_GREEDY

# the sizes the C encoders write per field (checked against the layouts at start)
_DEFAULT_SIZES = {"hand": NUM_FACES, "played": 4 * NUM_FACES, "known": 4 * NUM_FACES, "hand_sizes": 4,
                  "trick_cards": NUM_FACES, "trick_player": 4, "passes": 1, "to_act": 4, "finished": 16,
                  "phase": 5, "own_level": 13, "opponent_level": 13, "level": 13, "declarers": 3}
_DANZERO_SIZES = {"hand": NUM_FACES, "wild_flags": 12, "unseen": NUM_FACES, "last_action": NUM_FACES,
                  "partner_action": NUM_FACES, "played_next": NUM_FACES, "left_next": danzero.MAX_HAND + 1,
                  "own_level": 13, "opponent_level": 13, "level": 13}


def _offsets(layout: Layout, names: tuple[str, ...], sizes: dict[str, int]) -> list[int]:
    """The offsets of ``names`` in ``layout``, checking the sizes the C code writes and
    that the DanZero triples (next, partner, previous) lie back to back."""
    for f in layout.fields:
        if f.name in sizes and f.size != sizes[f.name]:
            raise RuntimeError(f"layout field {f.name!r} has {f.size} values; the compiled encoder writes {sizes[f.name]}")
    for first, rest in (("played_next", ("played_partner", "played_previous")), ("left_next", ("left_partner", "left_previous"))):
        if first in names:
            step = layout.field(first).size
            if [layout.offset(r) for r in rest] != [layout.offset(first) + step, layout.offset(first) + 2 * step]:
                raise RuntimeError(f"the fields after {first!r} are not where the compiled encoder writes them")
    return [layout.offset(n) for n in names]


class CompiledTables:
    """``num_envs`` Guan Dan tables in C (see :class:`chupai.rl.VectorEnv`, which checks
    the arguments).  ``policies``: per seat ``None`` (the caller's) or ``"random"`` /
    ``"greedy"``."""

    def __init__(self, num_envs: int, rules: Any, threads: int, policies: list[str | None], *,
                 observation: str, features: str | bool, action_mode: str, space: ActionSpace,
                 layout: Layout) -> None:
        self.num_envs = num_envs
        self.features = features
        self.num_actions = space.size
        self.observation_size = layout.size
        self._rules = rules
        if observation == "danzero":
            offsets = _offsets(layout, DANZERO_FIELDS, _DANZERO_SIZES)
            perm = [int(x) for x in danzero._PERM]
        else:
            offsets = _offsets(layout, DEFAULT_FIELDS, _DEFAULT_SIZES) + [GuanDan.phases.index("play")]
            perm = list(range(NUM_FACES))
        from chupai.guandan.rules import PAGAT

        codes = [-1 if p is None else _POLICY_CODES[p] for p in policies]
        promotion = getattr(rules, "promotion", PAGAT.promotion)  # (the tables check the rules' type)
        self._t = GuanDanTables(num_envs, rules, codes, observation == "danzero", features == "ids",
                                action_mode == "index", space.patterns, offsets, perm,
                                [0.0] + [float(x) for x in promotion], space.size, space.pass_id, layout.size)
        self._rngs: list[np.random.Generator] = []
        self._room = np.empty(num_envs, dtype=np.int64)
        self._counts = np.empty(num_envs, dtype=np.int64)
        k = min(threads, num_envs)
        bounds = [num_envs * j // k for j in range(k + 1)]
        self._chunks = [(bounds[j], bounds[j + 1]) for j in range(k)]
        self._pool = ThreadPoolExecutor(k - 1) if k > 1 else None
        self._started = False

    # -- seeds ---------------------------------------------------------------------------------
    def seed(self, seed: int) -> None:
        """Every table's generators from ``(seed, table)``; the queued deals dropped."""
        self._rngs = [np.random.default_rng(np.random.SeedSequence([seed & SEED_MASK, i]))
                      for i in range(self.num_envs)]
        self._t.clear_seeds()
        self._t.seed_policies(seed & SEED_MASK)

    def _refill(self) -> None:
        t = self._t
        t.seed_room(self._room)
        for i in np.flatnonzero(self._room).tolist():
            rng = self._rngs[i]
            for _ in range(int(self._room[i])):
                t.push_seed(i, int(rng.integers(0, SEED_MASK)))

    def _run(self, fn: Any, *args: Any) -> int:
        """``fn(lo, hi, *args)`` over the chunks: the first in this thread, the others in
        the pool (each releases the GIL inside); the sum of the results."""
        if self._pool is None:
            return int(fn(0, self.num_envs, *args))
        rest = [self._pool.submit(fn, lo, hi, *args) for lo, hi in self._chunks[1:]]
        lo, hi = self._chunks[0]
        total = int(fn(lo, hi, *args))
        return total + sum(int(f.result()) for f in rest)

    # -- the API -------------------------------------------------------------------------------
    def reset(self) -> dict[str, np.ndarray]:
        n = self.num_envs
        obs = np.empty((n, self.observation_size), dtype=np.float32)
        mask = np.empty((n, self.num_actions), dtype=np.int8)
        player = np.empty(n, dtype=np.int64)
        self._refill()
        waiting = self._run(self._t.reset_range, obs, mask, player)
        if waiting:
            self._resume(obs, mask, player, np.zeros((n, 4)), np.zeros(n, dtype=bool), np.zeros((n, 4)))
        self._t.raise_error()
        self._started = True
        return self._observe(obs, mask, player)

    def _resume(self, obs: np.ndarray, mask: np.ndarray, player: np.ndarray, rewards: np.ndarray,
                terminated: np.ndarray, final: np.ndarray) -> None:
        """Deal at the tables whose queue of seeds ran dry inside C (refilled now)."""
        waiting = 1
        while waiting:
            self._refill()
            waiting = self._run(self._t.resume_range, obs, mask, player, rewards, terminated.view(np.uint8), final)

    def check(self, arr: np.ndarray) -> np.ndarray:
        """The actions as contiguous int64 (``ValueError`` naming the first bad table)."""
        if not self._started:
            raise ValueError("call reset() before step()")
        if arr.dtype.kind == "u":
            big = np.flatnonzero(arr > np.iinfo(np.int64).max)
            if len(big):
                i = int(big[0])
                raise ValueError(f"table {i}: action {int(arr[i])} is out of range")
        a = np.ascontiguousarray(arr, dtype=np.int64)
        self._t.check(a)
        return a

    def step(self, a: np.ndarray) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        n = self.num_envs
        obs = np.empty((n, self.observation_size), dtype=np.float32)
        mask = np.empty((n, self.num_actions), dtype=np.int8)
        player = np.empty(n, dtype=np.int64)
        rewards = np.zeros((n, 4))
        terminated = np.zeros(n, dtype=bool)
        final = np.full((n, 4), np.nan)
        self._refill()
        if self._run(self._t.step_range, a, obs, mask, player, rewards, terminated.view(np.uint8), final):
            self._resume(obs, mask, player, rewards, terminated, final)
        self._t.raise_error()
        truncated = np.zeros(n, dtype=bool)
        return self._observe(obs, mask, player), rewards, terminated, truncated, {"final_returns": final}

    def _observe(self, obs: np.ndarray, mask: np.ndarray, player: np.ndarray) -> dict[str, np.ndarray]:
        out = {"observation": obs, "action_mask": mask, "player": player}
        if self.features:
            counts = self._counts.copy()
            self._t.rows(counts)
            k = int(counts.max())
            feats = np.zeros((self.num_envs, k, NUM_FACES), dtype=np.float32)
            ids = np.full((self.num_envs, k), -1, dtype=np.int64)
            self._run(self._t.features_range, feats, ids)
            out.update(action_features=feats, action_ids=ids, num_actions=counts)
        return out

    def state(self, i: int) -> Any:
        """Table ``i``'s deal as a ``chupai.guandan.Deal``, rebuilt from its seed and moves."""
        from chupai.actions import PASS
        from chupai.guandan import Deal

        seed, moves = self._t.history(i)
        deal = Deal(seed=seed, rules=self._rules)
        for m in moves:
            if m is None:
                deal.apply(PASS)
            elif m[0] == "concrete":
                deal.apply(deal.legal_actions()[m[1]])
            else:
                core = deal._core
                assert core is not None  # a first deal: the card play from the start
                deal.apply(core.legal_plays(collapse_suits=True)[m[1]])
        return deal

    def core(self, i: int) -> Any:
        """A copy of table ``i``'s ``DealCore`` (the engine struct itself)."""
        return self._t.core(i)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None
