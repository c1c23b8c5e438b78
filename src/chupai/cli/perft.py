"""``chupai perft``: the command line of :mod:`chupai.evaluation.perft` (the library module holds
no argparse)."""
from __future__ import annotations

import argparse
import json
import time
from typing import Any

from chupai.registry import GAMES, game
from chupai.evaluation.perft import deal_of, divide, golden, perft

__all__ = ["register"]


#: the deepest count the command takes: the sequences grow about tenfold a ply (a deal's
#: first plies: tens of plays each), so deeper counts do not finish
MAX_DEPTH = 12


def _cmd_perft(args: argparse.Namespace) -> int:
    if args.bench and (args.divide or args.json):
        raise ValueError(f"perft: {'--divide' if args.divide else '--json'} does not apply to --bench "
                         "(which prints sequences per second)")
    if args.json and args.divide:
        raise ValueError("perft: --divide does not apply to --json (which prints the golden counts)")
    if args.game is None:
        if args.bench:
            return _bench(args.depth, args.seed, list(GAMES))
        raise ValueError("perft: give a GAME (or --bench)")
    rules = game(args.game).cli_module().rules_of(args)
    players = getattr(args, "players", None)
    if args.bench:
        return _bench(args.depth, args.seed, [args.game], rules=rules, players=players)
    if args.json:
        depth = 3 if args.depth is None else args.depth
        print(json.dumps(golden(args.game, depth, (args.seed,), rules=rules, players=players), indent=1))
        return 0
    state = deal_of(args.game, args.seed, rules=rules, players=players)
    depth_max = 3 if args.depth is None else args.depth
    for depth in range(1, depth_max + 1):
        start = time.process_time()
        n = perft(state, depth, progress=True)  # (a bar over the first actions, on a terminal)
        print(f"perft({depth}) = {n}  ({time.process_time() - start:.3f} s CPU)")
    if args.divide:
        for action, n in divide(state, depth_max, progress=True).items():
            print(f"{action}: {n}")
    return 0


def _bench(depth: int | None, seed: int, names: list[str], *, rules: Any = None, players: int | None = None) -> int:
    print(f"{'game':<14} {'depth':>5} {'sequences':>12} {'CPU s':>8} {'sequences/s':>14}")
    for name in names:
        # about a second of enumeration per game (its registry entry's perft.full); the
        # sequences per second count the leaves, the last ply counted without making its moves
        d = depth or GAMES[name].perft.full
        state = deal_of(name, seed, rules=rules, players=players)
        start = time.process_time()
        n = perft(state, d)
        cpu = time.process_time() - start
        print(f"{name:<14} {d:>5} {n:>12} {cpu:>8.3f} {n / cpu if cpu else float('inf'):>14,.0f}")
    return 0


def register(sub: Any) -> None:
    """Register ``chupai perft`` on the command line's subparsers (its game-specific
    options are the registry entries', checked by ``chupai.cli``)."""
    p = sub.add_parser("perft", help="count the action sequences of a seeded deal (and --bench)")
    from chupai.cli.common import add_seed, int_at_least
    from chupai.cli.options import add_options

    p.add_argument("game", nargs="?", choices=list(GAMES), help="the game (with --bench: default every game)")
    add_seed(p, "the deal")
    p.add_argument("--depth", type=int_at_least(1, MAX_DEPTH), default=None,
                   help=f"count to this depth, 1 to {MAX_DEPTH} (default 3; --bench: per game)")
    add_options(p, "perft")
    p.add_argument("--divide", action="store_true", help="also the count at --depth split by first action")
    p.add_argument("--json", action="store_true", help="print the counts as a golden record (JSON)")
    p.add_argument("--bench", action="store_true", help="sequences per second of the game (or of every game)")
    p.set_defaults(run=_cmd_perft)
