"""``BestBot``: the compiled heuristic policy, overruled by paired Monte Carlo evidence.

The heuristic policy (:class:`chupai.players.bots.HeuristicBot`) is the library's strongest
cheap player; plain search with playouts from uniformly redealt hands loses to it at
tens of milliseconds a move.  ``BestBot`` keeps the heuristic's play unless a paired
test says another one is better:

* it draws worlds consistent with what the player knows
  (``state.determinize_card_play``, through :meth:`BestBot.draw_world`, which a
  subclass that knows more about the hidden hands overrides), and in each world plays every candidate out with
  the same ``policy`` (the candidates: the heuristic's play, passing when allowed, and
  the lowest suit-collapsed plays in the greedy order, at most ``max_candidates``; with
  ``candidates="types"`` the lowest play of each type first, then the next lowest), so
  the candidates' outcomes are compared on the same hidden hands;
* every 8 worlds it stops playing out the candidates whose mean gain over the policy's
  play is below zero by more than ``drop`` standard errors (none of them could be made),
  so the worlds left go to the plays that may still overrule it; with none left it
  makes the policy's play at once;
* it stops after ``seconds`` of process CPU (or ``worlds`` worlds, whichever first);
* it plays the candidate with the best mean outcome only if its per-world difference
  to the heuristic's play has a t statistic above ``z`` (over at least ``min_worlds``
  worlds), else the heuristic's play.  The outcome is whether the deal was won
  (``objective="win"``, the default in a game whose registry entry declares
  ``evaluate_win``: Guan Dan) or the deal's score as the rules give it (``"score"``,
  the default elsewhere; Guan Dan's levels won).

Decisions with one choice cost nothing; outside the card play (tribute, exchange) it
makes the game's decision policy's choice, as the other bots.

>>> import numpy as np
>>> from chupai.guandan import Deal
>>> deal = Deal(seed=3)
>>> BestBot(worlds=8).choose(deal, np.random.default_rng(0)) in deal.legal_actions()
True
"""
from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from chupai.engine.base import POLICIES
from chupai.players.options import changed_options
from chupai.registry import game_of
from chupai.core.validate import as_rng, check_choice, check_number, check_optional_number, check_positive_int
from chupai.actions import PASS

__all__ = ["CANDIDATES", "OBJECTIVES", "BestBot"]

#: how the plays compared beside the policy's are chosen: the lowest in the greedy order,
#: or the lowest of each type first (then the next lowest)
CANDIDATES = ("lowest", "types")

#: what a playout's outcome measures: the deal's score as the rules give it, or whether
#: it was won (every won deal alike; a game's registry entry says if it can)
OBJECTIVES = ("score", "win")

#: how many worlds apart the candidates are looked at for dropping (``drop``)
_LOOK = 8

#: the worlds' first room when only a time budget bounds them (it doubles as needed)
_ROOM = 256


def _as_action(actions: list[Any], play: Any) -> Any:
    """The item of ``actions`` equal to ``play`` (``PASS`` for ``None``)."""
    if play is None:
        play = PASS
    for a in actions:
        if a == play:
            return a
    return play


