"""Bots by name, as the command line and the ladder take them.

A bot spec is a name with an optional budget after a colon:

* ``random``, ``greedy``, ``heuristic``: no budget (``heuristic``:
  :class:`chupai.players.bots.HeuristicBot`).
* ``mc`` / ``mc:N`` / ``mc:20ms``: ``MonteCarloBot(N)`` (N playouts per decision;
  default ``playouts``), or held to that much process CPU time per decision
  (:class:`chupai.players.search.timed.TimedMonteCarloBot`), followed by an optional
  ``:policy=NAME`` (the rollout policy: ``greedy``, ``heuristic`` or ``random``).
* ``ismcts`` / ``ismcts:N`` / ``ismcts:20ms`` / ``ismcts:0.5s``: ``ISMCTSBot`` with N
  iterations or that much process CPU time per move (default 1000 iterations),
  followed by any ``:option=value`` of ``ISMCTSBot`` (``policy``, ``exploration``,
  ``iterations_per_world``, ``max_candidates``, ``decisions``, ``reuse``,
  ``collapse_suits``), e.g.
  ``ismcts:20ms:iterations_per_world=8``.
* ``best`` / ``best:N`` / ``best:40ms``: :class:`chupai.players.search.best.BestBot`, the
  strongest bot of the library within 50 ms of CPU per decision (``docs/search.md``):
  the heuristic policy, overruled by paired playouts over at most N worlds or that much
  process CPU time per decision (default 120 ms, at most 1536 worlds), followed by any
  ``:option=value`` of ``BestBot`` (``policy``, ``max_candidates``, ``z``, ``min_worlds``,
  ``candidates``, ``objective``, ``drop``, ``belief``, ``pool``).
* ``net:PATH``: :class:`chupai.players.network.NetworkBot` playing the ONNX network at PATH
  (extra ``chupai[onnx]``), followed by any ``:option=value`` of ``layout``
  (``danzero``, ``rows``, ``observation``), ``card_order`` (``rank_major``, ``suit_major``),
  ``fill`` (a number) and ``fallback`` (a bot spec without options, e.g.
  ``heuristic``), e.g. ``net:model.onnx:card_order=suit_major:fill=0``.
* ``module:attr``: a bot of your own: an object with ``choose(state, rng)``, or a class
  or zero-argument factory returning one, imported from ``module`` (the current
  directory is importable, as for ``python -m``).

>>> make_bot("ismcts:20ms")
ISMCTSBot(seconds=0.02, policy='greedy')
>>> make_bot("ismcts:100:policy=random:iterations_per_world=4")
ISMCTSBot(iterations=100, policy='random', iterations_per_world=4)
>>> make_bot("mc:50")
MonteCarloBot(playouts=50, policy='greedy')
>>> make_bot("mc:50:policy=heuristic")
MonteCarloBot(playouts=50, policy='heuristic')
>>> make_bot("heuristic")
HeuristicBot()
>>> make_bot("best")
BestBot(seconds=0.12, worlds=1536, policy='heuristic')
>>> make_bot("best:32:z=1.5")
BestBot(worlds=32, policy='heuristic', z=1.5)
>>> make_bot("alpha")
Traceback (most recent call last):
...
ValueError: unknown bot 'alpha'; expected one of random, greedy, heuristic, mc, ismcts, best, net (with an optional budget, e.g. ismcts:20ms) or module:attr
"""
from __future__ import annotations

import importlib
import os
import re
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["BOT_NAMES", "as_bot", "make_bot", "parse_budget"]

#: the bot names make_bot knows
BOT_NAMES = ("random", "greedy", "heuristic", "mc", "ismcts", "best", "net")

_BUDGET = re.compile(r"^(\d+(?:\.\d+)?)(ms|s)?$")


def _bool(text: str) -> bool:
    if text not in ("true", "false"):
        raise ValueError(f"expected true or false, not {text!r}")
    return text == "true"


def _float_or_none(text: str) -> float | None:
    return None if text == "none" else float(text)


#: the ISMCTSBot options a spec may set, with their parsers
_ISMCTS_OPTIONS: dict[str, Callable[[str], Any]] = {
    "policy": str,
    "exploration": float,
    "iterations_per_world": int,
    "max_candidates": int,
    "decisions": str,
    "reuse": _bool,
    "collapse_suits": _bool,
}


#: the MonteCarloBot options a spec may set
_MC_OPTIONS: dict[str, Callable[[str], Any]] = {"policy": str}

#: the BestBot options a spec may set
_BEST_OPTIONS: dict[str, Callable[[str], Any]] = {"policy": str, "max_candidates": int, "z": float, "min_worlds": int,
                                                  "candidates": str, "objective": str, "drop": _float_or_none,
                                                  "belief": _float_or_none, "pool": int}

