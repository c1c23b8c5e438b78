"""The ``chupai`` command.

    chupai plays guandan "<hand>" --level 7 [--previous "<cards>"] [--collapse] [--json]
    chupai plays chinese_ten "<hand>" --layout "<cards>" [--turned] [--free] [--collapse] [--json]
    chupai plays gandengyan "<hand>" [--previous "<cards>"] [--decks 2] [--collapse] [--json]
    chupai playout guandan --deals 100000 --seed 1 [--policy random] [--threads 1]
    chupai playout chinese_ten --deals 100000 [--players 4] [--variant pagat] [--policy random]
    chupai playout gandengyan --deals 100000 [--players 4] [--decks 1] [--policy random]
    chupai arena guandan|chinese_ten|gandengyan --bots mc,random --deals 200 [--seed 0] [--workers 1] [--players 4]
    chupai bench [--game guandan|chinese_ten|gandengyan|zhengshangyou] [--deals 1000]
"""
from __future__ import annotations

import argparse
import os
import sys

from chupai._games import GAMES, game
from chupai.chinese_ten.rules import VARIANTS

__all__ = ["main"]


def _cmd_plays(args: argparse.Namespace) -> int:
    return game(args.game).cli_module().cmd_plays(args)


def _cmd_playout(args: argparse.Namespace) -> int:
    return game(args.game).cli_module().cmd_playout(args)


_BOTS = {"random": "RandomBot", "greedy": "GreedyBot", "mc": "MonteCarloBot"}


def _make_bot(name: str, playouts: int) -> object:
    from chupai import bots

    if name not in _BOTS:
        raise ValueError(f"unknown bot {name!r}; expected one of {', '.join(_BOTS)}")
    if name == "mc":
        return bots.MonteCarloBot(playouts)
    return getattr(bots, _BOTS[name])()


def _cmd_arena(args: argparse.Namespace) -> int:
    from chupai.tournament import arena

    names = args.bots.split(",")
    if len(names) != 2:
        raise ValueError(f"--bots takes two bots separated by a comma, not {args.bots!r}")
    pair = [_make_bot(n.strip(), args.playouts) for n in names]
    rules = game(args.game).cli_module().rules_of(args)
    result = arena(args.game, pair, args.deals, args.seed, args.workers, matches=args.matches, rules=rules,
                   players=args.players)
    print(result)
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    entry = game(args.game)
    argv = [word for option in entry.bench_options for word in (f"--{option}", str(getattr(args, option)))]
    return entry.bench_module().main(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the ``chupai`` command; returns the exit status."""
    ap = argparse.ArgumentParser(prog="chupai", description="Legal plays of Chinese card games.")
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("plays", help="list the legal plays of a hand")
    p.add_argument("game", choices=list(GAMES))
    p.add_argument("--decks", type=int, choices=[1, 2], default=1, help="gandengyan: one or two decks")
    p.add_argument("hand", help='cards, e.g. "7S 7S 2H BJ" (chinese_ten with --turned: the turned card)')
    p.add_argument("--level", help="guandan: the level rank, 2..A")
    p.add_argument("--layout", help='chinese_ten: the face-up cards, e.g. "QD 3S 3H 6C"')
    p.add_argument("--turned", action="store_true", help="chinese_ten: the hand is the turned stock card")
    p.add_argument("--free", action="store_true", help="chinese_ten: capturing is optional (forced_capture off)")
    p.add_argument("--variant", choices=VARIANTS, default="pagat", help="chinese_ten variant")
    p.add_argument("--previous", help="the cards of the play to beat (default: leading)")
    p.add_argument("--previous-type", help="the type of the play to beat, if its cards can be read several ways")
    p.add_argument("--rules", choices=["pagat", "competition"], default="pagat")
    p.add_argument("--collapse", action="store_true", help="one play per suit-collapsed group")
    p.add_argument("--no-joker-pair", action="store_true", help="zhengshangyou: BJ RJ is not a pair")
    p.add_argument("--json", action="store_true", help="print the competition protocol form")
    p.set_defaults(run=_cmd_plays)
    po = sub.add_parser("playout", help="play random deals to the end in C")
    po.add_argument("game", choices=list(GAMES))
    po.add_argument("--players", type=int, help="chinese_ten: 2-4 players, gandengyan: 2-6, zhengshangyou: 2-8 (default 4)")
    po.add_argument("--decks", type=int, choices=[1, 2], default=1, help="gandengyan: one or two decks")
    po.add_argument("--variant", choices=VARIANTS, default="pagat", help="chinese_ten variant")
    po.add_argument("--deals", type=int, default=100000)
    po.add_argument("--seed", type=int, default=1)
    po.add_argument("--policy", choices=["random", "greedy"], default="random")
    po.add_argument("--threads", type=int, default=1)
    po.add_argument("--quiet", action="store_true", help="no progress bar")
    po.set_defaults(run=_cmd_playout)
    ar = sub.add_parser("arena", help="play deals between two bots")
    ar.add_argument("game", choices=list(GAMES))
    ar.add_argument("--players", type=int,
                    help="chinese_ten: 2-4, gandengyan: 2-6, zhengshangyou: 2-8 players (default 4); "
                    "bots alternate seats")
    ar.add_argument("--decks", type=int, choices=[1, 2], default=1, help="gandengyan: one or two decks")
    ar.add_argument("--variant", choices=VARIANTS, default="pagat", help="chinese_ten variant")
    ar.add_argument("--bots", default="mc,random", help="two of random, greedy, mc (first,second)")
    ar.add_argument("--deals", type=int, default=200)
    ar.add_argument("--seed", type=int, default=0)
    ar.add_argument("--workers", type=int, default=1)
    ar.add_argument("--playouts", type=int, default=200, help="playouts per decision of an mc bot")
    ar.add_argument("--matches", action="store_true", help="play whole matches instead of deals")
    ar.set_defaults(run=_cmd_arena)
    b = sub.add_parser("bench", help="time the generators on seeded deals")
    b.add_argument("--game", choices=list(GAMES), default="guandan")
    b.add_argument("--deals", type=int, default=1000)
    b.add_argument("--repeat", type=int, default=5)
    b.add_argument("--playouts", type=int, default=20000, help="deals per C playout measurement")
    b.set_defaults(run=_cmd_bench)
    from chupai.perft import add_parser as add_perft_parser  # `chupai perft`: defined in chupai.perft

    add_perft_parser(sub)
    args = ap.parse_args(argv)
    try:
        return args.run(args)
    except ValueError as e:
        print(f"chupai: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader (e.g. `head`) closed the pipe: stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
