"""Ray backend scaling: arena deals per second with 1 and 2 workers, and Ray's cost per chunk.

    python bench/ray_scaling.py [--deals 40] [--playouts 200] [--game GAME]

Prints wall-clock deals/s (the figure a user sees: the work runs in other processes,
so this process's CPU time says nothing) for the local backend with one process, Ray
with one worker and Ray with two, and the overhead of one Ray task measured on empty
chunks.  Run it on an otherwise idle machine.
"""
from __future__ import annotations

import argparse
import time

import ray

import chupai
from chupai.registry import GAMES
from chupai.engine.backends import run_batch
from chupai.players.bots import GreedyBot, MonteCarloBot


def _noop(x: int) -> int:
    return x


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=list(GAMES), default=next(iter(GAMES)), help="default: the first registered game")
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--playouts", type=int, default=200)
    ap.add_argument("--chunk-size", type=int, default=1)
    args = ap.parse_args()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        t = time.perf_counter()
        run_batch(_noop, list(range(400)), backend="ray", workers=2, chunk_size=1)
        per_chunk = (time.perf_counter() - t) / 400
        print(f"ray: {per_chunk * 1e3:.2f} ms per chunk of nothing (2 in flight)")
        bots = (MonteCarloBot(args.playouts), GreedyBot())
        rates = {}
        for label, backend, workers in (("local, 1 process", "local", 1),
                                         ("ray, 1 worker", "ray", 1),
                                         ("ray, 2 workers", "ray", 2)):
            t = time.perf_counter()
            r = chupai.arena(args.game, bots, deals=args.deals, seed=1, workers=workers,
                             backend=backend, chunk_size=args.chunk_size, progress=False)
            dt = time.perf_counter() - t
            rates[label] = args.deals / dt
            print(f"{label:18s} {rates[label]:8.2f} deals/s  ({dt:.1f} s, {r.wins}/{r.games} won by MC)")
        print(f"ray 2 workers / 1 worker: {rates['ray, 2 workers'] / rates['ray, 1 worker']:.2f}x")
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
