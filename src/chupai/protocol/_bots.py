"""Naming the bots a table seat or a ``join`` client plays: a spec of
:func:`chupai.search.make_bot` (``mc``, ``greedy``, ``random``, ``heuristic``,
``ismcts:20ms``, ``best`` ...) or ``module:attr`` (a bot class, a factory, or a bot)."""
from __future__ import annotations

import importlib
from typing import Any

from chupai.search.registry import BOT_NAMES
from chupai.search.registry import make_bot as make_search_bot

__all__ = ["BOT_NAMES", "make_bot"]


def make_bot(spec: str, playouts: int = 200) -> Any:
    """The bot ``spec`` names; ``ValueError`` for an unknown name or an import that fails.

    A spec whose name (before any ``:``) is one of :data:`BOT_NAMES` is
    :func:`chupai.search.make_bot`'s (``playouts``: ``mc``'s default budget); else
    ``module:attr`` may name an object with ``choose(state, rng)`` or a class or
    zero-argument factory returning one.
    """
    if not isinstance(spec, str):
        raise TypeError(f"bot must be a string, not {type(spec).__name__}")
    if spec.split(":", 1)[0].strip() in BOT_NAMES:
        return make_search_bot(spec, playouts=playouts)
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
