"""The ``chupai`` options that only some games take: their spelling and help.

An option that only some games take is declared once in :data:`OPTIONS`; which game
takes which, per subcommand, is the registry's ``cli_options``
(:meth:`chupai._games.Game.options_for`), the one table of it.  ``chupai.cli`` offers
each option on every subcommand where some game takes it, adds the games to its help,
and refuses it (exit status 2, naming the option and the game) when the chosen game
does not take it.  Options every game takes (``--deals``, ``--seed``, ``--json``, ...)
are not here.

>>> games_taking("plays", "level")
('guandan',)
>>> option_help("playout", "decks")
'one or two decks (gandengyan)'
>>> sorted(taken("zhengshangyou", "plays"))
['no_joker_pair', 'previous', 'previous_index', 'previous_type']
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from chupai._games import GAMES, game

__all__ = ["OPTIONS", "Option", "games_taking", "option_help", "taken"]


@dataclass(frozen=True)
class Option:
    """One game-specific command-line option.

    Attributes:
        flag: its spelling, e.g. ``--level``.
        help: what it means (the games that take it are added to the help).
        type: the argparse conversion of its value (``None``: a string).
        choices: the values it may take (``None``: any, the game checks).
        switch: the option takes no value (``store_true``).
        metavar: the name of its value in the help.
    """

    flag: str
    help: str
    type: Callable[[str], Any] | None = None
    choices: tuple[Any, ...] | None = None
    switch: bool = False
    metavar: str | None = None

    @property
    def dest(self) -> str:
        """The attribute of the parsed arguments: ``--previous-type`` -> ``previous_type``."""
        return self.flag[2:].replace("-", "_")

    def argparse_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of ``ArgumentParser.add_argument`` (default: not given)."""
        if self.switch:
            return {"action": "store_true", "default": False}
        kw: dict[str, Any] = {"default": None}
        for key in ("type", "choices", "metavar"):
            if getattr(self, key) is not None:
                kw[key] = getattr(self, key)
        return kw


OPTIONS: dict[str, Option] = {
    o.dest: o
    for o in (
        Option("--level", "the level rank, 2..A", metavar="RANK"),
        Option("--rules", "the rules preset", choices=("pagat", "competition")),
        Option("--previous", "the cards of the play to beat; without it, the hand leads", metavar="CARDS"),
        Option("--previous-type",
               "which reading of --previous: its type, optionally with its rank, e.g. full-house or full-house:K",
               metavar="TYPE[:RANK]"),
        Option("--previous-index",
               "which reading of --previous, by its number in the list an ambiguous --previous prints (1, 2, ...)",
               type=int, metavar="N"),
        Option("--layout", 'the face-up cards, e.g. "QD 3S 3H 6C"', metavar="CARDS"),
        Option("--turned", "the hand is the card turned from the stock", switch=True),
        Option("--free", "capturing is optional (forced_capture off)", switch=True),
        Option("--variant", "the variant", choices=("pagat", "taiwanese", "barraco", "gob_dum_gob_dang", "main_merah")),
        Option("--decks", "one or two decks", type=int, choices=(1, 2)),
        Option("--no-joker-pair", "the two jokers are not a pair", switch=True),
        Option("--players", "the number of players (default 4; the game's range is checked)", type=int,
               metavar="N"),
    )
}

def taken(name: str, command: str) -> tuple[str, ...]:
    """The game-specific options game ``name`` takes in ``command`` (the registry's)."""
    return game(name).options_for(command)


def games_taking(command: str, option: str) -> tuple[str, ...]:
    """The games whose ``command`` takes ``option``, in table order."""
    return tuple(g for g in GAMES if option in taken(g, command))


def option_help(command: str, option: str) -> str:
    """The help of ``option`` in ``command``, naming the games that take it."""
    return f"{OPTIONS[option].help} ({', '.join(games_taking(command, option))})"
