"""``TimedMonteCarloBot``: MonteCarloBot held to a CPU-time budget per decision.

MonteCarloBot is budgeted by playouts; to compare it with a search at equal CPU time
per decision (the ladder's ``mc:20ms``), this wrapper sets its playouts before each
decision from the cost per playout measured on the decisions before (an exponential
average), so that its decisions take about ``seconds`` of process CPU time on average.
Decisions MonteCarloBot makes without playouts (one candidate, or a decision outside
the card play) are not timed.  Like any time budget it is not
deterministic: the playouts depend on the machine's speed and load.

>>> bot = TimedMonteCarloBot(0.005)
>>> bot
TimedMonteCarloBot(seconds=0.005, policy='greedy')
"""
from __future__ import annotations

import time
from typing import Any

from chupai.core.validate import check_number
from chupai.players.bots import MonteCarloBot

__all__ = ["TimedMonteCarloBot"]

#: weight of the newest measurement in the average cost per playout
_SMOOTHING = 0.3
_MAX_PLAYOUTS = 1_000_000


class TimedMonteCarloBot:
    """MonteCarloBot with about ``seconds`` of process CPU time per decision (see the
    module doc); ``policy`` as MonteCarloBot's."""

    name = "mc"

    def __init__(self, seconds: float, *, policy: str = "greedy", start: int = 200) -> None:
        self.seconds = check_number(seconds, "seconds", 0, above=True)
        self.bot = MonteCarloBot(start, policy=policy)
        self._cost: float | None = None  # CPU seconds per playout, averaged

    def choose(self, state: Any, rng: Any) -> Any:
        """MonteCarloBot's choice with the playouts the budget allows."""
        engine = state.card_play()
        if engine is None or len(engine.legal_plays(collapse_suits=True)) + engine.can_pass() <= 1:
            return self.bot.choose(state, rng)  # no playouts: nothing to measure
        start = time.process_time()
        action = self.bot.choose(state, rng)
        cost = (time.process_time() - start) / self.bot.playouts
        self._cost = cost if self._cost is None else (1 - _SMOOTHING) * self._cost + _SMOOTHING * cost
        if self._cost > 0:
            self.bot.playouts = max(1, min(_MAX_PLAYOUTS, int(self.seconds / self._cost)))
        return action

    def __repr__(self) -> str:
        return f"TimedMonteCarloBot(seconds={self.seconds:g}, policy={self.bot.policy!r})"
