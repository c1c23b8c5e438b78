"""Bots by name, as the command line and the ladder take them.

A bot spec is a name with an optional budget after a colon:

* ``random``, ``greedy``: no budget.
* ``mc`` / ``mc:N``: ``MonteCarloBot(N)`` (N playouts per decision; default
  ``playouts``).
* ``ismcts`` / ``ismcts:N`` / ``ismcts:20ms`` / ``ismcts:0.5s``: ``ISMCTSBot`` with N
  iterations or that much process CPU time per move (default 1000 iterations).

>>> make_bot("ismcts:20ms")
ISMCTSBot(seconds=0.02, policy='greedy')
>>> make_bot("mc:50")
MonteCarloBot(playouts=50, policy='greedy')
>>> make_bot("alpha")
Traceback (most recent call last):
...
ValueError: unknown bot 'alpha'; expected one of random, greedy, mc, ismcts (with an optional budget, e.g. ismcts:20ms)
"""
from __future__ import annotations

import re
from typing import Any

__all__ = ["BOT_NAMES", "make_bot", "parse_budget"]

#: the bot names make_bot knows
BOT_NAMES = ("random", "greedy", "mc", "ismcts")

_BUDGET = re.compile(r"^(\d+(?:\.\d+)?)(ms|s)?$")


def parse_budget(text: str) -> tuple[int | None, float | None]:
    """``(count, seconds)`` of a budget: ``"500"`` -> ``(500, None)``, ``"20ms"`` ->
    ``(None, 0.02)``, ``"1.5s"`` -> ``(None, 1.5)``; ``ValueError`` otherwise."""
    m = _BUDGET.match(text.strip())
    if m is None:
        raise ValueError(f"budget must be a count (500) or a time (20ms, 0.5s), not {text!r}")
    number, unit = m.groups()
    if unit is None:
        if "." in number or int(number) < 1:
            raise ValueError(f"a budget count must be a positive int, not {text!r}")
        return int(number), None
    seconds = float(number) / (1000.0 if unit == "ms" else 1.0)
    if seconds <= 0:
        raise ValueError(f"a budget time must be positive, not {text!r}")
    return None, seconds


def make_bot(spec: str, *, playouts: int = 200) -> Any:
    """The bot a spec names (see the module doc); ``playouts``: mc's default budget."""
    if not isinstance(spec, str):
        raise TypeError(f"spec must be a str, not {type(spec).__name__}")
    name, _, budget = spec.strip().partition(":")
    if name not in BOT_NAMES:
        raise ValueError(
            f"unknown bot {name!r}; expected one of {', '.join(BOT_NAMES)} (with an optional budget, e.g. ismcts:20ms)"
        )
    from chupai import bots
    from chupai.search.bot import ISMCTSBot

    count, seconds = parse_budget(budget) if budget else (None, None)
    if name in ("random", "greedy"):
        if budget:
            raise ValueError(f"bot {name!r} takes no budget, not {budget!r}")
        return bots.RandomBot() if name == "random" else bots.GreedyBot()
    if name == "mc":
        if seconds is not None:
            raise ValueError(f"mc takes a number of playouts, not a time ({budget!r})")
        return bots.MonteCarloBot(count if count is not None else playouts)
    return ISMCTSBot(count, seconds=seconds)
