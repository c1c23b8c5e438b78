"""The ``chupai`` command.

    chupai plays GAME "<hand>" [game options] [--collapse] [--json]
    chupai playout GAME [--deals 100000] [--seed 1] [--players N] [--policy random|greedy|heuristic] [--threads 1] [--json]
    chupai arena GAME [--bots mc,random] [--deals 200] [--seed 1] [--workers 1] [--players N] [--json]
    chupai bench GAME [--deals N] [--repeat 5] [--playouts N] [--surface-deals 200] [--no-engine] [--no-surface]
                      [--json [--calls]]

GAME is one of the registered games (:mod:`chupai.registry`).  The options only some
games take (``--level``, ``--layout``, ``--decks``, ``--players``, ...) are declared by
the games' registry entries (:mod:`chupai.cli.options`); giving one to another game is
an error.  Exit status:
0 done, 2 bad arguments or input (the message names it), 130 interrupted (Ctrl-C),
1 when the reader of the output went away.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from chupai.engine import backends
from chupai.cli.common import BOT_SPECS, MAX_COUNT, add_seed, count, positive_int, threads
from chupai.engine.base import POLICIES
from chupai.registry.entry import COMMANDS
from chupai.cli.options import add_options, check_options
from chupai.registry import GAMES, game

__all__ = ["build_parser", "check_arguments", "main"]

#: exit status after Ctrl-C, as a shell reports a process ended by SIGINT
EXIT_INTERRUPTED = 130
EXIT_USAGE = 2


def _cmd_plays(args: argparse.Namespace) -> int:
    result: int = game(args.game).cli_module().cmd_plays(args)
    return result


def _cmd_playout(args: argparse.Namespace) -> int:
    result: int = game(args.game).cli_module().cmd_playout(args)
    return result


def _make_bot(spec: str, playouts: int) -> object:
    from chupai.players.search.registry import make_bot

    return make_bot(spec, playouts=playouts)


def _cmd_arena(args: argparse.Namespace) -> int:
    from chupai.cli.common import dump_json
    from chupai.evaluation.arena import arena

    names = args.bots.split(",")
    if len(names) != 2:
        raise ValueError(f"--bots takes two bots separated by a comma, not {args.bots!r}")
    pair = [_make_bot(n.strip(), args.playouts) for n in names]
    rules = game(args.game).cli_module().rules_of(args)
    result = arena(args.game, pair, args.deals, args.seed, args.workers, matches=args.matches, rules=rules,
                   players=args.players, progress=not (args.json or args.quiet), **backends.options_of(args))
    if args.json:
        lo, hi = result.interval
        return dump_json({
            "game": args.game,
            "bots": list(result.bots),
            "matches": bool(args.matches),
            "games": result.games,
            "wins": result.wins,
            "win_rate": result.win_rate,
            "interval": [lo, hi],
            "mean_return": float(result.returns.mean()) if result.games else 0.0,
            "roles": [{"role": role, "seats": seats, "mean_return": ret} for role, seats, ret in result.roles],
            "seed": args.seed,
        })
    print(result)
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from chupai.cli.bench import passed_on  # the options given; the game's runner has its own defaults

    result: int = game(args.game).bench_module().main(passed_on(args))
    return result


class Parser(argparse.ArgumentParser):
    """argparse's parser whose usage errors are one line, ``chupai: error: ...`` (exit
    status 2), naming the subcommand and pointing at its ``--help``."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("chupai").strip()
        where = f"{command}: " if command else ""
        self.exit(EXIT_USAGE, f"chupai: error: {where}{message} (see: {self.prog} --help)\n")


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The ``chupai`` parser and its subcommand parsers by name."""
    from importlib.metadata import PackageNotFoundError, version

    ap = Parser(prog="chupai", description="Legal plays and game engines of Chinese card games.")
    try:
        release = version("chupai")
    except PackageNotFoundError:  # run from a source tree that was never installed
        release = "unknown (not installed)"
    ap.add_argument("--version", action="version", version=f"chupai {release}")
    sub = ap.add_subparsers(dest="command", required=True)
    games = list(GAMES)
    json_help = "write one JSON object (the same keys in every game) instead of text"

    p = sub.add_parser("plays", help="list the legal plays of a hand")
    p.add_argument("game", choices=games)
    p.add_argument("hand", help='cards, e.g. "7S 7S 2H BJ" (with --turned: the turned card)')
    add_options(p, "plays")
    p.add_argument("--collapse", action="store_true", help="one play per suit-collapsed group")
    p.add_argument("--json", action="store_true", help=json_help + ", with whether passing is allowed")
    p.set_defaults(run=_cmd_plays)

    po = sub.add_parser("playout", help="play random deals to the end in C")
    po.add_argument("game", choices=games)
    add_options(po, "playout")
    po.add_argument("--deals", type=count, default=100000, help=f"deals to play (default 100000, at most {MAX_COUNT:,})")
    add_seed(po)
    po.add_argument("--policy", choices=sorted(POLICIES), default="random",
                    help="the compiled policy every seat plays (heuristic: HeuristicBot's; default random)")
    po.add_argument("--threads", type=threads, default=1, help="threads, at most 4 per core (default 1)")
    po.add_argument("--quiet", action="store_true", help="no progress bar")
    po.add_argument("--json", action="store_true", help=json_help)
    po.set_defaults(run=_cmd_playout)

    ar = sub.add_parser("arena", help="play deals between two bots")
    ar.add_argument("game", choices=games)
    add_options(ar, "arena")
    ar.add_argument("--bots", default="mc,random", help=f"two bot specs, first,second: {BOT_SPECS}; they "
                    "alternate seats (default mc,random)")
    ar.add_argument("--deals", type=count, default=200, help=f"deals to play (default 200, at most {MAX_COUNT:,})")
    add_seed(ar)
    ar.add_argument("--workers", type=positive_int, default=1, help="local worker processes (default 1)")
    ar.add_argument("--playouts", type=positive_int, default=200,
                    help="playouts per decision of an mc bot without a budget (default 200)")
    ar.add_argument("--quiet", action="store_true", help="no progress bar")
    ar.add_argument("--matches", action="store_true", help="play whole matches instead of deals")
    ar.add_argument("--json", action="store_true", help=json_help)
    backends.add_arguments(ar)
    ar.set_defaults(run=_cmd_arena)

    from chupai.cli.ladder import register as register_ladder

    ld = register_ladder(sub)
    for entry in GAMES.values():  # a game's own subcommands (Guan Dan: serve, join, replay)
        for module in entry.commands:
            importlib.import_module(module).register(sub)
    from chupai.cli.generate import register as register_generate  # self-play data

    register_generate(sub)
    from chupai.cli.perft import register as register_perft  # perft counts and --bench

    register_perft(sub)

    b = sub.add_parser("bench", help="time the generator, the engine and the Python surface of a game")
    b.add_argument("game", nargs="?", choices=games, help=f"the game (default {games[0]})")
    from chupai.cli.bench import add_options as add_bench_options  # what every runner takes

    add_bench_options(b)
    b.set_defaults(run=_cmd_bench)
    return ap, {"plays": p, "playout": po, "arena": ar, "ladder": ld, "bench": b}


def _check_game_options(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Refuse (exit status 2) an option the chosen game does not take (its registry
    entry's ``cli_options``), and a number of players outside the game's range."""
    command = args.command
    if command not in (*COMMANDS, "bench"):
        return  # a subcommand registered by its own module checks its own options
    if command == "bench":
        if args.game is None:
            args.game = next(iter(GAMES))  # the first registered game
        return
    check_options(args, command, parser)


