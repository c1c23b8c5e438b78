"""A single-agent Gymnasium environment for every chupai game (extra ``chupai[gymnasium]``).

Importing the module registers one environment per game of the registry with
``gymnasium.register``, named ``chupai/<the game's title without spaces>-v0``:

>>> import gymnasium
>>> import chupai.rl.gymnasium
>>> env = gymnasium.make("chupai/GuanDan-v0", opponents="greedy")
>>> obs, info = env.reset(seed=1)
>>> obs["observation"].shape, obs["action_mask"].dtype.name, env.action_space
((616,), 'int8', Discrete(360))
>>> action = int(info["action_mask"].nonzero()[0][0])
>>> obs, reward, terminated, truncated, info = env.step(action)

The agent plays ``seat`` (default 0); every other seat is played by ``opponents``, a bot
spec of :func:`chupai.players.search.make_bot` (``"random"``, ``"greedy"``,
``"heuristic"``, ``"mc:50"``, ...), the same for every seat, or a dict mapping each other
seat to its own.  An episode is one deal, from the agent's first decision to the
deal's end (the opponents' moves run inside ``reset`` and ``step``).  Observations are
``{"observation": rl.observation_tensor(state, seat), "action_mask":
rl.legal_actions_mask(state)}``; the mask is also ``info["action_mask"]`` (where
``action_space.sample(mask=...)`` and the masked-PPO wrappers look).  Actions are ids of
:func:`chupai.rl.num_distinct_actions` (their concrete choice:
:func:`chupai.rl.id_to_action`).  The reward is zero until the deal ends, then the
agent's ``returns()``.

An id that is not legal now ends the episode (Gymnasium's checkers and an agent that
ignores the mask send them): the reward is ``illegal_reward`` (default the game's
least return of a deal, its registry entry's ``utility``) and ``info["illegal_action"]``
is True; the deal is abandoned.  Anything but an int id raises ``TypeError``.

Determinism: ``reset(seed=s)`` makes the episode and the ones after it a function of
``s`` (its deals are those of :class:`chupai.rl.VectorEnv` seeded ``s``, one table);
``reset()`` continues the stream.  Underneath runs a one-table ``VectorEnv`` (its
compiled tables where the opponents are built-in policies).
"""
from __future__ import annotations

import math

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from chupai.core.validate import check_int, check_optional_number
from chupai.registry import GAMES
from chupai.registry import game as registry_entry
from chupai.rl.vector import VectorEnv

__all__ = ["ChupaiEnv", "ChupaiVectorEnv", "env_id", "register_envs"]


def env_id(game: str) -> str:
    """The Gymnasium id of ``game``: ``chupai/<its title without spaces>-v0``.

    >>> env_id("doudizhu")
    'chupai/DouDizhu-v0'
    """
    return f"chupai/{registry_entry(game).title.replace(' ', '')}-v0"


