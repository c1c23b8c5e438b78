"""``chupai ladder``: the command line of :func:`chupai.evaluation.ladder.ladder` (the library
module holds no argparse)."""
from __future__ import annotations

import argparse
import json
from typing import Any

from chupai.engine import backends
from chupai.registry import GAMES
from chupai.evaluation.ladder import ladder

__all__ = ["register"]


def _cmd_ladder(args: argparse.Namespace) -> int:
    from chupai.cli.common import dump_json
    from chupai.registry import game as game_entry

    if args.png:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise ValueError("--png needs matplotlib: pip install 'chupai[plot]'") from None
    rules = game_entry(args.game).cli_module().rules_of(args)
    result = ladder(args.game, args.bots.split(","), args.deals, args.seed, args.workers, rules=rules,
                    players=args.players, playouts=args.playouts, progress=not (args.quiet or args.json),
                    **backends.options_of(args))
    if args.save_json:
        with open(args.save_json, "w") as f:
            json.dump(result.to_dict(), f, indent=2)
            f.write("\n")
    if args.png:
        result.plot(args.png)
    if args.json:
        return dump_json(result.to_dict())
    print(result)
    return 0


def register(sub: Any) -> argparse.ArgumentParser:
    """Add the ``ladder`` subcommand to the ``chupai`` command's subparsers (its
    game-specific options are the registry entries', checked by ``chupai.cli``); the
    subcommand's parser."""
    from chupai.cli.common import BOT_SPECS, MAX_COUNT, add_seed, count, output_path, png_path, positive_int
    from chupai.cli.options import add_options

    p: argparse.ArgumentParser = sub.add_parser(
        "ladder", help="every pair of bots on the same deals, seats swapped, with ratings")
    p.add_argument("game", choices=list(GAMES))
    p.add_argument("--bots", default="random,greedy,mc,ismcts",
                   help=f"two or more bot specs, comma-separated: {BOT_SPECS} (default random,greedy,mc,ismcts)")
    p.add_argument("--deals", type=count, default=100,
                   help=f"deals per pair, each played twice, seats swapped (default 100, at most {MAX_COUNT:,})")
    add_seed(p)
    p.add_argument("--workers", type=positive_int, default=1, help="local worker processes (default 1)")
    add_options(p, "ladder")
    p.add_argument("--playouts", type=positive_int, default=200,
                   help="playouts per decision of an mc bot without a budget (default 200)")
    p.add_argument("--json", action="store_true",
                   help="write the result as one JSON object to stdout instead of text (the keys of --save-json)")
    p.add_argument("--save-json", type=output_path, metavar="PATH", dest="save_json",
                   help="also write the result as JSON to the file PATH")
    p.add_argument("--png", type=png_path, metavar="PATH",
                   help="also write the plot to the PNG file PATH (needs matplotlib: chupai[plot])")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    backends.add_arguments(p)
    p.set_defaults(run=_cmd_ladder)
    return p
