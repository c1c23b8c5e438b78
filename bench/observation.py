"""Plain runner for the RL views of a state: ``observation_tensor``, ``legal_actions_mask``
and ``legal_action_ids`` per game (µs per call), optionally against another build.

    python bench/observation.py [--deals 20] [--repeat 7] [--rounds 3] [--baseline DIR]

Positions: every 5th decision of ``--deals`` seeded random deals of each game (the
player to act observes).  Each figure is CPU time (``time.process_time``): the median
of ``--repeat`` passes over the positions, divided by their number, then the median of
``--rounds`` child processes.  ``--baseline DIR`` runs the same measurements on the
build in ``DIR`` (a source tree built in place), its rounds alternating with this
tree's, so both columns share the machine's state: the before and after of a change
come from one run.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

#: the views timed, by name
VIEWS = ("observation_tensor", "legal_actions_mask", "legal_action_ids")


def positions(name: str, deals: int) -> list[Any]:
    """Clones of every 5th decision state of ``deals`` seeded random deals of ``name``."""
    from chupai.registry import game

    module = game(name).module()
    out = []
    for seed in range(deals):
        deal, choice, k = module.Deal(seed=seed), random.Random(seed).randrange, 0
        while not deal.is_terminal():
            if k % 5 == 0:
                out.append(deal.clone())
            actions = deal.legal_actions()
            deal.apply(actions[choice(len(actions))])
            k += 1
    return out


def measure(deals: int, repeat: int) -> dict[str, dict[str, float]]:
    """µs per call of each view of each registered game (medians of ``repeat`` passes)."""
    from chupai import rl
    from chupai.registry import GAMES

    calls: dict[str, Callable[[Any], Any]] = {
        "observation_tensor": lambda s: rl.observation_tensor(s, s.current_player),
        "legal_actions_mask": rl.legal_actions_mask,
        "legal_action_ids": rl.legal_action_ids,
    }
    out: dict[str, dict[str, float]] = {}
    for name in GAMES:
        states = [s for s in positions(name, deals) if s.current_player >= 0]
        out[name] = {}
        for view in VIEWS:
            fn, runs = calls[view], []
            for _ in range(repeat):
                t0 = time.process_time()
                for s in states:
                    fn(s)
                runs.append((time.process_time() - t0) / len(states) * 1e6)
            out[name][view] = statistics.median(runs)
    return out


def _child(src: str, deals: int, repeat: int) -> dict[str, dict[str, float]]:
    env = {**os.environ, "PYTHONPATH": src}
    code = f"import json, sys; sys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r}); " \
           f"import observation; print(json.dumps(observation.measure({deals}, {repeat})))"
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    result: dict[str, dict[str, float]] = json.loads(proc.stdout)
    return result


def _median(rounds: list[dict[str, dict[str, float]]]) -> dict[str, dict[str, float]]:
    return {name: {view: statistics.median(r[name][view] for r in rounds) for view in views}
            for name, views in rounds[0].items()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=20)
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--baseline", help="a source tree built in place to compare with")
    args = p.parse_args(argv)
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
    afters, befores = [], []
    for _ in range(args.rounds):
        afters.append(_child(here, args.deals, args.repeat))
        if args.baseline:
            befores.append(_child(os.path.join(args.baseline, "src"), args.deals, args.repeat))
    after, before = _median(afters), (_median(befores) if befores else None)
    print(f"{'view':42s} {'before µs' if before else '':>10s} {'µs':>9s}")
    for name, views in after.items():
        for view, us in views.items():
            was = f"{before[name][view]:10.2f}" if before and name in before else ""
            print(f"{name + ': ' + view:42s} {was:>10s} {us:9.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
