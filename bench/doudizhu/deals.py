"""Random Dou Dizhu deals per second: chupai (C playouts, and its ``Deal`` stepped from
Python) against OpenSpiel and RLCard.

    python bench/doudizhu/deals.py [--deals 2000] [--repeat 5] [--seed 1]
                                   [--engines openspiel,rlcard]

One run, CPU time (``time.process_time``), the median of ``--repeat`` passes, in deals a
second on one thread:

* chupai: ``chupai.doudizhu.playouts.playouts(n, seed=..., policy="random")``: each deal
  dealt, bid (``Rules()``: bid once, uniformly random over the legal bids, a deal nobody
  bids in dealt again) and played to the end in C, uniformly random over the
  suit-collapsed legal plays (and passing when following);
* chupai from Python: ``chupai.doudizhu.Deal(seed)`` stepped with
  ``apply_index`` of a uniformly random legal action (``random.Random(seed)``), its
  auction (``Rules()``: bid once, a deal nobody bids in dealt again) and every concrete
  legal play included, until it is terminal (what an agent stepping the state machine
  pays a deal);
* OpenSpiel's ``dou_dizhu`` through ``pyspiel`` (its C++): a new state, the chance
  outcomes (the deal) drawn, then uniformly random legal actions, its auction included,
  until the state is terminal (a deal in which all three pass ends there);
* RLCard's ``doudizhu`` environment (Python): ``env.run`` with three
  ``RandomAgent``s (no auction: seat 0 is the landlord).

The engines come from the package index (the ``parity`` extra: ``open_spiel``,
``rlcard``).  The machine is shared: run it alone.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from chupai.doudizhu.playouts import playouts  # noqa: E402


def chupai_deals(n: int, seed: int) -> Callable[[], object]:
    return lambda: playouts(n, seed=seed, policy="random")


def python_deals(n: int, seed: int) -> Callable[[], object]:
    from chupai.doudizhu import Deal

    rng = random.Random(seed)

    def run() -> None:
        for k in range(n):
            deal = Deal(seed + k)
            while not deal.is_terminal():
                deal.apply_index(rng.randrange(len(deal.legal_actions())))

    return run


def openspiel_deals(n: int, seed: int) -> Callable[[], object]:
    import pyspiel

    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(seed)

    def run() -> None:
        for _ in range(n):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                else:
                    actions = state.legal_actions()
                    state.apply_action(actions[rng.randrange(len(actions))])

    return run


def rlcard_deals(n: int, seed: int) -> Callable[[], object]:
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("doudizhu", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])

    def run() -> None:
        for _ in range(n):
            env.run(is_training=False)

    return run


ENGINES = {"openspiel": openspiel_deals, "rlcard": rlcard_deals}


def per_second(run: Callable[[], object], n: int, repeat: int) -> float:
    """Deals a second of CPU time: the median of ``repeat`` passes of ``n`` deals."""
    times = []
    for _ in range(repeat):
        t = time.process_time()
        run()
        times.append(time.process_time() - t)
    return n / statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--engines", default=",".join(ENGINES))
    args = p.parse_args(argv)
    engines = [e for e in args.engines.split(",") if e]
    for e in engines:
        if e not in ENGINES:
            p.error(f"--engines: unknown engine {e!r}")
    # chupai's C playouts are ~1000x the others: more deals keep its passes measurable
    mine = per_second(chupai_deals(100 * args.deals, args.seed), 100 * args.deals, args.repeat)
    print(f"Dou Dizhu random deals, CPU, one thread (median of {args.repeat} passes)")
    print(f"{'chupai (C playouts)':>24}: {mine:12,.0f} deals/s")
    python = per_second(python_deals(args.deals, args.seed), args.deals, args.repeat)
    print(f"{'chupai (Deal, Python)':>24}: {python:12,.0f} deals/s")
    for e in engines:
        theirs = per_second(ENGINES[e](args.deals, args.seed), args.deals, args.repeat)
        print(f"{e:>24}: {theirs:12,.0f} deals/s   chupai C {mine / theirs:,.0f}x, Python {python / theirs:,.1f}x",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