class BestBot:
    """The heuristic policy, overruled where paired playouts say a play is better.

    Args:
        seconds: process CPU seconds per decision with a choice (``None``: by
            ``worlds`` only).
        worlds: the most worlds drawn per decision (``None``: by time only); with
            neither, 64 worlds.
        policy: the compiled policy that proposes the play and plays the worlds out.
        max_candidates: the most plays compared (the policy's play among them).
        z: the t statistic a candidate's mean gain over the policy's play must exceed.
        min_worlds: no play overrules the policy's on fewer worlds.
        candidates: ``"lowest"`` (the lowest plays in the greedy order) or ``"types"``
            (the lowest of each type first), see :data:`CANDIDATES`.
        objective: ``"score"`` (the deal's outcome as the rules score it), ``"win"``
            (whether it was won; ``ValueError`` at a decision in a game whose registry
            entry has no ``evaluate_win``), or ``None``: the game's own default (its
            registry entry's ``objective``), see :data:`OBJECTIVES`.
        drop: after ``min_worlds`` worlds and every 8 worlds after, a candidate whose
            mean gain over the policy's play is below zero by more than ``drop``
            standard errors is no longer played out (the worlds left go to the others;
            with none left the policy's play is made at once); ``None``: every
            candidate is played out in every world.
        belief: ``None`` (the default): the worlds are drawn uniformly among the deals
            the public history allows.  A number in (0, 1]: each decision draws ``pool``
            such worlds, weighs each by ``belief ** m`` (``m``: how many of the
            opponents' card-play decisions so far ``policy`` would not have made holding
            the world's cards, :meth:`~chupai.state.base.DealSurface.card_play_replay`),
            and draws the worlds played out from them by weight: a model of the
            opponents as ``policy``.  ``ValueError`` at a decision in a game whose card
            play cannot be replayed (Gan Deng Yan, Chinese Ten).
        pool: with ``belief``, the worlds weighed per decision.

    Deterministic for a given ``rng`` when held to ``worlds`` (a time budget depends on
    the machine).
    """

    name = "best"

    def __init__(self, seconds: float | None = None, *, worlds: int | None = None, policy: str = "heuristic",
                 max_candidates: int = 12, z: float = 2.0, min_worlds: int = 8, candidates: str = "lowest",
                 objective: str | None = None, drop: float | None = 1.0, belief: float | None = None,
                 pool: int = 256) -> None:
        if seconds is None and worlds is None:
            worlds = 64
        self.seconds = check_optional_number(seconds, "seconds", 0, above=True)
        self.worlds = None if worlds is None else check_positive_int(worlds, "worlds")
        self.policy = check_choice(policy, "policy", tuple(POLICIES))
        self.max_candidates = check_positive_int(max_candidates, "max_candidates")
        self.z = check_number(z, "z", 0)
        self.min_worlds = check_positive_int(min_worlds, "min_worlds")
        self.candidates = check_choice(candidates, "candidates", CANDIDATES)
        self.objective = None if objective is None else check_choice(objective, "objective", OBJECTIVES)
        self.drop = check_optional_number(drop, "drop", 0)
        self.belief = check_optional_number(belief, "belief", 0, above=True)
        if self.belief is not None and self.belief > 1:
            raise ValueError(f"belief must be a number in (0, 1] or None, not {belief!r}")
        self.pool = check_positive_int(pool, "pool")
        # within a decision with belief: its weighed worlds (draw_world draws from them)
        self._drawn: tuple[list[Any], np.ndarray] | None = None

    def __repr__(self) -> str:
        budget = []
        if self.seconds is not None:
            budget.append(f"seconds={self.seconds:g}")
        if self.worlds is not None:
            budget.append(f"worlds={self.worlds}")
        extra = changed_options(self, {"max_candidates": self.max_candidates, "z": self.z, "min_worlds": self.min_worlds,
                                       "candidates": self.candidates, "objective": self.objective,
                                       "drop": self.drop, "belief": self.belief, "pool": self.pool})
        return f"{type(self).__name__}({', '.join(budget)}, policy={self.policy!r}{extra})"

    def _candidates(self, engine: Any, proposal: Any) -> tuple[Any, bool, int]:
        """The plays compared, whether passing is one (the last), and the proposal's index."""
        plays = engine.legal_plays(collapse_suits=True)
        include_pass = bool(engine.can_pass())
        if proposal is None:
            keep = self.max_candidates - 1
            index = -1
        else:
            index = next(i for i, p in enumerate(plays) if p == proposal)
            keep = self.max_candidates - include_pass
        if len(plays) > keep:
            rec = plays.to_numpy()
            order = np.lexsort((-rec["length"].astype(int), rec["key"], rec["nwild"], rec["cls"])).tolist()
            if self.candidates == "types":  # each type's lowest first, in the greedy order
                heads = set(np.unique(rec["type"][order], return_index=True)[1].tolist())
                order = [order[k] for k in sorted(heads)] + [i for k, i in enumerate(order) if k not in heads]
            chosen = order[:keep]
            if index >= 0 and index not in chosen:
                chosen[-1] = index
            plays = plays.take(chosen)
            if index >= 0:
                index = chosen.index(index)
        n = len(plays) + include_pass
        return plays, include_pass, n - 1 if index < 0 else index

    def choose(self, state: Any, rng: Any) -> Any:
        """The action to make in ``state`` (an item of ``state.legal_actions()``)."""
        g = as_rng(rng)
        entry = game_of(state)
        extra = entry.evaluate_args(state.rules, self.objective or entry.objective)  # checked in every decision
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        engine = state.card_play()
        if engine is None:
            return entry.choose_decision(state, actions)
        # refused here, before any work, where the card play cannot be replayed
        replay = None if self.belief is None else self._replay(state, self._opponents(state, state.current_player))
        proposal = engine.policy_choice(self.policy, int(g.integers(0, 2**63)))
        plays, include_pass, base = self._candidates(engine, proposal)
        n = len(plays) + include_pass
        if n == 1:
            return _as_action(actions, proposal)
        try:
            return self._search(state, actions, proposal, plays, include_pass, base, g, extra, replay)
        finally:
            self._drawn = None

    def _search(self, state: Any, actions: list[Any], proposal: Any, plays: Any, include_pass: bool, base: int,
                g: np.random.Generator, extra: tuple[Any, ...], replay: Any) -> Any:
        """:meth:`choose`'s paired test of the candidates (``base``: the proposal's index;
        ``replay``: the opponents' card play, with ``belief``)."""
        n = len(plays) + include_pass
        player = state.current_player
        start = time.process_time()
        if replay is not None:
            self._drawn = self._weighed_worlds(state, player, replay, g)
        # one row a world, a column a candidate (NaN once dropped); room grows by doubling
        values = np.full((self.worlds or _ROOM, n), np.nan)
        count = 0
        live = list(range(n))  # the candidates still played out (indices of the n)
        live_plays, live_pass = plays, include_pass
        while self.worlds is None or count < self.worlds:
            if count == len(values):
                values = np.vstack((values, np.full_like(values, np.nan)))
            world = self.draw_world(state, player, g)
            values[count, live] = world.evaluate(live_plays, live_pass, 1, int(g.integers(0, 2**63)), self.policy,
                                                 *extra)
            count += 1
            if self.seconds is not None and time.process_time() - start >= self.seconds:
                break
            if self.drop is not None and count >= self.min_worlds and count % _LOOK == 0:
                kept = self._kept(values[:count, live], live.index(base))
                if len(kept) < len(live):
                    live = [live[k] for k in kept]
                    if len(live) == 1:
                        break  # none left that could overrule the proposal
                    live_pass = include_pass and live[-1] == n - 1
                    live_plays = plays.take([i for i in live if i < len(plays)])
        if count < max(2, self.min_worlds) or len(live) == 1:
            return _as_action(actions, proposal)
        kept_values = values[:count, live]
        gains = kept_values - kept_values[:, live.index(base)][:, None]
        mean = gains.mean(axis=0)
        best = live[int(np.argmax(mean))]
        top = float(mean.max())
        if best == base or top <= 0:
            return _as_action(actions, proposal)
        spread = gains[:, live.index(best)].std(ddof=1)
        t = top / (spread / math.sqrt(count)) if spread > 0 else math.inf
        if t <= self.z:
            return _as_action(actions, proposal)
        return _as_action(actions, None if best == len(plays) else plays[best])

    def draw_world(self, state: Any, player: int, rng: np.random.Generator) -> Any:
        """The card-play engine of one world the candidates are played out in, its
        current player ``player``: here ``state.determinize_card_play(player, rng)``, the
        cards hidden from ``player`` dealt uniformly among the deals the public history
        allows, or with ``belief`` one of the decision's weighed pool by weight (a call
        outside :meth:`choose` weighs a pool of its own).

        The place for a bot that knows more about the hidden hands (an inference from
        the play so far, a learned belief) to draw from what it knows, the search
        unchanged; to stay deterministic it draws only from ``rng``."""
        if self.belief is None:
            return state.determinize_card_play(player, rng)
        drawn = self._drawn
        if drawn is None:  # a call outside choose
            drawn = self._weighed_worlds(state, player, self._replay(state, self._opponents(state, player)), rng)
        worlds, cumulative = drawn
        return worlds[int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))]

    def _weighed_worlds(self, state: Any, player: int, replay: Any,
                        rng: np.random.Generator) -> tuple[list[Any], np.ndarray]:
        """``pool`` worlds drawn uniformly, each with its weight ``belief ** m`` (``m``: the
        decisions of the player's opponents so far, ``replay``, that ``policy`` would not
        have made in that world), as cumulative sums."""
        assert self.belief is not None
        worlds = [state.determinize_card_play(player, rng) for _ in range(self.pool)]
        misses = np.array([replay.misses(w, self.policy) for w in worlds], dtype=float)
        return worlds, np.cumsum(self.belief ** (misses - misses.min()))

    @staticmethod
    def _replay(state: Any, seats: Any) -> Any:
        """``state.card_play_replay(seats)``; ``ValueError`` for ``belief`` where the game's
        card play cannot be replayed."""
        replay = state.card_play_replay(seats)
        if replay is None:
            raise ValueError(f"belief: the card play of {game_of(state).title} cannot be replayed; use belief=None")
        return replay

    @staticmethod
    def _opponents(state: Any, player: int) -> list[int]:
        """The seats whose decisions tell of the hidden hands: the other partnership's
        in a game of partnerships, else every other seat."""
        if game_of(state).teams:
            return [s for s in range(state.players) if s % 2 != player % 2]
        return [s for s in range(state.players) if s != player]

    def _kept(self, values: np.ndarray, base: int) -> list[int]:
        """The columns of ``values`` (worlds x candidates still played out) kept: the
        proposal's (``base``) and each whose mean gain over it is not below zero by more
        than ``drop`` standard errors."""
        gains = values - values[:, base : base + 1]
        mean = gains.mean(axis=0)
        error = gains.std(axis=0, ddof=1) / math.sqrt(len(values))
        return [k for k in range(values.shape[1]) if k == base or mean[k] + self.drop * error[k] >= 0]
