"""OpenSpiel games for every chupai game (extra ``chupai[openspiel]``).

:func:`register` registers ``python_chupai_<game>`` for each registered game; then
``pyspiel.load_game("python_chupai_guandan")`` works like any OpenSpiel game and its
algorithms (MCTS, ISMCTS, CFR on small variants, ...) run on it.

>>> import pyspiel  # type: ignore[import-not-found]
>>> register()
>>> game = pyspiel.load_game("python_chupai_zhengshangyou", {"players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True

* One episode is one deal with the default rules.  The first node is a chance node
  that draws the deal: outcome ``i`` of ``num_deals`` (a game parameter, default
  65536) is ``Deal(seed=i)``; so OpenSpiel's own seeding drives the dealing.
* Actions are the ids of :func:`chupai.rl.num_distinct_actions` (concrete choice:
  :func:`chupai.rl.id_to_action`); ``legal_actions()`` lists the legal ids.
* Observations: ``observation_tensor(player)`` is :func:`chupai.rl.observation_tensor`;
  ``observation_string(player)`` the player's hand and the public record.
* Parameters: ``players`` (the games with a variable number) and ``num_deals``.
* Returns: the deal's ``returns()`` at the end, zero before (terminal rewards).
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from chupai import rl
from chupai.registry import GAMES, game as registry_entry

__all__ = ["register", "GAME_NAMES"]

#: the OpenSpiel names, one per chupai game
GAME_NAMES = {name: f"python_chupai_{name}" for name in GAMES}
DEFAULT_DEALS = 1 << 16


def _game_type(name: str) -> Any:
    entry = registry_entry(name)
    low, high = entry.players
    params: dict[str, Any] = {"num_deals": DEFAULT_DEALS}
    if low != high:
        params["players"] = entry.default_players
    return pyspiel.GameType(
        short_name=GAME_NAMES[name],
        long_name=f"chupai {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,  # every game's returns sum to zero
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def _game_class(name: str) -> type:
    entry = registry_entry(name)
    game_type = _game_type(name)

    class ChupaiGame(pyspiel.Game):  # type: ignore[misc]
        """One chupai game in OpenSpiel (module doc)."""

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            params = dict(params or {})
            n = int(params.get("players", entry.players[0]))
            low, high = entry.players
            if not low <= n <= high:
                raise ValueError(f"players must be {low}..{high} for {name}, not {n}")
            deals = int(params.get("num_deals", DEFAULT_DEALS))
            if deals < 1:
                raise ValueError(f"num_deals must be at least 1, not {deals}")
            lo, hi = entry.utility
            info = pyspiel.GameInfo(
                num_distinct_actions=rl.num_distinct_actions(name),
                max_chance_outcomes=deals,
                num_players=n,
                min_utility=lo,
                max_utility=hi,
                utility_sum=0.0,
                max_game_length=entry.max_length(n),
            )
            super().__init__(game_type, info, params)
            self.chupai_game = name
            self.players = n
            self.deals = deals
            self.deal_kwargs: dict[str, Any] = {} if entry.fixed_players else {"players": n}
            self.deal_class = entry.module().Deal

        def new_initial_state(self) -> Any:
            return ChupaiState(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            return ChupaiObserver(self, params)

    ChupaiGame.__name__ = ChupaiGame.__qualname__ = f"ChupaiGame_{name}"
    return ChupaiGame


class _Held:
    """The deal and game of a state: OpenSpiel clones a Python state by deep-copying its
    attributes, and this copies the deal with ``Deal.clone()`` and shares the game."""

    __slots__ = ("deal", "game")

    def __init__(self, deal: Any, game: Any) -> None:
        self.deal = deal
        self.game = game

    def __deepcopy__(self, memo: Any) -> _Held:
        return _Held(None if self.deal is None else self.deal.clone(), self.game)


class ChupaiState(pyspiel.State):  # type: ignore[misc]
    """A chupai deal behind a chance node that draws it (module doc)."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self._held = _Held(None, game)

    @property
    def deal(self) -> Any:
        """The chupai deal (``None`` at the chance node)."""
        return self._held.deal

    def current_player(self) -> int:
        deal = self._held.deal
        if deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        if deal.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(deal.current_player)

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(set(rl.legal_action_ids(self._held.deal).tolist()))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deals = self._held.game.deals
        p = 1.0 / deals
        return [(i, p) for i in range(deals)]

    def _apply_action(self, action: int) -> None:
        held = self._held
        if held.deal is None:
            held.deal = held.game.deal_class(seed=int(action), **held.game.deal_kwargs)
        else:
            held.deal.apply(rl.id_to_action(held.deal, int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return rl.action_space(self._held.game.chupai_game).describe(int(action))

    def is_terminal(self) -> bool:
        deal = self._held.deal
        return deal is not None and bool(deal.is_terminal())

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._held.game.players
        return [float(r) for r in self._held.deal.returns()]

    def __str__(self) -> str:
        deal = self._held.deal
        return "(dealing)" if deal is None else str(deal)


class ChupaiObserver:
    """The PyObserver of a chupai game: the tensor of :func:`chupai.rl.observation_tensor`."""

    def __init__(self, game: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self._name = game.chupai_game
        self.tensor = np.zeros(rl.observation_size(self._name, game.players), dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ChupaiState, player: int) -> None:
        if state.deal is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = rl.observation_tensor(state.deal, player)

    def string_from(self, state: ChupaiState, player: int) -> str:
        if state.deal is None:
            return f"p{player} (dealing)"
        obs = state.deal.observation(player)
        return f"p{player} hand {obs['hand']} sizes {obs['hand_sizes']} history {list(obs['history'])!r}"


def register() -> None:
    """Register ``python_chupai_<game>`` for every game (again: no effect)."""
    known = set(pyspiel.registered_names())
    for name, spiel_name in GAME_NAMES.items():
        if spiel_name not in known:
            pyspiel.register_game(_game_type(name), _game_class(name))
