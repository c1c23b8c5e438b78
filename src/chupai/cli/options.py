"""The ``chupai`` options that only some games take: their spelling and help.

An option that only some games take is declared once: in the entry of the game that
takes it (:attr:`chupai.registry.entry.Game.options`, with its choices and default) or, when
several games take it, in :data:`chupai.registry.entry.SHARED_OPTIONS`.  Which game takes which,
per subcommand, is the entry's ``cli_options`` (:meth:`chupai.registry.entry.Game.options_for`),
the one table of it for every subcommand (``plays``, ``playout``, ``arena``, and
``ladder``, ``generate`` and ``perft``, which take ``arena``'s).  The command line offers each option on every subcommand where some game
takes it, adds the games to its help, and refuses it (exit status 2, naming the option
and the game) when the chosen game does not take it.  Options every game takes
(``--deals``, ``--seed``, ``--json``, ...) are not here.

>>> games_taking("plays", "level")
('guandan',)
>>> option_help("playout", "decks")
'one or two decks (default 1; gandengyan)'
>>> sorted(taken("zhengshangyou", "plays"))
['no_joker_pair', 'previous', 'previous_index', 'previous_type']
"""
from __future__ import annotations

import argparse
from dataclasses import replace
from functools import lru_cache

from chupai.registry.entry import SHARED_OPTIONS, Option
from chupai.registry import GAMES, game
from chupai.core.validate import players_error

__all__ = ["add_options", "check_options", "games_taking", "option_help", "options", "own_option", "taken"]


def own_option(name: str, option: str) -> Option:
    """Game ``name``'s declaration of ``option``: its own, else the shared one."""
    for o in game(name).options:
        if o.dest == option:
            return o
    return SHARED_OPTIONS[option]


@lru_cache(maxsize=None)
def options() -> dict[str, Option]:
    """Every game-specific option by its ``dest``: the shared ones, then each game's own
    in registry order.  Games that declare the same option share its spelling; the
    choices offered are all of theirs (each game checks its own)."""
    out = dict(SHARED_OPTIONS)
    for entry in GAMES.values():
        for o in entry.options:
            known = out.get(o.dest)
            if known is None:
                out[o.dest] = o
            elif known.choices is not None and o.choices is not None:
                out[o.dest] = replace(known, choices=known.choices + tuple(c for c in o.choices
                                                                           if c not in known.choices))
    return out


def taken(name: str, command: str) -> tuple[str, ...]:
    """The game-specific options game ``name`` takes in ``command`` (its entry's)."""
    return game(name).options_for(command)


def games_taking(command: str, option: str) -> tuple[str, ...]:
    """The games whose ``command`` takes ``option``, in registry order."""
    return tuple(g for g in GAMES if option in taken(g, command))


def option_help(command: str, option: str) -> str:
    """The help of ``option`` in ``command``, with its default and the games that take it."""
    games = games_taking(command, option)
    defaults = {own_option(g, option).default for g in games} - {None}
    default = f"default {defaults.pop()}; " if len(defaults) == 1 else ""
    required = [g for g in games if own_option(g, option).required]
    if required:
        default = f"required{'' if required == list(games) else ' for ' + ', '.join(required)}; " + default
    return f"{options()[option].help} ({default}{', '.join(games)})"


def add_options(parser: argparse.ArgumentParser, command: str) -> None:
    """Offer on ``parser`` every game-specific option some game takes in ``command``."""
    for name, option in options().items():
        if games_taking(command, name):
            parser.add_argument(option.flag, help=option_help(command, name), **option.argparse_kwargs())


def check_options(args: argparse.Namespace, command: str, parser: argparse.ArgumentParser) -> None:
    """Refuse (``parser.error``: exit status 2) an option the chosen game does not take
    in ``command``, a choice outside the game's own, an empty ``--previous`` (or a
    reading of it without it), a missing
    option the game requires, and a number of players outside the game's range."""
    for name, option in options().items():
        value = getattr(args, name, None)
        if value is None or value is False:
            continue
        if args.game is None:  # a subcommand whose game is optional (perft --bench)
            parser.error(f"{option.flag} is an option of a game: give the GAME")
        if name not in taken(args.game, command):
            others = ", ".join(games_taking(command, name))
            parser.error(f"{option.flag} does not apply to {args.game} (it is an option of {others})")
        choices = own_option(args.game, name).choices
        if choices is not None and value not in choices:
            parser.error(f"{option.flag} of {args.game} is one of {', '.join(map(str, choices))}, not {value}")
    for name in ("previous_type", "previous_index"):
        if getattr(args, name, None) is not None and getattr(args, "previous", None) is None:
            parser.error(f"{options()[name].flag} says which reading of --previous: give --previous")
    if getattr(args, "previous", None) is not None and not args.previous.strip():
        parser.error("--previous is empty: an empty play is not a play to beat (omit --previous for the hand "
                     "to lead)")
    for name in taken(args.game, command) if args.game is not None else ():
        if own_option(args.game, name).required and getattr(args, name, None) is None:
            parser.error(f"{args.game} needs {options()[name].flag}: {own_option(args.game, name).help}")
    players = getattr(args, "players", None)
    if players is not None:
        low, high = game(args.game).players
        if not low <= players <= high:
            parser.error(str(players_error(args.game, range(low, high + 1), players)))
