"""A PettingZoo AEC environment for every chupai game (extra ``chupai[pettingzoo]``).

>>> from chupai.rl.pettingzoo import env
>>> e = env("guandan")
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs), obs["observation"].shape, obs["action_mask"].dtype.name
(['action_mask', 'observation'], (616,), 'int8')

Agents are ``"player_0"`` .. ``"player_{n-1}"`` (seat numbers).  An episode is one deal
(``match=True``: a whole match).  The agent to act is the game's current player (turns
do not strictly alternate: finished seats are skipped, tricks are won); each agent's
observation is ``{"observation": rl.observation_tensor(state, seat), "action_mask":
rl.legal_actions_mask(state)}`` (the mask all zeros for an agent not to act).  Actions
are ids of :func:`chupai.rl.num_distinct_actions` (concrete choice: :func:`chupai.rl.id_to_action`).
Rewards: zero until the end, then each seat's ``returns()``.  An id that is not legal
raises ``ValueError`` (state unchanged).  ``reset(seed=s)`` makes the episode a
function of ``s``; ``reset()`` after it continues a seeded stream of deals.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from chupai import rl
from chupai.registry import game as registry_entry
from chupai.core.seeds import draw
from chupai.core.validate import check_int

__all__ = ["ChupaiEnv", "env", "raw_env"]


class ChupaiEnv(AECEnv):  # type: ignore[misc]
    """The AEC environment of one chupai game (module doc)."""

    RENDER_MODES = ("human", "ansi")
    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "name": "chupai_v0", "is_parallelizable": False}

    def __init__(self, game: str, players: int | None = None, rules: Any = None, *, match: bool = False,
                 render_mode: str | None = None) -> None:
        super().__init__()
        entry = registry_entry(game)
        if render_mode is not None and render_mode not in self.RENDER_MODES:
            raise ValueError(f"render_mode must be one of {self.RENDER_MODES} or None, not {render_mode!r}")
        self.game = entry.name
        self.render_mode = render_mode
        if entry.fixed_players:
            if players not in (None, entry.players[0]):
                raise ValueError(f"players must be {entry.players[0]} for {game}, not {players!r}")
            self._kwargs: dict[str, Any] = {}
            n = entry.players[0]
        else:
            n = 4 if players is None else players
            self._kwargs = {"players": n}
        self._n = n
        self._cls = entry.module().Match if match else entry.module().Deal
        self._rules = rules
        size = rl.observation_size(entry.name, n)
        self._num_actions = rl.num_distinct_actions(entry.name)
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self.metadata = dict(self.metadata, name=f"chupai_{entry.name}_v0")
        self._obs_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(self._num_actions,), dtype=np.int8),
            })
            for a in self.possible_agents
        }
        self._act_spaces = {a: spaces.Discrete(self._num_actions) for a in self.possible_agents}
        self._seeds = np.random.default_rng()
        self.state_: Any = None

    def observation_space(self, agent: str) -> spaces.Space:  # type: ignore[type-arg]
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:  # type: ignore[type-arg]
        return self._act_spaces[agent]

    def _seat(self, agent: str) -> int:
        return int(agent.rsplit("_", 1)[1])

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        deal_seed = draw(self._seeds)
        kwargs = dict(self._kwargs)
        if self._rules is not None:
            kwargs["rules"] = self._rules
        self.state_ = self._cls(seed=deal_seed, **kwargs)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state_.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat(agent)
        state = self.state_
        if not state.is_terminal() and state.current_player == seat:
            mask = rl.legal_actions_mask(state)
        else:
            mask = np.zeros(self._num_actions, dtype=np.int8)
        return {"observation": rl.observation_tensor(state, seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state_
        state.apply(rl.id_to_action(state, check_int(action, "action", 0)))
        self._cumulative_rewards[agent] = 0.0
        if state.is_terminal():
            returns = state.returns()
            self.rewards = {a: float(returns[self._seat(a)]) for a in self.agents}
            self.terminations = {a: True for a in self.agents}
            self._accumulate_rewards()
            # the dead steps then go round from the agent that ended the game
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            self.agent_selection = self.possible_agents[state.current_player]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = str(self.state_)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(game: str, players: int | None = None, rules: Any = None, **kwargs: Any) -> ChupaiEnv:
    """The environment without wrappers."""
    return ChupaiEnv(game, players, rules, **kwargs)


def env(game: str, players: int | None = None, rules: Any = None, **kwargs: Any) -> Any:
    """The environment of ``game`` in PettingZoo's order-enforcing wrapper (module doc)."""
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

    return wrappers.OrderEnforcingWrapper(raw_env(game, players, rules, **kwargs))
