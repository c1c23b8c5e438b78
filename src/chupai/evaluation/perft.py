"""Perft: the number of distinct action sequences of a given length (python-chess style).

``perft(state, depth)`` counts the sequences of exactly ``depth`` actions (plays and
passes, every suit choice a separate play) that can be made from ``state``; a deal that
ends sooner ends its sequences there, so they are not counted (as a mate in chess
perft).  ``perft(state, 0) == 1``.  The counts of fixed seeded deals are golden numbers
(``tests/golden/perft_<game>.json``) that any change of the generators or of the trick
engines must keep, and a benchmark of enumeration speed (``chupai perft --bench``).

``state`` is a game's ``Deal`` during card play (``perft`` walks a copy of its compiled
engine: ``clone`` / ``legal_plays`` / ``play`` / ``pass_turn``; the last ply is counted
without making a move) or that engine (``DealEngine``) itself.  A ``Deal`` in a phase
before its card play (a tribute, an exchange, an auction) has those decisions counted
through the state machine (``legal_actions`` / ``clone`` / ``apply_index``), each one
that starts the card play then counted through the engine.  :func:`perft_slow`
counts the same through the Python state machine only (``legal_actions`` / ``clone`` /
``apply``): an independent path the tests compare against.

>>> from chupai.gandengyan import Deal
>>> [perft(Deal(1), d) for d in range(3)]
[1, 20, 23]
>>> perft_slow(Deal(1), 2)
23
"""
from __future__ import annotations

from typing import Any

from chupai.core.validate import check_bool, check_int
from chupai.engine.backends import progress_bar
from chupai.registry import game

__all__ = ["GOLDEN_SEEDS", "deal_of", "divide", "golden", "perft", "perft_slow"]

#: the seeds of the deals the golden files count (the game's default players each)
GOLDEN_SEEDS = (1, 2, 3)


def deal_of(name: str, seed: int, *, rules: Any = None, players: int | None = None) -> Any:
    """The seeded first ``Deal`` of game ``name`` (default: the game's default number of
    players, the default rules)."""
    return game(name).new(seed, rules=rules, players=players)


def _engine_of(state: Any) -> Any:
    """A copy of the card-play engine of ``state`` (an engine itself, or a deal in card
    play); ``None`` for a deal that is over or in a decision phase before its card play."""
    card_play = getattr(state, "card_play", None)
    if card_play is None:  # already an engine
        return state.clone()
    engine = card_play()
    return None if engine is None else engine.clone()


def _decisions(state: Any) -> list[tuple[str, Any]]:
    """Each decision of ``state`` (a deal before its card play) and the state after it."""
    out = []
    for i, action in enumerate(state.legal_actions()):
        child = state.clone()
        child.apply_index(i)
        out.append((str(action), child))
    return out


def _can_pass(engine: Any) -> bool:
    return hasattr(engine, "pass_turn") and bool(engine.can_pass())


def _count(engine: Any, depth: int) -> int:
    if engine.current < 0:
        return 0
    plays = engine.legal_plays()
    passes = _can_pass(engine)
    if depth == 1:
        return len(plays) + passes
    total = 0
    for play in plays:
        child = engine.clone()
        child.play(play)
        total += _count(child, depth - 1)
    if passes:
        child = engine.clone()
        child.pass_turn()
        total += _count(child, depth - 1)
    return total


def perft(state: Any, depth: int, *, progress: bool = False) -> int:
    """The number of action sequences of length ``depth`` from ``state`` (see the module
    doc); ``progress``: a bar over the first actions (on a terminal only), for a deep count."""
    depth = check_int(depth, "depth", 0)
    progress = check_bool(progress, "progress")
    if depth == 0:
        return 1
    if progress:
        return sum(divide(state, depth, progress=True).values())
    engine = _engine_of(state)
    if engine is not None:
        return _count(engine, depth)
    if state.is_terminal():
        return 0
    return sum(1 if depth == 1 else perft(child, depth - 1) for _, child in _decisions(state))


def divide(state: Any, depth: int, *, progress: bool = False) -> dict[str, int]:
    """``perft(state, depth)`` split by the first action (its ``str``; ``"PASS"``): the
    tool to find where two counts differ.  ``progress``: a bar over the first actions (on
    a terminal only)."""
    depth = check_int(depth, "depth", 0)
    progress = check_bool(progress, "progress")
    if depth == 0:
        raise ValueError("divide needs depth >= 1")
    engine = _engine_of(state)
    out: dict[str, int] = {}
    if engine is None:
        if not state.is_terminal():
            decisions = _decisions(state)
            with progress_bar(len(decisions), "action", progress, leave=False) as bar:
                for name, child in decisions:
                    out[name] = 1 if depth == 1 else perft(child, depth - 1)
                    bar.update()
        return out
    if engine.current < 0:
        return out
    plays = engine.legal_plays()
    passes = _can_pass(engine)
    with progress_bar(len(plays) + passes, "action", progress, leave=False) as bar:
        for play in plays:
            child = engine.clone()
            child.play(play)
            out[str(play)] = 1 if depth == 1 else _count(child, depth - 1)
            bar.update()
        if passes:
            child = engine.clone()
            child.pass_turn()
            out["PASS"] = 1 if depth == 1 else _count(child, depth - 1)
            bar.update()
    return out


def perft_slow(state: Any, depth: int) -> int:
    """:func:`perft` through the Python state machine only (``legal_actions`` / ``clone``
    / ``apply``), for checking; much slower."""
    depth = check_int(depth, "depth", 0)
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        total += perft_slow(child, depth - 1)
    return total


def golden(name: str, depth: int, seeds: tuple[int, ...] = GOLDEN_SEEDS, *, rules: Any = None,
           players: int | None = None) -> dict[str, Any]:
    """The golden record of game ``name``: ``perft`` of each seeded deal at depths
    ``1..depth`` (``counts[str(seed)][d - 1]``), as ``tests/golden/perft_<game>.json`` holds
    (the default rules and 4 players; ``rules`` and ``players`` deal others)."""
    counts = {str(seed): [perft(deal_of(name, seed, rules=rules, players=players), d) for d in range(1, depth + 1)]
              for seed in seeds}
    if rules is None and players is None:
        deal = f"chupai.{name}.Deal(seed): {game(name).default_players} players, default rules"
    else:
        entry = game(name)
        shown = entry.rules_class() if rules is None else rules
        deal = (f"chupai.{name}.Deal(seed, rules=...): {entry.default_players if players is None else players} "
                f"players, {shown!r}")
    return {"game": name, "deal": deal, "counts": counts}
