"""A trained network against chupai's bots: win rates with 95% intervals.

    python bench/networks.py MODEL.onnx [--card-order suit_major] [--fill 0]
        [--layout danzero] [--game GAME] [--against greedy,heuristic] [--deals 1000]
        [--seed 2026] [--workers 2]

The network plays as :class:`chupai.players.network.NetworkBot` (tribute and return by
HeuristicBot) against each bot of ``--against`` over the same seeded first deals, seats
swapped every other deal, and the script prints its share of deals won, the 95% Wilson
interval and the network's mean CPU time per decision. A network fed the card order or
fill it was not trained with plays like a weak bot and raises nothing: run it once per
order (``--card-order rank_major`` and ``suit_major``) when the source does not say
(``docs/rl.md``, "Published networks").

The published networks are not part of the repository: pass the path of the file.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # keep numpy's BLAS threads off the cores
os.environ.setdefault("OMP_NUM_THREADS", "1")

from chupai import arena  # noqa: E402
from chupai.players.network import NetworkBot  # noqa: E402
from chupai.registry import GAMES  # noqa: E402
from chupai.players.search.registry import make_bot  # noqa: E402


class Timed:
    """A bot that adds up the process CPU time of its own decisions."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.seconds = 0.0
        self.decisions = 0

    def choose(self, state: Any, rng: Any) -> Any:
        t = time.process_time()
        action = self.bot.choose(state, rng)
        self.seconds += time.process_time() - t
        self.decisions += 1
        return action

    def __repr__(self) -> str:
        return repr(self.bot)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", help="the .onnx file of the network")
    ap.add_argument("--layout", default="danzero", help="the network's input layout (default danzero)")
    ap.add_argument("--game", default=None, choices=list(GAMES),
                    help="the game (default: the one whose own layout --layout is, else the first)")
    ap.add_argument("--card-order", default="rank_major",
                    help="the card order the network was trained with: rank_major, suit_major (default rank_major)")
    ap.add_argument("--fill", type=float, default=-1.0, help="the value of the empty play blocks (default -1)")
    ap.add_argument("--against", default="greedy,heuristic", help="comma-separated bot specs (default greedy,heuristic)")
    ap.add_argument("--deals", type=int, default=1000, help="first deals per opponent (default 1000)")
    ap.add_argument("--seed", type=int, default=2026, help="the deals' seed (default 2026)")
    ap.add_argument("--workers", type=int, default=1, help="local worker processes (default 1)")
    args = ap.parse_args(argv)
    if args.game is None:  # the game whose own layout the network reads, else the first game
        owners = [name for name, entry in GAMES.items() if args.layout in dict(entry.observations)]
        args.game = owners[0] if owners else next(iter(GAMES))
    try:
        if args.deals < 1 or args.workers < 1:
            raise ValueError("--deals and --workers must be positive")
        net = NetworkBot(args.model, layout=args.layout, card_order=args.card_order, fill=args.fill)
        opponents = [(spec, make_bot(spec)) for spec in args.against.split(",")]
    except (TypeError, ValueError, ImportError) as e:
        print(f"networks: error: {e}", file=sys.stderr)
        return 2
    print(f"{net} against {', '.join(s for s, _ in opponents)}: {args.deals} first deals each, seed {args.seed}")
    print(f"{'opponent':<12} {'deals':>6} {'won':>7} {'95% interval':>16} {'ms/decision':>12}")
    for spec, bot in opponents:
        timed = Timed(net)
        result = arena(args.game, (timed if args.workers == 1 else net, bot), args.deals, args.seed,
                       args.workers, progress=True)
        lo, hi = result.interval
        per = f"{timed.seconds / timed.decisions * 1e3:.2f}" if timed.decisions else "-"
        print(f"{spec:<12} {result.games:>6} {result.win_rate:>7.1%} {f'{lo:.1%}-{hi:.1%}':>16} {per:>12}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