class ChupaiEnv(gymnasium.Env[dict[str, Any], Any]):
    """One chupai game for one agent against bots (module doc).

    Args:
        game: a registered game name.
        opponents: the bot spec of every other seat, or a dict seat -> spec.
        seat: the agent's seat.
        players: the number of players (games with a variable number).
        rules: the game's rules object (default rules for ``None``).
        illegal_reward: the reward of an id that is not legal (``None``: the game's
            least return of a deal).
    """

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, game: str, opponents: Any = "random", seat: int = 0, *, players: int | None = None,
                 rules: Any = None, illegal_reward: float | None = None) -> None:
        entry = registry_entry(game)
        illegal_reward = check_optional_number(illegal_reward, "illegal_reward", -math.inf)
        self._vec = _agent_tables(entry.name, 1, opponents, seat, players, rules)
        self.game = entry.name
        self.seat = seat
        self.players = self._vec.players
        self.illegal_reward = float(entry.utility[0] if illegal_reward is None else illegal_reward)
        self.observation_space = _observation_space(self._vec)
        self.num_actions = self._vec.num_actions
        self.action_space = spaces.Discrete(self._vec.num_actions)
        self._obs: dict[str, np.ndarray] | None = None  # the agent's decision now
        self._next: dict[str, np.ndarray] | None = None  # the next deal's first, dealt as one ended

    def _row(self, obs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        self._obs = {"observation": obs["observation"][0], "action_mask": obs["action_mask"][0]}
        return self._obs

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new deal, up to the agent's first decision (``seed``: restart the stream)."""
        super().reset(seed=seed)
        if seed is None and self._next is not None:  # (returned at the end: new arrays)
            row = self._obs = {k: v.copy() for k, v in self._next.items()}
        else:
            row = self._row(self._vec.reset(seed=seed)[0])
        self._next = None
        return row, {"action_mask": row["action_mask"]}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Play the id ``action`` for the agent, then the opponents up to the agent's next
        decision or the deal's end."""
        if self._obs is None:
            raise RuntimeError("call reset() before step() (and after the episode's end)")
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action[()]
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"action must be an int id, not {type(action).__name__}")
        a = int(action)
        if not (0 <= a < self.num_actions and self._obs["action_mask"][a]):
            obs = {k: v.copy() for k, v in self._obs.items()}  # the caller holds the others
            self._obs = None
            return obs, self.illegal_reward, True, False, {"action_mask": obs["action_mask"], "illegal_action": True}
        obs, rewards, terminated, truncated, info = self._vec.step(np.array([a], dtype=np.int64))
        row = self._row(obs)
        done = bool(terminated[0])
        if done:  # the finished deal as the agent sees it; the next deal's start kept for reset
            self._obs, self._next = None, row
            row = {"observation": info["final_observation"][0], "action_mask": np.zeros_like(row["action_mask"])}
        return row, float(rewards[0, self.seat]), done, bool(truncated[0]), {"action_mask": row["action_mask"]}

    def close(self) -> None:
        """Release the table (the env still works)."""
        self._vec.close()


def _agent_tables(game: str, num_envs: int, opponents: Any, seat: Any, players: int | None, rules: Any,
                  threads: int = 1) -> VectorEnv:
    """The VectorEnv of an agent at ``seat`` against ``opponents`` (a spec, or a dict of
    every other seat's), the finished deals seen by the agent."""
    check_int(seat, "seat")
    probe = VectorEnv(game, 1, 0, rules, players=players, backend="python")  # checks players, rules
    seat = check_int(seat, "seat", 0, probe.players - 1)
    if isinstance(opponents, dict):
        if set(opponents) != set(range(probe.players)) - {seat}:
            raise ValueError(f"opponents must map every seat but {seat} to a bot spec, not {opponents!r}")
        specs = dict(opponents)
    else:
        specs = {s: opponents for s in range(probe.players) if s != seat}
    return VectorEnv(game, num_envs, None, rules, threads, players=players, opponents=specs,
                     final_observation=seat)


def _observation_space(vec: VectorEnv) -> spaces.Dict:
    """One table's observation: the agent's tensor and the mask of its legal ids."""
    return spaces.Dict({
        "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(vec.observation_size,), dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(vec.num_actions,), dtype=np.int8),
    })


