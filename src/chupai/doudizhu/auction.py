"""The Dou Dizhu auction: who becomes the landlord, and at what base stake.

``docs/rules/doudizhu.md`` ("The auction") gives the three auctions of
:attr:`Rules.bidding <chupai.doudizhu.Rules>`; an :class:`Auction` runs one of them
from a first bidder, one :class:`Bid` at a time.

- ``"once"``: from the first bidder, each player once bids 1, 2 or 3, higher than every
  bid so far, or passes (``Bid(0)``); a bid of 3 ends the auction at once. The highest
  bidder is the landlord and the bid is the base stake.
- ``"rob"`` (叫地主 / 抢地主): from the first bidder, each player in turn calls
  (``Bid(1)``) or passes until one calls: the caller, at a base stake of 1. Each player
  after the caller in that first round may then rob once (``Bid(1)``: the stake
  doubles) or pass; if anyone robbed, the caller may rob back last. The last to call or
  rob is the landlord.
- ``"none"``: no auction; the first bidder is the landlord at a base stake of 1.

When nobody bids (or calls), :attr:`Rules.all_pass <chupai.doudizhu.Rules>` decides:
``"first_bidder"`` makes the first bidder the landlord at 1 here; otherwise the auction
ends with no landlord (:attr:`Auction.void`), and the deal is dealt again or ends.

>>> from chupai.doudizhu import Rules
>>> a = Auction(Rules(), first=1)
>>> a.legal()
(Bid(0), Bid(1), Bid(2), Bid(3))
>>> for bid in (Bid(1), Bid(0), Bid(2)):
...     a.apply(bid)
>>> a.over, a.landlord, a.base
(True, 0, 2)
>>> r = Auction(Rules(bidding="rob"), first=0)
>>> for bid in (Bid(1), Bid(1), Bid(1), Bid(0)):  # 0 calls, 1 and 2 rob, 0 lets it go
...     r.apply(bid)
>>> r.over, r.landlord, r.base
(True, 2, 4)
"""
from __future__ import annotations

from dataclasses import dataclass

from chupai.core.validate import check_seat, is_int
from chupai.doudizhu.rules import Rules
from chupai.errors import IllegalActionError

__all__ = ["Auction", "Bid", "SEATS"]

#: the players of a Dou Dizhu deal
SEATS = 3
#: the highest bid of the one-bid auction (it ends the auction)
TOP_BID = 3


@dataclass(frozen=True)
class Bid:
    """One decision of the auction: ``Bid(0)`` passes; ``Bid(1)``-``Bid(3)`` bid that
    stake (``"once"``); ``Bid(1)`` calls or robs (``"rob"``).

    >>> Bid(2), Bid(0).value
    (Bid(2), 0)
    """

    value: int

    def __post_init__(self) -> None:
        if not is_int(self.value):
            raise TypeError(f"value must be an int, not {self.value!r}")
        if not 0 <= self.value <= TOP_BID:
            raise ValueError(f"value must be 0 (pass) to {TOP_BID}, not {self.value}")
        object.__setattr__(self, "value", int(self.value))

    def __repr__(self) -> str:
        return f"Bid({self.value})"


PASS_BID = Bid(0)
_BIDS = tuple(Bid(v) for v in range(TOP_BID + 1))


