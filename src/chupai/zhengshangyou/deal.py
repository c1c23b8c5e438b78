"""One Zheng Shangyou deal (:class:`Deal`): the card exchange (from the second deal on,
:mod:`chupai.zhengshangyou.exchange`), then the card play in C
(:class:`chupai.zhengshangyou._engine.DealEngine`); observations and determinization.

>>> deal = Deal(seed=7)
>>> deal.phase, deal.hand_sizes()
(<Phase.PLAY: 'play'>, (14, 14, 13, 13))
>>> while not deal.is_terminal():
...     deal.apply(deal.legal_actions()[0])
>>> sorted(deal.points), sorted(deal.returns())
([0, 0, 1, 2], [-0.75, -0.75, 0.25, 1.25])
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

import numpy as np

from chupai.core.records import BLACK_JOKER_BIT, NUM_FACES, RED_JOKER_BIT
from chupai.engine.sampling import Ties, must_masks, redeal_and_replay
from chupai.state.base import (
    DealSurface,
    check_players,
    check_rules,
    check_seat,
    check_seed,
    foreign_action,
    shallow_clone,
)
from chupai.actions import PASS
from chupai.cards import Cards, face_name, parse_face
from chupai.contract import TERMINAL, Event
from chupai.errors import IllegalActionError
from chupai.zhengshangyou._engine import MAX_PLAYERS, MIN_PLAYERS, DealEngine
from chupai.zhengshangyou._world import exchange_hands, world
from chupai.zhengshangyou.exchange import (
    EXCHANGE_ACTIONS,
    VALUES,
    ExchangeStep,
    GiveCard,
    PayCard,
    TakeCard,
    exchange_steps,
)
from chupai.zhengshangyou.play import Play
from chupai.zhengshangyou.rules import Rules
from chupai.zhengshangyou.phase import Phase

__all__ = ["Deal"]


# module constants: looking an enum member up on its class costs ~0.1 us, and the
# states test the phase at every step
_PLAY, _OVER = Phase.PLAY, Phase.OVER


#: the two jokers' faces
_JOKERS = (1 << RED_JOKER_BIT) | (1 << BLACK_JOKER_BIT)
_EXPECTED = "a chupai.zhengshangyou.Play, PASS, PayCard, TakeCard or GiveCard"


def _faces(mask: int) -> list[int]:
    return [f for f in range(NUM_FACES) if mask >> f & 1]


def _top_faces(mask: int) -> list[int]:
    """The faces of the highest card of a hand (several for tied suits)."""
    faces = _faces(mask)
    best = max(VALUES[f] for f in faces)
    return [f for f in faces if VALUES[f] == best]


def _check_players(players: Any) -> int:
    return check_players(players, MIN_PLAYERS, MAX_PLAYERS)


def _check_rules(rules: Any) -> Rules:
    return check_rules(rules, Rules, "zhengshangyou")


class Deal(DealSurface):
    """One Zheng Shangyou deal: the card exchange (from the second deal on), then the play.

    ``Deal(seed, players=4)`` is a random first deal: a random dealer deals the 54 cards
    one at a time starting with themselves and leads.  :meth:`from_hands` builds any
    deal, with the exchange when ``previous`` (the previous deal's finishing order) is
    given.  See the module docstring for the actions and the exchange.

    Attributes (read-only): ``phase`` (a :class:`Phase`),
    ``current_player``, ``players``, ``dealer``, ``previous``, ``history``,
    ``finishing_order``, ``points``, ``rules``, ``seed``.  ``history`` is every public
    event as an :class:`~chupai.contract.Event`: exchange steps (``Phase.EXCHANGE``,
    forced ones ``automatic``), plays and passes (``Phase.PLAY``), in order.
    """

    game: ClassVar[str] = "zhengshangyou"

    # (the engine, the cached legal actions, the phase, the history and the trick's
    # start are the compiled base's: chupai.state.compiled.CompiledState)
    __slots__ = (
        "_dealer",
        "_dz",
        "_hands",
        "_known",
        "_n",
        "_previous",
        "_rules",
        "_seed",
        "_step",
        "_steps",
        "_table",
    )

    _engine: DealEngine | None
    _phase: Phase

    _hands: list[int] | None

    @property
    def _held(self) -> list[int]:
        """The hands as masks (during the exchange)."""
        assert self._hands is not None
        return self._hands

    def __init__(self, seed: int | None = None, *, rules: Rules | None = None, players: int = 4) -> None:
        seed = check_seed(seed)
        rules = _check_rules(rules)
        n = _check_players(players)
        engine = DealEngine.random(seed, players=n, rules=rules)
        self._setup([engine.hand(s).lo for s in range(n)], engine.current, None, rules)
        self._seed = seed
        self._made("new", seed, rules=rules, players=n)

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
                the deal starts with the card exchange and the seat
                ``rules.dealer_after(previous)`` deals and leads (``dealer``, if given,
                must be that seat).
            rules: a :class:`~chupai.zhengshangyou.Rules`.
        """
        self = cls.__new__(cls)
        rules = _check_rules(rules)
        if isinstance(hands, (str, Cards)) or not isinstance(hands, Sequence):
            raise TypeError(f"hands must be a sequence of hands, not {hands!r}")
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
            after = rules.dealer_after(prev)
            if dealer is not None and check_seat(dealer, n, "dealer") != after:
                raise ValueError(f"dealer {dealer!r}: after {prev} seat {after} deals "
                                 f"(next_dealer={rules.next_dealer!r})")
            dealer = after
        elif dealer is None:
            raise ValueError("dealer is required for a deal without a previous deal")
        dealer = check_seat(dealer, n, "dealer")
        self._setup(masks, dealer, prev, rules)
        self._seed = None
        self._made("from_hands", tuple(Cards.from_masks(m) for m in masks), dealer=dealer, previous=prev, rules=rules)
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
        self._engine = None
        self._history = []
        self._known = [0] * n
        self._watch = 0
        self._table: list[tuple[int, int]] = []  # face-up cards: (from seat, face)
        self._trick_start = 0
        self._legal = None
        self._steps = exchange_steps(previous) if previous is not None else ()
        self._dz: tuple[int, tuple[int, ...], Ties] | None = None
        self._step = 0
        for kind, seat in self._steps:
            if kind is ExchangeStep.PAY and not masks[seat]:
                raise ValueError(f"seat {seat} holds no card to pay in the exchange")
        self._phase = Phase.EXCHANGE
        self._advance()

    # -- the exchange ----------------------------------------------------------------------------
    def _options(self) -> tuple[Any, ...]:
        """The choices of the current exchange step."""
        kind, seat = self._steps[self._step]
        if kind is ExchangeStep.PAY:
            return tuple(PayCard(face_name(f)) for f in _top_faces(self._held[seat]))
        if kind is ExchangeStep.GIVE:
            return tuple(GiveCard(face_name(f)) for f in _faces(self._held[seat]))
        return tuple(TakeCard(face_name(f)) for _, f in sorted(self._table, key=lambda t: t[1]))

    def _advance(self) -> None:
        """Run the forced steps of the exchange up to the next decision or the play."""
        self._legal = None
        while self._step < len(self._steps):
            options = self._options()
            if len(options) > 1:
                return
            (only,) = options
            self._do(only, automatic=True)
        self._start_play()

    def _do(self, action: Any, automatic: bool = False) -> None:
        """Carry out the current exchange step with ``action`` (already known legal)."""
        kind, seat = self._steps[self._step]
        face = parse_face(action.card)
        self._record_event(Event(seat, action, Phase.EXCHANGE, automatic))
        if kind in (ExchangeStep.PAY, ExchangeStep.GIVE):
            self._held[seat] &= ~(1 << face)
            self._known[seat] &= ~(1 << face)
            self._table.append((seat, face))
        else:
            self._receive(seat, face)
            for _, other in self._table:
                if other != face:
                    partner = self._partner(kind)
                    self._record_event(Event(partner, TakeCard(face_name(other)), Phase.EXCHANGE, True))
                    self._receive(partner, other)
            self._table = []
        self._step += 1

    def _partner(self, kind: ExchangeStep) -> int:
        """Who gets the face-up card left over: the second finisher or the nth."""
        assert self._previous is not None
        return self._previous[1] if kind is ExchangeStep.TAKE_PAID else self._previous[-1]

    def _receive(self, seat: int, face: int) -> None:
        self._held[seat] |= 1 << face
        self._known[seat] |= 1 << face

    def _play_engine(self, hands: Sequence[Cards]) -> DealEngine:
        """The card play's engine at its start (after any exchange), the seats holding ``hands``."""
        return DealEngine.from_hands(hands, current=self._dealer, rules=self._rules)

    def _start_play(self) -> None:
        self._engine = self._play_engine([Cards.from_masks(m) for m in self._held])
        self._hands = None
        self._phase = _PLAY
        self._trick_start = self._history_len
        self._watch = sum(1 << s for s, k in enumerate(self._known) if k)

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
    def phase(self) -> Phase:
        """A :class:`Phase`: ``EXCHANGE``, ``PLAY`` or ``OVER``."""
        return self._phase

    @property
    def current_player(self) -> int:
        """The seat to decide now; :data:`~chupai.contract.TERMINAL` once over."""
        if self._phase is _OVER:
            return TERMINAL
        if self._engine is not None:
            return int(self._engine.current)
        return self._steps[self._step][1]

    @property
    def finishing_order(self) -> tuple[int, ...]:
        """Seats out so far; once over, every seat (the one left holding cards last)."""
        return self._engine.finishing_order if self._engine is not None else ()

    @property
    def points(self) -> tuple[int, ...]:
        """Each seat's points so far in this deal: 2 for the first out, 1 for the second."""
        if self._engine is None:
            return (0,) * self._n
        return tuple(self._engine.points())

    def scores(self) -> tuple[int, ...]:
        """Each seat's points so far in this deal (:attr:`points`)."""
        return self.points

    def returns(self) -> list[float]:
        """Once over, each seat's points (2 for the first player out, 1 for the second)
        less the mean points of the deal, a zero sum; zeros before."""
        if self._phase is not _OVER:
            return [0.0] * self._n
        assert self._engine is not None  # a deal is over in its card play
        points = self._engine.points()
        mean = sum(points) / self._n
        return [p - mean for p in points]

    def hand(self, seat: int) -> Cards:
        """The cards ``seat`` holds now (full information; see :meth:`observation`)."""
        seat = check_seat(seat, self._n, "seat")
        return self._engine.hand(seat) if self._engine is not None else Cards.from_masks(self._held[seat])

    @property
    def hands(self) -> tuple[Cards, ...]:
        return tuple(self.hand(s) for s in range(self._n))

    def hand_sizes(self) -> tuple[int, ...]:
        if self._engine is not None:
            return self._engine.hand_sizes()
        return tuple(m.bit_count() for m in self._held)

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
        engine = self._engine
        if engine is None or engine.last_player < 0:
            return None, -1, 0
        return self._last_play, engine.last_player, engine.passes

    # -- actions -----------------------------------------------------------------------------
    # legal_actions(), apply(), apply_index() and is_terminal() are the compiled base's
    # (chupai.state.compiled.CompiledState): the actions of the current player are every play
    # (every suit choice) and PASS when following, or the choices of the pending
    # exchange step; none once over.
    def _apply_checked(self, action: Any) -> None:
        """Make ``action`` (not an item of the current ``legal_actions()``) for the current
        player, validated in full; ``IllegalActionError`` (state unchanged) if it is not
        legal now."""
        if action is not PASS and not isinstance(action, (Play,) + EXCHANGE_ACTIONS):
            raise foreign_action(action, "zhengshangyou", _EXPECTED)
        if self._phase is _OVER:
            raise IllegalActionError(f"{action!r}: the deal is over")
        if self._engine is not None:
            if action is not PASS and not isinstance(action, Play):
                raise IllegalActionError(f"{action!r} is not legal in the play phase (a Play or PASS)")
            self._commit(action)  # the one check, in the engine: IllegalActionError, state unchanged
            return
        seat = self._steps[self._step][1]
        options = self._options()
        if not isinstance(action, EXCHANGE_ACTIONS) or action not in options:
            raise IllegalActionError(
                f"{action!r} is not legal now: seat {seat} must choose in the exchange among {list(options)!r}"
            )
        self._do(action)
        self._advance()

    def _after_action(self, seat: int, action: Any, leading: bool) -> None:
        """A seat with publicly known cards acted (the base calls it for those seats)."""
        if isinstance(action, Play):
            self._known[seat] &= ~action._lo
            if not self._known[seat]:
                self._watch &= ~(1 << seat)

    def _ended(self) -> None:
        self._phase = _OVER

    def card_play(self) -> DealEngine | None:
        """A copy of the compiled card-play engine (for bots and playouts), or ``None``
        outside the card play (exchange, deal over)."""
        return self._engine.clone() if self._phase is _PLAY and self._engine is not None else None

    # -- copies, views ---------------------------------------------------------------------
    def clone(self) -> Deal:
        """An independent copy (the engine is copied in C; plays are shared, being immutable)."""
        return shallow_clone(self, copied=("_hands", "_known", "_table"))

    def played_cards(self) -> tuple[Cards, ...]:
        """The cards each seat has played so far."""
        return self._played_cards(self._n)

    def observation(self, player: int) -> dict[str, Any]:
        """What seat ``player`` knows: their hand and everything public, nothing hidden.

        Keys: those of every game (:data:`chupai.contract.OBSERVATION_KEYS`) and
        ``dealer``, ``previous``, ``finished`` (finishing order so far),
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
            "finished": self.finishing_order if self._phase is not _OVER else self.finishing_order[:-1],
            "trick": {
                "last_play": last,
                "last_player": last_player,
                "passes": passes,
                "plays": tuple(self._history[self._trick_start :]) if self._engine is not None else (),
            },
            "history": tuple(self._history),
            "played": self.played_cards(),
            "known": self.known_cards,
            "table": self.table,
            "points": self.points,
            "over": self.is_terminal(),
        }

    # -- determinization ---------------------------------------------------------------------
    def _determinize(self, player: int, seed: int) -> Deal:
        """A full deal consistent with what ``player`` knows, the hidden cards re-dealt.

        ``player``'s hand and the publicly known cards stay where they are; every other
        card in the other hands is dealt uniformly to them with their exact sizes, among
        the deals the public history allows (a payer held no card above the one they
        paid, nor another suit of its rank when the payment was forced, but another one
        when it was a decision; a payer still to decide holds tied suits).  Passing is
        always allowed and every card played is public, so the card play proves nothing
        more.  The draw is compiled (:mod:`chupai.engine.determinize`): the engine is copied
        and its hidden cards dealt again, without replaying the history; the world is
        the state the same public history reaches from the deal it implies
        (:meth:`_determinize_replay` is the slow reference that replays it).
        """
        p = check_seat(player, self._n)
        forbid: tuple[int, ...] | None = None
        must: tuple[int, ...] | None = None
        if self._steps:
            forbid, must = self._constraints(p)
        new = shallow_clone(self, copied=("_history", "_known", "_table"))
        new._legal = None
        if self._engine is not None:
            new._engine = world(self._engine, p, self._known, forbid, must, seed)
            return new
        # the exchange: a payer still to decide (hidden from player) has tied suits (so no
        # joker: a single face), checked by rejection, in C
        assert forbid is not None
        kind, seat = self._steps[self._step]
        tied = seat if kind is ExchangeStep.PAY and seat != p else -1
        if tied >= 0:
            forbid = forbid[:tied] + (forbid[tied] | _JOKERS,) + forbid[tied + 1:]
        new._hands = exchange_hands(self._held, p, self._known, forbid, must, seed, tied)
        return new

    def _world_card_play(self, player: int, seed: int) -> DealEngine | None:
        p = check_seat(player, self._n)
        if self._phase is not _PLAY:
            return None  # (what card_play() of the world is)
        forbid, must = self._constraints(p) if self._steps else (None, None)
        assert self._engine is not None  # the card play has begun
        return world(self._engine, p, self._known, forbid, must, seed)

    def _constraints(self, player: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The per-seat forbid and must face masks of :func:`chupai.engine.determinize.deal`
        that the exchange's public record implies for the cards hidden from ``player``."""
        # the record changes only with the exchange's steps: cached for this history
        # (for good once the card play has started)
        key = -1 if self._engine is not None else len(self._history)
        cached = self._dz
        if cached is None or cached[0] != key:
            forbid = tuple(sum(1 << f for f in self._forbidden(s)) for s in range(self._n))
            cached = (key, forbid, self._decision_ties())
            self._dz = cached
        _key, forbid, ties = cached
        return forbid, must_masks(ties, player, self._n, lambda s: Cards.from_masks(self._now(s) & ~self._known[s]))

    def _now(self, seat: int) -> int:
        return self._engine.hand(seat).lo if self._engine is not None else self._held[seat]

    def _decision_ties(self) -> Ties:
        """Per payment that was a decision: the payer, the mask of the other suits of its
        rank and those the payer held then (its hand as dealt: payers pay first)."""
        start = self._dealt([self._now(s) for s in range(self._n)])
        out = []
        for seat, action, _phase, automatic in self._history:
            if isinstance(action, PayCard) and not automatic:
                face = parse_face(action.card)
                tied = sum(1 << f for f in range(NUM_FACES) if f != face and VALUES[f] == VALUES[face])
                out.append((seat, tied, Cards.from_masks(start[seat] & tied)))
        return tuple(out)

    def _dealt(self, now: list[int]) -> list[int]:
        """The hands as dealt (masks) that lead to the hands ``now`` through the public
        history."""
        start = list(now)
        for seat, action, *_ in self._history:
            if isinstance(action, Play):
                start[seat] |= action._lo
        for seat, action, *_ in reversed(self._history):
            if isinstance(action, TakeCard):
                start[seat] &= ~(1 << parse_face(action.card))
            elif isinstance(action, (PayCard, GiveCard)):
                start[seat] |= 1 << parse_face(action.card)
        return start

    def _determinize_replay(self, player: int, rng: np.random.Generator) -> Deal:
        """The reference determinization (slow, for tests and benchmarks): the hidden
        cards drawn by :func:`chupai.engine.sampling.deal_hidden` under the forbidden faces,
        the public history replayed from each draw until one reproduces it."""
        p = check_seat(player, self._n)
        others = [s for s in range(self._n) if s != p]
        now = [self.hand(s).lo for s in range(self._n)]
        pool: list[int] = []
        need, actual = [], []
        for s in others:
            hidden = _faces(now[s] & ~self._known[s])
            pool.extend(hidden)
            need.append(len(hidden))
            actual.append(hidden)
        forbidden = [self._forbidden(s) for s in others]

        def replay(split: list[list[int]]) -> Deal | None:
            hands = list(now)
            for s, faces in zip(others, split):
                hands[s] = self._known[s] | sum(1 << f for f in faces)
            return self._replay(hands)

        return redeal_and_replay(pool, need, forbidden, rng, replay, actual)

    def _forbidden(self, seat: int) -> set[int]:
        """Faces the public history rules out of the unknown part of ``seat``'s hand."""
        out: set[int] = set()
        for s, action, _phase, automatic in self._history:
            if s == seat and isinstance(action, PayCard):
                face = parse_face(action.card)
                v = VALUES[face]
                out.update(f for f in range(NUM_FACES) if VALUES[f] > v)
                if automatic:
                    out.update(f for f in range(NUM_FACES) if VALUES[f] == v and f != face)
        return out

    def _replay(self, now: list[int]) -> Deal | None:
        """This deal's public history replayed from the deal implied by the hands ``now``,
        or ``None`` if that deal does not give the same history."""
        start = self._dealt(now)
        return self._replayed(lambda new: new._setup(start, self._dealer, self._previous, self._rules))

    # -- printing ------------------------------------------------------------------------------
    def __str__(self) -> str:
        prev = "first deal" if self._previous is None else f"after {self._previous}"
        lines = [f"Zheng Shangyou deal, {self._n} players, dealer {self._dealer} ({prev}), phase {self._phase}"]
        cur = self.current_player
        order = self.finishing_order
        for s in range(self._n):
            h = self.hand(s)
            mark = ">" if s == cur else " "
            out = f" (out {order.index(s) + 1})" if s in order[: len(order) - (self._phase is _OVER)] else ""
            lines.append(f" {mark}seat {s} [{len(h):2d}]: {h}{out}")
        last, last_player, passes = self.trick
        if self._phase is _OVER:
            lines.append(f"  over: finishing order {order}, points {self.points}")
        elif self._engine is None:
            lines.append(f"  exchange: seat {cur} chooses among {self.legal_actions()}; face up {self.table}")
        elif last is None:
            lines.append(f"  seat {cur} leads")
        else:
            lines.append(f"  trick: seat {last_player} played {last} ({passes} pass(es)); seat {cur} to act")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<zhengshangyou.Deal {self._n} players phase {self._phase} sizes {self.hand_sizes()}>"
