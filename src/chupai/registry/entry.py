"""The shape of a game's registry entry: :class:`Game` and its command-line :class:`Option`.

Each game package defines its entry in its own light module ``chupai.<game>._entry``
(``GAME = Game(...)``, importing nothing compiled) and re-exports it as
``chupai.<game>.GAME``; :mod:`chupai.registry` lists the packages.  Shared code reads a
game's facts from its entry only: nothing shared keeps a table keyed by game name.
Entries name the game's functions and classes as ``"module:name"`` paths, imported
when first used, so reading the registry loads no game.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from types import ModuleType
from typing import Any

from chupai.core.validate import check_bool, check_int, check_seed, players_error

__all__ = ["COMMANDS", "ENTRY_COMMANDS", "FOLLOW", "LIKE_ARENA", "Game", "Option", "PerftDepths", "SHARED_OPTIONS", "resolve", "returns_field"]

#: the subcommands whose game-specific options an entry lists (``Game.cli_options``)
ENTRY_COMMANDS = ("plays", "playout", "arena")
#: the subcommands that play whole deals of a game beside ``arena`` and take its
#: options (the rules and the number of players), the one table of them
LIKE_ARENA = ("ladder", "generate", "perft")
#: every subcommand that takes game-specific options
COMMANDS = (*ENTRY_COMMANDS, *LIKE_ARENA)


def resolve(path: str) -> Any:
    """The object ``"package.module:name"`` names."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class Option:
    """One command-line option that only some games take.

    Attributes:
        flag: its spelling, e.g. ``--level``.
        help: what it means (the games that take it are added to the help).
        type: the argparse conversion of its value (``None``: a string).
        choices: the values it may take (``None``: any, the game checks).
        switch: the option takes no value (``store_true``).
        metavar: the name of its value in the help.
        default: the value the game's ``rules_of`` uses when the option is not given
            (shown in the help; the parser itself keeps ``None``, so that an option given
            to a game that does not take it is seen and refused).
        required: the game cannot run the subcommands that take it without it (shown in
            the help, refused before any work when missing).
    """

    flag: str
    help: str
    type: Callable[[str], Any] | None = None
    choices: tuple[Any, ...] | None = None
    switch: bool = False
    metavar: str | None = None
    default: Any = None
    required: bool = False

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


#: the options several games take, by name (an entry's :attr:`Game.cli_options` names
#: them beside its own :attr:`Game.options`)
SHARED_OPTIONS: dict[str, Option] = {
    o.dest: o
    for o in (
        Option("--previous", "the cards of the play to beat; without it, the hand leads", metavar="CARDS"),
        Option("--previous-type",
               "which reading of --previous: its type, optionally with its rank, e.g. full-house or full-house:K",
               metavar="TYPE[:RANK]"),
        Option("--previous-index",
               "which reading of --previous, by its number in the list an ambiguous --previous prints (1, 2, ...)",
               type=int, metavar="N"),
        Option("--players", "the number of players (default 4; the game's range is checked)", type=int,
               metavar="N"),
    )
}
#: the shared options of following a play (``chupai plays --previous``, and which reading of it)
FOLLOW = ("previous", "previous_type", "previous_index")


def returns_field(rules: Any, out: Any) -> list[float]:
    """The :attr:`Game.outcome` of an engine whose playout reports each seat's return
    second (``(..., returns, ...)``)."""
    return [float(x) for x in out[1]]


@dataclass(frozen=True)
class PerftDepths:
    """The perft depths of a game's seeded deals (``chupai.evaluation.perft``, ``tests/test_perft.py``).

    Attributes:
        full: about a second of enumeration: ``chupai perft --bench`` and the slow suite's
            golden check through the compiled engines.
        quick: the quick suite's golden check through the compiled engines.
        slow_path: the Python state machines' check (``perft_slow``), quick suite.
        slow_path_deep: the deeper Python check of the slow suite.
    """

    full: int
    quick: int
    slow_path: int
    slow_path_deep: int


