"""Zheng Shangyou state machines: one deal (:class:`Deal`) and a whole game (:class:`Match`).

The surface is the library's (see ``chupai.guandan.game``): ``current_player``,
``legal_actions()``, ``apply(action)``, ``clone()``, ``is_terminal()``, ``returns()``,
``history``, ``observation(player)``, ``determinize(player, rng)``, ``card_play()``.
The card play runs in C (:class:`chupai.zhengshangyou._engine.DealCore`); this module
adds the card exchange (``spec/zhengshangyou.md``, "Next deal and the card exchange"),
the points and the end of the game, observations and determinization.

>>> deal = Deal(seed=7)
>>> deal.phase, deal.hand_sizes()
('play', (14, 14, 13, 13))
>>> while not deal.is_terminal():
...     deal.apply(deal.legal_actions()[0])
>>> sorted(deal.points), sorted(deal.returns())
([0, 0, 1, 2], [-0.75, -0.75, 0.25, 1.25])

Actions
-------
* during the card play: a :class:`~chupai.zhengshangyou.Play` (from
  ``legal_actions()``, :func:`~chupai.zhengshangyou.legal_plays` or
  :func:`~chupai.zhengshangyou.classify`) or :data:`PASS`;
* during the exchange: :class:`PayCard`, :class:`TakeCard`, :class:`GiveCard`.

Anything else, or anything not legal now, raises
:class:`chupai.errors.IllegalActionError` (a ``ValueError``) naming the action; the
state is unchanged.

The card exchange, exactly as implemented
-----------------------------------------
From the second deal on the new hands are dealt (from the previous (n-1)th finisher,
who deals and leads), then, for n >= 4 players, in this order:

1. the (n-1)th and then the nth finisher of the previous deal each put their highest
   card face up (:class:`PayCard`; order 3 < .. < A < 2 < BJ < RJ; a decision only
   when several suits of the highest rank are held, otherwise automatic);
2. the first finisher takes one of the two (:class:`TakeCard`), the second finisher
   the other (automatic);
3. the first and then the second finisher each put any card of their hand face up
   (:class:`GiveCard`; the card just received included);
4. the (n-1)th finisher takes one of the two (:class:`TakeCard`), the nth the other.

With n = 3 only the last finisher pays: they pay, the first finisher takes the card
(automatic), gives a card, and the last takes it (automatic).  With n = 2 there is no
exchange.  Automatic steps appear in ``history`` with ``automatic=True``.  Every card
of the exchange is public: a card taken stays publicly known to be in its taker's
hand until they play it.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from chupai._core import NUM_FACES
from chupai._state import (
    DealSurface,
    MatchSurface,
    as_rng,
    check_players,
    check_rules,
    check_seat,
    check_seed,
    derive_seed,
)
from chupai.actions import PASS
from chupai.cards import Cards, face_name, parse_face
from chupai._sampling import deal_hidden
from chupai.errors import IllegalActionError
from chupai.zhengshangyou._engine import MAX_PLAYERS, MIN_PLAYERS, DealCore
from chupai.zhengshangyou._movegen import legal_plays
from chupai.zhengshangyou.play import Play, face_value
from chupai.zhengshangyou.rules import Rules

__all__ = [
    "PASS",
    "Deal",
    "GiveCard",
    "IllegalActionError",
    "Match",
    "PayCard",
    "TakeCard",
    "decision_choice",
    "exchange_choice",
    "winner_of",
]

#: the game-order value of every face
_VALUES = tuple(face_value(f) for f in range(NUM_FACES))


# --- actions ------------------------------------------------------------------------------
def _canonical_card(card: Any) -> str:
    if not isinstance(card, str):
        raise ValueError(f"card {card!r} must be a card string such as '7S'")
    return face_name(parse_face(card))


@dataclass(frozen=True)
class PayCard:
    """A last finisher puts ``card``, their highest, face up (a decision only among tied
    suits).  ``automatic`` marks forced steps; it is not part of the identity."""

    card: str
    automatic: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", _canonical_card(self.card))

    def __repr__(self) -> str:
        return f"PayCard({self.card!r}{', automatic=True' if self.automatic else ''})"


@dataclass(frozen=True)
class TakeCard:
    """A player takes the face-up card ``card`` (the other one goes to their partner in
    the exchange).  ``automatic`` marks forced steps; it is not part of the identity."""

    card: str
    automatic: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", _canonical_card(self.card))

    def __repr__(self) -> str:
        return f"TakeCard({self.card!r}{', automatic=True' if self.automatic else ''})"


@dataclass(frozen=True)
class GiveCard:
    """The first or second finisher puts ``card``, an unwanted card, face up (automatic
    only for a hand of one card; ``automatic`` is not part of the identity)."""

    card: str
    automatic: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", _canonical_card(self.card))

    def __repr__(self) -> str:
        return f"GiveCard({self.card!r}{', automatic=True' if self.automatic else ''})"


_EXCHANGE_ACTIONS = (PayCard, TakeCard, GiveCard)


def exchange_choice(actions: Sequence[Any]) -> Any:
    """A sensible choice among the exchange actions of one step (for bots): take the
    highest card, give the lowest, pay any of the tied suits.

    >>> exchange_choice([GiveCard("2S"), GiveCard("5H"), GiveCard("KD")])
    GiveCard('5H')
    """
    if not actions:
        raise ValueError("no actions to choose from")
    value = [face_value(parse_face(a.card)) for a in actions]
    best = max(value) if isinstance(actions[0], TakeCard) else min(value)
    return actions[value.index(best)]


def decision_choice(state: Any, actions: Sequence[Any]) -> Any:
    """The bots' choice outside card play: :func:`exchange_choice`."""
    return exchange_choice(actions)