#: the NetworkBot options a spec may set (``fallback`` is a bot spec, made by make_bot)
_NET_OPTIONS: dict[str, Callable[[str], Any]] = {
    "layout": str, "card_order": str, "fill": float, "fallback": str,
}

#: the options of each bot that takes some
_OPTIONS: dict[str, dict[str, Callable[[str], Any]]] = {
    "ismcts": _ISMCTS_OPTIONS, "mc": _MC_OPTIONS, "best": _BEST_OPTIONS, "net": _NET_OPTIONS,
}

#: ``best``'s budget when the spec gives none: CPU seconds and the most worlds per decision
BEST_SECONDS, BEST_WORLDS = 0.12, 1536


def _options(words: list[str], bot: str = "ismcts") -> dict[str, Any]:
    known = _OPTIONS[bot]
    out: dict[str, Any] = {}
    for word in words:
        key, eq, value = word.partition("=")
        if not eq or key not in known:
            raise ValueError(f"unknown {bot} option {word!r}; expected key=value with a key of {tuple(known)}")
        try:
            out[key] = known[key](value)
        except ValueError as e:
            raise ValueError(f"{bot} option {key}: {e}") from None
    return out


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


def as_bot(bot: Any, *, playouts: int = 200, what: str = "bot") -> Any:
    """``bot`` itself if it is a bot (an object with ``choose(state, rng)``), else the
    bot its spec string names (:func:`make_bot`): every API that takes a bot takes
    either.  ``TypeError`` (naming ``what``) for anything else, ``ValueError`` (naming
    it too) for a spec that names no bot.

    >>> as_bot("greedy"), as_bot(as_bot("random"))
    (GreedyBot(), RandomBot())
    """
    if isinstance(bot, str):
        try:
            return make_bot(bot, playouts=playouts)
        except ValueError as e:
            raise ValueError(f"{what}: {e}") from None
    if not callable(getattr(bot, "choose", None)):
        raise TypeError(f"{what} must be a bot (an object with choose(state, rng)) or a bot spec (str), not {bot!r}")
    return bot


def make_bot(spec: str, *, playouts: int = 200) -> Any:
    """The bot a spec names (see the module doc); ``playouts``: mc's default budget."""
    if not isinstance(spec, str):
        raise TypeError(f"spec must be a str, not {type(spec).__name__}")
    name, *words = spec.strip().split(":")
    if name == "net":
        return _network_bot(words, playouts)
    if name not in BOT_NAMES and words:
        return _import_bot(spec.strip())
    budget = words[0] if words and "=" not in words[0] else ""
    options = words[1:] if budget else words
    if name not in BOT_NAMES:
        raise ValueError(
            f"unknown bot {name!r}; expected one of {', '.join(BOT_NAMES)} (with an optional budget, e.g. "
            "ismcts:20ms) or module:attr"
        )
    from chupai.players import bots
    from chupai.players.search.bot import ISMCTSBot

    count, seconds = parse_budget(budget) if budget else (None, None)
    if options and name not in _OPTIONS:
        raise ValueError(f"bot {name!r} takes no options, not {':'.join(options)!r}")
    if name in ("random", "greedy", "heuristic"):
        if budget:
            raise ValueError(f"bot {name!r} takes no budget, not {budget!r}")
        return {"random": bots.RandomBot, "greedy": bots.GreedyBot, "heuristic": bots.HeuristicBot}[name]()
    if name == "mc":
        mc_options = _options(options, "mc")
        if seconds is not None:
            from chupai.players.search.timed import TimedMonteCarloBot

            return TimedMonteCarloBot(seconds, **mc_options)
        return bots.MonteCarloBot(count if count is not None else playouts, **mc_options)
    if name == "best":
        from chupai.players.search.best import BestBot

        if count is None and seconds is None:
            seconds, count = BEST_SECONDS, BEST_WORLDS
        return BestBot(seconds, worlds=count, **_options(options, "best"))
    return ISMCTSBot(count, seconds=seconds, **_options(options))


def _network_bot(words: list[str], playouts: int) -> Any:
    """``net:PATH[:option=value...]`` (the module doc)."""
    if not words or not words[0] or "=" in words[0]:
        raise ValueError("bot 'net' needs the path of its ONNX network: net:PATH[:option=value...]")
    from chupai.players.network import NetworkBot

    options = _options(words[1:], "net")
    if "fallback" in options:
        options["fallback"] = make_bot(options["fallback"], playouts=playouts)
    return NetworkBot(words[0], **options)


def _import_bot(spec: str) -> Any:
    """The bot ``module:attr`` names (the module doc); ``ValueError`` if it cannot be had."""
    module, _, attr = spec.partition(":")
    if not module or not attr:
        raise ValueError(f"bot {spec!r}: expected module:attr")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.append(os.getcwd())
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
