"""One Guan Dan deal (:class:`Deal`): the tribute (:mod:`chupai.guandan.tribute`) from the
second deal on, then the card play in C (:class:`chupai.guandan._engine.DealEngine`);
observations and determinization.

>>> deal = Deal(seed=7)
>>> deal.phase, deal.hand_sizes()
(<Phase.PLAY: 'play'>, (27, 27, 27, 27))
>>> while not deal.is_terminal():
...     deal.apply(deal.legal_actions()[0])
>>> sorted(deal.returns()) in ([-4.0, -4.0, 4.0, 4.0], [-2.0, -2.0, 2.0, 2.0], [-1.0, -1.0, 1.0, 1.0])
True
"""
from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

import numpy as np

from chupai.core.records import BLACK_JOKER_BIT, NUM_FACES, RED_JOKER_BIT
from chupai.engine.sampling import Ties, must_masks, redeal_and_replay
from chupai.state.base import DealSurface, check_rules, check_seat, check_seed, foreign_action, shallow_clone
from chupai.actions import PASS
from chupai.cards import RANKS, Cards, face_name
from chupai.contract import TERMINAL, Event
from chupai.errors import IllegalActionError
from chupai.guandan._engine import RESULT_12, RESULT_13, RESULT_14, DealEngine
from chupai.guandan._world import options as _options
from chupai.guandan._world import return_faces, top_faces, tribute_hands, world
from chupai.guandan.classify import from_protocol
from chupai.guandan.play import Play, level_value, wild_face
from chupai.guandan.phase import Phase
from chupai.guandan.rules import Rules, parse_rank
from chupai.guandan.tribute import (
    PAY_TRIBUTE,
    RETURN_CARD,
    TRIBUTE_ACTIONS,
    VALUES,
    PayTribute,
    Pending,
    Tribute,
    TributeStep,
    normalize_previous,
)

# module constants: looking an enum member up on its class costs ~0.1 us, and the
# states test the phase at every step
_PLAY, _OVER = Phase.PLAY, Phase.OVER

__all__ = ["Deal"]

SEATS = 4
_RESULT_NAMES = {RESULT_12: "1-2", RESULT_13: "1-3", RESULT_14: "1-4"}
#: the two jokers' faces
_JOKERS = (1 << RED_JOKER_BIT) | (1 << BLACK_JOKER_BIT)
#: what a tribute so far proves (:func:`_tribute_record`)
_Record = tuple[int, int, int, int, tuple[int, ...]]
_EXPECTED = ("a chupai.guandan.Play, PASS, a protocol list [type, rank, cards], PayTribute, TakeTribute, "
             "ReturnCard or ChooseLeader")


def _seat(player: Any) -> int:
    return check_seat(player, SEATS)


def _level_char(level: Any) -> str:
    return RANKS[parse_rank(level, "level")]


def _check_rules(rules: Any) -> Rules:
    return check_rules(rules, Rules, "guandan")


def _watched(known: Sequence[Cards]) -> int:
    """The seats whose actions change ``known`` (a ``_watch`` mask: those holding known cards)."""
    return sum(1 << s for s, k in enumerate(known) if k)


def _decision_ties(tribute: Tribute, history: Sequence[Event]) -> Ties:
    """Per payment that was a decision: the payer, the mask of the other faces of its
    rank (the tied suits, the wild card left out) and the tied cards it held then."""
    values = VALUES[tribute.lv]
    wild = wild_face(tribute.lv)
    decided = {(e.seat, e.action.card) for e in history if isinstance(e.action, PayTribute) and not e.automatic}
    out = []
    for payer, face in tribute.paid:
        if (payer, face_name(face)) not in decided:
            continue
        tied = sum(1 << f for f in range(NUM_FACES) if f not in (face, wild) and values[f] == values[face])
        # the payer's hand when paying: now, with the tribute back and the return out
        counts = tribute.hands[payer].counts()
        counts[face] += 1
        for _receiver, to, f in tribute.returns:
            if to == payer:
                counts[f] -= 1
        held = [n if tied >> f & 1 else 0 for f, n in enumerate(counts)]
        out.append((payer, tied, Cards.from_counts(held)))
    return tuple(out)


