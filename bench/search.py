"""Plain benchmark of information-set MCTS: iterations per second at the start of a deal.

    python bench/search.py [--iterations 2000] [--repeat 5] [--policy greedy] [--iterations-per-world 1]

For each game (4 players) it runs ``ISMCTS.search`` from the first decision of seeded
deals and prints, as medians of process CPU time: µs per iteration, iterations per
second, the µs of one ``determinize`` call on the same state, and the search's own cost
per iteration without it (what the loop costs once determinize is compiled).
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # keep numpy's BLAS threads off the cores

import numpy as np  # noqa: E402

from chupai.registry import GAMES  # noqa: E402
from chupai.players.search import ISMCTS  # noqa: E402


def start_state(game: str, seed: int) -> object:
    entry = GAMES[game]
    cls = entry.module().Deal
    return cls(seed) if entry.fixed_players else cls(seed, players=4)


def measure(game: str, iterations: int, repeat: int, policy: str, per_world: int) -> tuple[float, float]:
    """Median µs per iteration and per determinize call over ``repeat`` seeded deals."""
    search = ISMCTS(policy=policy, iterations_per_world=per_world)
    per_it, per_det = [], []
    for seed in range(repeat):
        state = start_state(game, seed)
        r = search.search(state, iterations=iterations, seed=seed)
        per_it.append(r.cpu_seconds / r.iterations * 1e6)
        rng = np.random.default_rng(seed)
        player = state.current_player  # type: ignore[attr-defined]
        t = time.process_time()
        for _ in range(iterations):
            state.determinize(player, rng)  # type: ignore[attr-defined]
        per_det.append((time.process_time() - t) / iterations * 1e6)
    return statistics.median(per_it), statistics.median(per_det)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--policy", choices=["greedy", "random"], default="greedy")
    ap.add_argument("--iterations-per-world", type=int, default=1)
    args = ap.parse_args(argv)
    print(f"ISMCTS, {args.iterations} iterations from the first decision, median of {args.repeat} deals "
          f"(process CPU time), policy {args.policy}, iterations per world {args.iterations_per_world}")
    print(f"{'game':>14} {'us/iter':>9} {'iter/s':>9} {'determinize us':>15} {'rest us/iter':>13}")
    for game in GAMES:
        it, det = measure(game, args.iterations, args.repeat, args.policy, args.iterations_per_world)
        rest = it - det / args.iterations_per_world
        print(f"{game:>14} {it:9.1f} {1e6 / it:9.0f} {det:15.1f} {rest:13.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
