"""Plain runner for the Python surface: random deals driven from Python, Cards parsing and
Play objects (µs per call, items/s).

    python bench/surface.py [--repeat 7] [--baseline DIR] [--deals 60]

Every figure is CPU time (``time.process_time``), the median of ``--repeat`` timed loops,
divided by the number of items the loop handled.  ``--baseline DIR`` runs the same
measurements in a child process on the build in ``DIR`` (a source tree built in place:
``python setup.py build_ext --inplace``), so the before and after columns come from one
run on the same machine state.

The deal loop plays ``--deals`` seeded deals of every game at random through
``legal_actions()`` + ``apply()`` (the choice by ``random.Random``, dealing excluded,
as in ``chupai bench``), the same deals through ``apply_index()`` where the build has
it, and OpenSpiel's Dou Dizhu through the same loop (``pip install "chupai[bench]"``);
the runner prints each game's cost per action over Dou Dizhu's.

Positions are seeded, each game's own recipe (``lead_calls`` of the game's bench module,
named by its registry entry): Guan Dan 27-card hands of two decks at a random level, Zheng
Shangyou 13-card hands, Gan Deng Yan 6-card hands and Chinese Ten 12-card hands on a
4-card layout (one deck each).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # keep numpy's BLAS threads off the cores

import numpy as np  # noqa: E402

from chupai.evaluation.timing import dealt_counts  # noqa: E402
from chupai.registry import GAMES as REGISTRY  # noqa: E402

SEED = 20261201
N_POSITIONS = 200


def cpu_per_item(fn: Callable[[], Any], items: int, repeat: int) -> float:
    """Median over ``repeat`` runs of ``fn()`` (which handles ``items`` items) of the CPU µs per item."""
    runs = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        runs.append((time.process_time() - t0) / items * 1e6)
    return statistics.median(runs)


GAMES = tuple(REGISTRY)
#: the reference of the deal loop
OPENSPIEL = "OpenSpiel dou_dizhu: random deal, per action"


def _deal_loop(game: str, deals: int, by_index: bool) -> tuple[float, int]:
    """CPU seconds and actions of ``deals`` seeded random deals of ``game`` played through
    ``legal_actions()`` + ``apply()`` (or ``apply_index()``), the dealing excluded."""
    import importlib
    import random

    deal_class = importlib.import_module(f"chupai.{game}").Deal
    seconds, actions = 0.0, 0
    for seed in range(deals):
        choice = random.Random(seed).randrange
        state = deal_class(seed=seed)
        t0 = time.process_time()
        if by_index:
            while not state.is_terminal():
                state.apply_index(choice(len(state.legal_actions())))
                actions += 1
        else:
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply(legal[choice(len(legal))])
                actions += 1
        seconds += time.process_time() - t0
    return seconds, actions


def _state_calls(game: str, repeat: int) -> dict[str, float]:
    """``clone()``, a ``history`` read, ``observation()`` and ``determinize()`` at every
    STATE_STRIDE-th action of STATE_DEALS seeded random deals (the bookkeeping an
    action leaves behind, read back), µs per call."""
    import importlib
    import random

    deal_class = importlib.import_module(f"chupai.{game}").Deal
    states = []
    for seed in range(STATE_DEALS):
        choice = random.Random(seed).randrange
        state = deal_class(seed=seed)
        step = 0
        while not state.is_terminal():
            if step % STATE_STRIDE == 0:
                states.append(state.clone())
            legal = state.legal_actions()
            state.apply(legal[choice(len(legal))])
            step += 1
    world_rng = np.random.default_rng(SEED)
    calls: dict[str, Callable[[Any], Any]] = {
        "clone()": lambda s: s.clone(),
        "history": lambda s: s.history,
        "observation(current player)": lambda s: s.observation(s.current_player),
        "determinize(current player)": lambda s: s.determinize(s.current_player, world_rng),
    }
    out: dict[str, float] = {}
    for name, fn in calls.items():
        def run(fn: Callable[[Any], Any] = fn) -> None:
            for st in states:
                fn(st)

        out[f"{game}: {name}, mid-deal"] = cpu_per_item(run, len(states), repeat)
    return out


#: states of _state_calls: every STATE_STRIDE-th action of STATE_DEALS deals
STATE_DEALS = 10
STATE_STRIDE = 9


def measure_deals(repeat: int, deals: int) -> dict[str, float]:
    """The deal loop of every game (and OpenSpiel's), µs per action."""
    import importlib

    out: dict[str, float] = {}
    for game in GAMES:
        has_index = hasattr(importlib.import_module(f"chupai.{game}").Deal, "apply_index")
        for by_index, label in ((False, "legal_actions() + apply()"), (True, "apply_index()")):
            if by_index and not has_index:  # a build before apply_index
                continue
            runs = []
            for _ in range(repeat):
                seconds, actions = _deal_loop(game, deals, by_index)
                runs.append(seconds / actions * 1e6)
            out[f"{game}: random deal, {label}"] = statistics.median(runs)
        out.update(_state_calls(game, repeat))
    try:
        from chupai.evaluation.speed import openspiel_loop
    except ImportError:
        return out
    if openspiel_loop(1) is not None:
        runs = []
        for _ in range(repeat):
            result = openspiel_loop(deals)
            assert result is not None
            runs.append(result[0] / result[1] * 1e6)
        out[OPENSPIEL] = statistics.median(runs)
    return out


def measure(repeat: int) -> dict[str, float]:
    """Every figure of the report but the deal loop, µs per item (keys: case names)."""
    from chupai.cards import Cards

    rng = np.random.default_rng(SEED)
    out: dict[str, float] = {}

    # -- Cards parsing: 27-card Guan Dan hands as text
    texts = [str(Cards.from_counts(dealt_counts(rng, 2, 27))) for _ in range(N_POSITIONS)]

    def parse_all() -> None:
        for t in texts:
            Cards(t)

    out["Cards(27-card string)"] = cpu_per_item(parse_all, len(texts), repeat)
    tokens = [t.split() for t in texts]

    def parse_tokens() -> None:
        for t in tokens:
            Cards(t)

    out["Cards(27 tokens list)"] = cpu_per_item(parse_tokens, len(tokens), repeat)

    games = _games(rng)
    for game, lists in games.items():
        total = sum(len(pl) for pl in lists)
        plays = [p for pl in lists for p in pl]

        def materialise(lists: Sequence[Any] = lists) -> None:
            for pl in lists:
                list(pl)

        out[f"{game}: list(PlayList) per Play"] = cpu_per_item(materialise, total, repeat)
        def generate_and_materialise(lists: Sequence[Any] = lists) -> None:
            for pl in lists:
                list(_CALLS[id(pl)]())

        out[f"{game}: list(legal_plays()) per Play"] = cpu_per_item(generate_and_materialise, total, repeat)
        for attr in ("type", "key", "cards", "length", "rank", "level", "bomb_class", "wilds", "captured"):
            if not hasattr(plays[0], attr):
                continue

            def read(attr: str = attr, plays: list[Any] = plays) -> None:
                for p in plays:
                    getattr(p, attr)

            # getattr costs the same on both builds; the loop reads every Play once
            out[f"{game}: .{attr} per read"] = cpu_per_item(read, len(plays), repeat)

        def strs(plays: list[Any] = plays) -> None:
            for p in plays:
                str(p)

        out[f"{game}: str(Play)"] = cpu_per_item(strs, len(plays), repeat)
        if hasattr(plays[0], "to_protocol"):

            def protos(plays: list[Any] = plays) -> None:
                for p in plays:
                    p.to_protocol()

            out[f"{game}: Play.to_protocol()"] = cpu_per_item(protos, len(plays), repeat)

        def hashes(plays: list[Any] = plays) -> None:
            for p in plays:
                hash(p)

        out[f"{game}: hash(Play)"] = cpu_per_item(hashes, len(plays), repeat)
    return out


_CALLS: dict[int, Callable[[], Any]] = {}  # id(PlayList) -> the legal_plays call that made it


def _games(rng: np.random.Generator) -> dict[str, list[Any]]:
    """Seeded lead PlayLists of every game (each game's bench recipe, ``lead_calls`` of its
    registry entry's bench module; generated once, outside the timed loops)."""
    out = {}
    for name, entry in REGISTRY.items():
        calls = entry.bench_module().lead_calls(N_POSITIONS, int(rng.integers(2**31)))
        out[name] = [call() for call in calls]
        _CALLS.update((id(pl), call) for pl, call in zip(out[name], calls))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--baseline", help="a source tree built in place, timed in a child process")
    ap.add_argument("--deals", type=int, default=60, help="seeded deals of each game in the deal loop")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON (used for --baseline)")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    if args.deals < 1:
        ap.error("--deals must be at least 1")
    before: dict[str, float] = {}
    if args.baseline:
        env = dict(os.environ, PYTHONPATH=os.path.join(os.path.abspath(args.baseline), "src"))
        child = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--json", "--repeat", str(args.repeat),
             "--deals", str(args.deals)],
            env=env, capture_output=True, text=True, check=True, cwd=args.baseline,
        )
        before = json.loads(child.stdout)
    after = measure_deals(args.repeat, args.deals)
    after.update(measure(args.repeat))
    if args.json:
        print(json.dumps(after))
        return 0
    head = f"{'case':<58}" + (f"{'before µs':>12}" if before else "") + f"{'µs/item':>10}{'items/s':>14}"
    print(head)
    for name, us in after.items():
        old = before.get(name)
        col = (f"{old:>12.3f}" if old is not None else f"{'n/a':>12}") if before else ""
        print(f"{name:<58}{col}{us:>10.3f}{1e6 / us:>14,.0f}")
    reference = after.get(OPENSPIEL)
    if reference:
        print(f"\ncost per action over {OPENSPIEL.split(':')[0]}'s ({reference:.3f} µs)"
              + (" (before -> after)" if before else ""))
        for game in GAMES:
            key = f"{game}: random deal, legal_actions() + apply()"
            old = before.get(key)
            was = f"{old / before.get(OPENSPIEL, reference):.2f} -> " if before and old else ""
            print(f"  {game:<16}{was}{after[key] / reference:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
