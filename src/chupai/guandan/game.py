"""Guan Dan state machines: one deal (:class:`Deal`) and a whole game (:class:`Match`).

The surface is close to OpenSpiel's and is the same for every game of the library:
``current_player``, ``legal_actions()``, ``apply(action)``, ``clone()``,
``is_terminal()``, ``returns()``, ``history``, ``observation(player)``,
``determinize(player, rng)``.  The card play itself runs in C
(:class:`chupai.guandan._engine.DealCore`); this module adds the tribute phase
(``spec/guandan.md``, "Tribute"), the levels and the end of the game ("Levels and the
end of the game"), observations and determinization.

>>> deal = Deal(seed=7)
>>> deal.phase, deal.hand_sizes()
('play', (27, 27, 27, 27))
>>> while not deal.is_terminal():
...     deal.apply(deal.legal_actions()[0])
>>> sorted(deal.returns()) in ([-4.0, -4.0, 4.0, 4.0], [-2.0, -2.0, 2.0, 2.0], [-1.0, -1.0, 1.0, 1.0])
True

Actions
-------
* during play: a :class:`~chupai.guandan.Play` (from ``legal_actions()`` or
  :func:`chupai.guandan.legal_plays`), :data:`PASS` (or the protocol pass
  ``["PASS", "PASS", "PASS"]``), or a protocol list ``[type, rank, cards]``;
* during the tribute phase: :class:`PayTribute`, :class:`TakeTribute`,
  :class:`ReturnCard`, :class:`ChooseLeader`.

Anything else, or anything not legal now, raises
:class:`chupai.errors.IllegalActionError` (a ``ValueError``) naming the action; the state
is unchanged.

Tribute (``spec/guandan.md``, "Tribute"), exactly as implemented
----------------------------------------------------------------
* After a 1-2 both losers pay; after a 1-3 or 1-4 the last finisher pays the first.
  Payers pay in turn order starting after the previous first finisher.
* A payer gives their highest card in level order that is not a wild card (the heart
  of the level rank).  If they hold several faces (suits) of that rank, which one is
  their decision (:class:`PayTribute`); with one face the payment is automatic and
  appears in ``history`` as ``PayTribute(card, automatic=True)``.
* Resisting: if the paying side holds both red jokers (after a 1-2 the two losers
  together, after a 1-3/1-4 the payer alone) there is no tribute and the previous
  first finisher leads.  The red jokers are shown: they become publicly known cards
  of their holders.
* After a 1-2 the first finisher takes the higher tribute (level order), the second
  finisher the other.  Equal ranks: ``equal_tribute="winners_choose"`` makes it a
  decision of the first finisher (:class:`TakeTribute`) unless both cards are the same
  face; ``"seat_order"`` (and the same-face case) gives the first finisher the tribute
  of the payer who follows them in turn order.
* Each receiver returns one card (:class:`ReturnCard`, always a decision, the first
  finisher first) to the player they received from; not the face just received.  With
  ``return_max_rank`` the card must be at most that rank in level order (wild cards
  count as level cards, jokers above) when the receiver holds such a card other than
  the received face; otherwise any card but the received face.
* Lead: the payer of the higher (or only) tribute.  Equal tributes:
  ``equal_tribute_lead="payers_choose"`` makes it a decision (:class:`ChooseLeader`,
  either payer) of the payer who finished 3rd if known, else the payer with the lower
  seat number; ``"seat_order"``: the payer who follows the first finisher.
* Tribute and return cards are public; a card received stays publicly known to be in
  its receiver's hand until a card of that face is played by them.
* Decisions come in this order: payments, the take, the returns, the leader choice;
  then the card play starts from the hands after the exchange.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from chupai._core import BITS_PER_RANK, BLACK_JOKER_BIT, NUM_FACES, RED_JOKER_BIT
from chupai._state import (
    DealSurface,
    MatchSurface,
    as_rng,
    check_rules,
    check_seat,
    check_seed,
    derive_seed,
)
from chupai.actions import PASS
from chupai.cards import RANKS, Cards, face_name, parse_face
from chupai._sampling import deal_hidden
from chupai.errors import IllegalActionError
from chupai.guandan._engine import (
    RESULT_12,
    RESULT_13,
    RESULT_14,
    RESULT_NONE,
    DealCore,
)
from chupai.guandan.play import Play, level_value, wild_face
from chupai.guandan.rules import Rules, parse_rank

__all__ = [
    "PASS",
    "ChooseLeader",
    "decision_choice",
    "Deal",
    "IllegalActionError",
    "Match",
    "PayTribute",
    "ReturnCard",
    "TakeTribute",
]

SEATS = 4
ACE = RANKS.index("A")  # level index of A
_RESULT_NAMES = {RESULT_12: "1-2", RESULT_13: "1-3", RESULT_14: "1-4"}


# --- actions ------------------------------------------------------------------------------


def _canonical_card(card: Any) -> str:
    if not isinstance(card, str):
        raise ValueError(f"card {card!r} must be a card string such as '7S'")
    return face_name(parse_face(card))


@dataclass(frozen=True)
class PayTribute:
    """A payer gives ``card`` as tribute (a decision only when several suits tie).

    ``automatic`` marks payments that were forced (one face); it is not part of the
    identity (``PayTribute('AS', automatic=True) == PayTribute('AS')``).
    """

    card: str
    automatic: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", _canonical_card(self.card))

    def __repr__(self) -> str:
        return f"PayTribute({self.card!r}, automatic=True)" if self.automatic else f"PayTribute({self.card!r})"


@dataclass(frozen=True)
class TakeTribute:
    """The first finisher takes the tribute card ``card`` (equal tributes, winners' choice)."""

    card: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", _canonical_card(self.card))

    def __repr__(self) -> str:
        return f"TakeTribute({self.card!r})"


@dataclass(frozen=True)
class ReturnCard:
    """A receiver returns ``card`` to the player they received tribute from."""

    card: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", _canonical_card(self.card))

    def __repr__(self) -> str:
        return f"ReturnCard({self.card!r})"


@dataclass(frozen=True)
class ChooseLeader:
    """After equal tributes, a payer names which payer (``seat``) leads."""

    seat: int

    def __post_init__(self) -> None:
        if isinstance(self.seat, bool) or not isinstance(self.seat, int) or not 0 <= self.seat < SEATS:
            raise ValueError(f"seat must be 0-3, not {self.seat!r}")

    def __repr__(self) -> str:
        return f"ChooseLeader({self.seat})"


_TRIBUTE_ACTIONS = (PayTribute, TakeTribute, ReturnCard, ChooseLeader)


# --- small helpers ------------------------------------------------------------------------
def _values(lv: int) -> tuple[int, ...]:
    """Level-order value of each face at level index ``lv`` (jokers 13 and 14)."""
    out = [level_value(f // BITS_PER_RANK, lv) for f in range(NUM_FACES - 2)]
    return tuple(out + [13, 14])


_VALUES = tuple(_values(lv) for lv in range(len(RANKS)))


def _seat(player: Any) -> int:
    return check_seat(player, SEATS)


def _level_char(level: Any) -> str:
    return RANKS[parse_rank(level, "level")]


def _add(cards: Cards, face: int, n: int = 1) -> Cards:
    counts = cards.counts()
    counts[face] += n
    return Cards.from_counts(counts)


def _top_faces(hand: Cards, lv: int) -> list[int]:
    """The faces of the payer's highest non-wild card (several only for tied suits)."""
    values = _VALUES[lv]
    wild = wild_face(lv)
    best, faces = -1, []
    for f, n in enumerate(hand.counts()):
        if n and f != wild:
            v = values[f]
            if v > best:
                best, faces = v, [f]
            elif v == best:
                faces.append(f)
    return faces


def _played(history: Iterable[tuple[int, Any]]) -> list[Cards]:
    """The cards each seat played, as two-deck masks added up (a face at most twice)."""
    lo = [0] * SEATS
    hi = [0] * SEATS
    for seat, action in history:
        if isinstance(action, Play):
            plo, phi = action._lo, action._hi
            hi[seat] |= phi | (lo[seat] & plo)
            lo[seat] |= plo
    return [Cards.from_masks(lo[s], hi[s]) for s in range(SEATS)]


def _played_counts(history: Iterable[tuple[int, Any]]) -> list[list[int]]:
    return [c.counts() for c in _played(history)]


def _normalize_previous(previous: Any) -> tuple[tuple[int, int, int, int], int]:
    """The previous finishing order as 4 seats (-1 for undecided after a 1-2) and its result."""
    try:
        order = [int(s) if not isinstance(s, bool) else None for s in previous]
    except TypeError:
        raise ValueError(f"previous must be a finishing order (seats), not {previous!r}") from None
    if not 2 <= len(order) <= 4 or None in order:
        raise ValueError(f"previous must be 2 to 4 seats in finishing order, not {previous!r}")
    order += [-1] * (4 - len(order))
    seats = [s for s in order if s != -1]
    if any(not 0 <= s < SEATS for s in seats) or len(set(seats)) != len(seats) or -1 in order[:2]:
        raise ValueError(f"previous {tuple(previous)!r} is not a finishing order of seats 0-3")
    if order[2] == -1 and order[3] != -1:
        raise ValueError(f"previous {tuple(previous)!r}: 4th place known but not 3rd")
    first = order[0]
    if order[1] == (first + 2) % SEATS:
        return (order[0], order[1], order[2], order[3]), RESULT_12
    if order[2] == -1:
        raise ValueError(f"previous {tuple(previous)!r}: the first finisher's partner was not 2nd, "
                         "so the 3rd place is needed (1-3 or 1-4)")
    last = ({0, 1, 2, 3} - set(order[:3])).pop()
    if order[3] not in (-1, last):
        raise ValueError(f"previous {tuple(previous)!r} is not a finishing order")
    result = RESULT_13 if order[2] == (first + 2) % SEATS else RESULT_14
    return (order[0], order[1], order[2], last), result


# --- one deal -----------------------------------------------------------------------------
class Deal(DealSurface):
    """One Guan Dan deal: the tribute phase (from the second deal on), then the card play.

    ``Deal(seed)`` is a random first deal (both teams at level 2, no tribute; the leader
    is the holder of a uniformly drawn card); :meth:`from_hands` builds any deal.  See
    the module docstring for the actions and the tribute rules.

    Attributes (read-only): ``phase`` (``"tribute"``, ``"return"``, ``"lead"``,
    ``"play"``, ``"over"``), ``current_player``, ``level``, ``levels``, ``declarers``,
    ``history``, ``finishing_order``, ``result``, ``winners``, ``rules``, ``seed``.
    ``history`` is every public event as ``(seat, action)``: payments (automatic ones
    too), takes, returns, the leader choice, plays and passes, in order.
    """

    __slots__ = (
        "_core",
        "_declarers",
        "_first_leader",
        "_hands",
        "_history",
        "_kind",
        "_known",
        "_last_play",
        "_leader",
        "_legal",
        "_level",
        "_levels",
        "_lv",
        "_paid",
        "_payers",
        "_pending",
        "_phase",
        "_previous",
        "_receipts",
        "_resisted",
        "_returns",
        "_rules",
        "_seed",
        "_trick_start",
    )

    def __init__(self, seed: int | None = None, *, rules: Rules | None = None) -> None:
        seed = check_seed(seed)
        rules = _check_rules(rules)
        core = DealCore.random(seed, level="2", rules=rules)
        hands = [core.hand(s) for s in range(SEATS)]
        self._setup(hands, ("2", "2"), None, None, core.current, rules)
        self._seed = seed

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
        self = object.__new__(cls)
        rules = _check_rules(rules)
        if isinstance(hands, (str, Cards)) or len(hands) != SEATS:
            raise ValueError(f"expected four hands, not {hands!r}")
        hands = [h if isinstance(h, Cards) else Cards(h) for h in hands]
        total = Cards()
        for h in hands:
            total = total + h  # ValueError on a card dealt more than twice
        if isinstance(levels, str) or len(levels) != 2:
            raise ValueError(f"levels must be two levels (team 0, team 1), not {levels!r}")
        levels = (_level_char(levels[0]), _level_char(levels[1]))
        if declarers is not None and (isinstance(declarers, bool) or declarers not in (0, 1)):
            raise ValueError(f"declarers must be team 0, 1 or None, not {declarers!r}")
        if previous is not None:
            order, _ = _normalize_previous(previous)
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
        self._setup(hands, levels, declarers, previous, leader, rules)
        self._seed = None
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
        self._hands = list(hands)
        self._core = None
        self._payers: tuple[int, ...] = ()
        self._paid: tuple[tuple[int, int], ...] = ()
        self._receipts: tuple[tuple[int, int, int], ...] | None = None
        self._returns: tuple[tuple[int, int, int], ...] = ()
        self._resisted = False
        self._leader = None
        self._first_leader = leader
        self._pending = None
        self._history: list[tuple[int, Any]] = []
        self._known: tuple[Cards, ...] = (Cards(),) * SEATS
        self._last_play = None
        self._trick_start = 0
        self._legal = None
        if previous is None:
            self._previous = None
            self._kind = None
            self._phase = "play"
            self._start_play(leader)
            return
        self._previous, self._kind = _normalize_previous(previous)
        first = self._previous[0]
        if self._kind == RESULT_12:
            self._payers = ((first + 1) % SEATS, (first + 3) % SEATS)
        else:
            self._payers = (self._previous[3],)
        wild = wild_face(self._lv)
        for s in range(SEATS):
            if len(hands[s]) < 2:
                raise ValueError(f"hand {s} holds {len(hands[s])} card(s); a deal with tribute needs at least 2")
        for p in self._payers:
            if not any(n and f != wild for f, n in enumerate(hands[p].counts())):
                raise ValueError(f"payer {p} holds no card but wild cards to pay tribute with")
        red = [hands[p].count("RJ") for p in self._payers]
        if sum(red) == 2:
            # resisting tribute: the red jokers are shown, the previous first finisher leads
            self._resisted = True
            self._known = tuple(Cards(["RJ"] * hands[s].count("RJ")) for s in range(SEATS))
            self._leader = first
            self._start_play(first)
            return
        self._phase = "tribute"
        self._advance()

    # -- the tribute phase -------------------------------------------------------------------
    def _advance(self) -> None:
        """Run the automatic steps of the tribute phase up to the next decision or the play."""
        self._pending = None
        while len(self._paid) < len(self._payers):
            payer = self._payers[len(self._paid)]
            faces = _top_faces(self._hands[payer], self._lv)
            if len(faces) > 1:
                self._phase = "tribute"
                self._pending = ("pay", payer, tuple(PayTribute(face_name(f)) for f in faces))
                return
            self._pay(payer, faces[0], automatic=True)
        if self._receipts is None:
            first, second = self._previous[0], self._previous[1]
            if len(self._paid) == 1:
                (payer, face), = self._paid
                self._receive(((payer, first, face),))
            else:
                (a, fa), (b, fb) = self._paid
                values = _VALUES[self._lv]
                if values[fa] != values[fb]:
                    hi, lo = ((a, fa), (b, fb)) if values[fa] > values[fb] else ((b, fb), (a, fa))
                    self._receive(((hi[0], first, hi[1]), (lo[0], second, lo[1])))
                elif self._rules.equal_tribute == "winners_choose" and fa != fb:
                    self._phase = "tribute"
                    opts = tuple(TakeTribute(face_name(f)) for f in sorted((fa, fb)))
                    self._pending = ("take", first, opts)
                    return
                else:
                    near = (first + 1) % SEATS
                    (p1, f1), (p2, f2) = ((a, fa), (b, fb)) if a == near else ((b, fb), (a, fa))
                    self._receive(((p1, first, f1), (p2, second, f2)))
        if len(self._returns) < len(self._receipts):
            payer, receiver, face = self._receipts[len(self._returns)]
            self._phase = "return"
            self._pending = ("return", receiver, self._return_options(receiver, face))
            return
        if self._leader is None:
            if len(self._paid) == 1:
                self._leader = self._paid[0][0]
            else:
                (a, fa), (b, fb) = self._paid
                values = _VALUES[self._lv]
                first = self._previous[0]
                if values[fa] != values[fb]:
                    self._leader = a if values[fa] > values[fb] else b
                elif self._rules.equal_tribute_lead == "seat_order":
                    self._leader = (first + 1) % SEATS
                else:
                    third = self._previous[2]
                    chooser = third if third in self._payers else min(self._payers)
                    self._phase = "lead"
                    self._pending = ("lead", chooser, tuple(ChooseLeader(s) for s in sorted(self._payers)))
                    return
        self._start_play(self._leader)

    def _pay(self, payer: int, face: int, automatic: bool) -> None:
        hand = self._hands[payer].counts()
        hand[face] -= 1
        self._hands[payer] = Cards.from_counts(hand)
        self._paid = self._paid + ((payer, face),)
        self._history.append((payer, PayTribute(face_name(face), automatic=automatic)))

    def _receive(self, receipts: tuple[tuple[int, int, int], ...]) -> None:
        # the first finisher's receipt first: receivers return in finishing order
        self._receipts = tuple(sorted(receipts, key=lambda r: self._previous.index(r[1])))
        known = list(self._known)
        for _payer, receiver, face in self._receipts:
            self._hands[receiver] = _add(self._hands[receiver], face)
            known[receiver] = _add(known[receiver], face)
        self._known = tuple(known)

    def _return_options(self, receiver: int, received: int) -> tuple[ReturnCard, ...]:
        counts = self._hands[receiver].counts()
        eligible = [f for f, n in enumerate(counts) if n and f != received]
        if self._rules.return_max_rank is not None:
            values = _VALUES[self._lv]
            cap = level_value(RANKS.index(self._rules.return_max_rank), self._lv)
            low = [f for f in eligible if values[f] <= cap]
            if low:
                eligible = low
        return tuple(ReturnCard(face_name(f)) for f in eligible)

    def _start_play(self, leader: int) -> None:
        self._core = DealCore.from_hands(self._hands, current=leader, level=self._level, rules=self._rules)
        self._hands = None
        self._leader = leader
        self._phase = "play"
        self._pending = None
        self._trick_start = len(self._history)

    # -- state ---------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """``"tribute"`` (payments, the take), ``"return"``, ``"lead"``, ``"play"`` or ``"over"``."""
        return self._phase

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
        return self._leader if self._core is not None else None

    @property
    def current_player(self) -> int:
        """The seat to decide now; -1 once the deal is over."""
        if self._core is not None:
            return self._core.current
        return self._pending[1]

    def is_terminal(self) -> bool:
        return self._phase == "over"

    @property
    def finishing_order(self) -> tuple[int, ...]:
        """Seats out so far; once over, four entries (-1 for places undecided after a 1-2)."""
        return self._core.finishing_order if self._core is not None else ()

    @property
    def result(self) -> str | None:
        """``"1-2"``, ``"1-3"`` or ``"1-4"`` once over, else ``None``."""
        return _RESULT_NAMES.get(self._core.result) if self._core is not None else None

    @property
    def winners(self) -> int | None:
        """The winning team once over."""
        return self._core.finishing_order[0] % 2 if self._phase == "over" else None

    @property
    def first_out_with_aces(self) -> bool:
        """The first finisher went out with a play made only of aces."""
        return self._core.first_out_with_aces if self._core is not None else False

    def hand(self, seat: int) -> Cards:
        """The cards ``seat`` holds now (full information; see :meth:`observation`)."""
        seat = _seat(seat)
        return self._core.hand(seat) if self._core is not None else self._hands[seat]

    @property
    def hands(self) -> tuple[Cards, ...]:
        return tuple(self.hand(s) for s in range(SEATS))

    def hand_sizes(self) -> tuple[int, ...]:
        if self._core is not None:
            return self._core.hand_sizes()
        return tuple(len(h) for h in self._hands)

    @property
    def known_cards(self) -> tuple[Cards, ...]:
        """Per seat, the cards publicly known to be in that hand (received tribute and
        return cards, shown red jokers) that it has not played since."""
        return self._known

    @property
    def trick(self) -> tuple[Play | None, int, int]:
        """``(last play, who made it, passes since)``; ``(None, -1, 0)`` when leading."""
        core = self._core
        if core is None or core.last_player < 0:
            return None, -1, 0
        return self._last_play, core.last_player, core.passes

    @property
    def tribute(self) -> dict[str, Any]:
        """The public record of the tribute phase (cards as strings)."""
        return {
            "previous": self._previous,
            "payers": self._payers,
            "resisted": self._resisted,
            "paid": tuple((p, face_name(f)) for p, f in self._paid),
            "received": tuple((p, r, face_name(f)) for p, r, f in (self._receipts or ())),
            "returned": tuple((r, p, face_name(f)) for r, p, f in self._returns),
            "leader": self._leader,
        }

    def returns(self) -> list[float]:
        """The winners' promotion (levels) for both winners, its negative for the losers;
        zeros while the deal is not over."""
        if self._phase != "over":
            return [0.0] * SEATS
        gain = float(self._rules.promotion[self._core.result - 1])
        w = self.winners
        return [gain if s % 2 == w else -gain for s in range(SEATS)]

    # -- actions -------------------------------------------------------------------------
    def legal_actions(self) -> list[Any]:
        """The actions of the current player: plays (every suit choice) and ``PASS`` when
        following; the options of the pending tribute decision; ``[]`` when over."""
        if self._phase == "over":
            return []
        if self._legal is None:
            if self._core is not None:
                acts = list(self._core.legal_plays())
                if self._core.can_pass():
                    acts.append(PASS)
            else:
                acts = list(self._pending[2])
            self._legal = acts
        return list(self._legal)

    def apply(self, action: Any) -> None:
        """Make ``action`` for the current player; ``IllegalActionError`` (state unchanged)
        if it is not legal now."""
        if self._phase == "over":
            raise IllegalActionError(f"{action!r}: the deal is over")
        action = self._normalize(action)
        if self._core is not None:
            if action is PASS:
                if not self._core.can_pass():
                    raise IllegalActionError(f"PASS: seat {self._core.current} is on lead and may not pass")
            elif isinstance(action, Play):
                legal = self._legal
                if legal is None or not any(a is action for a in legal):
                    self._check_play(action)
            else:
                raise IllegalActionError(f"{action!r} is not legal in the {self._phase} phase")
            self._apply_play(action)
        else:
            _kind, seat, options = self._pending
            if not isinstance(action, _TRIBUTE_ACTIONS) or action not in options:
                raise IllegalActionError(
                    f"{action!r} is not legal now: seat {seat} must decide in the {self._phase} "
                    f"phase among {list(options)!r}"
                )
            self._apply_decision(action)

    def _normalize(self, action: Any) -> Any:
        if action is PASS or isinstance(action, (Play,) + _TRIBUTE_ACTIONS):
            return action
        if isinstance(action, (list, tuple)):
            if len(action) == 3 and all(isinstance(x, str) and x == "PASS" for x in action):
                return PASS
            if self._core is None:
                raise IllegalActionError(f"{action!r} is not legal in the {self._phase} phase")
            try:
                return Play.from_protocol(action, self._level, self._rules)
            except (ValueError, TypeError) as e:
                raise IllegalActionError(f"{action!r} is not a legal play: {e}") from None
        raise IllegalActionError(f"{action!r} is not an action of this game")

    def _check_play(self, play: Play) -> None:
        core = self._core
        if play._level != core.level:
            raise IllegalActionError(f"{play!r} was formed at level {play.level}, not at {self._level}")
        arr = core.legal_plays().to_numpy()
        ok = (arr["lo"] == play._lo) & (arr["hi"] == play._hi) & (arr["type"] == play._type) & (arr["key"] == play._key)
        if not ok.any():
            seat = core.current
            hand = core.hand(seat)
            if not play.cards <= hand:
                raise IllegalActionError(f"{play!r}: seat {seat} does not hold those cards")
            if self._last_play is not None and core.last_player >= 0:
                raise IllegalActionError(f"{play!r} does not beat {self._last_play!r}")
            raise IllegalActionError(f"{play!r} is not a legal play under these rules")

    def _apply_play(self, action: Any) -> None:
        """Make a play or pass already known legal (the core checks cards and beating)."""
        core = self._core
        seat = core.current
        if action is PASS:
            core.pass_turn()
        else:
            core.play(action)
            self._last_play = action
            known = self._known[seat]
            if known:
                counts = known.counts()
                for f in action.cards.faces():
                    if counts[f]:
                        counts[f] -= 1
                k = list(self._known)
                k[seat] = Cards.from_counts(counts)
                self._known = tuple(k)
        self._history.append((seat, action))
        self._legal = None
        if core.result != RESULT_NONE:
            self._phase = "over"
        elif core.last_player < 0:
            self._trick_start = len(self._history)

    def _apply_decision(self, action: Any) -> None:
        kind, seat, _ = self._pending
        self._legal = None
        if kind == "pay":
            self._pay(seat, parse_face(action.card), automatic=False)
        elif kind == "take":
            self._history.append((seat, action))
            face = parse_face(action.card)
            (a, fa), (b, fb) = self._paid
            mine, other = ((a, fa), (b, fb)) if fa == face else ((b, fb), (a, fa))
            self._receive(((mine[0], self._previous[0], mine[1]), (other[0], self._previous[1], other[1])))
        elif kind == "return":
            self._history.append((seat, action))
            face = parse_face(action.card)
            payer, receiver, _ = self._receipts[len(self._returns)]
            hand = self._hands[receiver].counts()
            hand[face] -= 1
            self._hands[receiver] = Cards.from_counts(hand)
            self._hands[payer] = _add(self._hands[payer], face)
            known = list(self._known)
            known[payer] = _add(known[payer], face)
            self._known = tuple(known)
            self._returns = self._returns + ((receiver, payer, face),)
        else:  # lead
            self._history.append((seat, action))
            self._leader = action.seat
        self._advance()

    def card_play(self) -> DealCore | None:
        """A copy of the compiled card-play engine of this deal (for bots and playouts),
        or ``None`` outside the card play (tribute phase, deal over)."""
        return self._core.clone() if self._phase == "play" else None

    # -- copies, views -------------------------------------------------------------------
    def clone(self) -> Deal:
        """An independent copy (the core is copied in C; plays are shared, being immutable)."""
        other = object.__new__(Deal)
        other._rules = self._rules
        other._levels = self._levels
        other._declarers = self._declarers
        other._level = self._level
        other._lv = self._lv
        other._previous = self._previous
        other._kind = self._kind
        other._phase = self._phase
        other._hands = list(self._hands) if self._hands is not None else None
        other._core = self._core.clone() if self._core is not None else None
        other._payers = self._payers
        other._paid = self._paid
        other._receipts = self._receipts
        other._returns = self._returns
        other._resisted = self._resisted
        other._leader = self._leader
        other._first_leader = self._first_leader
        other._pending = self._pending
        other._history = list(self._history)
        other._known = self._known
        other._last_play = self._last_play
        other._trick_start = self._trick_start
        other._legal = self._legal
        other._seed = self._seed
        return other

    def played_cards(self) -> tuple[Cards, ...]:
        """The cards each seat has played so far."""
        return tuple(_played(self._history))

    def observation(self, player: int) -> dict[str, Any]:
        """What seat ``player`` knows: their hand and everything public, nothing hidden.

        Keys: ``player``, ``hand``, ``levels``, ``declarers``, ``level``, ``phase``,
        ``current_player``, ``hand_sizes``, ``finished`` (finishing order so far),
        ``trick`` (``last_play``, ``last_player``, ``passes``, ``plays``: the trick's
        events), ``history`` (all public events), ``played`` (cards played per seat),
        ``known`` (cards publicly known to be in each hand), ``tribute`` (see
        :attr:`tribute`), ``result``.
        """
        p = _seat(player)
        last, last_player, passes = self.trick
        return {
            "player": p,
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
                "plays": tuple(self._history[self._trick_start:]) if self._core is not None else (),
            },
            "history": tuple(self._history),
            "played": self.played_cards(),
            "known": self._known,
            "tribute": self.tribute,
            "result": self.result,
        }

    # -- determinization -----------------------------------------------------------------
    def determinize(self, player: int, rng: Any = None, *, max_tries: int = 10000) -> Deal:
        """A full deal consistent with what ``player`` knows, the hidden cards re-dealt.

        The player's hand and the publicly known cards (:attr:`known_cards`) stay where
        they are; every other unseen card is dealt uniformly to the other hands with their
        exact sizes, among the deals that the public history allows: a payer cannot hold
        a non-wild card above their tribute (nor a second red joker after paying one), a
        receiver who returned a card above ``return_max_rank`` holds no other card at or
        below it, a payment that was a decision needs tied suits, an unresisted tribute
        needs the red jokers apart.  The result is built by replaying the public history
        from the implied deal, so it is reachable exactly as this one was; it is uniform
        over those deals (rejection of the rare inconsistent draws).

        The cards re-dealt are the cards hidden from ``player`` in the other hands: in a
        full deal all the cards not in their hand, played, on the table or publicly known;
        a partial deal (:meth:`from_hands` with fewer cards) keeps its own set of cards.
        ``rng``: a numpy ``Generator``, an int seed or ``None``.
        """
        p = _seat(player)
        g = as_rng(rng)
        played = _played_counts(self._history)
        mine = self.hand(p).counts()
        known = [k.counts() for k in self._known]
        others = [s for s in range(SEATS) if s != p]
        # the hidden cards: in a full deal, every card not in the player's hand, played,
        # on the table or publicly known (a partial deal re-deals only its own cards)
        pool, need = [], []
        for s in others:
            hidden = [n - k for n, k in zip(self.hand(s).counts(), known[s])]
            pool.extend(f for f in range(NUM_FACES) for _ in range(hidden[f]))
            need.append(sum(hidden))
        pool.sort()
        forbidden = [self._forbidden(s) for s in others]
        for _ in range(max_tries):
            split = deal_hidden(pool, need, forbidden, g)
            if split is None:
                break
            now = [None] * SEATS
            now[p] = mine
            for s, cards in zip(others, split):
                c = list(known[s])
                for f in cards:
                    c[f] += 1
                now[s] = c
            new = self._replay(now, played)
            if new is not None:
                return new
        raise RuntimeError("no deal consistent with the observation was found")

    def _forbidden(self, seat: int) -> set[int]:
        """Faces the public history rules out of the unknown part of ``seat``'s hand."""
        out: set[int] = set()
        values = _VALUES[self._lv]
        wild = wild_face(self._lv)
        automatic = {a.card for s, a in self._history if isinstance(a, PayTribute) and a.automatic}
        for payer, face in self._paid:
            if payer == seat:
                out.update(f for f in range(NUM_FACES) if f != wild and values[f] > values[face])
                if face_name(face) in automatic:
                    # a forced payment: no other suit of that rank (a decision otherwise)
                    out.update(f for f in range(NUM_FACES) if f not in (wild, face) and values[f] == values[face])
                if face == RED_JOKER_BIT:
                    out.add(RED_JOKER_BIT)  # holding both would have resisted
        if self._rules.return_max_rank is not None:
            cap = level_value(RANKS.index(self._rules.return_max_rank), self._lv)
            for receiver, _payer, face in self._returns:
                if receiver == seat and values[face] > cap:
                    received = next(f for _p, r, f in self._receipts if r == receiver)
                    out.update(f for f in range(NUM_FACES) if values[f] <= cap and f != received)
        return out

    def _initial_hands(self, now: list[list[int]], played: list[list[int]]) -> list[Cards]:
        """The hands dealt, given the hands now: add back plays, undo the exchange."""
        start = [[now[s][f] + played[s][f] for f in range(NUM_FACES)] for s in range(SEATS)]
        for payer, face in self._paid:
            start[payer][face] += 1
        for payer, receiver, face in self._receipts or ():
            start[receiver][face] -= 1
        for receiver, payer, face in self._returns:
            start[receiver][face] += 1
            start[payer][face] -= 1
        return [Cards.from_counts(c) for c in start]

    def _replay(self, now: list[list[int]], played: list[list[int]]) -> Deal | None:
        """This deal's public history replayed from the deal implied by ``now``, or
        ``None`` if that deal does not give the same public history."""
        try:
            hands = self._initial_hands(now, played)
            new = object.__new__(Deal)
            new._setup(hands, self._levels, self._declarers, self._previous, self._first_leader, self._rules)
            new._seed = self._seed
            for i, (seat, action) in enumerate(self._history):
                if getattr(action, "automatic", False):
                    continue
                if len(new._history) != i or new.current_player != seat:
                    return None
                if new._core is not None:
                    new._apply_play(action)  # the core checks the cards held and beating
                else:
                    if action not in new._pending[2]:
                        return None
                    new._apply_decision(action)
        except (IllegalActionError, ValueError):
            return None
        if (
            new._phase != self._phase
            or new.current_player != self.current_player
            or new._resisted != self._resisted
            or [(s, a, getattr(a, "automatic", False)) for s, a in new._history]
            != [(s, a, getattr(a, "automatic", False)) for s, a in self._history]
        ):
            return None
        return new

    # -- printing ------------------------------------------------------------------------
    def __str__(self) -> str:
        decl = "none (first deal)" if self._declarers is None else f"team {self._declarers}"
        lines = [
            (f"Guan Dan deal, level {self._level} (levels {self._levels[0]}/{self._levels[1]}, "
             f"declarers {decl}), phase {self._phase}")
        ]
        if self._previous is not None:
            t = self.tribute
            desc = "resisted" if self._resisted else f"paid {list(t['paid'])}, returned {list(t['returned'])}"
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
        if self._phase == "over":
            lines.append(f"  over: {self.result}, finishing order {self.finishing_order}")
        elif self._core is None:
            lines.append(f"  seat {cur} decides: {self._pending[0]} among {list(self._pending[2])}")
        elif last is None:
            lines.append(f"  seat {cur} leads")
        else:
            lines.append(f"  trick: seat {last_player} played {last} ({passes} pass(es)); seat {cur} to act")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<guandan.Deal level {self._level} phase {self._phase} sizes {self.hand_sizes()}>"


def _check_rules(rules: Any) -> Rules:
    return check_rules(rules, Rules, "guandan")


# --- a whole game --------------------------------------------------------------------------
def settle(
    levels: Sequence[int],
    declarers: int | None,
    ace_failures: Sequence[int],
    order: Sequence[int],
    result: int,
    first_out_with_aces: bool,
    rules: Rules,
) -> tuple[list[int], int, list[int], int | None]:
    """The standing after a deal (``spec/guandan.md``, "Levels and the end of the game").

    ``levels`` are level indexes (0 = 2 … 12 = A); ``result`` 1, 2, 3 for 1-2, 1-3, 1-4;
    ``ace_failures`` counts, per team, the deals played as declarers at A that did not
    end the game.  Returns ``(levels, declarers, ace_failures, game_winner or None)``.

    * declarers at A winning 1-2 or 1-3 win the game (nothing else changes);
    * declarers at A winning 1-4 stay at A; the deal counts as a failed attempt;
    * declarers at A who lose: a failed attempt; with ``ace_loss_to_aces`` they drop to
      2 when the opponent who went out first did so with a play made only of aces;
    * after ``ace_attempts`` failed attempts the team drops to 2 (count reset);
    * otherwise the winners go up by ``promotion`` (at most to A) and become declarers.
    """
    levels = list(levels)
    fails = list(ace_failures)
    w = order[0] % 2
    lose = 1 - w
    limit = rules.ace_attempts
    if declarers == w and levels[w] == ACE:
        if result in (RESULT_12, RESULT_13):
            return levels, w, fails, w
        fails[w] += 1
        if limit is not None and fails[w] >= limit:
            levels[w], fails[w] = 0, 0
        return levels, w, fails, None
    if declarers == lose and levels[lose] == ACE:
        fails[lose] += 1
        if (rules.ace_loss_to_aces and first_out_with_aces) or (limit is not None and fails[lose] >= limit):
            levels[lose], fails[lose] = 0, 0
    levels[w] = min(ACE, levels[w] + rules.promotion[result - 1])
    return levels, w, fails, None


class Match(MatchSurface):
    """A whole Guan Dan game: deals until a team wins at A.

    Args:
        seed: the match seed (``None``: drawn from ``np.random.default_rng()``); deal
            ``i`` is dealt from a seed derived from it, so one seed gives one match
            for one sequence of actions.
        rules: a :class:`~chupai.guandan.Rules` (default: pagat).
        max_deals: a safety cap: after this many deals without a winner the match ends
            as a draw (``is_terminal()``, ``winner`` ``None``, ``returns()`` all 0).
            ``None``: no cap.
        levels, declarers: start from this standing instead of both teams at 2 (the
            first deal is then played at the declarers' level, without tribute).
        dealer: for tests and analysis: ``dealer(i)`` gives the four hands of deal
            ``i`` (0-based) instead of a random deal, or ``(hands, leader)`` for the
            first deal (without a leader it is the holder of a random card).

    The match moves to the next deal by itself when a deal ends, so
    ``current_player`` always names a decision unless the match is over.  The rules of
    the standing are those of :func:`settle`.
    """

    __slots__ = (
        "_deal",
        "_dealer",
        "_deals_played",
        "_declarers",
        "_fails",
        "_levels",
        "_max_deals",
        "_over",
        "_past",
        "_rules",
        "_seed",
        "_summaries",
        "_winner",
    )

    def __init__(
        self,
        seed: int | None = None,
        *,
        rules: Rules | None = None,
        max_deals: int | None = 1000,
        levels: Sequence[Any] = ("2", "2"),
        declarers: int | None = None,
        dealer: Callable[[int], Any] | None = None,
    ) -> None:
        seed = check_seed(seed)
        if max_deals is not None and (isinstance(max_deals, bool) or not isinstance(max_deals, int) or max_deals < 1):
            raise ValueError(f"max_deals must be a positive int or None, not {max_deals!r}")
        if isinstance(levels, str) or len(levels) != 2:
            raise ValueError(f"levels must be two levels (team 0, team 1), not {levels!r}")
        lv = [parse_rank(levels[0], "level"), parse_rank(levels[1], "level")]
        if declarers is not None and (isinstance(declarers, bool) or declarers not in (0, 1)):
            raise ValueError(f"declarers must be team 0, 1 or None, not {declarers!r}")
        if declarers is None and lv[0] != lv[1]:
            raise ValueError(f"levels {tuple(levels)} differ: say which team are declarers")
        self._rules = _check_rules(rules)
        self._seed = seed
        self._max_deals = max_deals
        self._levels = lv
        self._declarers = declarers
        self._fails = [0, 0]
        self._deals_played = 0
        self._winner = None
        self._over = False
        self._past: tuple[tuple[int, Any], ...] = ()
        self._summaries: tuple[dict[str, Any], ...] = ()
        self._dealer = dealer
        self._deal = self._new_deal(None)

    def _new_deal(self, previous: tuple[int, ...] | None) -> Deal:
        index = self._deals_played
        seed = derive_seed(self._seed, index)
        level_chars = (RANKS[self._levels[0]], RANKS[self._levels[1]])
        leader = None
        if self._dealer is not None:
            given = self._dealer(index)
            if isinstance(given, tuple) and len(given) == 2 and isinstance(given[1], int):
                hands, leader = given
            else:
                hands = given
            hands = [h if isinstance(h, Cards) else Cards(h) for h in hands]
            if previous is None and leader is None:
                sizes = [len(h) for h in hands]
                k = int(np.random.default_rng(seed).integers(0, sum(sizes)))
                leader = int(np.searchsorted(np.cumsum(sizes), k, side="right"))
        else:
            core = DealCore.random(seed, level=RANKS[self._levels[self._declarers or 0]], rules=self._rules)
            hands = [core.hand(s) for s in range(SEATS)]
            leader = core.current
        deal = Deal.from_hands(hands, leader=leader, levels=level_chars, declarers=self._declarers,
                               previous=previous, rules=self._rules)
        deal._seed = None if self._dealer is not None else seed
        return deal

    def _after_deal(self) -> None:
        deal = self._deal
        order = deal.finishing_order
        before = (RANKS[self._levels[0]], RANKS[self._levels[1]])
        levels, declarers, fails, winner = settle(
            self._levels, self._declarers, self._fails, order, deal._core.result,
            deal.first_out_with_aces, self._rules)
        self._levels, self._declarers, self._fails = levels, declarers, fails
        self._deals_played += 1
        self._past = self._past + tuple(deal._history)
        self._summaries = self._summaries + ({
            "deal": self._deals_played - 1,
            "level": deal.level,
            "declarers": deal.declarers,
            "levels_before": before,
            "finishing_order": order,
            "result": deal.result,
            "first_out_with_aces": deal.first_out_with_aces,
            "levels_after": (RANKS[levels[0]], RANKS[levels[1]]),
            "ace_failures": tuple(fails),
        },)
        if winner is not None:
            self._winner = winner
            self._over = True
        elif self._max_deals is not None and self._deals_played >= self._max_deals:
            self._over = True
        else:
            self._deal = self._new_deal(order)

    # -- the common surface -----------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self._over

    def returns(self) -> list[float]:
        """+1 for both players of the winning team, -1 for the others; zeros before the
        end and after a draw (``max_deals`` reached)."""
        if self._winner is None:
            return [0.0] * SEATS
        return [1.0 if s % 2 == self._winner else -1.0 for s in range(SEATS)]

    @property
    def levels(self) -> tuple[str, str]:
        """The current levels of team 0 and team 1."""
        return (RANKS[self._levels[0]], RANKS[self._levels[1]])

    @property
    def declarers(self) -> int | None:
        return self._declarers

    @property
    def level(self) -> str:
        """The level rank of the current deal (the declarers' level)."""
        return self._deal.level

    @property
    def ace_failures(self) -> tuple[int, int]:
        """Per team, the failed deals as declarers at A counted towards ``ace_attempts``."""
        return (self._fails[0], self._fails[1])

    @property
    def deals_played(self) -> int:
        """Deals finished so far."""
        return self._deals_played

    @property
    def deals(self) -> tuple[dict[str, Any], ...]:
        """A summary of each finished deal (levels before and after, order, result)."""
        return self._summaries

    @property
    def winner(self) -> int | None:
        """The team that won the game, or ``None``."""
        return self._winner

    @property
    def max_deals(self) -> int | None:
        return self._max_deals

    def clone(self) -> Match:
        other = object.__new__(Match)
        other._rules = self._rules
        other._seed = self._seed
        other._max_deals = self._max_deals
        other._levels = list(self._levels)
        other._declarers = self._declarers
        other._fails = list(self._fails)
        other._deal = self._deal.clone()
        other._deals_played = self._deals_played
        other._winner = self._winner
        other._over = self._over
        other._past = self._past
        other._summaries = self._summaries
        other._dealer = self._dealer
        return other

    def observation(self, player: int) -> dict[str, Any]:
        """The current deal's observation plus ``"match"``: the standing (``levels``,
        ``declarers``, ``ace_failures``, ``deals_played``, ``deals`` summaries,
        ``winner``, ``over``)."""
        obs = self._deal.observation(player)
        obs["match"] = {
            "levels": self.levels,
            "declarers": self._declarers,
            "ace_failures": self.ace_failures,
            "deals_played": self._deals_played,
            "deals": self._summaries,
            "winner": self._winner,
            "over": self._over,
        }
        return obs

    def __str__(self) -> str:
        state = (f"won by team {self._winner}" if self._winner is not None
                 else "over (max_deals reached)" if self._over else "in progress")
        head = (f"Guan Dan match: levels {self.levels[0]}/{self.levels[1]}, declarers "
                f"{'none' if self._declarers is None else 'team ' + str(self._declarers)}, "
                f"{self._deals_played} deal(s) played, {state}")
        return head + "\n" + str(self._deal)

    def __repr__(self) -> str:
        return f"<guandan.Match seed {self._seed} levels {self.levels} deals {self._deals_played}>"


def decision_choice(state: Deal | Match, actions: Sequence[Any]) -> Any:
    """A sensible tribute-phase choice for bots: return the lowest card (level order),
    otherwise the first of ``actions``."""
    returns = [a for a in actions if isinstance(a, ReturnCard)]
    if not returns:
        return actions[0]
    level = parse_rank(state.level, "level")

    def order(action: ReturnCard) -> int:
        face = parse_face(action.card)
        return face if face >= BLACK_JOKER_BIT else level_value(face // BITS_PER_RANK, level)

    return min(returns, key=order)
