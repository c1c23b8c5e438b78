"""The registry of the games: the list of the game packages, read by the bots, the
arena, the command line, ``chupai bench``, the RL layer and the conformance tests.

Each game package ``chupai.<name>`` holds its own entry, ``chupai.<name>._entry.GAME``
(a :class:`chupai.registry.entry.Game`, re-exported as ``chupai.<name>.GAME``): every fact
that differs between games is written there, once.  This module holds one line per
game, :data:`PACKAGES` (``docs/adding_a_game.md`` is the checklist for another one);
an entry is imported when first read.  Every game package exports the contract's
names (:mod:`chupai.contract`): ``Deal``, ``Match``, ``Rules``, ``Play``, ``Phase``,
``legal_plays``, ``classify``, ``playout``, ``playouts``; its ``Deal`` and ``Match``
carry the registry name as the class attribute ``game``.

>>> game("chinese_ten").players
(2, 4)
>>> game("guandan").teams, game("guandan").rule_presets
(True, ('pagat', 'competition'))
>>> game("chess")
Traceback (most recent call last):
...
ValueError: unknown game 'chess'; expected one of ('guandan', 'chinese_ten', 'gandengyan', 'zhengshangyou', 'doudizhu')
"""
from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any

from chupai.registry.entry import Game

__all__ = ["GAMES", "PACKAGES", "Game", "game", "game_of"]

#: the game packages, one line per game; the registry name is the package's last part
PACKAGES = (
    "chupai.guandan",
    "chupai.chinese_ten",
    "chupai.gandengyan",
    "chupai.zhengshangyou",
    "chupai.doudizhu",
)


class _Registry(Mapping[str, Game]):
    """The entries by registry name, in :data:`PACKAGES` order, each imported from its
    package when first read (so that importing the registry imports no game)."""

    def __init__(self, packages: tuple[str, ...]) -> None:
        self._packages = {package.rpartition(".")[2]: package for package in packages}
        self._entries: dict[str, Game] = {}

    def __getitem__(self, name: str) -> Game:
        entry = self._entries.get(name)
        if entry is None:
            package = self._packages[name]
            entry = importlib.import_module(package + "._entry").GAME
            if not isinstance(entry, Game) or entry.name != name or entry.package != package:
                raise RuntimeError(f"{package}._entry.GAME must be the Game named {name!r} of package {package}")
            self._entries[name] = entry
        return entry

    def __iter__(self) -> Iterator[str]:
        return iter(self._packages)

    def __len__(self) -> int:
        return len(self._packages)

    def __contains__(self, name: object) -> bool:
        return name in self._packages

    def __repr__(self) -> str:
        return f"GAMES{tuple(self._packages)}"


#: every registered game's entry, by registry name
GAMES: Mapping[str, Game] = _Registry(PACKAGES)


def game(name: object) -> Game:
    """The registry entry of ``name``; ``ValueError`` for an unknown game."""
    if not isinstance(name, str):
        raise TypeError(f"game must be a game name (str), one of {tuple(GAMES)}, not {name!r}")
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; expected one of {tuple(GAMES)}")
    return GAMES[name]


def game_of(state: Any) -> Game:
    """The registry entry of a ``Deal`` or ``Match`` (its class attribute ``game``)."""
    name = getattr(type(state), "game", None)
    if not isinstance(name, str) or name not in GAMES:
        raise TypeError(f"{state!r} is not a state of a registered game (a Deal or Match of {tuple(GAMES)})")
    return GAMES[name]

