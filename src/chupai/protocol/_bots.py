"""Naming the bots a table seat or a ``join`` client plays: ``mc``, ``greedy``,
``random`` (chupai's bots) or ``module:attr`` (a bot class, a factory, or a bot)."""
from __future__ import annotations

import importlib
from typing import Any

from chupai.bots import GreedyBot, MonteCarloBot, RandomBot

__all__ = ["BOT_NAMES", "make_bot"]

BOT_NAMES = ("mc", "greedy", "random")


def make_bot(spec: str, playouts: int = 200) -> Any:
    """The bot ``spec`` names; ``ValueError`` for an unknown name or an import that fails.

    ``module:attr`` may name an object with ``choose(state, rng)`` or a class or
    zero-argument factory returning one.
    """
    if not isinstance(spec, str):
        raise TypeError(f"bot must be a string, not {type(spec).__name__}")
    if spec == "mc":
        return MonteCarloBot(playouts)
    if spec == "greedy":
        return GreedyBot()
    if spec == "random":
        return RandomBot()
    module, sep, attr = spec.partition(":")
    if not sep or not module or not attr:
        raise ValueError(f"unknown bot {spec!r}; expected one of {', '.join(BOT_NAMES)} or module:attr")
    try:
        obj: Any = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as e:
        raise ValueError(f"bot {spec!r} cannot be loaded: {e}") from None
    if isinstance(obj, type) or (not hasattr(obj, "choose") and callable(obj)):
        try:
            obj = obj()
        except TypeError as e:
            raise ValueError(f"bot {spec!r} is not a zero-argument factory: {e}") from None
    if not callable(getattr(obj, "choose", None)):
        raise ValueError(f"bot {spec!r} has no choose(state, rng) method")
    return obj