@dataclass(frozen=True)
class Game:
    """The description of one game: every fact shared code needs of it.

    Attributes:
        name: the registry name (command line, arena, ``Deal.game``).
        title: the game's name for people.
        package: the package exporting the contract's names (``Deal``, ``Match``, ...).
        players: the least and the most players.
        default_players: the number of players when none is given.
        teams: the seats ``s % 2`` are two partnerships with one result; else each
            player scores alone (the arena adds up a bot's seats).
        rule_presets: the ``Rules`` classmethods that build a named rule set, the first
            the default (``Rules()`` equals it).
        decision_policy: ``"module:function"`` of the bots' choice outside the card play
            (``f(state, actions) -> action``); ``None``: the game has no such step.
        evaluate_rules: the ``Rules`` fields that ``DealEngine.evaluate`` takes after its
            common arguments.
        evaluate_win: the arguments after them under which ``DealEngine.evaluate``
            scores a deal by who won it alone, every won deal alike (Guan Dan: promotion
            ``(1, 1, 1)``); ``None``: the game's outcome is its only measure (search bots
            offer no ``objective="win"`` there).  Where it is given, ``best``'s playouts
            measure wins by default (:attr:`objective`).
        outcome: ``f(rules, engine.playout(...)) -> returns``: each seat's return (as the
            game's ``Deal.returns()``) from the outcome a compiled playout reports (a
            terminal engine's playout reports the final outcome).
        utility: the least and the most return of a seat in one deal under the default
            rules (the returns of a deal sum to zero).
        max_length: ``f(players) -> int``, a bound on the moves of one deal, the chance
            node that deals it included.
        encoder: ``"module:Class"`` of the RL encoder (``chupai.rl``: the observation
            layout, the action space and the observation tensor).
        cli: the command-line module (``cmd_plays(args)``, ``cmd_playout(args)``,
            ``rules_of(args)``).
        options: the command-line options only this game takes (choices and defaults).
        cli_options: per subcommand of :data:`ENTRY_COMMANDS`, the options the game takes
            beyond the common ones: its own :attr:`options` and the shared ones of
            :data:`SHARED_OPTIONS`; the others are refused.
        bench: the module whose ``main(argv)`` ``chupai bench`` runs.
        perft: the perft depths of its seeded deals.
        sample_plays: the words after ``chupai plays <game>`` of a position with a play
            to beat or a layout (command-line and JSON tests).
        commands: the modules that add the game's own subcommands to ``chupai``, each
            with ``register(subparsers)`` (Guan Dan: its competition protocol's
            ``serve``, ``join`` and ``replay``).
        vector_tables: ``"module:Class"`` of the game's compiled tables, which
            :class:`chupai.rl.VectorEnv` steps in C (the class's ``POLICIES``: the
            opponents they play); ``None``: the game runs on the Python path.
        roles: ``"module:function"`` of ``f(deal) -> tuple[str, ...]``, each seat's role in
            a finished deal, in a game whose sides are decided in play (Dou Dizhu: the
            landlord and the farmers); the arena reports a bot's results by role.
            ``None``: the seats have no roles beyond ``teams``.
        networks: ``(name, module)`` of each network input layout of the game's own
            that is not an observation layout (Dou Dizhu: ``"douzero"``, DouZero's
            features, a network per position); the module has ``network_rows`` (see
            :mod:`chupai.players.network`).
        side_role: in a game with :attr:`roles`, the role the first bot of a pair holds
            in the first game of a deal, the second bot every other seat, and the other
            way in the second game (Dou Dizhu: ``"landlord"``), the decisions before the
            roles are known made by :attr:`decision_policy`; ``None``: the bots take
            alternate seats (:func:`chupai.evaluation.arena.bot_seats`).
        observations: ``(name, module)`` of each observation layout of the game's own
            beside the default one (Guan Dan: ``"danzero"``); the module has ``LAYOUT``,
            ``observation(state, player)``, ``card_vector(counts)`` (action features in
            its card order) and, for networks trained on it, ``network_rows(state,
            player, card_order, fill)``.
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
    outcome: Callable[[Any, Any], list[float]]
    utility: tuple[float, float]
    max_length: Callable[[int], int]
    encoder: str
    cli: str
    options: tuple[Option, ...]
    cli_options: tuple[tuple[str, tuple[str, ...]], ...]
    bench: str
    perft: PerftDepths
    sample_plays: tuple[str, ...]
    commands: tuple[str, ...] = ()
    vector_tables: str | None = None
    observations: tuple[tuple[str, str], ...] = ()
    roles: str | None = None
    networks: tuple[tuple[str, str], ...] = ()
    side_role: str | None = None
    evaluate_win: tuple[Any, ...] | None = None

    # -- derived ------------------------------------------------------------------------
    @property
    def fixed_players(self) -> bool:
        """The game is played by one number of players only (no ``players`` argument)."""
        return self.players[0] == self.players[1]

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
        """The game-specific options of subcommand ``command`` (those of ``arena`` for
        the subcommands of :data:`LIKE_ARENA`)."""
        return dict(self.cli_options).get("arena" if command in LIKE_ARENA else command, ())

    def cli_module(self) -> ModuleType:
        return importlib.import_module(self.cli)

    def bench_module(self) -> ModuleType:
        return importlib.import_module(self.bench)

    def observation_module(self, name: str) -> ModuleType:
        """The module of the game's own observation layout ``name`` (:attr:`observations`);
        ``ValueError`` naming the layouts there are otherwise."""
        modules = dict(self.observations)
        if name not in modules:
            raise ValueError(f"observation must be one of {('default', *modules)} for {self.name}, not {name!r}")
        return importlib.import_module(modules[name])

    def make_encoder(self) -> Any:
        """A new RL encoder of the game (:attr:`encoder`)."""
        return resolve(self.encoder)()

    def roles_of(self, state: Any) -> tuple[str, ...]:
        """Each seat's role in ``state``, a deal whose roles are decided (:attr:`roles`;
        before that, the game's word for none); ``()`` for a game without roles."""
        if self.roles is None:
            return ()
        roles: Callable[[Any], tuple[str, ...]] = resolve(self.roles)
        return roles(state)

    def choose_decision(self, state: Any, actions: Sequence[Any]) -> Any:
        """The bots' choice among ``actions`` outside the card play."""
        if self.decision_policy is None:
            return actions[0]
        policy: Callable[[Any, Sequence[Any]], Any] = resolve(self.decision_policy)
        return policy(state, actions)

    @property
    def objective(self) -> str:
        """What ``best``'s playouts measure unless told: ``"win"`` where the game declares
        :attr:`evaluate_win` (the deal's winners, as the ladder and the published
        single-deal figures count them), else ``"score"``."""
        return "score" if self.evaluate_win is None else "win"

    def evaluate_args(self, rules: Any, objective: str = "score") -> tuple[Any, ...]:
        """The game's extra arguments of ``DealEngine.evaluate`` under ``rules``: its
        outcome as the rules score it (``objective="score"``), or, ``"win"``, who won
        alone (:attr:`evaluate_win`; ``ValueError`` in a game without it)."""
        if objective == "win":
            if self.evaluate_win is None:
                raise ValueError(f"objective 'win' is not available in {self.name}: its outcome is its only "
                                 "measure; expected objective='score'")
            return self.evaluate_win
        if objective != "score":
            raise ValueError(f"objective must be 'score' or 'win', not {objective!r}")
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
                raise players_error(self.name, self.players[:1], players)
            return cls(seed, rules=rules)
        return cls(seed, rules=rules, players=self.default_players if players is None else players)
