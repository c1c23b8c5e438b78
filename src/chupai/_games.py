"""The registry of the games: one description per game, read by the bots, the arena,
the command line, ``chupai bench`` and the conformance tests.

Nothing shared looks into a game's modules for optional attributes: what differs
between games is written here, once per game (``docs/adding_a_game.md`` is the
checklist for a fifth one).  Every game package exports the contract's names
(:mod:`chupai.contract`): ``Deal``, ``Match``, ``Rules``, ``Play``, ``Phase``,
``legal_plays``, ``classify``, ``playout``, ``playouts``; its ``Deal`` and ``Match``
carry the registry name as the class attribute ``game``.

>>> game("chinese_ten").players
(2, 4)
>>> game("guandan").teams, game("guandan").rule_presets
(True, ('pagat', 'competition'))
>>> game("chess")
Traceback (most recent call last):
...
ValueError: unknown game 'chess'; expected one of ('guandan', 'chinese_ten', 'gandengyan', 'zhengshangyou')
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from types import ModuleType
from typing import Any

from chupai._validate import check_bool, check_int, check_seed

__all__ = ["GAMES", "Game", "game", "game_of"]


def _resolve(path: str) -> Any:
    """The object ``"package.module:name"`` names."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class Game:
    """The description of one game.

    Attributes:
        name: the registry name (command line, arena, ``Deal.game``).
        title: the game's name for people.
        package: the package exporting the contract's names (``Deal``, ``Match``, ...).
        players: the least and the most players.
        default_players: the number of players when none is given.
        teams: the seats ``s % 2`` are two partnerships with one result (Guan Dan);
            else each player scores alone (the arena adds up a bot's seats).
        rule_presets: the ``Rules`` classmethods that build a named rule set, the first
            the default (``Rules()`` equals it).
        decision_policy: ``"module:function"`` of the bots' choice outside the card play
            (tribute, exchange: ``f(state, actions) -> action``); ``None``: the game has
            no such step.
        evaluate_rules: the ``Rules`` fields that ``DealCore.evaluate`` takes after its
            common arguments (Guan Dan weighs a won deal by its promotion).
        cli: the command-line module (``cmd_plays(args)``, ``cmd_playout(args)``,
            ``rules_of(args)``).
        cli_options: per subcommand (``plays``, ``playout``, ``arena``), the options
            the game takes beyond the common ones (names of
            :data:`chupai._cli_options.OPTIONS`); the others do not apply to it.
        bench: the module whose ``main(argv)`` ``chupai bench`` runs.
        bench_options: the ``chupai bench`` options that runner takes, in order.
    """

    name: str
    title: str
    package: str
    players: tuple[int, int]
    default_players: int
    teams: bool
    rule_presets: tuple[str, ...]
    decision_policy: str | None
    evaluate_rules: tuple[str, ...]
    cli: str
    cli_options: tuple[tuple[str, tuple[str, ...]], ...]
    bench: str
    bench_options: tuple[str, ...]

    # -- derived ------------------------------------------------------------------------
    @property
    def fixed_players(self) -> bool:
        """The game is played by one number of players only (no ``players`` argument)."""
        return self.players[0] == self.players[1]

    @property
    def solo(self) -> bool:
        """Each player scores alone (not :attr:`teams`)."""
        return not self.teams

    def module(self) -> ModuleType:
        return importlib.import_module(self.package)

    @property
    def deal_class(self) -> type:
        return self.module().Deal  # type: ignore[no-any-return]

    @property
    def match_class(self) -> type:
        return self.module().Match  # type: ignore[no-any-return]

    @property
    def rules_class(self) -> type:
        return self.module().Rules  # type: ignore[no-any-return]

    @property
    def play_class(self) -> type:
        return self.module().Play  # type: ignore[no-any-return]

    @property
    def phases(self) -> type[Enum]:
        """The game's ``Phase`` enum."""
        return self.module().Phase  # type: ignore[no-any-return]

    def presets(self) -> dict[str, Any]:
        """Each named rule set, by preset name."""
        cls = self.rules_class
        return {name: getattr(cls, name)() for name in self.rule_presets}

    def options_for(self, command: str) -> tuple[str, ...]:
        """The game-specific options of subcommand ``command``."""
        return dict(self.cli_options).get(command, ())

    def cli_module(self) -> ModuleType:
        return importlib.import_module(self.cli)

    def bench_module(self) -> ModuleType:
        return importlib.import_module(self.bench)

    def choose_decision(self, state: Any, actions: Sequence[Any]) -> Any:
        """The bots' choice among ``actions`` outside the card play."""
        if self.decision_policy is None:
            return actions[0]
        policy: Callable[[Any, Sequence[Any]], Any] = _resolve(self.decision_policy)
        return policy(state, actions)

    def evaluate_args(self, rules: Any) -> tuple[Any, ...]:
        """The game's extra arguments of ``DealCore.evaluate`` under ``rules``."""
        return tuple(getattr(rules, field) for field in self.evaluate_rules)

    def new(self, seed: int | None = None, *, match: bool = False, rules: Any = None,
            players: int | None = None) -> Any:
        """A new ``Deal`` (or ``Match``) of this game with ``players`` players (``None``:
        :attr:`default_players`; the game checks the number, its variants may allow
        fewer than :attr:`players`)."""
        cls = self.match_class if check_bool(match, "match") else self.deal_class
        seed = check_seed(seed)
        if self.fixed_players:
            if players is not None and check_int(players, "players") != self.players[0]:
                raise ValueError(f"{self.name} is played by {self.players[0]} players, not {players!r}")
            return cls(seed, rules=rules)
        return cls(seed, rules=rules, players=self.default_players if players is None else players)