def _tribute_record(tribute: Tribute, forbid: tuple[int, ...]) -> _Record:
    """What the tribute so far proves of the hands it started from, for
    :func:`~chupai.guandan._world.tribute_hands`: the payers and those still to pay
    (seat masks), the red jokers the payers paid less those returned to them, the
    payer deciding its payment now (-1 for none) and the ``forbid`` masks for a world
    in which that payer is hidden: its tied suits exclude a joker, its highest card
    otherwise (exact, since a world must hold them anyway, and it spares draws)."""
    payers = sum(1 << s for s in tribute.payers)
    unpaid = sum(1 << s for s in tribute.payers[len(tribute.paid):])
    reds = sum(f == RED_JOKER_BIT for _p, f in tribute.paid)
    reds -= sum(f == RED_JOKER_BIT and payers >> to & 1 for _r, to, f in tribute.returns)
    pending = tribute.pending
    paying = pending.seat if pending is not None and pending.step is TributeStep.PAY else -1
    forbid_paying = tuple(m | _JOKERS if s == paying else m for s, m in enumerate(forbid))
    return payers, unpaid, reds, paying, forbid_paying


@functools.cache
def _low_faces(return_max_rank: str | None, lv: int) -> int | None:
    """The faces at or below ``return_max_rank`` at level index ``lv`` (a mask), what
    ``Tribute._return_options`` prefers; ``None`` without the rule."""
    if return_max_rank is None:
        return None
    cap = level_value(RANKS.index(return_max_rank), lv)
    return sum(1 << f for f in range(NUM_FACES) if VALUES[lv][f] <= cap)


def _repend(tribute: Tribute, player: int) -> None:
    """A world's pending payment or return, its options read from the world's hands
    (they are the decider's own cards, hidden from ``player``)."""
    pending = tribute.pending
    if pending is None or pending.seat == player:
        return
    step, seat, _ = pending
    if step is TributeStep.PAY:
        options = _options(top_faces(tribute.hands[seat], tribute.lv), PAY_TRIBUTE)
    elif step is TributeStep.RETURN:
        assert tribute.receipts is not None
        received = tribute.receipts[len(tribute.returns)][2]
        low = _low_faces(tribute.rules.return_max_rank, tribute.lv)
        options = _options(return_faces(tribute.hands[seat], received, low), RETURN_CARD)
    else:
        return
    tribute.pending = Pending(step, seat, options)


