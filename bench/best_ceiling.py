"""What the hidden hands cost ``best``: ``best`` against the heuristic when every world
it plays out is the true deal (it sees every hand), beside ``best`` as it is, on the
same deals.

    python bench/best_ceiling.py [GAME] [--deals 500] [--seed 3001] [--worlds 8]
                                 [--compare] [--workers 1]

The seeing player is :class:`~chupai.players.search.best.BestBot` with its default
options whose ``draw_world`` gives the true card play (``state.card_play()``); the playout
policy is deterministic, so a few worlds give the exact outcome of every candidate.
Its win rate against the heuristic, beside the same figure of ``best`` drawing its
worlds from what it knows (``--compare``: the default ``best``, as long as ``chupai
ladder GAME --bots heuristic,best`` takes), bounds what better worlds (inference about
the hidden hands) can add to ``best``'s search as it is: with its candidates, its
playout policy and its one step of search.  The ladder's figures, CPU time a decision
included, as ``chupai ladder`` prints them.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # keep numpy's BLAS threads off the cores

import numpy as np  # noqa: E402

from chupai.evaluation.ladder import ladder  # noqa: E402
from chupai.players.search.best import BestBot  # noqa: E402
from chupai.registry import GAMES  # noqa: E402


class SeeingBestBot(BestBot):
    """``best`` whose every world is the true deal: it sees the hidden hands."""

    name = "best-seeing"

    def draw_world(self, state: Any, player: int, rng: np.random.Generator) -> Any:
        return state.card_play()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="best_ceiling.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("game", nargs="?", default="guandan", choices=sorted(GAMES), help="the game (default guandan)")
    ap.add_argument("--deals", type=int, default=500, help="deals, each played in both seatings (default 500)")
    ap.add_argument("--seed", type=int, default=3001, help="the deals' seed (default 3001)")
    ap.add_argument("--worlds", type=int, default=8, help="the seeing player's worlds a decision (default 8)")
    ap.add_argument("--compare", action="store_true", help="also the default best on the same deals (slow)")
    ap.add_argument("--workers", type=int, default=1, help="ladder processes (default 1)")
    args = ap.parse_args(argv)
    for name in ("deals", "worlds", "workers"):
        if getattr(args, name) < 1:
            ap.error(f"--{name} must be at least 1, not {getattr(args, name)}")
    if args.seed < 0:
        ap.error(f"--seed must be >= 0, not {args.seed}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    seeing = SeeingBestBot(worlds=args.worlds)
    print(ladder(args.game, ["heuristic", seeing], deals=args.deals, seed=args.seed, workers=args.workers))
    if args.compare:
        print(ladder(args.game, ["heuristic", "best"], deals=args.deals, seed=args.seed, workers=args.workers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