def _parse(argv: Sequence[str] | None) -> argparse.Namespace | int:
    """The checked arguments of ``argv``, or the exit status once argparse has printed
    the help, the version or a one-line usage error."""
    ap, parsers = build_parser()
    try:
        args, extra = ap.parse_known_args(argv)
        sub = parsers.get(args.command) or _subparser(ap, args.command)
        if extra:  # told by the subcommand, with its usage, not the top-level one
            sub.error(f"unrecognized arguments: {' '.join(extra)}")
        _check_game_options(args, sub)
    except SystemExit as e:  # argparse: --help (0) or a usage error (2), already printed
        return e.code if isinstance(e.code, int) else EXIT_USAGE
    return args


def check_arguments(argv: Sequence[str]) -> int:
    """Parse and check ``argv`` as :func:`main` does before any work: 0 if it would
    run, else the exit status after the help, the version or the one-line error."""
    parsed = _parse(argv)
    return parsed if isinstance(parsed, int) else 0


def _run(argv: Sequence[str] | None) -> int:
    parsed = _parse(argv)
    if isinstance(parsed, int):
        return parsed
    args = parsed
    try:
        result: int = args.run(args)
        return result
    except (ValueError, TypeError, ImportError) as e:
        # bad input (the message names it), or an optional extra a chosen option needs
        print(f"chupai: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        raise  # the reader of the output went away: main's exit status 1
    except OSError as e:  # a file or address given on the command line that cannot be used
        print(f"chupai: error: {e.strerror or e}{f': {e.filename}' if e.filename else ''}", file=sys.stderr)
        return EXIT_USAGE


def _subparser(ap: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    """The parser of subcommand ``command``."""
    for action in ap._actions:
        if isinstance(action, argparse._SubParsersAction):
            parser: argparse.ArgumentParser = action.choices[command]
            return parser
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``chupai`` command; returns the exit status."""
    try:
        code = _run(argv)
        sys.stdout.flush()
        return code
    except KeyboardInterrupt:
        print(file=sys.stderr)  # end the line the ^C was echoed on
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # the reader (e.g. `head`) closed the pipe: stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