# --- helpers --------------------------------------------------------------------------------
def _faces(mask: int) -> list[int]:
    return [f for f in range(NUM_FACES) if mask >> f & 1]


def _top_faces(mask: int) -> list[int]:
    """The faces of the highest card of a hand (several for tied suits)."""
    faces = _faces(mask)
    best = max(_VALUES[f] for f in faces)
    return [f for f in faces if _VALUES[f] == best]


def _check_players(players: Any) -> int:
    return check_players(players, MIN_PLAYERS, MAX_PLAYERS)


def _check_rules(rules: Any) -> Rules:
    return check_rules(rules, Rules, "zhengshangyou")


def _exchange_steps(previous: tuple[int, ...]) -> tuple[tuple[str, int], ...]:
    """The exchange steps after a deal with this finishing order: (kind, seat)."""
    n = len(previous)
    first, second, penult, last = previous[0], previous[1], previous[-2], previous[-1]
    if n == 2:
        return ()
    if n == 3:
        return (("pay", last), ("take_paid", first), ("give", first), ("take_given", last))
    return (
        ("pay", penult),
        ("pay", last),
        ("take_paid", first),
        ("give", first),
        ("give", second),
        ("take_given", penult),
    )


# --- one deal ---------------------------------------------------------------------------------
class Deal(DealSurface):
    """One Zheng Shangyou deal: the card exchange (from the second deal on), then the play.

    ``Deal(seed, players=4)`` is a random first deal: a random dealer deals the 54 cards
    one at a time starting with themselves and leads.  :meth:`from_hands` builds any
    deal, with the exchange when ``previous`` (the previous deal's finishing order) is
    given.  See the module docstring for the actions and the exchange.

    Attributes (read-only): ``phase`` (``"exchange"``, ``"play"``, ``"over"``),
    ``current_player``, ``players``, ``dealer``, ``previous``, ``history``,
    ``finishing_order``, ``points``, ``rules``, ``seed``.  ``history`` is every public
    event as ``(seat, action)``: exchange steps (automatic ones too), plays and passes,
    in order.
    """

    __slots__ = (
        "_core",
        "_dealer",
        "_hands",
        "_history",
        "_known",
        "_last_play",
        "_legal",
        "_n",
        "_phase",
        "_previous",
        "_rules",
        "_seed",
        "_step",
        "_steps",
        "_table",
        "_trick_start",
    )

    def __init__(self, seed: int | None = None, *, rules: Rules | None = None, players: int = 4) -> None:
        seed = check_seed(seed)
        rules = _check_rules(rules)
        n = _check_players(players)
        core = DealCore.random(seed, players=n, rules=rules)
        self._setup([core.hand(s).lo for s in range(n)], core.current, None, rules)
        self._seed = seed

    @classmethod
    def from_hands(
        cls,
        hands: Sequence[Cards | str | Iterable[str]],
        *,
        dealer: int | None = None,
        previous: Sequence[int] | None = None,
        rules: Rules | None = None,
    ) -> Deal:
        """An explicit deal.

        Args:
            hands: 2..8 one-deck hands (``Cards`` or card strings), no card twice; a
                real deal has all 54 cards, tests may use fewer.
            dealer: the seat that dealt and leads; required without ``previous``.
            previous: the previous deal's finishing order (every seat once).  Given,
                the deal starts with the card exchange and the previous (n-1)th
                finisher deals and leads (``dealer``, if given, must be that seat).
            rules: a :class:`~chupai.zhengshangyou.Rules`.
        """
        self = object.__new__(cls)
        rules = _check_rules(rules)
        if isinstance(hands, (str, Cards)):
            raise ValueError(f"expected a sequence of hands, not {hands!r}")
        n = _check_players(len(hands))
        masks, seen = [], 0
        for s, h in enumerate(hands):
            c = h if isinstance(h, Cards) else Cards(h, decks=1)
            if len(c.layers) > 1 or c.lo & seen:
                raise ValueError(f"hand {s} ({c}) repeats a card; Zheng Shangyou uses one deck")
            seen |= c.lo
            masks.append(c.lo)
        prev = None
        if previous is not None:
            prev = tuple(check_seat(s, n, "previous seat") for s in previous)
            if sorted(prev) != list(range(n)):
                raise ValueError(f"previous must name every seat 0-{n - 1} once, not {tuple(previous)!r}")
            if dealer is not None and dealer != prev[-2]:
                raise ValueError(f"dealer {dealer!r}: after {prev} the (n-1)th finisher, seat {prev[-2]}, deals")
            dealer = prev[-2]
        elif dealer is None:
            raise ValueError("dealer is required for a deal without a previous deal")
        self._setup(masks, check_seat(dealer, n, "dealer"), prev, rules)
        self._seed = None
        return self

    # -- construction --------------------------------------------------------------------------
    def _setup(self, masks: list[int], dealer: int, previous: tuple[int, ...] | None, rules: Rules) -> None:
        n = len(masks)
        if not masks[dealer]:
            raise ValueError(f"the dealer, seat {dealer}, holds no cards")
        self._rules = rules
        self._n = n
        self._dealer = dealer
        self._previous = previous
        self._hands = list(masks)
        self._core = None
        self._history: list[tuple[int, Any]] = []
        self._known = [0] * n
        self._table: list[tuple[int, int]] = []  # face-up cards: (from seat, face)
        self._last_play = None
        self._trick_start = 0
        self._legal = None
        self._steps = _exchange_steps(previous) if previous is not None else ()
        self._step = 0
        for kind, seat in self._steps:
            if kind == "pay" and not masks[seat]:
                raise ValueError(f"seat {seat} holds no card to pay in the exchange")
        self._phase = "exchange"
        self._advance()

    # -- the exchange ----------------------------------------------------------------------------
    def _options(self) -> tuple[Any, ...]:
        """The choices of the current exchange step."""
        kind, seat = self._steps[self._step]
        if kind == "pay":
            return tuple(PayCard(face_name(f)) for f in _top_faces(self._hands[seat]))
        if kind == "give":
            return tuple(GiveCard(face_name(f)) for f in _faces(self._hands[seat]))
        return tuple(TakeCard(face_name(f)) for _, f in sorted(self._table, key=lambda t: t[1]))

    def _advance(self) -> None:
        """Run the forced steps of the exchange up to the next decision or the play."""
        self._legal = None
        while self._step < len(self._steps):
            options = self._options()
            if len(options) > 1:
                return
            (only,) = options
            self._do(type(only)(only.card, automatic=True))
        self._start_play()

    def _do(self, action: Any) -> None:
        """Carry out the current exchange step with ``action`` (already known legal)."""
        kind, seat = self._steps[self._step]
        face = parse_face(action.card)
        self._history.append((seat, action))
        if kind in ("pay", "give"):
            self._hands[seat] &= ~(1 << face)
            self._known[seat] &= ~(1 << face)
            self._table.append((seat, face))
        else:
            self._receive(seat, face)
            for _, other in self._table:
                if other != face:
                    partner = self._partner(kind)
                    self._history.append((partner, TakeCard(face_name(other), automatic=True)))
                    self._receive(partner, other)
            self._table = []
        self._step += 1

    def _partner(self, kind: str) -> int:
        """Who gets the face-up card left over: the second finisher or the nth."""
        return self._previous[1] if kind == "take_paid" else self._previous[-1]

    def _receive(self, seat: int, face: int) -> None:
        self._hands[seat] |= 1 << face
        self._known[seat] |= 1 << face

    def _start_play(self) -> None:
        self._core = DealCore.from_hands([Cards.from_masks(m) for m in self._hands], current=self._dealer, rules=self._rules)
        self._hands = None
        self._phase = "play"
        self._trick_start = len(self._history)

    # -- state ---------------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self._n

    @property
    def dealer(self) -> int:
        """The seat that dealt and leads the card play."""
        return self._dealer

    @property
    def previous(self) -> tuple[int, ...] | None:
        """The previous deal's finishing order, or ``None`` for a first deal."""
        return self._previous

    @property
    def phase(self) -> str:
        """``"exchange"``, ``"play"`` or ``"over"``."""
        return self._phase

    @property
    def current_player(self) -> int:
        """The seat to decide now; -1 once the deal is over."""
        if self._core is not None:
            return self._core.current
        return self._steps[self._step][1]

    def is_terminal(self) -> bool:
        return self._phase == "over"

    @property
    def finishing_order(self) -> tuple[int, ...]:
        """Seats out so far; once over, every seat (the one left holding cards last)."""
        return self._core.finishing_order if self._core is not None else ()

    @property
    def points(self) -> tuple[int, ...]:
        """Each seat's points so far in this deal: 2 for the first out, 1 for the second."""
        if self._core is None:
            return (0,) * self._n
        return self._core.points()

    def returns(self) -> list[float]:
        """Once over, each seat's points (2 for the first player out, 1 for the second)
        less the mean points of the deal, a zero sum; zeros before."""
        if self._phase != "over":
            return [0.0] * self._n
        points = self._core.points()
        mean = sum(points) / self._n
        return [p - mean for p in points]

    def hand(self, seat: int) -> Cards:
        """The cards ``seat`` holds now (full information; see :meth:`observation`)."""
        seat = check_seat(seat, self._n, "seat")
        return self._core.hand(seat) if self._core is not None else Cards.from_masks(self._hands[seat])

    @property
    def hands(self) -> tuple[Cards, ...]:
        return tuple(self.hand(s) for s in range(self._n))

    def hand_sizes(self) -> tuple[int, ...]:
        if self._core is not None:
            return self._core.hand_sizes()
        return tuple(m.bit_count() for m in self._hands)

    @property
    def known_cards(self) -> tuple[Cards, ...]:
        """Per seat, the cards publicly known to be in that hand (taken in the exchange)
        that it has not played since."""
        return tuple(Cards.from_masks(m) for m in self._known)

    @property
    def table(self) -> tuple[tuple[int, str], ...]:
        """The exchange's face-up cards waiting to be taken: (from seat, card)."""
        return tuple((s, face_name(f)) for s, f in self._table)

    @property
    def trick(self) -> tuple[Play | None, int, int]:
        """``(last play, who made it, passes since)``; ``(None, -1, 0)`` when leading."""
        core = self._core
        if core is None or core.last_player < 0:
            return None, -1, 0
        return self._last_play, core.last_player, core.passes

    # -- actions -----------------------------------------------------------------------------
    def legal_actions(self) -> list[Any]:
        """The current player's actions: every play (every suit choice) and ``PASS`` when
        following; the choices of the pending exchange step; ``[]`` when over."""
        if self._phase == "over":
            return []
        if self._legal is None:
            if self._core is not None:
                acts = list(self._core.legal_plays())
                if self._core.can_pass():
                    acts.append(PASS)
            else:
                acts = list(self._options())
            self._legal = acts
        return list(self._legal)

    def apply(self, action: Any) -> None:
        """Make ``action`` for the current player; ``IllegalActionError`` (state unchanged)
        if it is not legal now."""
        if self._phase == "over":
            raise IllegalActionError(f"{action!r}: the deal is over")
        if self._core is not None:
            if action is PASS:
                if not self._core.can_pass():
                    raise IllegalActionError(f"PASS: seat {self._core.current} is on lead and may not pass")
            elif isinstance(action, Play):
                self._check_play(action)
            else:
                raise IllegalActionError(f"{action!r} is not legal in the play phase (a Play or PASS)")
            self._apply_play(action)
            return
        seat = self._steps[self._step][1]
        options = self._options()
        if not isinstance(action, _EXCHANGE_ACTIONS) or action not in options:
            raise IllegalActionError(
                f"{action!r} is not legal now: seat {seat} must choose in the exchange among {list(options)!r}"
            )
        self._do(action)
        self._advance()

    def _check_play(self, play: Play) -> None:
        """``IllegalActionError`` unless ``play`` is held, is a play of its own cards under
        these rules and beats the trick's last play."""
        core = self._core
        seat = core.current
        if not play.cards <= core.hand(seat):
            raise IllegalActionError(f"{play!r}: seat {seat} does not hold those cards")
        if play not in set(legal_plays(play.cards, rules=self._rules)):
            raise IllegalActionError(f"{play!r} is not a legal play under these rules")
        if core.last_player >= 0 and not play.beats(self._last_play):
            raise IllegalActionError(f"{play!r} does not beat {self._last_play!r}")

    def _apply_play(self, action: Any) -> None:
        """Make a play or pass already known legal."""
        core = self._core
        seat = core.current
        if action is PASS:
            core.pass_turn()
        else:
            core.play(action)
            self._last_play = action
            self._known[seat] &= ~action._lo
        self._history.append((seat, action))
        self._legal = None
        if core.over:
            self._phase = "over"
        elif core.last_player < 0:
            self._trick_start = len(self._history)

    def card_play(self) -> DealCore | None:
        """A copy of the compiled card-play engine (for bots and playouts), or ``None``
        outside the card play (exchange, deal over)."""
        return self._core.clone() if self._phase == "play" else None

    # -- copies, views ---------------------------------------------------------------------
    def clone(self) -> Deal:
        """An independent copy (the core is copied in C; plays are shared, being immutable)."""
        other = object.__new__(Deal)
        for name in Deal.__slots__:
            setattr(other, name, getattr(self, name))
        other._core = self._core.clone() if self._core is not None else None
        other._hands = list(self._hands) if self._hands is not None else None
        other._history = list(self._history)
        other._known = list(self._known)
        other._table = list(self._table)
        return other

    def played_cards(self) -> tuple[Cards, ...]:
        """The cards each seat has played so far."""
        masks = [0] * self._n
        for seat, action in self._history:
            if isinstance(action, Play):
                masks[seat] |= action._lo
        return tuple(Cards.from_masks(m) for m in masks)

    def observation(self, player: int) -> dict[str, Any]:
        """What seat ``player`` knows: their hand and everything public, nothing hidden.

        Keys: ``player``, ``players``, ``hand``, ``dealer``, ``previous``, ``phase``,
        ``current_player``, ``hand_sizes``, ``finished`` (finishing order so far),
        ``trick`` (``last_play``, ``last_player``, ``passes``, ``plays``: the trick's
        events), ``history`` (all public events), ``played`` (cards played per seat),
        ``known`` (cards publicly known to be in each hand), ``table`` (face-up exchange
        cards), ``points``.
        """
        p = check_seat(player, self._n)
        last, last_player, passes = self.trick
        return {
            "player": p,
            "players": self._n,
            "hand": self.hand(p),
            "dealer": self._dealer,
            "previous": self._previous,
            "phase": self._phase,
            "current_player": self.current_player,
            "hand_sizes": self.hand_sizes(),
            "finished": self.finishing_order if self._phase != "over" else self.finishing_order[:-1],
            "trick": {
                "last_play": last,
                "last_player": last_player,
                "passes": passes,
                "plays": tuple(self._history[self._trick_start :]) if self._core is not None else (),
            },
            "history": tuple(self._history),
            "played": self.played_cards(),
            "known": self.known_cards,
            "table": self.table,
            "points": self.points,
        }

    # -- determinization ---------------------------------------------------------------------
    def determinize(self, player: int, rng: Any = None, *, max_tries: int = 10000) -> Deal:
        """A full deal consistent with what ``player`` knows, the hidden cards re-dealt.

        ``player``'s hand and the publicly known cards stay where they are; every other
        card in the other hands is dealt uniformly to them with their exact sizes, among
        the deals the public history allows (a payer held no card above the one they
        paid, nor another suit of its rank when the payment was forced, but another one
        when it was a decision).  The result replays the public history from the implied
        deal, so it is reachable exactly as this one was.  ``rng``: a numpy
        ``Generator``, an int seed or ``None``.
        """
        p = check_seat(player, self._n)
        g = as_rng(rng)
        others = [s for s in range(self._n) if s != p]
        now = [self.hand(s).lo for s in range(self._n)]
        pool, need = [], []
        for s in others:
            hidden = now[s] & ~self._known[s]
            pool.extend(_faces(hidden))
            need.append(hidden.bit_count())
        forbidden = [self._forbidden(s) for s in others]
        for _ in range(max_tries):
            split = deal_hidden(pool, need, forbidden, g)
            if split is None:
                break
            hands = list(now)
            for s, faces in zip(others, split):
                hands[s] = self._known[s] | sum(1 << f for f in faces)
            new = self._replay(hands)
            if new is not None:
                return new
        raise RuntimeError("no deal consistent with the observation was found")

    def _forbidden(self, seat: int) -> set[int]:
        """Faces the public history rules out of the unknown part of ``seat``'s hand."""
        out: set[int] = set()
        for s, action in self._history:
            if s == seat and isinstance(action, PayCard):
                face = parse_face(action.card)
                v = _VALUES[face]
                out.update(f for f in range(NUM_FACES) if _VALUES[f] > v)
                if action.automatic:
                    out.update(f for f in range(NUM_FACES) if _VALUES[f] == v and f != face)
        return out

    def _replay(self, now: list[int]) -> Deal | None:
        """This deal's public history replayed from the deal implied by the hands ``now``,
        or ``None`` if that deal does not give the same history."""
        start = list(now)
        for seat, action in self._history:
            if isinstance(action, Play):
                start[seat] |= action._lo
        for seat, action in reversed(self._history):
            if isinstance(action, TakeCard):
                start[seat] &= ~(1 << parse_face(action.card))
            elif isinstance(action, (PayCard, GiveCard)):
                start[seat] |= 1 << parse_face(action.card)
        try:
            new = object.__new__(Deal)
            new._setup(start, self._dealer, self._previous, self._rules)
            new._seed = self._seed
            for seat, action in self._history:
                if getattr(action, "automatic", False):
                    continue
                if new.current_player != seat:
                    return None
                new.apply(action)
        except (IllegalActionError, ValueError):
            return None
        same = [(s, a, getattr(a, "automatic", False)) for s, a in new._history] == [
            (s, a, getattr(a, "automatic", False)) for s, a in self._history
        ]
        if not same or new._phase != self._phase or new.current_player != self.current_player:
            return None
        return new

    # -- printing ------------------------------------------------------------------------------
    def __str__(self) -> str:
        prev = "first deal" if self._previous is None else f"after {self._previous}"
        lines = [f"Zheng Shangyou deal, {self._n} players, dealer {self._dealer} ({prev}), phase {self._phase}"]
        cur = self.current_player
        order = self.finishing_order
        for s in range(self._n):
            h = self.hand(s)
            mark = ">" if s == cur else " "
            out = f" (out {order.index(s) + 1})" if s in order[: len(order) - (self._phase == "over")] else ""
            lines.append(f" {mark}seat {s} [{len(h):2d}]: {h}{out}")
        last, last_player, passes = self.trick
        if self._phase == "over":
            lines.append(f"  over: finishing order {order}, points {self.points}")
        elif self._core is None:
            lines.append(f"  exchange: seat {cur} chooses among {self.legal_actions()}; face up {self.table}")
        elif last is None:
            lines.append(f"  seat {cur} leads")
        else:
            lines.append(f"  trick: seat {last_player} played {last} ({passes} pass(es)); seat {cur} to act")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<zhengshangyou.Deal {self._n} players phase {self._phase} sizes {self.hand_sizes()}>"


