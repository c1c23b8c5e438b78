"""The Guan Dan tribute (``docs/rules/guandan.md``, "Tribute"): its actions, its steps, and the
sub-machine a deal after a previous deal runs before the card play.

Exactly as implemented:

* After a 1-2 both losers pay; after a 1-3 or 1-4 the last finisher pays the first.
  Payers pay in turn order starting after the previous first finisher.
* A payer gives their highest card in level order that is not a wild card (the heart
  of the level rank).  If they hold several faces (suits) of that rank, which one is
  their decision (:class:`PayTribute`); with one face the payment is automatic and
  appears in ``history`` as an event with ``automatic=True``.
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
* Lead (``tribute_lead="payer"``): the payer of the higher (or only) tribute.  Equal
  tributes: ``equal_tribute_lead="payers_choose"`` makes it a decision
  (:class:`ChooseLeader`, either payer) of the payer who finished 3rd if known, else the
  payer with the lower seat number; ``"seat_order"``: the payer who follows the first
  finisher.
* Lead (``tribute_lead="receiver"``): the receiver of the higher (or only) tribute,
  that is the previous first finisher.  Equal tributes: ``"payers_choose"`` makes it a
  decision of the first finisher (either receiver: the first or the second finisher);
  ``"seat_order"``: the first finisher.
* Tribute and return cards are public; a card received stays publicly known to be in
  its receiver's hand until a card of that face is played by them.
* Decisions come in this order: payments, the take, the returns, the leader choice;
  then the card play starts from the hands after the exchange.

>>> from chupai.guandan import Deal
>>> deal = Deal.from_hands(["3S 4S", "2H KS 5D", "3D 4D", "AS 6D 7D"], previous=(0, 2))
>>> deal.history[-1], deal.phase, deal.legal_actions()
(Event(seat=3, action=PayTribute('AS'), phase=<Phase.TRIBUTE: 'tribute'>, automatic=True), <Phase.RETURN: 'return'>, [ReturnCard('3S'), ReturnCard('4S')])
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, NamedTuple

from chupai.core.records import BITS_PER_RANK, BLACK_JOKER_BIT, NUM_FACES, RED_JOKER_BIT
from chupai.state.base import slot_copy
from chupai.core.validate import check_seat
from chupai.state.decisions import CardDecision
from chupai.cards import RANKS, Cards, face_name, parse_face
from chupai.contract import Event
from chupai.guandan._engine import RESULT_12, RESULT_13, RESULT_14
from chupai.guandan.play import level_value, wild_face
from chupai.guandan.rules import Rules, parse_rank
from chupai.guandan.phase import Phase

__all__ = [
    "ChooseLeader",
    "PayTribute",
    "ReturnCard",
    "TakeTribute",
    "Tribute",
    "TributeStep",
    "decision_choice",
    "normalize_previous",
]

SEATS = 4


class TributeStep(Enum):
    """A decision of the tribute (its :attr:`phase` is the deal's phase meanwhile)."""

    PAY = "pay"
    TAKE = "take"
    RETURN = "return"
    LEAD = "lead"

    @property
    def phase(self) -> Phase:
        return _STEP_PHASE[self]


_STEP_PHASE = {
    TributeStep.PAY: Phase.TRIBUTE,
    TributeStep.TAKE: Phase.TRIBUTE,
    TributeStep.RETURN: Phase.RETURN,
    TributeStep.LEAD: Phase.LEAD,
}


# --- actions ------------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class PayTribute(CardDecision):
    """A payer gives ``card`` as tribute (a decision only when several suits tie)."""


@dataclass(frozen=True, repr=False)
class TakeTribute(CardDecision):
    """The first finisher takes the tribute card ``card`` (equal tributes, winners' choice)."""


@dataclass(frozen=True, repr=False)
class ReturnCard(CardDecision):
    """A receiver returns ``card`` to the player they received tribute from."""


@dataclass(frozen=True)
class ChooseLeader:
    """After equal tributes, a payer names which payer (``seat``) leads."""

    seat: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "seat", check_seat(self.seat, SEATS, "seat"))

    def __repr__(self) -> str:
        return f"ChooseLeader({self.seat})"


TRIBUTE_ACTIONS = (PayTribute, TakeTribute, ReturnCard, ChooseLeader)