class ChupaiVectorEnv(gymnasium.vector.VectorEnv[dict[str, Any], Any, Any]):
    """``num_envs`` tables of one chupai game, an agent at ``seat`` of each against bots,
    as a Gymnasium vector env (``gymnasium.make_vec(env_id(game), num_envs=...)``).

    Each table is :class:`ChupaiEnv`'s episode stream; the tables run on a
    :class:`~chupai.rl.VectorEnv` (compiled where the opponents are built-in policies;
    ``threads`` worker threads).  Observations are batched dicts ``{"observation":
    (num_envs, size) float32, "action_mask": (num_envs, ids) int8}``; actions one id per
    table (``MultiDiscrete``); rewards the agent's.  An id that is not legal raises
    ``ValueError`` (no table moves).

    ``autoreset_mode`` (``metadata["autoreset_mode"]``), Gymnasium's two:

    * ``AutoresetMode.NEXT_STEP`` (default, Gymnasium's): the step a deal ends returns the
      finished deal as the agent sees it (its mask all zeros); the next step ignores
      that table's action and returns the new deal's first decision, reward 0,
      ``terminated`` False.
    * ``AutoresetMode.SAME_STEP``: the step a deal ends returns the new deal's first
      decision; ``info["final_obs"]`` (an object array, ``None`` but where
      ``info["_final_obs"]``) holds the finished deal's observation and
      ``info["final_info"]`` its info.

    >>> import gymnasium
    >>> envs = gymnasium.make_vec("chupai/GuanDan-v0", num_envs=4, opponents="greedy")
    >>> obs, info = envs.reset(seed=1)
    >>> obs["observation"].shape, envs.action_space
    ((4, 616), MultiDiscrete([360 360 360 360]))
    >>> obs, rewards, terminated, truncated, info = envs.step(obs["action_mask"].argmax(axis=1))
    >>> envs.metadata["autoreset_mode"]
    <AutoresetMode.NEXT_STEP: 'NextStep'>
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, game: str, num_envs: int = 1, opponents: Any = "random", seat: int = 0, *,
                 players: int | None = None, rules: Any = None,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP, threads: int = 1) -> None:
        if not isinstance(autoreset_mode, (AutoresetMode, str)):
            raise TypeError(f"autoreset_mode must be an AutoresetMode or its value, not {type(autoreset_mode).__name__}")
        try:
            mode = AutoresetMode(autoreset_mode)
        except ValueError:
            raise ValueError(f"autoreset_mode must be NEXT_STEP or SAME_STEP, not {autoreset_mode!r}") from None
        if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
            raise ValueError(f"autoreset_mode must be NEXT_STEP or SAME_STEP, not {mode}")
        entry = registry_entry(game)
        self._vec = _agent_tables(entry.name, num_envs, opponents, seat, players, rules, threads)
        self.game = entry.name
        self.seat = seat
        self.num_envs = self._vec.num_envs
        self.metadata = {"autoreset_mode": mode}
        self.single_observation_space = _observation_space(self._vec)
        self.single_action_space = spaces.Discrete(self._vec.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._waiting = np.zeros(self.num_envs, dtype=bool)  # NEXT_STEP: ended last step

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new deal at every table, up to the agent's first decision (``seed``: restart
        the streams, table ``i`` dealing as :class:`~chupai.rl.VectorEnv`'s)."""
        obs, _ = self._vec.reset(seed=seed)
        self._waiting[:] = False
        return {"observation": obs["observation"], "action_mask": obs["action_mask"]}, {}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One id per table (module doc; the tables that ended last step, in
        ``NEXT_STEP``, start their next deal instead)."""
        wait = self._waiting if self._waiting.any() else None
        obs, rewards, terminated, truncated, info = self._vec.step(actions, wait)
        out = {"observation": obs["observation"], "action_mask": obs["action_mask"]}
        infos: dict[str, Any] = {}
        ended = np.flatnonzero(terminated)
        final = info["final_observation"]
        if self.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP:
            out["observation"][ended] = final[ended]
            out["action_mask"][ended] = 0
            self._waiting = terminated.copy()
        elif len(ended):
            infos["final_obs"] = np.full(self.num_envs, None, dtype=object)
            infos["final_info"] = np.full(self.num_envs, None, dtype=object)
            for i in ended:
                infos["final_obs"][i] = {"observation": final[i].copy(),
                                         "action_mask": np.zeros(self._vec.num_actions, dtype=np.int8)}
                infos["final_info"][i] = {}
            infos["_final_obs"] = infos["_final_info"] = terminated.copy()
        return out, rewards[:, self.seat].copy(), terminated, truncated, infos

    def close_extras(self, **kwargs: Any) -> None:
        """Stop the tables' worker threads."""
        self._vec.close()


def register_envs() -> list[str]:
    """Register every game of the registry with Gymnasium (done on import); the ids."""
    ids = []
    for name in GAMES:
        ident = env_id(name)
        if ident not in gymnasium.registry:
            gymnasium.register(id=ident, entry_point=f"{__name__}:ChupaiEnv",
                               vector_entry_point=f"{__name__}:ChupaiVectorEnv", kwargs={"game": name})
        ids.append(ident)
    return ids


register_envs()