# --- a whole game ------------------------------------------------------------------------------
def winner_of(scores: Sequence[int], order: Sequence[int], target: int) -> int | None:
    """The game's winner after a deal (``spec/zhengshangyou.md``, "Table and deal"), or
    ``None``: among the players at ``target`` or more, the higher total, then the better
    finish in that deal (``order``: its finishing order)."""
    reached = [s for s in range(len(scores)) if scores[s] >= target]
    if not reached:
        return None
    return min(reached, key=lambda s: (-scores[s], list(order).index(s)))


class Match(MatchSurface):
    """A whole Zheng Shangyou game: deals until a player reaches ``rules.target`` points.

    Args:
        seed: the match seed (``None``: drawn from ``np.random.default_rng()``); deal
            ``i`` is dealt from a seed derived from it.
        rules: a :class:`~chupai.zhengshangyou.Rules`.
        players: 2..8 (default 4).
        dealer: the first dealer (``None``: drawn from the first deal's seed).
        max_deals: a safety cap: after this many deals without a winner the match ends
            as a draw (``returns()`` all 0).  ``None``: no cap.

    The match moves to the next deal by itself when a deal ends (the last player out
    before the last deals, then the card exchange), so ``current_player`` always names
    a decision unless the match is over.
    """

    __slots__ = ("_deal", "_deals_played", "_max_deals", "_n", "_over", "_past", "_rules", "_scores",
                 "_seed", "_summaries", "_winner")

    def __init__(
        self,
        seed: int | None = None,
        *,
        rules: Rules | None = None,
        players: int = 4,
        dealer: int | None = None,
        max_deals: int | None = 1000,
    ) -> None:
        self._seed = check_seed(seed)
        self._rules = _check_rules(rules)
        self._n = _check_players(players)
        if dealer is not None:
            dealer = check_seat(dealer, self._n, "dealer")
        if max_deals is not None and (isinstance(max_deals, bool) or not isinstance(max_deals, int) or max_deals < 1):
            raise ValueError(f"max_deals must be a positive int or None, not {max_deals!r}")
        self._max_deals = max_deals
        self._scores = [0] * self._n
        self._deals_played = 0
        self._winner: int | None = None
        self._over = False
        self._past: tuple[tuple[int, Any], ...] = ()
        self._summaries: tuple[dict[str, Any], ...] = ()
        self._deal = self._new_deal(None, dealer)

    def _new_deal(self, previous: tuple[int, ...] | None, dealer: int | None = None) -> Deal:
        seed = derive_seed(self._seed, self._deals_played)
        if previous is not None:
            dealer = previous[-2]
        core = DealCore.random(seed, players=self._n, dealer=dealer, rules=self._rules)
        deal = Deal.from_hands([core.hand(s) for s in range(self._n)], dealer=core.current,
                               previous=previous, rules=self._rules)
        deal._seed = seed
        return deal

    def _after_deal(self) -> None:
        deal = self._deal
        order = deal.finishing_order
        for s, pts in enumerate(deal.points):
            self._scores[s] += pts
        self._deals_played += 1
        self._past = self._past + tuple(deal._history)
        self._summaries = self._summaries + (
            {"deal": self._deals_played - 1, "dealer": deal.dealer, "finishing_order": order,
             "points": deal.points, "scores": tuple(self._scores)},
        )
        self._winner = winner_of(self._scores, order, self._rules.target)
        if self._winner is not None or (self._max_deals is not None and self._deals_played >= self._max_deals):
            self._over = True
        else:
            self._deal = self._new_deal(order)


    # -- the common surface (the rest: MatchSurface) ----------------------------------------
    @property
    def players(self) -> int:
        return self._n

    def is_terminal(self) -> bool:
        return self._over

    def returns(self) -> list[float]:
        """+1 for the winner and ``-1 / (n - 1)`` for every other player (a zero sum);
        zeros before the end and after a draw (``max_deals`` reached)."""
        if self._winner is None:
            return [0.0] * self._n
        return [1.0 if s == self._winner else -1.0 / (self._n - 1) for s in range(self._n)]

    @property
    def scores(self) -> tuple[int, ...]:
        """Each player's points so far (finished deals)."""
        return tuple(self._scores)

    @property
    def winner(self) -> int | None:
        return self._winner

    @property
    def deals_played(self) -> int:
        return self._deals_played

    @property
    def deals(self) -> tuple[dict[str, Any], ...]:
        """A summary of each finished deal (dealer, finishing order, points, scores after)."""
        return self._summaries

    def clone(self) -> Match:
        other = object.__new__(Match)
        for name in Match.__slots__:
            setattr(other, name, getattr(self, name))
        other._scores = list(self._scores)
        other._deal = self._deal.clone()
        return other

    def observation(self, player: int) -> dict[str, Any]:
        """The current deal's observation plus ``"match"``: ``scores``, ``target``,
        ``deals_played``, ``deals`` summaries, ``winner``, ``over``."""
        obs = self._deal.observation(player)
        obs["match"] = {
            "scores": self.scores,
            "target": self._rules.target,
            "deals_played": self._deals_played,
            "deals": self._summaries,
            "winner": self._winner,
            "over": self._over,
        }
        return obs

    def __str__(self) -> str:
        state = (f"won by seat {self._winner}" if self._winner is not None
                 else "over (max_deals reached)" if self._over else "in progress")
        head = (f"Zheng Shangyou match, {self._n} players, target {self._rules.target}: scores "
                f"{self.scores}, {self._deals_played} deal(s) played, {state}")
        return head + "\n" + str(self._deal)

    def __repr__(self) -> str:
        return f"<zhengshangyou.Match seed {self._seed} scores {self.scores} deals {self._deals_played}>"