# one (immutable) action per face: the options of a step are made at every step and
# at every determinization of a world whose decider is hidden
PAY_TRIBUTE = tuple(PayTribute(face_name(f)) for f in range(NUM_FACES))
RETURN_CARD = tuple(ReturnCard(face_name(f)) for f in range(NUM_FACES))


def decision_choice(state: Any, actions: Sequence[Any]) -> Any:
    """A sensible tribute-phase choice for bots (the registry's ``decision_policy``):
    return the lowest card (level order), otherwise the first of ``actions``."""
    returns = [a for a in actions if isinstance(a, ReturnCard)]
    if not returns:
        return actions[0]
    level = parse_rank(state.level, "level")

    def order(action: ReturnCard) -> int:
        face = parse_face(action.card)
        return face if face >= BLACK_JOKER_BIT else level_value(face // BITS_PER_RANK, level)

    return min(returns, key=order)


# --- helpers ------------------------------------------------------------------------------
def _values(lv: int) -> tuple[int, ...]:
    """Level-order value of each face at level index ``lv`` (jokers 13 and 14)."""
    out = [level_value(f // BITS_PER_RANK, lv) for f in range(NUM_FACES - 2)]
    return tuple(out + [13, 14])


#: per level index, the level-order value of every face
VALUES = tuple(_values(lv) for lv in range(len(RANKS)))


def add_card(cards: Cards, face: int, n: int = 1) -> Cards:
    counts = cards.counts()
    counts[face] += n
    return Cards.from_counts(counts)


def top_faces(hand: Cards, lv: int) -> list[int]:
    """The faces of the payer's highest non-wild card (several only for tied suits)."""
    values = VALUES[lv]
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


def normalize_previous(previous: Any) -> tuple[tuple[int, int, int, int], int]:
    """The previous finishing order as 4 seats (-1 for undecided after a 1-2) and its result."""
    if isinstance(previous, (str, bytes)) or not isinstance(previous, Sequence):
        raise TypeError(f"previous must be a finishing order (a sequence of seats), not {previous!r}")
    order = [check_seat(s, SEATS, "previous seat") if s != -1 else -1 for s in previous]
    if not 2 <= len(order) <= 4:
        raise ValueError(f"previous must be 2 to 4 seats in finishing order, not {previous!r}")
    order += [-1] * (4 - len(order))
    seats = [s for s in order if s != -1]
    if len(set(seats)) != len(seats) or -1 in order[:2]:
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


class Pending(NamedTuple):
    """The decision the tribute waits for."""

    step: TributeStep
    seat: int
    options: tuple[Any, ...]


# --- the sub-machine ----------------------------------------------------------------------
class Tribute:
    """The tribute phase of one deal, from the hands dealt to the hands of the card play.

    It holds the hands while it runs (:attr:`hands`), the publicly known cards
    (:attr:`known`) and the public record; :meth:`decide` makes a decision and runs the
    forced steps after it, returning the events to add to the deal's history.  It is
    :attr:`done` when the card play can start (:attr:`leader` leads).
    """

    __slots__ = ("hands", "known", "leader", "lv", "paid", "payers", "pending", "previous", "receipts",
                 "resisted", "returns", "rules")

    def __init__(self, hands: Sequence[Cards], previous: tuple[int, int, int, int], kind: int, lv: int,
                 rules: Rules) -> None:
        self.hands = list(hands)
        self.previous = previous
        self.lv = lv
        self.rules = rules
        self.paid: tuple[tuple[int, int], ...] = ()
        self.receipts: tuple[tuple[int, int, int], ...] | None = None
        self.returns: tuple[tuple[int, int, int], ...] = ()
        self.resisted = False
        self.leader: int | None = None
        self.pending: Pending | None = None
        self.known: tuple[Cards, ...] = (Cards(),) * SEATS
        first = previous[0]
        self.payers = ((first + 1) % SEATS, (first + 3) % SEATS) if kind == RESULT_12 else (previous[3],)
        wild = wild_face(lv)
        for s in range(SEATS):
            if len(hands[s]) < 2:
                raise ValueError(f"hand {s} holds {len(hands[s])} card(s); a deal with tribute needs at least 2")
        for p in self.payers:
            if not any(n and f != wild for f, n in enumerate(hands[p].counts())):
                raise ValueError(f"payer {p} holds no card but wild cards to pay tribute with")

    def start(self) -> list[Event]:
        """Resist or run the forced steps up to the first decision; the events made."""
        if sum(self.hands[p].count("RJ") for p in self.payers) == 2:
            # resisting tribute: the red jokers are shown, the previous first finisher leads
            self.resisted = True
            self.known = tuple(Cards(["RJ"] * self.hands[s].count("RJ")) for s in range(SEATS))
            self.leader = self.previous[0]
            return []
        return self._advance()

    def clone(self) -> Tribute:
        # a world of the tribute phase copies it at every determinization
        return slot_copy(self, copied=("hands",))

    @property
    def done(self) -> bool:
        """Every decision made: the card play starts with :attr:`hands`, led by :attr:`leader`."""
        return self.pending is None

    def decide(self, action: Any) -> list[Event]:
        """Make the pending decision with ``action`` (one of its options) and run the
        forced steps after it; the events made."""
        assert self.pending is not None
        step, seat, _ = self.pending
        events = [Event(seat, action, step.phase)]
        if step is TributeStep.PAY:
            self._pay(seat, parse_face(action.card))
        elif step is TributeStep.TAKE:
            face = parse_face(action.card)
            (a, fa), (b, fb) = self.paid
            mine, other = ((a, fa), (b, fb)) if fa == face else ((b, fb), (a, fa))
            self._receive(((mine[0], self.previous[0], mine[1]), (other[0], self.previous[1], other[1])))
        elif step is TributeStep.RETURN:
            face = parse_face(action.card)
            assert self.receipts is not None
            payer, receiver, _ = self.receipts[len(self.returns)]
            hand = self.hands[receiver].counts()
            hand[face] -= 1
            self.hands[receiver] = Cards.from_counts(hand)
            self.hands[payer] = add_card(self.hands[payer], face)
            known = list(self.known)
            known[payer] = add_card(known[payer], face)
            self.known = tuple(known)
            self.returns = self.returns + ((receiver, payer, face),)
        else:
            self.leader = action.seat
        return events + self._advance()

    def _advance(self) -> list[Event]:
        """Run the forced steps up to the next decision or the end of the tribute."""
        events: list[Event] = []
        self.pending = None
        values = VALUES[self.lv]
        while len(self.paid) < len(self.payers):
            payer = self.payers[len(self.paid)]
            faces = top_faces(self.hands[payer], self.lv)
            if len(faces) > 1:
                self.pending = Pending(TributeStep.PAY, payer, tuple(PAY_TRIBUTE[f] for f in faces))
                return events
            events.append(Event(payer, PAY_TRIBUTE[faces[0]], Phase.TRIBUTE, True))
            self._pay(payer, faces[0])
        first, second = self.previous[0], self.previous[1]
        if self.receipts is None:
            if len(self.paid) == 1:
                (payer, face), = self.paid
                self._receive(((payer, first, face),))
            else:
                (a, fa), (b, fb) = self.paid
                if values[fa] != values[fb]:
                    hi, lo = ((a, fa), (b, fb)) if values[fa] > values[fb] else ((b, fb), (a, fa))
                    self._receive(((hi[0], first, hi[1]), (lo[0], second, lo[1])))
                elif self.rules.equal_tribute == "winners_choose" and fa != fb:
                    opts = tuple(TakeTribute(face_name(f)) for f in sorted((fa, fb)))
                    self.pending = Pending(TributeStep.TAKE, first, opts)
                    return events
                else:
                    near = (first + 1) % SEATS
                    (p1, f1), (p2, f2) = ((a, fa), (b, fb)) if a == near else ((b, fb), (a, fa))
                    self._receive(((p1, first, f1), (p2, second, f2)))
        assert self.receipts is not None
        if len(self.returns) < len(self.receipts):
            _payer, receiver, face = self.receipts[len(self.returns)]
            self.pending = Pending(TributeStep.RETURN, receiver, self._return_options(receiver, face))
            return events
        if self.leader is None:
            by_receiver = self.rules.tribute_lead == "receiver"
            if len(self.paid) == 1:
                # the receiver of the only tribute is the first finisher
                self.leader = first if by_receiver else self.paid[0][0]
            else:
                (a, fa), (b, fb) = self.paid
                if values[fa] != values[fb]:
                    # the first finisher receives the higher tribute
                    self.leader = first if by_receiver else (a if values[fa] > values[fb] else b)
                elif self.rules.equal_tribute_lead == "seat_order":
                    self.leader = first if by_receiver else (first + 1) % SEATS
                else:
                    side: tuple[int, ...]
                    if by_receiver:
                        chooser, side = first, (first, second)
                    else:
                        third = self.previous[2]
                        chooser, side = (third if third in self.payers else min(self.payers)), self.payers
                    leaders = tuple(ChooseLeader(s) for s in sorted(side))
                    self.pending = Pending(TributeStep.LEAD, chooser, leaders)
        return events

    def _pay(self, payer: int, face: int) -> None:
        hand = self.hands[payer].counts()
        hand[face] -= 1
        self.hands[payer] = Cards.from_counts(hand)
        self.paid = self.paid + ((payer, face),)

    def _receive(self, receipts: tuple[tuple[int, int, int], ...]) -> None:
        # the first finisher's receipt first: receivers return in finishing order
        self.receipts = tuple(sorted(receipts, key=lambda r: self.previous.index(r[1])))
        known = list(self.known)
        for _payer, receiver, face in self.receipts:
            self.hands[receiver] = add_card(self.hands[receiver], face)
            known[receiver] = add_card(known[receiver], face)
        self.known = tuple(known)

    def _return_options(self, receiver: int, received: int) -> tuple[ReturnCard, ...]:
        counts = self.hands[receiver].counts()
        eligible = [f for f, n in enumerate(counts) if n and f != received]
        if self.rules.return_max_rank is not None:
            values = VALUES[self.lv]
            cap = level_value(RANKS.index(self.rules.return_max_rank), self.lv)
            low = [f for f in eligible if values[f] <= cap]
            if low:
                eligible = low
        return tuple(RETURN_CARD[f] for f in eligible)

    # -- what the public record implies --------------------------------------------------
    def record(self) -> dict[str, Any]:
        """The public record of the tribute (cards as strings)."""
        return {
            "previous": self.previous,
            "payers": self.payers,
            "resisted": self.resisted,
            "paid": tuple((p, face_name(f)) for p, f in self.paid),
            "received": tuple((p, r, face_name(f)) for p, r, f in (self.receipts or ())),
            "returned": tuple((r, p, face_name(f)) for r, p, f in self.returns),
        }

    def forbidden(self, seat: int, history: Sequence[Event]) -> set[int]:
        """Faces the public tribute rules out of the unknown part of ``seat``'s hand."""
        out: set[int] = set()
        values = VALUES[self.lv]
        wild = wild_face(self.lv)
        forced = {e.action.card for e in history if isinstance(e.action, PayTribute) and e.automatic}
        for payer, face in self.paid:
            if payer == seat:
                out.update(f for f in range(NUM_FACES) if f != wild and values[f] > values[face])
                if face_name(face) in forced:
                    # a forced payment: no other suit of that rank (a decision otherwise)
                    out.update(f for f in range(NUM_FACES) if f not in (wild, face) and values[f] == values[face])
                if face == RED_JOKER_BIT:
                    out.add(RED_JOKER_BIT)  # holding both would have resisted
        if self.rules.return_max_rank is not None:
            cap = level_value(RANKS.index(self.rules.return_max_rank), self.lv)
            for receiver, _payer, face in self.returns:
                if receiver == seat and values[face] > cap:
                    received = next(f for _p, r, f in (self.receipts or ()) if r == receiver)
                    out.update(f for f in range(NUM_FACES) if values[f] <= cap and f != received)
        return out

    def undo(self, counts: list[list[int]]) -> None:
        """Turn per-seat face counts after the tribute into the counts dealt (in place)."""
        for payer, face in self.paid:
            counts[payer][face] += 1
        for _payer, receiver, face in self.receipts or ():
            counts[receiver][face] -= 1
        for receiver, payer, face in self.returns:
            counts[receiver][face] += 1
            counts[payer][face] -= 1
