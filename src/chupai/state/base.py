"""The base every game's state machines (``Deal``, ``Match``) share: the contract of
:mod:`chupai.contract` written once (terminal player, copies, pickling,
determinization's record), and what a match delegates to its deal (its deals'
seeds are :func:`chupai.core.seeds.match_deal`'s).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from enum import Enum
from typing import Any, ClassVar, TypeVar

import numpy as np

from chupai.state.compiled import ActionList, CompiledState
from chupai.state.replay import CardPlayReplay
from chupai.core.validate import (
    as_rng,
    check_players,
    check_rules,
    check_seat,
    check_seed,
    is_int,
)
from chupai.contract import TERMINAL, Event
from chupai.errors import ActionTypeError, IllegalActionError

__all__ = [
    "ActionList",
    "DealSurface",
    "MatchSurface",
    "FixedLengthMatch",
    "OpenEndedMatch",
    "StateBase",
    "foreign_action",
    "as_rng",
    "check_players",
    "check_rules",
    "check_seat",
    "check_seed",
    "is_int",
]

# determinize's test of its rng (a module constant: looked up at every call)
_GENERATOR = np.random.Generator

S = TypeVar("S", bound="StateBase")
D = TypeVar("D", bound="DealSurface")
T = TypeVar("T")
M = TypeVar("M", bound="MatchSurface")

#: how a state was made: ``("new", (args, kwargs))`` for the class itself,
#: ``(classmethod name, (args, kwargs))`` for another constructor, or
#: ``("determinize", (parent origin, its origin_len, its record, player, seed))``, the
#: record being the parent's public history in parts (:meth:`StateBase._record`)
Origin = tuple[str, tuple[Any, ...]]


def foreign_action(action: object, game: str, expected: str) -> ActionTypeError:
    """The error for ``action``, which is not an action of ``game`` at all (a Play of
    another game, a string, ...): it names the game and what ``expected`` it took."""
    kind = type(action)
    return ActionTypeError(
        f"{action!r} (a {kind.__module__}.{kind.__qualname__}) is not an action of chupai.{game}; "
        f"expected {expected}"
    )


def _decisions_of(events: Sequence[Event]) -> tuple[Any, ...]:
    return tuple(e.action for e in events if not e.automatic)


def restore(cls: type[S], origin: Origin, decisions: Sequence[Any]) -> S:
    """Rebuild a state from how it was made (``origin``) and the decisions applied since
    (the unpickler of every state)."""
    kind, payload = origin
    state: S
    if kind == "determinize":
        parent_origin, parent_origin_len, record, player, seed = payload
        parent_history = [e for part in record for e in part]
        parent = restore(cls, parent_origin, _decisions_of(parent_history[parent_origin_len:]))
        state = parent._world(player, seed)
    elif kind == "new":
        args, kwargs = payload
        state = cls(*args, **kwargs)
    else:
        args, kwargs = payload
        state = getattr(cls, kind)(*args, **kwargs)
    for action in decisions:
        state.apply(action)
    return state


class StateBase(CompiledState):
    """What ``Deal`` and ``Match`` of every game share (see :mod:`chupai.contract`).

    A subclass sets ``_origin`` in each constructor (:meth:`_made`) and defines
    ``history``, ``clone``, ``_record`` and ``_determinize`` (and ``_world_card_play``
    where the world's engine alone is cheaper to make); a ``Deal`` uses the compiled
    ``legal_actions``, ``apply``, ``apply_index`` and ``is_terminal`` of
    :class:`~chupai.state.compiled.CompiledState` and supplies its hooks, a ``Match`` delegates
    them to its deal.
    """

    __slots__ = ("_origin", "_origin_len")

    _origin: Origin
    _origin_len: int

    def _made(self, kind: str, *args: Any, **kwargs: Any) -> None:
        """Record how this state was made (for pickling): ``kind`` is ``"new"`` or the
        name of the classmethod, with the arguments that rebuild it."""
        self._origin = (kind, (args, kwargs))
        self._origin_len = 0

    @property
    def history(self) -> list[Event]:
        raise NotImplementedError

    def clone(self: S) -> S:
        raise NotImplementedError

    def _determinize(self: S, player: int, seed: int) -> S:
        """The world of :meth:`determinize` (``player`` unchecked yet), its random draws
        from the 64-bit ``seed``."""
        raise NotImplementedError

    def _decisions(self) -> tuple[Any, ...]:
        """The decisions applied since the state was made (forced steps left out)."""
        return _decisions_of(self.history[self._origin_len:])

    def determinize(self: S, player: int, rng: Any = None) -> S:
        """A copy consistent with what ``player`` knows, the cards hidden from them dealt
        again (the game's ``_determinize`` docstring says how).  ``rng``: a numpy
        ``Generator``, an int seed or ``None``; one 64-bit draw of it seeds the world."""
        g = rng if type(rng) is _GENERATOR else as_rng(rng)
        return self._world(player, g.bit_generator.random_raw())

    def determinize_card_play(self, player: int, rng: Any = None) -> Any:
        """``determinize(player, rng).card_play()`` (the same world for the same ``rng``)
        without making the world's state: the compiled card-play engine of a world, or
        ``None`` outside the card play.  What a bot that only plays out needs
        (:class:`~chupai.players.bots.MonteCarloBot`)."""
        g = rng if type(rng) is _GENERATOR else as_rng(rng)
        return self._world_card_play(player, g.bit_generator.random_raw())

    def _world_card_play(self, player: int, seed: int) -> Any:
        """The engine of :meth:`determinize_card_play` from the seed drawn: here the
        world's own; a game whose world engine is cheaper to make alone overrides it."""
        world: Any = self._determinize(player, seed)  # a Deal or a Match: card_play() is theirs
        return world.card_play()

    def _world(self: S, player: int, seed: int) -> S:
        """:meth:`determinize` from the seed drawn, with the record that rebuilds it."""
        new = self._determinize(player, seed)
        # the parent's decisions are read from its history when pickled, not now; the
        # world's public history is the parent's (the contract), so its length is too
        record, length = self._record()
        new._origin = ("determinize", (self._origin, self._origin_len, record, player, seed))
        new._origin_len = length
        return new

    def _record(self) -> tuple[tuple[tuple[Event, ...], ...], int]:
        """The public history as it is now, in immutable parts that concatenate to it
        (shared, not copied: a world records it at every determinization), and its length."""
        raise NotImplementedError

    def __reduce__(self) -> tuple[Any, ...]:
        return (restore, (type(self), self._origin, self._decisions()), self._extras())

    def _extras(self) -> dict[str, Any]:
        """Slots a rebuilt state takes from the pickled one (what its origin does not
        say, such as the seed a match gave its deal)."""
        return {}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)

    def __copy__(self: S) -> S:
        return self.clone()

    def __deepcopy__(self: S, memo: dict[int, Any]) -> S:
        return self.clone()


class DealSurface(StateBase):
    """The members every game's ``Deal`` shares, each written once here.

    A subclass holds ``_rules`` and ``_seed`` (``None`` for a deal built from given
    cards); the compiled base holds ``_history`` (the :class:`~chupai.contract.Event`
    tuple, recorded compactly) and ``_engine``, the compiled engine of the card play.
    ``players``, ``current_player`` and ``hand_sizes`` read ``_engine``: a deal
    with a phase before its core exists (Guan Dan's tribute, Zheng Shangyou's exchange)
    overrides them.
    """

    __slots__ = ()

    _rules: Any
    _seed: int | None

    @property
    def rules(self) -> Any:
        return self._rules

    @property
    def seed(self) -> int | None:
        """The seed of a random deal (``None`` for one built from given cards)."""
        return self._seed

    @property
    def players(self) -> int:
        """The number of players; seats are ``0 .. players - 1``."""
        players: int = self._engine.players
        return players

    @property
    def current_player(self) -> int:
        """The seat to decide now; :data:`~chupai.contract.TERMINAL` once over."""
        return TERMINAL if self.is_terminal() else int(self._engine.current)

    @property
    def history(self) -> list[Event]:
        """Every public event, in order (a copy; the game's ``Deal`` docstring lists them)."""
        return list(self._history)

    def _record(self) -> tuple[tuple[tuple[Event, ...], ...], int]:
        events: tuple[Event, ...] = self._history  # the compiled base's tuple, kept until the next action
        return (events,), len(events)

    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(self._engine.hand_sizes())

    def _extras(self) -> dict[str, Any]:
        return {"_seed": self._seed}

    def _replays(self, history: Sequence[Event]) -> bool:
        """Apply the decisions of ``history`` (a deal's public history) to this fresh
        deal: did that reproduce ``history`` exactly (the forced steps included)?
        ``False`` as soon as an event is not legal here."""
        try:
            for event in history:
                if event.automatic:
                    continue
                if self.current_player != event.seat:
                    return False
                self.apply(event.action)
        except IllegalActionError:
            return False
        return self._history == tuple(history)

    @property
    def phase(self) -> Enum:
        """The game's ``Phase`` member (:mod:`chupai.contract`): each game's ``Deal``
        says which."""
        raise NotImplementedError

    def card_play(self) -> Any:
        """A copy of the compiled engine of the card play, ``None`` outside it: each
        game's ``Deal`` says how."""
        raise NotImplementedError

    def _play_engine(self, hands: Sequence[Any]) -> Any:
        """The engine of this deal's card play at its start, the seats holding ``hands``
        (what the start of the card play builds), or ``None`` in a game whose card play
        cannot be replayed from the hands it starts with (cards come into the hands
        during it): here ``None``."""
        return None

    def card_play_replay(self, seats: Iterable[int]) -> CardPlayReplay | None:
        """This deal's card play so far, to be replayed on other hands, the decisions of
        ``seats`` checked (:class:`~chupai.state.replay.CardPlayReplay`); ``None``
        before the card play or in a game whose card play cannot be replayed (Gan Deng
        Yan's draws, Chinese Ten's captures)."""
        if not isinstance(seats, Iterable) or isinstance(seats, str):
            raise TypeError(f"seats must be an iterable of seats (ints), not {seats!r}")
        seats = [check_seat(s, self.players, "seats") for s in seats]
        if type(self)._play_engine is DealSurface._play_engine or self.card_play() is None:
            return None
        events = [e for e in self._history if e.phase == "play"]
        return CardPlayReplay(self._play_engine, events, seats, self.players)

    def _replayed(self: D, setup: Callable[[D], None]) -> D | None:
        """A copy of this deal set up anew by ``setup`` (the game's ``_setup`` called on
        the copy, for a determinized deal) with this deal's decisions replayed on it, or
        ``None`` if ``setup`` refuses (``ValueError``) or the replay gives another public
        history or phase (the slow reference path of ``determinize``)."""
        new = shallow_clone(self)
        try:
            setup(new)
        except ValueError:
            return None
        if not new._replays(self._history) or new.phase != self.phase:
            return None
        return new


class MatchSurface(StateBase):
    """The part of the state-machine surface a match of deals delegates to its deal.

    A subclass holds ``_rules``, ``_seed``, ``_deal`` (the current deal, the last one
    once over), ``_past`` (the events of the finished deals) and ``_summaries`` (one
    dict per finished deal), defines ``is_terminal()``, ``max_deals`` and
    ``_after_deal()``, called when the current deal ends (score it, deal the next one or
    end the match), and names in ``_COPIED`` its slots holding lists (the standing) that
    a copy must not share.
    """

    __slots__ = ()

    #: the list slots of the standing, copied (not shared) by clone() and determinize()
    _COPIED: ClassVar[tuple[str, ...]] = ()

    _rules: Any
    _seed: int
    _deal: Any
    _past: tuple[Event, ...]
    _summaries: tuple[dict[str, Any], ...]

    @property
    def rules(self) -> Any:
        return self._rules

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def deal(self) -> Any:
        """The current deal (the last one once over).  Apply actions through the match."""
        return self._deal

    @property
    def deals(self) -> tuple[dict[str, Any], ...]:
        """A summary (a dict) of each finished deal, in order; the game's ``Match``
        docstring lists the keys."""
        return self._summaries

    @property
    def deals_played(self) -> int:
        """Deals finished so far."""
        return len(self._summaries)

    @property
    def players(self) -> int:
        """The number of players (the deals'); seats are ``0 .. players - 1``."""
        players: int = self._deal.players
        return players

    @property
    def phase(self) -> Any:
        """The phase of the current deal (its ``Phase.OVER`` once the match is over)."""
        return self._deal.phase

    @property
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else int(self._deal.current_player)

    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(self._deal.hand_sizes())

    def legal_actions(self) -> ActionList:
        """The current deal's legal actions (see the deal's ``legal_actions``)."""
        return self._deal.legal_actions()  # type: ignore[no-any-return]

    def policy_action(self, policy: str = "random", seed: int = 0) -> Any:
        """The current deal's ``policy_action`` (``None`` once the match is over)."""
        return None if self.is_terminal() else self._deal.policy_action(policy, seed)

    def apply_index(self, i: int) -> None:
        """Make item ``i`` of :meth:`legal_actions` (see the deal's ``apply_index``)."""
        if self.is_terminal():
            raise IllegalActionError(f"action {i!r}: the match is over")
        self._deal.apply_index(i)
        if self._deal.is_terminal():
            self._after_deal()

    def apply(self, action: Any) -> None:
        """Apply ``action`` to the current deal (``IllegalActionError``, state unchanged, if
        not legal); a deal that ends is scored and the next one dealt."""
        if self.is_terminal():
            raise IllegalActionError(f"{action!r}: the match is over")
        self._deal.apply(action)
        if self._deal.is_terminal():
            self._after_deal()

    def _after_deal(self) -> None:
        raise NotImplementedError

    def _standing(self) -> dict[str, Any]:
        """The match's part of an observation (its ``"match"`` key)."""
        raise NotImplementedError

    def observation(self, player: int) -> dict[str, Any]:
        """The current deal's observation, with the match's ``history`` (every deal's
        events), ``current_player`` and ``over``, plus ``"match"``: the standing (the
        game's ``Match`` docstring lists its keys)."""
        obs: dict[str, Any] = self._deal.observation(player)
        obs["current_player"] = self.current_player
        obs["over"] = self.is_terminal()
        obs["history"] = tuple(self.history)
        obs["match"] = self._standing()
        return obs

    def card_play(self) -> Any:
        """The compiled engine of the current deal (see the deal's ``card_play``), ``None``
        once the match is over."""
        return None if self.is_terminal() else self._deal.card_play()

    @property
    def history(self) -> list[Event]:
        """Every public event of every deal, in order (see the deal's ``history``)."""
        if self.is_terminal():
            return list(self._past)
        events: list[Event] = list(self._past) + list(self._deal.history)
        return events

    def _record(self) -> tuple[tuple[tuple[Event, ...], ...], int]:
        if self.is_terminal():  # the last deal's events are in _past
            return (self._past,), len(self._past)
        events: tuple[Event, ...] = self._deal._history
        return (self._past, events), len(self._past) + len(events)

    def clone(self: M) -> M:
        """An independent copy: the current deal cloned, the standing's lists copied."""
        return shallow_clone(self, cloned=("_deal",), copied=self._COPIED)

    def card_play_replay(self, seats: Iterable[int]) -> CardPlayReplay | None:
        """The current deal's card play so far, to be replayed on other hands (see the
        deal's ``card_play_replay``); ``None`` once the match is over."""
        replay: CardPlayReplay | None = self._deal.card_play_replay(seats)
        return None if self.is_terminal() else replay

    def _world_card_play(self, player: int, seed: int) -> Any:
        engine = self._deal._world_card_play(player, seed)  # checks player
        return None if self.is_terminal() else engine

    def _determinize(self: M, player: int, seed: int) -> M:
        """The match with its current deal determinized (see the deal's ``determinize``)."""
        world = self._deal._world(player, seed)  # checks player
        if self.is_terminal():
            return self.clone()
        # the deal is replaced by its world, so it is shared here rather than cloned
        other = shallow_clone(self, copied=self._COPIED)
        other._deal = world
        return other


class FixedLengthMatch(MatchSurface):
    """A match of ``max_deals`` deals whose standing is each seat's total of the deals'
    integer ``scores()``: the subclass's ``_after_deal`` adds them to ``_scores`` and
    deals the next deal while ``len(_summaries) < _max_deals``."""

    __slots__ = ()

    _scores: tuple[int, ...]
    _max_deals: int

    @property
    def max_deals(self) -> int:
        """The number of deals the match lasts."""
        return self._max_deals

    def is_terminal(self) -> bool:
        return len(self._summaries) >= self._max_deals

    def scores(self) -> tuple[int, ...]:
        """The total scores of the finished deals (exact integers)."""
        return self._scores

    def returns(self) -> list[float]:
        """The total scores of the finished deals (as the scores stand, also mid-match;
        the seat with the highest of them, if positive and alone, is :attr:`winner`)."""
        return [float(x) for x in self._scores]

    @property
    def winner(self) -> int | None:
        """The winner once the match is over: the player with the highest positive total
        score; ``None`` while the match goes on, for a tie at the top, or when nobody's
        total is positive."""
        if not self.is_terminal():
            return None
        best = max(self._scores)
        if best <= 0 or self._scores.count(best) > 1:
            return None
        return self._scores.index(best)

    def _standing(self) -> dict[str, Any]:
        """The ``"match"`` part of an observation: ``scores``, ``max_deals``,
        ``deals_played``, ``deals`` (summaries), ``over``, ``winner``."""
        return {
            "scores": self._scores,
            "max_deals": self._max_deals,
            "deals_played": len(self._summaries),
            "deals": self._summaries,
            "over": self.is_terminal(),
            "winner": self.winner,
        }


# keyed by the class and the slots cloned and copied: determinize shares what clone copies
_CLONERS: dict[tuple[type, tuple[str, ...], tuple[str, ...]], Callable[[Any], Any]] = {}


class OpenEndedMatch(MatchSurface):
    """A match that lasts until somebody wins it (or ``max_deals``, a safety cap, is
    reached: a draw): the subclass's ``_after_deal`` sets ``_winner`` and ``_over``."""

    __slots__ = ()

    _over: bool
    _winner: int | None
    _max_deals: int | None

    def is_terminal(self) -> bool:
        return self._over

    @property
    def winner(self) -> int | None:
        """Who won the match (a seat, or a team where the game has teams); ``None`` while
        it goes on and after a draw."""
        return self._winner

    @property
    def max_deals(self) -> int | None:
        """The safety cap on the number of deals (``None``: none)."""
        return self._max_deals


def _cloner(cls: type, cloned: tuple[str, ...], copied: tuple[str, ...]) -> Callable[[Any], Any]:
    """A function copying an instance of ``cls`` slot by slot, written out once per
    class and choice of ``cloned`` and ``copied`` (as ``dataclasses`` writes its
    methods): a loop over the slots with ``getattr``/``setattr`` costs ten times more,
    and clones are the bots' hot path."""
    key = (cls, cloned, copied)
    fn = _CLONERS.get(key)
    if fn is None:
        slots = [n for c in cls.__mro__ for n in c.__dict__.get("__slots__", ())]
        # a state's compiled part (engine, history, cached actions) first, in one C call
        first = "s._clone_engine()" if issubclass(cls, CompiledState) else "_new(_cls)"
        lines = ["def clone(s):", f"    o = {first}"]
        for name in slots:
            if name in cloned:
                lines.append(f"    v = s.{name}\n    o.{name} = None if v is None else v.clone()")
            elif name in copied:
                lines.append(f"    v = s.{name}\n    o.{name} = None if v is None else v.copy()")
            else:
                lines.append(f"    o.{name} = s.{name}")
        lines.append("    return o")
        namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
        exec("\n".join(lines), namespace)  # noqa: S102 - code written here from slot names
        fn = namespace["clone"]
        _CLONERS[key] = fn
    return fn


def slot_copy(obj: T, *, copied: tuple[str, ...] = ()) -> T:
    """A copy of ``obj``, an instance of a plain class with ``__slots__`` (every slot set),
    sharing every slot but the ``copied`` ones (lists: ``.copy()``), as
    :func:`shallow_clone` copies a state."""
    other: T = _cloner(type(obj), (), copied)(obj)
    return other


def shallow_clone(state: S, *, cloned: tuple[str, ...] = (), copied: tuple[str, ...] = ()) -> S:
    """A copy of ``state`` sharing every slot (immutable values) but the ``cloned`` ones
    (states and engines: ``.clone()``, ``None`` kept) and the ``copied`` ones (lists:
    ``.copy()``).  Every slot must be set."""
    other: S = _cloner(type(state), cloned, copied)(state)
    return other