class Deal(DealSurface):
    """One Guan Dan deal: the tribute phase (from the second deal on), then the card play.

    ``Deal(seed)`` is a random first deal (both teams at level 2, no tribute; the leader
    is the holder of a uniformly drawn card); :meth:`from_hands` builds any deal.  See
    :mod:`chupai.guandan.game` for the actions and :mod:`chupai.guandan.tribute` for the
    tribute rules.

    Attributes (read-only): ``phase`` (a :class:`~chupai.guandan.phase.Phase`),
    ``current_player``, ``level``, ``levels``, ``declarers``, ``history``,
    ``finishing_order``, ``result``, ``winners``, ``rules``, ``seed``.  ``history`` is
    every public event as an :class:`~chupai.contract.Event`: payments (forced ones
    ``automatic``), takes, returns, the leader choice, plays and passes, in order.
    """

    game: ClassVar[str] = "guandan"

    # (the engine, the cached legal actions, the phase, the history and the trick's
    # start are the compiled base's: chupai.state.compiled.CompiledState)
    __slots__ = (
        "_declarers",
        "_dz",
        "_first_leader",
        "_known",
        "_leader",
        "_level",
        "_levels",
        "_lv",
        "_previous",
        "_rules",
        "_seed",
        "_tribute",
    )

    _engine: DealEngine | None
    _phase: Phase

    def __init__(self, seed: int | None = None, *, rules: Rules | None = None) -> None:
        seed = check_seed(seed)
        rules = _check_rules(rules)
        engine = DealEngine.random(seed, level="2", rules=rules)
        hands = [engine.hand(s) for s in range(SEATS)]
        self._setup(hands, ("2", "2"), None, None, int(engine.current), rules)
        self._seed = seed
        self._made("new", seed, rules=rules)

    @classmethod
    def from_hands(
        cls,
        hands: Sequence[Cards | str | Iterable[str]],
        *,
        leader: int | None = None,
        levels: Sequence[Any] = ("2", "2"),
        declarers: int | None = None,
        previous: Sequence[int] | None = None,
        rules: Rules | None = None,
    ) -> Deal:
        """An explicit deal.

        Args:
            hands: the four hands (``Cards`` or card strings); 27 cards each in a real
                deal, any non-empty sizes for tests, each face at most twice overall.
            leader: the seat that leads; required without ``previous``, ignored with
                it (the tribute rules decide).
            levels: the levels of team 0 (seats 0, 2) and team 1 (seats 1, 3).
            declarers: the team whose level is played.  ``None``: with ``previous``
                the team of the previous first finisher, else a first deal, whose two
                levels must then be equal.
            previous: the previous deal's finishing order (``-1`` or left off for the
                undecided places after a 1-2).  Given: the deal starts with the
                tribute phase.  A deal with tribute needs every hand to hold at least
                two cards and every payer a card that is not a wild card.
            rules: a :class:`~chupai.guandan.Rules` (default: pagat).
        """
        self = cls.__new__(cls)
        rules = _check_rules(rules)
        if isinstance(hands, (str, Cards)) or not isinstance(hands, Sequence):
            raise TypeError(f"hands must be a sequence of four hands, not {hands!r}")
        if len(hands) != SEATS:
            raise ValueError(f"expected four hands, not {len(hands)}")
        cards = [h if isinstance(h, Cards) else Cards(h) for h in hands]
        total = Cards()
        for h in cards:
            total = total + h  # ValueError on a card dealt more than twice
        if isinstance(levels, str) or not isinstance(levels, Sequence):
            raise TypeError(f"levels must be two levels (team 0, team 1), not {levels!r}")
        if len(levels) != 2:
            raise ValueError(f"levels must be two levels (team 0, team 1), not {levels!r}")
        lv = (_level_char(levels[0]), _level_char(levels[1]))
        if declarers is not None:
            declarers = check_seat(declarers, 2, "declarers (a team)")
        if previous is not None:
            order, _ = normalize_previous(previous)
            team = order[0] % 2
            if declarers is not None and declarers != team:
                raise ValueError(f"declarers {declarers} contradict previous {tuple(previous)!r}: "
                                 f"the winners (team {team}) are declarers")
            declarers = team
            leader = None
        elif leader is None:
            raise ValueError("leader is required for a deal without a previous deal (no tribute)")
        else:
            leader = _seat(leader)
        self._setup(cards, lv, declarers, previous, leader, rules)
        self._seed = None
        self._made("from_hands", tuple(cards), leader=leader, levels=lv, declarers=declarers,
                   previous=None if previous is None else tuple(previous), rules=rules)
        return self

    # -- construction ----------------------------------------------------------------------
    def _setup(self, hands: list[Cards], levels: tuple[str, str], declarers: int | None,
               previous: Any, leader: int | None, rules: Rules) -> None:
        if declarers is None and levels[0] != levels[1]:
            raise ValueError(f"levels {levels} differ: say which team are declarers")
        for s, h in enumerate(hands):
            if not h:
                raise ValueError(f"hand {s} is empty; every seat needs cards")
        self._rules = rules
        self._levels = levels
        self._declarers = declarers
        self._level = levels[declarers if declarers is not None else 0]
        self._lv = RANKS.index(self._level)
        self._engine = None
        self._leader: int | None = None
        self._first_leader = leader
        self._history = []
        self._known: tuple[Cards, ...] = (Cards(),) * SEATS
        self._watch = 0
        self._trick_start = 0
        self._tribute: Tribute | None = None
        self._dz: tuple[int, tuple[int, ...], Ties, _Record] | None = None
        if previous is None:
            self._previous: tuple[int, int, int, int] | None = None
            assert leader is not None
            self._start_play(list(hands), leader)
            return
        self._previous, kind = normalize_previous(previous)
        self._tribute = Tribute(hands, self._previous, kind, self._lv, rules)
        self._after_tribute_step(self._tribute.start())

    def _after_tribute_step(self, events: list[Event]) -> None:
        tribute = self._tribute
        assert tribute is not None
        for event in events:
            self._record_event(event)
        self._known = tribute.known
        self._watch = _watched(self._known)
        self._legal = None
        if tribute.done:
            assert tribute.leader is not None
            self._start_play(tribute.hands, tribute.leader)
        else:
            assert tribute.pending is not None
            self._phase = tribute.pending.step.phase

    def _start_play(self, hands: list[Cards], leader: int) -> None:
        self._leader = leader
        self._engine = self._play_engine(hands)
        self._phase = _PLAY
        self._trick_start = self._history_len

    def _play_engine(self, hands: Sequence[Cards]) -> DealEngine:
        """The card play's engine at its start, the seats holding ``hands`` (the leader chosen)."""
        assert self._leader is not None  # the leader is chosen
        return DealEngine.from_hands(hands, current=self._leader, level=self._level, rules=self._rules)

    # -- state ---------------------------------------------------------------------------
    @property
    def phase(self) -> Phase:
        """A :class:`~chupai.guandan.phase.Phase`: ``TRIBUTE`` (payments, the take),
        ``RETURN``, ``LEAD``, ``PLAY`` or ``OVER``."""
        return self._phase

    @property
    def players(self) -> int:
        return SEATS

    @property
    def level(self) -> str:
        """The level rank played (the declarers' level)."""
        return self._level

    @property
    def levels(self) -> tuple[str, str]:
        """The levels of team 0 (seats 0, 2) and team 1 (seats 1, 3)."""
        return self._levels

    @property
    def declarers(self) -> int | None:
        """The team whose level is played (``None`` in a first deal)."""
        return self._declarers

    @property
    def previous(self) -> tuple[int, int, int, int] | None:
        """The previous deal's finishing order (4 seats, -1 undecided), or ``None``."""
        return self._previous

    @property
    def leader(self) -> int | None:
        """The seat that led the card play (``None`` before it starts)."""
        return self._leader if self._engine is not None else None

    @property
    def current_player(self) -> int:
        """The seat to decide now; :data:`~chupai.contract.TERMINAL` once over."""
        if self._phase is _OVER:
            return TERMINAL
        if self._engine is not None:
            return int(self._engine.current)
        assert self._tribute is not None and self._tribute.pending is not None
        return self._tribute.pending.seat

    @property
    def finishing_order(self) -> tuple[int, ...]:
        """Seats out so far; once over, four entries (-1 for places undecided after a 1-2)."""
        return tuple(self._engine.finishing_order) if self._engine is not None else ()

    @property
    def result(self) -> str | None:
        """``"1-2"``, ``"1-3"`` or ``"1-4"`` once over, else ``None``."""
        return _RESULT_NAMES.get(self._engine.result) if self._engine is not None else None

    @property
    def winners(self) -> int | None:
        """The winning team once over."""
        if self._phase is not _OVER or self._engine is None:
            return None
        return int(self._engine.finishing_order[0]) % 2

    @property
    def first_out_with_aces(self) -> bool:
        """The first finisher went out with a play made only of aces."""
        return bool(self._engine.first_out_with_aces) if self._engine is not None else False

    def hand(self, seat: int) -> Cards:
        """The cards ``seat`` holds now (full information; see :meth:`observation`)."""
        seat = _seat(seat)
        if self._engine is not None:
            return self._engine.hand(seat)
        assert self._tribute is not None
        return self._tribute.hands[seat]

    @property
    def hands(self) -> tuple[Cards, ...]:
        return tuple(self.hand(s) for s in range(SEATS))

    def hand_sizes(self) -> tuple[int, ...]:
        if self._engine is not None:
            return tuple(self._engine.hand_sizes())
        assert self._tribute is not None
        return tuple(len(h) for h in self._tribute.hands)

    @property
    def known_cards(self) -> tuple[Cards, ...]:
        """Per seat, the cards publicly known to be in that hand (received tribute and
        return cards, shown red jokers) that it has not played since."""
        return self._known

    @property
    def trick(self) -> tuple[Play | None, int, int]:
        """``(last play, who made it, passes since)``; ``(None, -1, 0)`` when leading."""
        engine = self._engine
        if engine is None or engine.last_player < 0:
            return None, -1, 0
        return self._last_play, int(engine.last_player), int(engine.passes)

    @property
    def tribute(self) -> dict[str, Any]:
        """The public record of the tribute phase (cards as strings)."""
        if self._tribute is None:
            record: dict[str, Any] = {"previous": None, "payers": (), "resisted": False, "paid": (),
                                      "received": (), "returned": ()}
        else:
            record = self._tribute.record()
        record["leader"] = self._leader if self._engine is not None else None
        return record

    def scores(self) -> tuple[int, ...]:
        """The levels won (the winners' promotion) per seat, negative for the losers;
        zeros while the deal is not over."""
        if self._phase is not _OVER or self._engine is None:
            return (0,) * SEATS
        gain = int(self._rules.promotion[self._engine.result - 1])
        w = self.winners
        return tuple(gain if s % 2 == w else -gain for s in range(SEATS))

    def returns(self) -> list[float]:
        """The winners' promotion (levels) for both winners, its negative for the losers;
        zeros while the deal is not over."""
        return [float(x) for x in self.scores()]

    # -- actions -------------------------------------------------------------------------
    # legal_actions(), apply(), apply_index() and is_terminal() are the compiled base's
    # (chupai.state.compiled.CompiledState): the actions of the current player are the plays
    # (every suit choice) and PASS when following, or the options of the pending tribute
    # decision; none once over.
    def _options(self) -> tuple[Any, ...]:
        assert self._tribute is not None and self._tribute.pending is not None
        return tuple(self._tribute.pending.options)

    def _apply_checked(self, action: Any) -> None:
        """Make ``action`` (not an item of the current ``legal_actions()``) for the current
        player, validated in full; ``IllegalActionError`` (state unchanged) if it is not
        legal now."""
        action = self._normalize(action)
        if self._phase is _OVER:
            raise IllegalActionError(f"{action!r}: the deal is over")
        if self._engine is not None:
            if action is not PASS and not isinstance(action, Play):
                raise IllegalActionError(f"{action!r} is not legal in the {self._phase} phase")
            self._commit(action)  # the one check, in the engine: IllegalActionError, state unchanged
        else:
            tribute = self._tribute
            assert tribute is not None and tribute.pending is not None
            _step, seat, options = tribute.pending
            if not isinstance(action, TRIBUTE_ACTIONS) or action not in options:
                raise IllegalActionError(
                    f"{action!r} is not legal now: seat {seat} must decide in the {self._phase} "
                    f"phase among {list(options)!r}"
                )
            self._after_tribute_step(tribute.decide(action))

    def _normalize(self, action: Any) -> Any:
        if action is PASS or isinstance(action, (Play,) + TRIBUTE_ACTIONS):
            return action
        if isinstance(action, (list, tuple)):
            if len(action) == 3 and all(isinstance(x, str) and x == "PASS" for x in action):
                return PASS
            if self._engine is None:
                raise IllegalActionError(f"{action!r} is not legal in the {self._phase} phase")
            try:
                return from_protocol(action, self._level, self._rules)
            except (ValueError, TypeError) as e:
                raise IllegalActionError(f"{action!r} is not a legal play: {e}") from None
        raise foreign_action(action, "guandan", _EXPECTED)

    def _after_action(self, seat: int, action: Any, leading: bool) -> None:
        """A seat with publicly known cards acted (the base calls it for those seats):
        the known cards it played are known no more."""
        known = self._known[seat]
        if known and isinstance(action, Play):
            counts = known.counts()
            for f in action.cards.faces():
                if counts[f]:
                    counts[f] -= 1
            k = list(self._known)
            k[seat] = Cards.from_counts(counts)
            self._known = tuple(k)
            self._watch = _watched(self._known)

    def _ended(self) -> None:
        self._phase = _OVER

    def card_play(self) -> DealEngine | None:
        """A copy of the compiled card-play engine of this deal (for bots and playouts),
        or ``None`` outside the card play (tribute phase, deal over)."""
        return self._engine.clone() if self._phase is _PLAY and self._engine is not None else None

    # -- copies, views -------------------------------------------------------------------
    def clone(self) -> Deal:
        """An independent copy (the engine is copied in C; plays are shared, being immutable)."""
        return shallow_clone(self, cloned=("_engine", "_tribute"), copied=("_history",))

    def played_cards(self) -> tuple[Cards, ...]:
        """The cards each seat has played so far."""
        return self._played_cards(SEATS)

    def observation(self, player: int) -> dict[str, Any]:
        """What seat ``player`` knows: their hand and everything public, nothing hidden.

        Keys: those of every game (:data:`chupai.contract.OBSERVATION_KEYS`) and
        ``levels``, ``declarers``, ``level``, ``finished`` (finishing order so far),
        ``trick`` (``last_play``, ``last_player``, ``passes``, ``plays``: the trick's
        events), ``played`` (cards played per seat), ``known`` (cards publicly known to
        be in each hand), ``tribute`` (see :attr:`tribute`), ``result``.
        """
        p = _seat(player)
        last, last_player, passes = self.trick
        return {
            "player": p,
            "players": SEATS,
            "hand": self.hand(p),
            "levels": self._levels,
            "declarers": self._declarers,
            "level": self._level,
            "phase": self._phase,
            "current_player": self.current_player,
            "hand_sizes": self.hand_sizes(),
            "finished": tuple(s for s in self.finishing_order if s >= 0),
            "trick": {
                "last_play": last,
                "last_player": last_player,
                "passes": passes,
                "plays": tuple(self._history[self._trick_start:]) if self._engine is not None else (),
            },
            "history": tuple(self._history),
            "played": self.played_cards(),
            "known": self._known,
            "tribute": self.tribute,
            "result": self.result,
            "over": self.is_terminal(),
        }

    # -- determinization -----------------------------------------------------------------
    def _determinize(self, player: int, seed: int) -> Deal:
        """A full deal consistent with what ``player`` knows, the hidden cards re-dealt.

        The player's hand and the publicly known cards (:attr:`known_cards`) stay where
        they are; every other unseen card is dealt uniformly to the other hands with their
        exact sizes, among the deals that the public history allows: a payer cannot hold
        a non-wild card above their tribute (nor a second red joker after paying one), a
        receiver who returned a card above ``return_max_rank`` holds no other card at or
        below it, a payment that was a decision needs a tied suit, an unresisted tribute
        needs the red jokers apart, a payer who is still to decide needs tied suits.
        The card play proves nothing more (passing is always allowed, every card played
        is public).  The draw is compiled (:mod:`chupai.engine.determinize`): the engine is
        copied and its hidden cards dealt again, without replaying the history; the
        world is the state the same public history reaches from the deal it implies
        (:meth:`_determinize_replay` is the slow reference that replays it).

        The cards re-dealt are the cards hidden from ``player`` in the other hands: in a
        full deal all the cards not in their hand, played, on the table or publicly known;
        a partial deal (:meth:`from_hands` with fewer cards) keeps its own set of cards.
        """
        p = _seat(player)
        tribute = self._tribute
        forbid, must, record = self._masks(p)
        new = shallow_clone(self)
        if self._engine is not None:
            new._engine = world(self._engine, p, self._known, forbid, must, seed)  # (drops the cached list)
            return new
        assert tribute is not None and forbid is not None and must is not None and record is not None
        new._legal = None
        # the tribute phase: the hands are the tribute's; what the payments still to come
        # prove (no resisting, a card to pay with, tied suits for a hidden payer deciding)
        # is checked by rejection, in C
        payers, unpaid, reds, paying, forbid_paying = record
        tied = paying if paying != p else -1
        if tied >= 0:
            forbid = forbid_paying
        other = tribute.clone()
        other.hands = tribute_hands(tribute.hands, p, self._known, forbid, must, seed, tribute.lv,
                                    payers, unpaid, reds, tied)
        _repend(other, p)
        new._tribute = other
        return new

    def _world_card_play(self, player: int, seed: int) -> DealEngine | None:
        p = _seat(player)
        if self._phase is not _PLAY or self._engine is None:
            return None  # (what card_play() of the world is)
        forbid, must, _record = self._masks(p)
        return world(self._engine, p, self._known, forbid, must, seed)

    def _masks(self, player: int) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None, _Record | None]:
        """:meth:`_constraints`, or ``None`` each where no tribute constrains the hands
        (a first deal, a resisted tribute)."""
        tribute = self._tribute
        if tribute is None or tribute.resisted:
            return None, None, None
        return self._constraints(player)

    def _constraints(self, player: int) -> tuple[tuple[int, ...], tuple[int, ...], _Record]:
        """The per-seat forbid and must face masks of :func:`chupai.engine.determinize.deal`
        that the tribute's public record implies for the cards hidden from ``player``,
        and what the payments so far prove (:func:`_tribute_record`)."""
        tribute = self._tribute
        assert tribute is not None
        # the record changes only with the tribute's steps: cached for this history
        # (for good once the card play has started)
        key = -1 if self._engine is not None else len(self._history)
        cached = self._dz
        if cached is None or cached[0] != key:
            forbid = tuple(sum(1 << f for f in tribute.forbidden(s, self._history)) for s in range(SEATS))
            cached = (key, forbid, _decision_ties(tribute, self._history), _tribute_record(tribute, forbid))
            self._dz = cached
        _key, forbid, ties, record = cached
        return forbid, must_masks(ties, player, SEATS, lambda s: self.hand(s) - self._known[s]), record

    def _determinize_replay(self, player: int, rng: np.random.Generator) -> Deal:
        """The reference determinization (slow, for tests and benchmarks): the hidden
        cards drawn by :func:`chupai.engine.sampling.deal_hidden` under the forbidden faces,
        the public history replayed from each draw until one reproduces it."""
        p = _seat(player)
        played = [c.counts() for c in self._played_cards(SEATS)]
        mine = self.hand(p).counts()
        known = [k.counts() for k in self._known]
        others = [s for s in range(SEATS) if s != p]
        pool: list[int] = []
        need, actual = [], []
        for s in others:
            hidden = [n - k for n, k in zip(self.hand(s).counts(), known[s])]
            faces = [f for f in range(NUM_FACES) for _ in range(hidden[f])]
            pool.extend(faces)
            need.append(len(faces))
            actual.append(faces)
        pool.sort()
        tribute = self._tribute
        forbidden = [tribute.forbidden(s, self._history) if tribute is not None else set() for s in others]

        def replay(split: list[list[int]]) -> Deal | None:
            now: list[list[int]] = [mine] * SEATS
            for s, cards in zip(others, split):
                c = list(known[s])
                for f in cards:
                    c[f] += 1
                now[s] = c
            return self._replay(now, played)

        return redeal_and_replay(pool, need, forbidden, rng, replay, actual)

    def _replay(self, now: list[list[int]], played: list[list[int]]) -> Deal | None:
        """This deal's public history replayed from the deal implied by ``now``, or
        ``None`` if that deal does not give the same public history."""
        start = [[now[s][f] + played[s][f] for f in range(NUM_FACES)] for s in range(SEATS)]
        if self._tribute is not None:
            self._tribute.undo(start)
        if any(n < 0 for c in start for n in c):
            return None
        hands = [Cards.from_counts(c) for c in start]
        return self._replayed(lambda new: new._setup(hands, self._levels, self._declarers, self._previous,
                                                     self._first_leader, self._rules))

    # -- printing ------------------------------------------------------------------------
    def __str__(self) -> str:
        decl = "none (first deal)" if self._declarers is None else f"team {self._declarers}"
        lines = [
            (f"Guan Dan deal, level {self._level} (levels {self._levels[0]}/{self._levels[1]}, "
             f"declarers {decl}), phase {self._phase}")
        ]
        if self._previous is not None:
            t = self.tribute
            desc = "resisted" if t["resisted"] else f"paid {list(t['paid'])}, returned {list(t['returned'])}"
            lines.append(f"  tribute after {tuple(self._previous)}: {desc}")
        cur = self.current_player
        for s in range(SEATS):
            h = self.hand(s)
            mark = ">" if s == cur else " "
            out = ""
            if s in self.finishing_order:
                out = f" (out {self.finishing_order.index(s) + 1})"
            lines.append(f" {mark}seat {s} [{len(h):2d}]: {h}{out}")
        last, last_player, passes = self.trick
        if self._phase is _OVER:
            lines.append(f"  over: {self.result}, finishing order {self.finishing_order}")
        elif self._engine is None:
            assert self._tribute is not None and self._tribute.pending is not None
            step, _, options = self._tribute.pending
            lines.append(f"  seat {cur} decides: {step.value} among {list(options)}")
        elif last is None:
            lines.append(f"  seat {cur} leads")
        else:
            lines.append(f"  trick: seat {last_player} played {last} ({passes} pass(es)); seat {cur} to act")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<guandan.Deal level {self._level} phase {self._phase} sizes {self.hand_sizes()}>"
