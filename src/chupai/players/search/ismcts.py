"""Single-observer information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012).

The tree belongs to the player to move (the observer).  Each iteration draws one world
consistent with what the observer knows (``state.determinize``) and walks it down the
tree: at every node it lists the actions available *in that world*, counts each
existing child as available (the availability count that replaces the parent's visits
in the UCB formula), expands one untried action if there is any, else follows the
child with the best UCB value for the player who chooses there.  The new leaf is
scored by a compiled playout of the world's card-play engine (``DealEngine.playout``
with a named policy), and every node on the path adds the return of the player who
chose its action.  Actions are keyed by value, since every world lists its own action
objects: a play by its raw generator record (equal plays have equal records, and no
Play object is built for the actions merely listed), ``PASS`` and the decisions by
themselves (they are hashable).

Nothing here is game-specific: the search uses the state contract (``current_player``,
``legal_actions()``, ``apply()``, ``is_terminal()``, ``determinize()``,
``card_play()``) and the engine contract (``legal_plays``, ``can_pass``, ``play``,
``pass_turn``, ``current``, ``playout``; a playout's outcome is read as the game's
returns by the game's registry entry, ``Game.outcome``); teams need
no special case because
teammates' returns are equal (Guan Dan), so each chooser maximises its own return.
Decisions before the card play (Guan Dan's tribute, Zheng Shangyou's exchange) are
actions of the state like any other and go through the same tree.

Choices written down here:

* During card play the tree branches over the suit-collapsed plays
  (``collapse_suits=True``, one representative per group of ``docs/rules/cards.md``): which
  suit of a rank is given up almost never matters and the branching factor drops 3-4x
  (a Guan Dan lead: 226 plays, 63 groups).  ``collapse_suits=False`` branches over
  every concrete play.
* The root tries its actions in a fixed order, the greedy policy's choice first, then
  passing, then MonteCarloBot's order (plainest plays first), and considers at most
  ``max_candidates`` plays (24, as MonteCarloBot): with a small budget each root
  action gets a handful of iterations, and a random order would spend them on bombs
  and wild cards as readily as on the plays a player considers first.  Below the root
  an untried action is chosen at random.
* The exploration term is scaled by the range of the returns seen so far
  (``exploration * (max - min)``), so one constant serves games that score in levels
  (Guan Dan), points (Zheng Shangyou) or card values (Chinese Ten).
* The move made is the most visited root action (ties: the higher mean, then the
  earlier in the root's order).

>>> from chupai.guandan import Deal
>>> deal = Deal(seed=3)
>>> result = ISMCTS().search(deal, iterations=50, seed=1)
>>> result.action in deal.legal_actions(), result.iterations, sum(s.visits for s in result.stats)
(True, 50, 50)
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from chupai.core.records import PLAY_DTYPE
from chupai.engine.base import POLICIES
from chupai.registry import game_of
from chupai.actions import PASS
from chupai.core.validate import (check_number, check_optional_int, check_optional_number, check_positive_int,
                                  check_seed)

__all__ = ["ActionStats", "ISMCTS", "Node", "SearchResult", "Tree", "engine_actions", "root_actions", "root_order"]

_POLICIES = tuple(POLICIES)


class Node:
    """One node of the tree: the information set reached by the actions on its path.

    Attributes:
        player: the seat that chose the action leading here (-1 at the root).
        action: that action (the object of the world it was first tried in; any
            world's equal action is the same action).
        children: the child of each action tried here, keyed by the action's value
            (see :func:`action_keys`).
        visits: the iterations that passed through this node.
        total: the sum of ``player``'s returns over those iterations.
        avail: the iterations in which this node's action was available at its parent
            (the parent's visits in a world where this action was legal).
    """

    __slots__ = ("action", "avail", "children", "player", "total", "visits")

    def __init__(self, player: int, action: Any = None) -> None:
        self.player = player
        self.action = action
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1

    def __repr__(self) -> str:
        return (
            f"Node({self.action!r}, player={self.player}, visits={self.visits}, avail={self.avail}, "
            f"children={len(self.children)})"
        )


@dataclass
class Tree:
    """A search tree and what it needs to be reused on a later move of the same deal.

    Attributes:
        root: the root node (the observer's information set at the search).
        player: the observer.
        history: the public history of the state searched (to find the new root later).
        seed: the seed of the state searched (``state.seed``).
        low, high: the least and the greatest return seen (they scale the exploration).
    """

    root: Node
    player: int
    history: list[Any]
    seed: Any
    low: float = math.inf
    high: float = -math.inf


@dataclass(frozen=True)
class ActionStats:
    """The statistics of one root action after a search.

    Attributes:
        action: the action (an item of the state's legal actions).
        visits: iterations that chose it.
        mean: the observer's mean return over those iterations (0 if never chosen).
        avail: iterations in which it was available (every one, at the root).
    """

    action: Any
    visits: int
    mean: float
    avail: int


@dataclass(frozen=True)
class SearchResult:
    """The outcome of one search.

    Attributes:
        action: the action chosen (the most visited root action).
        iterations: the iterations this search ran (reused ones not counted).
        stats: one entry per root action, in the legal order.
        cpu_seconds: the process CPU time the search took.
        reused: the root visits taken over from an earlier search.
    """

    action: Any
    iterations: int
    stats: tuple[ActionStats, ...]
    cpu_seconds: float
    reused: int = 0


#: one play record as raw bytes: the value key of a play during card play
_RECORD = np.dtype((np.void, PLAY_DTYPE.itemsize))


def engine_actions(engine: Any, collapse_suits: bool) -> tuple[list[Any], Any]:
    """The keys and the actions of the engine's player to move: ``(keys, plays)``.

    ``keys[i]`` is the raw record of ``plays[i]`` (equal plays have equal records: the
    generators write every field, declaration included), then ``PASS`` when the player
    may pass; ``plays`` is the engine's ``PlayList`` (a Play is built only for the
    action taken).
    """
    plays = engine.legal_plays(collapse_suits=collapse_suits)
    keys: list[Any] = plays.to_numpy().view(_RECORD).tolist()
    if engine.can_pass():
        keys.append(PASS)
    return keys, plays


def root_actions(state: Any, collapse_suits: bool = True) -> tuple[list[Any], list[Any]]:
    """The keys and the actions the search considers in ``state``: during card play the
    engine's (suit-collapsed if asked) plays and ``PASS`` when following (see
    :func:`engine_actions`), else the state's legal actions (tribute, exchange and other
    decisions), each its own key."""
    engine = state.card_play()
    if engine is None:
        actions = list(state.legal_actions())
        return actions, actions
    keys, plays = engine_actions(engine, collapse_suits)
    return keys, list(plays) + [PASS] * (len(keys) - len(plays))


def root_order(state: Any, actions: list[Any], collapse_suits: bool = True) -> list[int]:
    """The order in which the search tries the root's ``actions`` (those of
    :func:`root_actions`): during card play the greedy policy's choice first, then
    ``PASS``, then the plays in MonteCarloBot's order (plainest first: no bomb, fewest
    wild cards, lowest key, longest); decisions as listed."""
    engine = state.card_play()
    if engine is None:
        return list(range(len(actions)))
    rec = engine.legal_plays(collapse_suits=collapse_suits).to_numpy()
    order: list[int] = np.lexsort((-rec["length"].astype(int), rec["key"], rec["nwild"], rec["cls"])).tolist()
    passing = [len(rec)] if engine.can_pass() else []
    choice = engine.policy_choice("greedy")
    first = [actions.index(choice)] if choice is not None and choice in actions else passing
    return list(dict.fromkeys(first + passing + order))


class ISMCTS:
    """The search (see the module doc); holds its options, no state between searches.

    Args:
        policy: the compiled playout policy of the rollouts (``"greedy"``, ``"heuristic"`` or ``"random"``).
        exploration: the UCB constant, relative to the range of the returns.
        collapse_suits: branch over suit-collapsed plays during card play.
        iterations_per_world: how many consecutive iterations walk (a copy of) each
            determinized world.  1 is the algorithm of the paper; more trades the
            independence of the iterations for speed while ``determinize`` costs much
            more than an iteration's walk and playout (Guan Dan's, in Python, today).
        max_candidates: during card play the root considers at most this many plays
            (``None``: all), the first in the order of :func:`root_order`, which is
            also the order in which the root's actions are first tried.
    """

    def __init__(
        self,
        *,
        policy: str = "greedy",
        exploration: float = 0.7,
        collapse_suits: bool = True,
        iterations_per_world: int = 1,
        max_candidates: int | None = 24,
    ) -> None:
        if not isinstance(policy, str):
            raise TypeError(f"policy must be a str, not {type(policy).__name__}")
        if policy not in _POLICIES:
            raise ValueError(f"unknown policy {policy!r}; expected one of {_POLICIES}")
        if not isinstance(collapse_suits, bool):
            raise TypeError(f"collapse_suits must be a bool, not {type(collapse_suits).__name__}")
        self.policy = policy
        self.exploration = check_number(exploration, "exploration", 0)
        self.collapse_suits = collapse_suits
        self.iterations_per_world = check_positive_int(iterations_per_world, "iterations_per_world")
        self.max_candidates = check_optional_int(max_candidates, "max_candidates", 1)

    def __repr__(self) -> str:
        return (
            f"ISMCTS(policy={self.policy!r}, exploration={self.exploration}, collapse_suits={self.collapse_suits}, "
            f"iterations_per_world={self.iterations_per_world}, max_candidates={self.max_candidates})"
        )

    def new_tree(self, state: Any) -> Tree:
        """An empty tree for the player to move in ``state``."""
        return Tree(Node(-1), state.current_player, list(state.history), state.seed)

    def search(
        self,
        state: Any,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        seed: int = 0,
        tree: Tree | None = None,
    ) -> SearchResult:
        """Search ``state`` for the player to move; ``state`` is not changed.

        Stops after ``iterations`` iterations or ``seconds`` of process CPU time,
        whichever comes first (at least one of them must be given; at least one
        iteration runs).  ``seed`` fixes every random draw: the same seed, state and
        iteration budget give the same tree.  ``tree`` continues an existing tree of
        this information set (see :class:`ISMCTSBot` for reuse between moves); it is
        updated in place.
        """
        iterations = check_optional_int(iterations, "iterations", 1)
        seconds = check_optional_number(seconds, "seconds", 0, above=True)
        if iterations is None and seconds is None:
            raise ValueError("give iterations or seconds (or both)")
        seed = check_seed(seed, allow_none=False)
        if state.is_terminal():
            raise ValueError("the state is terminal: there is nothing to search")
        if tree is None:
            tree = self.new_tree(state)
        elif tree.player != state.current_player:
            raise ValueError(f"the tree is seat {tree.player}'s, but seat {state.current_player} is to move")
        keys, actions = root_actions(state, self.collapse_suits)
        order = root_order(state, actions, self.collapse_suits)
        if self.max_candidates is not None and state.card_play() is not None:
            order = order[: self.max_candidates]
        ckeys, cactions = [keys[i] for i in order], [actions[i] for i in order]
        reused = tree.root.visits
        start = time.process_time()
        done = self._iterate(state, tree, ckeys, cactions, iterations, seconds, int(seed))
        spent = time.process_time() - start
        tree.history = list(state.history)
        tree.seed = state.seed
        best = self._best(self.root_stats(tree.root, ckeys, cactions))
        return SearchResult(best, done, self.root_stats(tree.root, keys, actions), spent, reused)

    @staticmethod
    def root_stats(root: Node, keys: list[Any], actions: list[Any]) -> tuple[ActionStats, ...]:
        """The statistics at ``root`` of ``actions`` (keyed by ``keys``; zeros for actions
        never tried)."""
        out = []
        for k, a in zip(keys, actions):
            ch = root.children.get(k)
            if ch is None:
                out.append(ActionStats(a, 0, 0.0, 0))
            else:
                out.append(ActionStats(a, ch.visits, ch.total / ch.visits if ch.visits else 0.0, ch.avail))
        return tuple(out)

    @staticmethod
    def _best(stats: tuple[ActionStats, ...]) -> Any:
        best = max(range(len(stats)), key=lambda i: (stats[i].visits, stats[i].mean, -i))
        return stats[best].action

    def _iterate(
        self,
        state: Any,
        tree: Tree,
        keys: list[Any],
        actions: list[Any],
        iterations: int | None,
        seconds: float | None,
        seed: int,
    ) -> int:
        """Run the iterations; returns how many ran.

        Every root action is available in every world (the observer's own options are
        what it knows), so the root's statistics live in numpy arrays during the loop
        (UCB in a few vector operations) and go back to its nodes at the end.  Below
        the root the loop keeps to locals and builds no object per iteration beyond the
        world, its listings (raw record keys, no Play objects) and the new node.
        """
        rnd = random.Random(seed)
        gen = np.random.default_rng(seed)
        outcome = game_of(state).outcome
        rules = state.rules
        policy = self.policy
        collapse = self.collapse_suits
        c = self.exploration
        root = tree.root
        player = tree.player
        low, high = tree.low, tree.high
        clock = time.process_time
        deadline = clock() + seconds if seconds is not None else math.inf
        limit = iterations if iterations is not None else -1
        log, sqrt = math.log, math.sqrt
        # the root's children, aligned with its actions
        kids: list[Node | None] = [root.children.get(k) for k in keys]
        visits = np.array([0 if ch is None else ch.visits for ch in kids], dtype=np.float64)
        totals = np.array([0.0 if ch is None else ch.total for ch in kids], dtype=np.float64)
        avail = np.array([0 if ch is None else ch.avail for ch in kids], dtype=np.float64)
        exists = np.array([ch is not None for ch in kids])
        untried = [i for i, ch in enumerate(kids) if ch is None][::-1]  # tried in order: pop()
        per_world = self.iterations_per_world
        left = 0
        base: Any = None
        base_engine: Any = None
        done = 0
        while done != limit and (done == 0 or seconds is None or clock() < deadline):
            if left == 0:
                base = state.determinize(player, gen)
                base_engine = base.card_play()
                left = per_world
            left -= 1
            if per_world == 1:  # the world is used once: no copy
                world, engine = base, base_engine
            elif base_engine is not None:  # card play: only the engine is walked
                world, engine = base, base_engine.clone()
            else:
                world, engine = base.clone(), None
            span = c * (high - low) if high > low else c
            # the root
            if untried:
                i = untried.pop()
                avail += exists
                avail[i] = 1.0
                exists[i] = True
                kids[i] = root.children[keys[i]] = Node(player, actions[i])
                expand = True
            else:
                avail += 1.0
                i = int((totals / visits + span * np.sqrt(np.log(avail) / visits)).argmax())
                expand = False
            a = actions[i]
            path: list[Node] = []
            node = kids[i]
            assert node is not None
            # below the root: make the action, list the next player's, choose
            while True:
                if engine is not None:
                    if a is PASS:
                        engine.pass_turn()
                    else:
                        engine.play(a)
                    mover = engine.current
                    if mover < 0 or expand:
                        break
                    ks, objs = engine_actions(engine, collapse)
                else:
                    world.apply(a)
                    engine = world.card_play()
                    if expand or world.is_terminal():
                        break
                    if engine is not None:
                        mover = engine.current
                        ks, objs = engine_actions(engine, collapse)
                    else:
                        mover = world.current_player
                        ks = objs = world.legal_actions()
                children = node.children
                fresh = None
                for k in ks:
                    ch = children.get(k)
                    if ch is None:
                        if fresh is None:
                            fresh = [k]
                        else:
                            fresh.append(k)
                    else:
                        ch.avail += 1
                if fresh is not None:
                    k = fresh[rnd.randrange(len(fresh))] if len(fresh) > 1 else fresh[0]
                    a = PASS if k is PASS else objs[ks.index(k)]
                    node = children[k] = Node(mover, a)
                    expand = True
                else:
                    best_v = -math.inf
                    for k in ks:
                        ch = children[k]
                        v = ch.total / ch.visits + span * sqrt(log(ch.avail) / ch.visits)
                        if v > best_v:
                            best_v, node = v, ch
                    a = node.action
                path.append(node)
            # rollout: decisions still due before the card play at random, then C
            if engine is None:
                while not world.is_terminal() and (engine := world.card_play()) is None:
                    options = world.legal_actions()
                    world.apply(options[rnd.randrange(len(options))])
            if engine is None:
                ret = world.returns()
            else:
                ret = outcome(rules, engine.playout(rnd.getrandbits(63), policy))
            r_lo, r_hi = min(ret), max(ret)
            if r_lo < low:
                low = r_lo
            if r_hi > high:
                high = r_hi
            root.visits += 1
            visits[i] += 1.0
            totals[i] += ret[player]
            for n in path:
                n.visits += 1
                n.total += ret[n.player]
            done += 1
        for i, ch in enumerate(kids):
            if ch is not None:
                ch.visits = int(visits[i])
                ch.total = float(totals[i])
                ch.avail = int(avail[i])
        tree.low, tree.high = low, high
        return done
