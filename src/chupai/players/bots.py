"""Bots for the game states of this library: one protocol, three strategies.

A bot is anything with ``choose(state, rng) -> action`` (the :class:`Bot` protocol
states the contract).  What differs between games (the choice outside the card play,
how a playout is weighed) comes from the registry (:mod:`chupai.registry`).  During
card play ``RandomBot``, ``GreedyBot`` and ``HeuristicBot`` make the C playout
policies' choices on the state's own engine (``state.policy_action``), and
``MonteCarloBot`` evaluates each candidate play with C playouts over determinized
deals.

>>> import numpy as np
>>> from chupai.guandan import Deal
>>> deal = Deal(seed=3)
>>> bot = GreedyBot()
>>> bot.choose(deal, np.random.default_rng(0)) in deal.legal_actions()
True
"""
from __future__ import annotations

import math
from typing import Any, Protocol, runtime_checkable

import numpy as np

from chupai.engine.base import POLICIES
from chupai.registry import game_of
from chupai.core.seeds import draw
from chupai.core.validate import as_rng, check_choice, check_positive_int
from chupai.actions import PASS
from chupai.players.search.bot import ISMCTSBot

__all__ = ["Bot", "GreedyBot", "HeuristicBot", "ISMCTSBot", "MonteCarloBot", "RandomBot"]

#: the compiled playout policies a bot may roll out with
PLAYOUT_POLICIES = tuple(POLICIES)


@runtime_checkable
class Bot(Protocol):
    """Chooses an action for the player to act in ``state``.

    The contract, which every bot of this library keeps and every caller relies on:

    * ``state`` is a ``Deal`` or ``Match`` of any game, not over; the bot reads it and
      leaves it as it was (it may clone or determinize it).
    * The return value is the very object ``state.legal_actions()[i]`` for some ``i``
      (identical, not merely equal: the list's items carry its stamp), so
      ``state.apply(action)`` plays it without a search and ``legal_actions().index``
      finds it in O(1).
    * ``rng`` is what :func:`chupai.core.validate.as_rng` takes (a numpy ``Generator``, an
      int seed or ``None``); every random choice is drawn from it, so the same state
      and the same generator state give the same action.  A deterministic bot checks
      ``rng`` all the same and draws nothing from it.
    """

    def choose(self, state: Any, rng: Any) -> Any:
        """An item of ``state.legal_actions()`` (see the class doc)."""


def _non_play_choice(state: Any, actions: list[Any]) -> Any:
    """A sensible choice outside card play (tribute, exchange): the registry's
    ``decision_policy`` of the state's game."""
    return game_of(state).choose_decision(state, actions)


class RandomBot:
    """Uniform over the suit-collapsed plays (and passing when following), like the C
    ``random`` playout policy; uniform over the legal actions outside card play."""

    name = "random"

    def choose(self, state: Any, rng: Any) -> Any:
        g = as_rng(rng)
        actions = state.legal_actions()
        if actions.plays is None:  # a decision (tribute, exchange)
            return actions[int(g.integers(len(actions)))]
        return state.policy_action("random", draw(g))

    def __repr__(self) -> str:
        return "RandomBot()"


class _PolicyBot:
    """A bot playing one of the engines' C policies (``name``) in the card play, and the
    game's ``decision_policy`` choice outside it; deterministic: it draws nothing from
    ``rng`` (checked all the same, as every bot checks it)."""

    name: str

    def choose(self, state: Any, rng: Any) -> Any:
        as_rng(rng)
        action = state.policy_action(self.name)
        return _non_play_choice(state, state.legal_actions()) if action is None else action

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class GreedyBot(_PolicyBot):
    """The C ``greedy`` policy: the smallest play that beats, keeping wild cards and
    bombs back (a bomb only against an opponent about to go out), never over the
    partner; outside card play it returns its lowest card."""

    name = "greedy"


class HeuristicBot(_PolicyBot):
    """The C ``heuristic`` policy: what good players do, game by game (see each game's
    ``_engine.pyx``, "the heuristic policy").  In the shedding games it splits the hand
    into few combinations and sheds the weakest first, does not break combinations or
    spend wild cards, bombs and top cards without a reason (an opponent about to go out,
    a play that decides the deal), does not play over the partner, and counts the
    unseen cards to keep the lead near the end; in Chinese Ten it captures the most
    points and discards what the others can least use.  It reads only what the player
    may know (the own hand, card counts, the table, the unseen cards as a whole).
    Outside card play it makes the game's ``decision_policy`` choice, as GreedyBot.
    Deterministic: it draws nothing from ``rng``."""

    name = "heuristic"


class MonteCarloBot:
    """Flat Monte Carlo over determinized deals.

    For each candidate (the suit-collapsed legal plays, and passing when following;
    at most ``max_candidates`` of them, the lowest in the greedy order), it repeatedly
    draws a deal consistent with what the player has seen (the engine of one,
    ``state.determinize_card_play``; at most ``max_worlds`` per decision), makes the
    candidate and plays the deal out in C
    with ``policy``; it chooses the candidate with the best total outcome for its team
    (won or lost levels in Guan Dan; the player's score - par in Chinese Ten).  About ``playouts`` playouts are spent per decision.
    """

    name = "mc"

    def __init__(
        self, playouts: int = 200, *, policy: str = "greedy", max_candidates: int = 24, max_worlds: int = 16
    ) -> None:
        self.playouts = check_positive_int(playouts, "playouts")
        self.max_candidates = check_positive_int(max_candidates, "max_candidates")
        self.max_worlds = check_positive_int(max_worlds, "max_worlds")
        self.policy = check_choice(policy, "policy", PLAYOUT_POLICIES)

    def choose(self, state: Any, rng: Any) -> Any:
        rng = as_rng(rng)
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        engine = state.card_play()
        if engine is None:
            return _non_play_choice(state, actions)
        candidates = engine.legal_plays(collapse_suits=True)
        if len(candidates) > self.max_candidates:
            rec = candidates.to_numpy()
            order = np.lexsort((-rec["length"].astype(int), rec["key"], rec["nwild"], rec["cls"]))
            candidates = candidates.take(order[: self.max_candidates].tolist())
        include_pass = engine.can_pass()
        n = len(candidates) + include_pass
        if n == 1:
            return actions[actions.index(candidates[0] if len(candidates) else PASS)]
        player = state.current_player
        # the game's own weights of a playout (Guan Dan: the levels of a won deal)
        extra = game_of(state).evaluate_args(state.rules)
        # spread the playouts over at most max_worlds determinizations (each costs more
        # than a playout), every candidate played out the same number of times in each
        worlds = min(self.max_worlds, max(1, math.ceil(self.playouts / n)))
        per_world = max(1, round(self.playouts / (n * worlds)))
        sums = np.zeros(n)
        for _ in range(worlds):
            # the world's engine alone (its state would be thrown away)
            world = state.determinize_card_play(player, rng)
            sums += world.evaluate(candidates, include_pass, per_world, draw(rng), self.policy, *extra)
        best = int(np.argmax(sums))
        # the list's own item (found by its record): apply() then needs no search
        return actions[actions.index(candidates[best] if best < len(candidates) else PASS)]

    def __repr__(self) -> str:
        return f"MonteCarloBot(playouts={self.playouts}, policy={self.policy!r})"
