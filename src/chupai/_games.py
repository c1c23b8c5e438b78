"""The registry of the games the arena, the command line and ``chupai bench`` know.

Adding a game is one :data:`GAMES` entry: its package (``Deal``, ``Match``, ``Rules``),
its command-line module (``cmd_plays(args)``, ``cmd_playout(args)``, ``rules_of(args)``),
its benchmark runner (``main(argv)``) and its players.

>>> game("chinese_ten").players
(2, 4)
>>> game("chess")
Traceback (most recent call last):
...
ValueError: unknown game 'chess'; expected one of ('guandan', 'chinese_ten', 'gandengyan', 'zhengshangyou')
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

__all__ = ["GAMES", "Game", "game"]


@dataclass(frozen=True)
class Game:
    """One game of the library.

    Attributes:
        name: the name on the command line and in the arena.
        package: the module with ``Deal`` and ``Match`` (``Deal(seed, rules=..., [players=...])``).
        cli: the module with ``cmd_plays``, ``cmd_playout`` and ``rules_of``.
        bench: the module whose ``main(argv)`` ``chupai bench --game`` runs.
        bench_options: the ``chupai bench`` options that runner takes, in order.
        players: the least and the most players.
        solo: each player scores alone (the arena adds up a bot's seats); else the
            seats ``s % 2`` form teams with one result.
    """

    name: str
    package: str
    cli: str
    bench: str
    bench_options: tuple[str, ...]
    players: tuple[int, int]
    solo: bool

    @property
    def fixed_players(self) -> bool:
        """The game is played by one number of players only (no ``players`` argument)."""
        return self.players[0] == self.players[1]

    def module(self) -> ModuleType:
        return importlib.import_module(self.package)

    def cli_module(self) -> ModuleType:
        return importlib.import_module(self.cli)

    def bench_module(self) -> ModuleType:
        return importlib.import_module(self.bench)


_ALL_BENCH_OPTIONS = ("deals", "repeat", "playouts")

GAMES: dict[str, Game] = {
    g.name: g
    for g in (
        Game("guandan", "chupai.guandan", "chupai.guandan._cli", "chupai._bench", _ALL_BENCH_OPTIONS, (4, 4), False),
        Game("chinese_ten", "chupai.chinese_ten", "chupai.chinese_ten._cli", "chupai.chinese_ten._bench",
             _ALL_BENCH_OPTIONS, (2, 4), True),
        Game("gandengyan", "chupai.gandengyan", "chupai.gandengyan._cli", "chupai.gandengyan.bench",
             ("repeat", "playouts"), (2, 6), True),
        Game("zhengshangyou", "chupai.zhengshangyou", "chupai.zhengshangyou._cli", "chupai.zhengshangyou._bench",
             _ALL_BENCH_OPTIONS, (2, 8), True),
    )
}


def game(name: str) -> Game:
    """The registry entry of ``name``; ``ValueError`` for an unknown game."""
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {name!r}; expected one of {tuple(GAMES)}") from None