class Auction:
    """One auction under ``rules`` (its ``bidding`` and ``all_pass``), starting with the
    seat ``first``; ``apply`` takes one :class:`Bid` of :meth:`legal` at a time.

    Attributes (read-only): ``current`` (the seat to bid, ``None`` once over), ``over``,
    ``landlord`` (``None`` until decided, and for a void auction), ``base`` (the base
    stake so far: the highest bid, or 1 doubled per rob), ``void``, ``bids`` (every
    ``(seat, Bid)`` so far).
    """

    __slots__ = ("_base", "_bids", "_caller", "_current", "_first", "_landlord", "_mode", "_order", "_pos",
                 "_rules", "_void")

    def __init__(self, rules: Rules, first: int) -> None:
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a doudizhu.Rules, not {type(rules).__name__}")
        self._rules = rules
        self._first = check_seat(first, SEATS, "first")
        self._bids: list[tuple[int, Bid]] = []
        self._base = 0
        self._landlord: int | None = None
        self._void = False
        self._caller: int | None = None
        # the seats still to speak, in order (the rob round's list is made on the call)
        self._order = [(self._first + k) % SEATS for k in range(SEATS)]
        self._pos = 0
        self._mode = rules.bidding
        self._current: int | None = self._first
        if self._mode == "none":
            self._end(self._first, 1)

    # -- state ---------------------------------------------------------------------------
    @property
    def current(self) -> int | None:
        """The seat to bid now, or ``None`` once the auction is over."""
        return self._current

    @property
    def over(self) -> bool:
        return self._current is None

    @property
    def landlord(self) -> int | None:
        return self._landlord

    @property
    def base(self) -> int:
        return self._base

    @property
    def void(self) -> bool:
        """Over with nobody bidding (or calling), and the rules leave no landlord."""
        return self._void

    @property
    def first(self) -> int:
        return self._first

    @property
    def bids(self) -> tuple[tuple[int, Bid], ...]:
        return tuple(self._bids)

    def legal(self) -> tuple[Bid, ...]:
        """The bids the current seat may make (empty once over)."""
        if self._current is None:
            return ()
        if self._mode == "once":
            return (PASS_BID,) + _BIDS[self._base + 1:]
        return (PASS_BID, _BIDS[1])

    # -- moves ---------------------------------------------------------------------------
    def apply(self, bid: Bid) -> None:
        """The current seat makes ``bid`` (``TypeError`` for another type,
        :class:`~chupai.errors.IllegalActionError` if not legal now; the auction is then
        unchanged)."""
        if not isinstance(bid, Bid):
            raise TypeError(f"bid must be a doudizhu.Bid, not {type(bid).__name__}")
        if bid not in self.legal():
            raise IllegalActionError(f"{bid!r} is not legal now; legal: {list(self.legal())}")
        seat = self._current
        assert seat is not None
        self._bids.append((seat, bid))
        self._pos += 1
        if self._mode == "once":
            self._once(seat, bid.value)
        else:
            self._rob(seat, bid.value)

    def _once(self, seat: int, value: int) -> None:
        if value:
            self._base = value
            self._landlord = seat
            if value == TOP_BID:
                self._end(seat, value)
                return
        if self._pos == SEATS:
            if self._landlord is None:
                self._nobody()
            else:
                self._end(self._landlord, self._base)
            return
        self._current = self._order[self._pos]

    def _rob(self, seat: int, value: int) -> None:
        if self._caller is None:
            if value:
                # the call: the later players of the first round may rob, then the caller
                self._caller = seat
                self._landlord = seat
                self._base = 1
                self._order = self._order[self._pos:]
                self._pos = 0
            elif self._pos == SEATS:
                self._nobody()
                return
        elif value:
            self._landlord = seat
            self._base *= 2
        if self._caller is not None:
            if self._pos == len(self._order):
                robbed = self._landlord != self._caller
                if not robbed or self._order[-1:] == [self._caller]:
                    self._end(self._landlord, self._base)  # type: ignore[arg-type]
                    return
                self._order.append(self._caller)  # the caller's last word
            self._current = self._order[self._pos]
            return
        self._current = self._order[self._pos]

    def _nobody(self) -> None:
        if self._rules.all_pass == "first_bidder":
            self._end(self._first, 1)
        else:
            self._void = True
            self._current = None

    def _end(self, landlord: int, base: int) -> None:
        self._landlord = landlord
        self._base = base
        self._current = None

    def copy(self) -> Auction:
        """An independent copy (the bids are shared, being immutable)."""
        other = Auction.__new__(Auction)
        for name in Auction.__slots__:
            value = getattr(self, name)
            setattr(other, name, list(value) if isinstance(value, list) else value)
        return other

    def __repr__(self) -> str:
        state = ("void" if self._void else f"landlord {self._landlord} at {self._base}") if self.over \
            else f"seat {self._current} to bid"
        return f"Auction({self._rules.bidding}, first {self._first}: {state})"
