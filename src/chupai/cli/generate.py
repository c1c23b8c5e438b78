"""``chupai generate``: the command line of :func:`chupai.rl.generate.generate` (the
library module holds no argparse)."""
from __future__ import annotations

import argparse
from typing import Any

from chupai.engine import backends
from chupai.cli.common import MAX_COUNT, add_seed, count, plural, positive_int
from chupai.cli.options import add_options
from chupai.registry import GAMES
from chupai.registry import game as game_entry
from chupai.rl.generate import generate

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``generate`` subcommand to the ``chupai`` command's subparsers (its
    game-specific options are the registry entries', checked by ``chupai.cli``)."""
    p = sub.add_parser("generate", help="write self-play data (numpy shards) for learning")
    p.add_argument("game", choices=list(GAMES))
    p.add_argument("--policy", default="greedy",
                   help="the bot at every seat: random, greedy, mc[:N], ismcts[:N] (default greedy)")
    p.add_argument("--episodes", type=count, default=1000, help=f"deals to play (default 1000, at most {MAX_COUNT:,})")
    p.add_argument("--out", required=True, help="the output directory (a restarted run resumes there)")
    add_seed(p)
    add_options(p, "generate")
    p.add_argument("--shard-size", type=count, default=100, dest="shard_size", help="deals per shard (default 100)")
    p.add_argument("--workers", type=positive_int, default=1, help="local worker processes (default 1)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    backends.add_arguments(p, chunks=False)
    p.set_defaults(run=_cmd_generate)


def _cmd_generate(args: argparse.Namespace) -> int:
    options = backends.options_of(args)
    rules = game_entry(args.game).cli_module().rules_of(args)
    manifest = generate(args.game, args.policy, args.episodes, args.out, args.seed, rules=rules, players=args.players,
                        shard_size=args.shard_size, workers=args.workers, progress=not args.quiet, **options)
    steps = sum(s["steps"] for s in manifest["shards"])
    print(f"{plural(manifest['episodes'], f'{args.game} deal')}, {plural(steps, 'decision')} in "
          f"{plural(len(manifest['shards']), 'shard')} under {args.out}")
    return 0