_COMMON_BENCH = ("deals", "repeat", "playouts")
# the options of following a play (chupai plays --previous, and which reading of it)
_FOLLOW = ("previous", "previous_type", "previous_index")

GAMES: dict[str, Game] = {
    g.name: g
    for g in (
        Game(
            name="guandan", title="Guan Dan", package="chupai.guandan", players=(4, 4), default_players=4,
            teams=True, rule_presets=("pagat", "competition"),
            decision_policy="chupai.guandan.tribute:decision_choice", evaluate_rules=("promotion",),
            cli="chupai.guandan._cli",
            cli_options=(("plays", ("level", "rules", *_FOLLOW)), ("playout", ("rules",)), ("arena", ("rules",))),
            bench="chupai._bench", bench_options=_COMMON_BENCH,
        ),
        Game(
            name="chinese_ten", title="Chinese Ten", package="chupai.chinese_ten", players=(2, 4),
            default_players=4, teams=False,
            rule_presets=("pagat", "taiwanese", "barraco", "gob_dum_gob_dang", "main_merah"),
            decision_policy=None, evaluate_rules=(),
            cli="chupai.chinese_ten._cli",
            cli_options=(("plays", ("layout", "turned", "free", "variant")),
                         ("playout", ("players", "variant", "free")), ("arena", ("players", "variant", "free"))),
            bench="chupai.chinese_ten._bench", bench_options=_COMMON_BENCH,
        ),
        Game(
            name="gandengyan", title="Gan Deng Yan", package="chupai.gandengyan", players=(2, 6),
            default_players=4, teams=False, rule_presets=("pagat",),
            decision_policy=None, evaluate_rules=(),
            cli="chupai.gandengyan._cli",
            cli_options=(("plays", ("decks", *_FOLLOW)), ("playout", ("players", "decks")),
                         ("arena", ("players", "decks"))),
            bench="chupai.gandengyan.bench", bench_options=_COMMON_BENCH,
        ),
        Game(
            name="zhengshangyou", title="Zheng Shangyou", package="chupai.zhengshangyou", players=(2, 8),
            default_players=4, teams=False, rule_presets=("pagat",),
            decision_policy="chupai.zhengshangyou.exchange:decision_choice", evaluate_rules=(),
            cli="chupai.zhengshangyou._cli",
            cli_options=(("plays", ("no_joker_pair", *_FOLLOW)), ("playout", ("players", "no_joker_pair")),
                         ("arena", ("players", "no_joker_pair"))),
            bench="chupai.zhengshangyou._bench", bench_options=_COMMON_BENCH,
        ),
    )
}


def game(name: object) -> Game:
    """The registry entry of ``name``; ``ValueError`` for an unknown game."""
    if not isinstance(name, str):
        raise TypeError(f"game must be a game name (str), one of {tuple(GAMES)}, not {name!r}")
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; expected one of {tuple(GAMES)}") from None


def game_of(state: Any) -> Game:
    """The registry entry of a ``Deal`` or ``Match`` (its class attribute ``game``)."""
    name = getattr(type(state), "game", None)
    if not isinstance(name, str) or name not in GAMES:
        raise TypeError(f"{state!r} is not a state of a registered game (a Deal or Match of {tuple(GAMES)})")
    return GAMES[name]
