"""``ISMCTSBot``: information-set MCTS as a bot, with a budget per move and tree reuse.

>>> import numpy as np
>>> from chupai.guandan import Deal
>>> deal = Deal(seed=3)
>>> bot = ISMCTSBot(iterations=40)
>>> bot.choose(deal, np.random.default_rng(0)) in deal.legal_actions()
True
"""
from __future__ import annotations

from multiprocessing import get_context
from typing import Any

import numpy as np

from chupai.players.options import changed_options
from chupai.registry import game_of
from chupai.core.seeds import draw, spawn
from chupai.core.validate import as_rng, check_optional_int, check_optional_number
from chupai.players.search.ismcts import ISMCTS, SearchResult, Tree, root_actions

__all__ = ["ISMCTSBot"]


#: (search, state, seconds) of a root-parallel move, inherited by the forked workers
_SHARED: tuple[ISMCTS, Any, float | None] | None = None


def _search_job(args: tuple[int | None, int]) -> list[int]:
    """One root-parallel search in a forked worker: the root visits of each action."""
    assert _SHARED is not None
    search, state, seconds = _SHARED
    iterations, seed = args
    return [s.visits for s in search.search(state, iterations=iterations, seconds=seconds, seed=seed).stats]


class ISMCTSBot:
    """Chooses by information-set MCTS (:class:`chupai.players.search.ISMCTS`).

    Args:
        iterations: iterations per move (``None``: by time only).
        seconds: process CPU seconds per move (``None``: by iterations only); with both,
            whichever ends first.  With neither, 1000 iterations.
        policy: the compiled rollout policy, ``"greedy"``, ``"heuristic"`` or ``"random"``.
        exploration: the UCB constant (relative to the range of the returns).
        collapse_suits: branch over suit-collapsed plays during card play.
        iterations_per_world: consecutive iterations per determinized world (see
            :class:`chupai.players.search.ISMCTS`).
        max_candidates: the most plays the root considers (see :class:`chupai.players.search.ISMCTS`).
        reuse: keep the tree between moves of the same deal: the next search starts
            from the node the actions since (found by value in the public history)
            lead to, if the tree holds them, else from a new tree.
        decisions: ``"search"`` (tribute, exchange and other non-play decisions go
            through the search) or ``"greedy"`` (GreedyBot's choice for them).
        workers: root parallelism: that many independent searches (the iteration
            budget split between them, each with its own seed) in as many processes,
            their root visits summed (forked processes: Linux; no tree reuse).

    Deterministic for a given ``rng`` and iteration budget (and any ``workers``).
    """

    name = "ismcts"

    def __init__(
        self,
        iterations: int | None = None,
        *,
        seconds: float | None = None,
        policy: str = "greedy",
        exploration: float = 0.7,
        collapse_suits: bool = True,
        iterations_per_world: int = 1,
        max_candidates: int | None = 24,
        reuse: bool = True,
        decisions: str = "search",
        workers: int = 1,
    ) -> None:
        if iterations is None and seconds is None:
            iterations = 1000
        self.search = ISMCTS(
            policy=policy,
            exploration=exploration,
            collapse_suits=collapse_suits,
            iterations_per_world=iterations_per_world,
            max_candidates=max_candidates,
        )
        self.iterations = check_optional_int(iterations, "iterations", 1)
        self.seconds = check_optional_number(seconds, "seconds", 0, above=True)
        if not isinstance(reuse, bool):
            raise TypeError(f"reuse must be a bool, not {type(reuse).__name__}")
        if decisions not in ("search", "greedy"):
            raise ValueError(f"decisions must be 'search' or 'greedy', not {decisions!r}")
        workers_ = check_optional_int(workers, "workers", 1)
        assert workers_ is not None
        self.reuse = reuse
        self.decisions = decisions
        self.workers = workers_
        self.last: SearchResult | None = None
        self._trees: dict[int, Tree] = {}

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_trees"] = {}  # trees are not sent to another process
        state["last"] = None
        return state

    def __repr__(self) -> str:
        budget = []
        if self.iterations is not None:
            budget.append(f"iterations={self.iterations}")
        if self.seconds is not None:
            budget.append(f"seconds={self.seconds:g}")
        extra = changed_options(self, {
            "exploration": self.search.exploration, "collapse_suits": self.search.collapse_suits,
            "iterations_per_world": self.search.iterations_per_world, "max_candidates": self.search.max_candidates,
            "reuse": self.reuse, "decisions": self.decisions})
        return f"ISMCTSBot({', '.join(budget)}, policy={self.search.policy!r}{extra})"

    def reset(self) -> None:
        """Forget the trees kept for reuse."""
        self._trees.clear()

    def _reused_tree(self, state: Any) -> Tree | None:
        """The tree kept for the player to move (one per seat: a bot may play several),
        re-rooted at the node of ``state``'s information set, if the actions since its
        search are all in it; else ``None``."""
        tree = self._trees.pop(state.current_player, None)
        if tree is None or not self.reuse:
            return None
        if tree.seed != state.seed:
            return None
        history = state.history
        n = len(tree.history)
        if len(history) < n or history[:n] != tree.history:
            return None
        node = tree.root
        for event in history[n:]:
            action = event.action
            # few children and once per move: a scan by value, whatever the key
            nxt = next((ch for ch in node.children.values() if ch.action == action), None)
            if nxt is None:
                return None
            node = nxt
        node.player = -1
        tree.root = node
        return tree

    def choose(self, state: Any, rng: Any) -> Any:
        """The action to make in ``state`` (an item of ``state.legal_actions()``)."""
        gen = as_rng(rng)
        legal = state.legal_actions()
        _, actions = root_actions(state, self.search.collapse_suits)
        if len(actions) == 1:
            return legal[legal.index(actions[0])]
        if self.decisions == "greedy" and state.card_play() is None:
            # GreedyBot's choice outside the card play: the game's decision policy
            return game_of(state).choose_decision(state, state.legal_actions())
        seed = draw(gen)
        if self.workers > 1:
            return legal[legal.index(self._choose_parallel(state, seed, actions))]
        tree = self._reused_tree(state)
        if tree is None:
            tree = self.search.new_tree(state)
        result = self.search.search(state, iterations=self.iterations, seconds=self.seconds, seed=seed, tree=tree)
        if self.reuse:
            self._trees[tree.player] = tree
        self.last = result
        # the list's own item (found by its record): apply() then needs no search
        return legal[legal.index(result.action)]

    def _choose_parallel(self, state: Any, seed: int, actions: list[Any]) -> Any:
        """Root parallelism: ``workers`` searches with seeds spawned from ``seed`` (the
        iteration budget split between them) in forked processes, which inherit the
        state (no pickling); the action with the most visits summed over them."""
        global _SHARED
        k = self.workers
        seeds = spawn(seed, k)
        if self.iterations is not None:
            shares: list[int | None] = [self.iterations // k + (i < self.iterations % k) for i in range(k)]
        else:
            shares = [None] * k
        jobs = [(n, s) for n, s in zip(shares, seeds) if n is None or n > 0]
        _SHARED = (self.search, state, self.seconds)
        try:
            with get_context("fork").Pool(len(jobs)) as pool:
                visits = np.sum(pool.map(_search_job, jobs), axis=0)
        finally:
            _SHARED = None
        return actions[int(np.argmax(visits))]
