"""Guan Dan's compiled path of :class:`chupai.rl.VectorEnv`: its tables stepped in C
(the registry entry's ``vector_tables``).

:class:`CompiledTables` drives :class:`chupai.guandan._tables.GuanDanTables`: it
allocates the output arrays (uninitialised: the C kernels write every element) and
calls the tables, which check the actions and step every table on their worker
threads (:mod:`chupai.rl._workers`, the GIL released); the deals' seeds are derived
in C (``deal_seed``, the same function the Python path calls, so the same deals).
What is left in the calling thread per step is O(1) numpy calls and the action check,
one C loop.  It returns exactly what the Python path returns
(``tests/test_rl_vector_compiled.py``).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from chupai.core.records import NUM_FACES
from chupai.core.seeds import SEED_MASK
from chupai.guandan import danzero
from chupai.guandan._tables import DANZERO_FIELDS, DEFAULT_FIELDS, GuanDanTables
from chupai.encoding.layout import Layout
from chupai.encoding.spaces import ActionSpace

__all__ = ["CompiledTables"]

_POLICY_CODES = {"random": 0, "greedy": 1}  # chupai.engine.base POLICY_RANDOM, POLICY_GREEDY

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

    #: the opponents the compiled tables play (bot specs)
    POLICIES = tuple(_POLICY_CODES)

    def __init__(self, num_envs: int, rules: Any, threads: int, policies: list[str | None], *,
                 observation: str, features: str | bool, action_mode: str, space: ActionSpace,
                 layout: Layout) -> None:
        self.num_envs = num_envs
        self.features = features
        self.num_actions = space.size
        self.observation_size = layout.size
        self._rules = rules
        from chupai.guandan._rl import GuanDan
        from chupai.guandan.rules import PAGAT

        if observation == "danzero":
            offsets = _offsets(layout, DANZERO_FIELDS, _DANZERO_SIZES)
            perm = [int(x) for x in danzero._PERM]
        else:
            offsets = _offsets(layout, DEFAULT_FIELDS, _DEFAULT_SIZES) + [GuanDan.phases.index("play")]
            perm = list(range(NUM_FACES))
        codes = [-1 if p is None else _POLICY_CODES[p] for p in policies]
        promotion = getattr(rules, "promotion", PAGAT.promotion)  # (the tables check the rules' type)
        self._t = GuanDanTables(num_envs, threads, rules, codes, observation == "danzero", features == "ids",
                                action_mode == "index", space.patterns, offsets, perm,
                                [0.0] + [float(x) for x in promotion], space.size, space.pass_id, layout.size)
        self._started = False

    # -- seeds ---------------------------------------------------------------------------------
    def seed(self, seed: int) -> None:
        """Restart every table's deals and policy stream from ``(seed, table)``."""
        self._t.seed(seed & SEED_MASK)

    # -- the API -------------------------------------------------------------------------------
    def reset(self) -> dict[str, np.ndarray]:
        n = self.num_envs
        obs = np.empty((n, self.observation_size), dtype=np.float32)
        mask = np.empty((n, self.num_actions), dtype=np.int8)
        player = np.empty(n, dtype=np.int64)
        rows = np.empty(n, dtype=np.int64)
        top = self._t.reset(obs, mask, player, rows)
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

    def step(self, a: np.ndarray) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        # every element of these (fresh, uninitialised) arrays is written by the workers
        n = self.num_envs
        obs = np.empty((n, self.observation_size), dtype=np.float32)
        mask = np.empty((n, self.num_actions), dtype=np.int8)
        player = np.empty(n, dtype=np.int64)
        rows = np.empty(n, dtype=np.int64)
        rewards = np.empty((n, 4))
        terminated = np.empty(n, dtype=bool)
        final = np.empty((n, 4))
        top = self._t.step(a, obs, mask, player, rows, rewards, terminated.view(np.uint8), final)
        self._t.raise_error()
        truncated = np.zeros(n, dtype=bool)
        return self._observe(obs, mask, player, rows, top), rewards, terminated, truncated, {"final_returns": final}

    def _observe(self, obs: np.ndarray, mask: np.ndarray, player: np.ndarray, rows: np.ndarray,
                 top: int) -> dict[str, np.ndarray]:
        out = {"observation": obs, "action_mask": mask, "player": player}
        if self.features:
            feats = np.empty((self.num_envs, top, NUM_FACES), dtype=np.float32)
            ids = np.empty((self.num_envs, top), dtype=np.int64)
            self._t.features(feats, ids)
            out.update(action_features=feats, action_ids=ids, num_actions=rows)
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
                engine = deal._engine
                assert engine is not None  # a first deal: the card play from the start
                deal.apply(engine.legal_plays(collapse_suits=True)[m[1]])
        return deal

    def engine(self, i: int) -> Any:
        """A copy of table ``i``'s ``DealEngine`` (the engine struct itself)."""
        return self._t.engine(i)

    def close(self) -> None:
        """Stop the worker threads (the tables still step, on the calling thread)."""
        self._t.close()
