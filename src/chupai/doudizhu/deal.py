"""Dou Dizhu's deal, :class:`Deal`: the auction, the landlord taking the kitty, the card
play and the scoring (``docs/rules/doudizhu.md``).

>>> from chupai.doudizhu import Bid, Deal
>>> deal = Deal(seed=7)
>>> deal.phase, deal.current_player, deal.legal_actions()[:2]
(<Phase.BID: 'bid'>, 0, [Bid(0), Bid(1)])
>>> for bid in (Bid(1), Bid(0), Bid(3)):
...     deal.apply(bid)
>>> deal.phase, deal.landlord, deal.base, deal.hand_sizes()
(<Phase.PLAY: 'play'>, 2, 3, (17, 17, 20))
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from chupai.actions import PASS
from chupai.cards import Cards
from chupai.contract import TERMINAL, Event
from chupai.core.seeds import match_deal
from chupai.errors import IllegalActionError
from chupai.state.base import DealSurface, check_rules, check_seat, check_seed, foreign_action, shallow_clone
from chupai.doudizhu._engine import MAX_REDEALS, DealEngine
from chupai.doudizhu._world import world
from chupai.doudizhu.auction import SEATS, Auction, Bid
from chupai.doudizhu.phase import Phase
from chupai.doudizhu.play import Play
from chupai.doudizhu.rules import Rules

__all__ = ["MAX_REDEALS", "Deal"]

# module constants: looking an enum member up on its class costs ~0.1 us
_BID, _PLAY, _OVER = Phase.BID, Phase.PLAY, Phase.OVER
_EXPECTED = "a chupai.doudizhu.Play, PASS or Bid"


class Deal(DealSurface):
    """One Dou Dizhu deal (``docs/rules/doudizhu.md``).

    ``Deal(seed)`` shuffles and deals 17 cards to each seat and 3 to the kitty; the
    auction (``rules.bidding``) starts with ``first`` (seat 0 by default). The landlord
    takes the kitty, shown to all, and leads the card play; the deal ends when a player
    has no cards left, and :meth:`returns` are the payments of the scoring. An auction
    in which nobody bids is dealt again (the next deal of the seed's stream, the same
    first bidder: ``rules.all_pass="redeal"``; at most :data:`MAX_REDEALS` times, the
    last deal's first bidder then taking the landlord at 1 if nobody bids), ends the deal with every return 0
    (``"void"``) or makes the first bidder the landlord at 1 (``"first_bidder"``).
    :meth:`from_hands` builds any deal.

    Actions: a :class:`~chupai.doudizhu.auction.Bid` in the auction (phase ``BID``);
    then a :class:`~chupai.doudizhu.play.Play` or ``PASS`` (when following) in the card
    play (``PLAY``). ``history`` is every bid, play and pass as an
    :class:`~chupai.contract.Event`, and a redeal as the first bidder's automatic event
    whose action is ``None``.

    Attributes (read-only): ``phase``, ``current_player``, ``players`` (3), ``first``
    (the first bidder), ``landlord`` and ``base`` (``None`` and 0 until the auction
    ends), ``kitty`` (hidden until the auction ends), ``redeals``, ``rules``, ``seed``,
    ``history``.
    """

    game: ClassVar[str] = "doudizhu"

    # (the engine of the card play, the cached legal actions, the history and the trick's
    # start are the compiled base's: chupai.state.compiled.CompiledState)
    __slots__ = ("_auction", "_first", "_held", "_kitty", "_redeals", "_rules", "_seed")

    _phase: Phase

    _engine: DealEngine | None

    def __init__(self, seed: int | None = None, *, rules: Rules | None = None, first: int = 0) -> None:
        seed = check_seed(seed)
        rules = check_rules(rules, Rules, "doudizhu")
        first = check_seat(first, SEATS, "first")
        self._seed = seed
        self._setup(*_dealt(seed, 0, first), first, rules)
        self._made("new", seed, rules=rules, first=first)

    @classmethod
    def from_hands(cls, hands: Sequence[Cards | str], *, kitty: Cards | str, first: int = 0,
                   rules: Rules | None = None) -> Deal:
        """A deal of three given hands (any sizes, for tests and analysis) and the kitty,
        the auction starting with ``first``; an auction in which nobody bids ends the
        deal under ``rules.all_pass="redeal"`` too (there is nothing to deal again)."""
        rules = check_rules(rules, Rules, "doudizhu")
        first = check_seat(first, SEATS, "first")
        if isinstance(hands, (str, Cards)) or not isinstance(hands, Sequence) or len(hands) != SEATS:
            raise TypeError(f"hands must be a sequence of {SEATS} hands, not {hands!r}")
        for name, cards in [(f"hands[{s}]", h) for s, h in enumerate(hands)] + [("kitty", kitty)]:
            if not isinstance(cards, (Cards, str)):
                raise TypeError(f"{name} must be Cards or a card string, not {cards!r}")
        held = [h if isinstance(h, Cards) else Cards(h) for h in hands]
        taken = kitty if isinstance(kitty, Cards) else Cards(kitty)
        seen = 0
        for name, cards in [(f"hand {s}", c) for s, c in enumerate(held)] + [("kitty", taken)]:
            if cards.hi or cards.lo & seen:
                raise ValueError(f"{name} repeats a card: one pack holds each card once")
            seen |= cards.lo
        if not all(h.lo for h in held):
            raise ValueError("every hand must hold cards")
        self = cls.__new__(cls)
        self._seed = None
        self._setup([h.lo for h in held], taken.lo, first, rules)
        self._made("from_hands", tuple(str(h) for h in held), kitty=str(taken), first=first, rules=rules)
        return self

    def _setup(self, held: list[int], kitty: int, first: int, rules: Rules) -> None:
        self._rules = rules
        self._first = first
        self._held = list(held)
        self._kitty = kitty
        self._redeals = 0
        self._engine = None
        self._history = []
        self._trick_start = 0
        self._watch = 0
        self._legal = None
        self._phase = _BID
        self._auction = Auction(rules, first)
        if self._auction.over:  # no auction
            self._start_play()

    # -- the auction -----------------------------------------------------------------------
    def _options(self) -> tuple[Any, ...]:
        return self._auction.legal() if self._phase is _BID else ()

    def _bid(self, bid: Bid) -> None:
        seat = self._auction.current
        assert seat is not None
        self._auction.apply(bid)  # IllegalActionError (nothing changed) if not legal
        self._record_event(Event(seat, bid, _BID))
        self._legal = None
        if not self._auction.over:
            return
        if not self._auction.void:
            self._start_play()
        elif self._rules.all_pass == "redeal" and self._seed is not None:
            self._redeals += 1
            self._held, self._kitty = _dealt(self._seed, self._redeals, self._first)
            # the last deal dealt again cannot be void: nobody bidding makes the first
            # bidder the landlord at 1, so that a deal ends whoever plays it
            last = self._redeals == MAX_REDEALS
            self._auction = Auction(self._rules.replace(all_pass="first_bidder") if last else self._rules,
                                    self._first)
            self._record_event(Event(self._first, None, _BID, True))
        else:
            self._phase = _OVER

    def _play_engine(self, hands: Sequence[Cards]) -> DealEngine:
        """The card play's engine at its start, the seats holding ``hands`` (the landlord's
        with the kitty)."""
        landlord = self._auction.landlord
        assert landlord is not None  # the auction is over
        return DealEngine.from_hands(hands, landlord=landlord, base=self._auction.base,
                                     kitty=Cards.from_masks(self._kitty), rules=self._rules)

    def _start_play(self) -> None:
        landlord = self._auction.landlord
        assert landlord is not None
        hands = [Cards.from_masks(m | (self._kitty if s == landlord else 0)) for s, m in enumerate(self._held)]
        self._engine = self._play_engine(hands)
        self._held = []
        self._phase = _PLAY
        self._trick_start = self._history_len
        self._legal = None

    # -- state ---------------------------------------------------------------------------
    @property
    def phase(self) -> Phase:
        """A :class:`Phase`: ``BID``, ``PLAY`` or ``OVER``."""
        return self._phase

    @property
    def players(self) -> int:
        return SEATS

    @property
    def current_player(self) -> int:
        """The seat to decide now; :data:`~chupai.contract.TERMINAL` once over."""
        if self._phase is _OVER:
            return TERMINAL
        if self._engine is not None:
            return int(self._engine.current)
        seat = self._auction.current
        assert seat is not None
        return seat

    def is_terminal(self) -> bool:
        return self._phase is _OVER

    @property
    def first(self) -> int:
        """The seat that bid first."""
        return self._first

    @property
    def landlord(self) -> int | None:
        """The landlord's seat, ``None`` until the auction ends (and for a void deal)."""
        return self._engine.landlord if self._engine is not None else None

    @property
    def base(self) -> int:
        """The base stake: the auction's so far (0 before any bid), then the landlord's."""
        return self._engine.base if self._engine is not None else self._auction.base

    @property
    def redeals(self) -> int:
        """The deals made void by an auction in which nobody bid, then dealt again."""
        return self._redeals

    @property
    def kitty(self) -> Cards:
        """The kitty (full information: shown to all once the auction ends)."""
        return Cards.from_masks(self._kitty)

    @property
    def bids(self) -> tuple[tuple[int, Bid], ...]:
        """The current auction's ``(seat, bid)`` so far (after a redeal, the new one's)."""
        return self._auction.bids

    @property
    def winner(self) -> int | None:
        """The first seat out, ``None`` while playing (and for a void deal)."""
        return self._engine.winner if self._engine is not None else None

    @property
    def stake(self) -> int:
        """The stake as it stands (the base doubled per bomb and rocket, and once over
        per spring or anti-spring, capped as the rules say); 0 before the card play."""
        return self._engine.stake if self._engine is not None else 0

    def hand(self, seat: int) -> Cards:
        """The cards ``seat`` holds now (full information; see :meth:`observation`)."""
        seat = check_seat(seat, SEATS, "seat")
        if self._engine is not None:
            return self._engine.hand(seat)
        return Cards.from_masks(self._held[seat])

    @property
    def hands(self) -> tuple[Cards, ...]:
        return tuple(self.hand(s) for s in range(SEATS))

    def hand_sizes(self) -> tuple[int, ...]:
        if self._engine is not None:
            return tuple(self._engine.hand_sizes())
        return tuple(m.bit_count() for m in self._held)

    @property
    def trick(self) -> tuple[Play | None, int, int]:
        """``(last play, who made it, passes since)``; ``(None, -1, 0)`` when leading."""
        engine = self._engine
        if engine is None or engine.last_player < 0:
            return None, -1, 0
        return self._last_play, engine.last_player, engine.passes

    def scores(self) -> tuple[int, ...]:
        """Each seat's payment once over (``chupai.doudizhu.scoring``); zeros before,
        and for a void deal."""
        if self._phase is not _OVER or self._engine is None:
            return (0,) * SEATS
        return tuple(int(r) for r in self._engine.returns())

    def returns(self) -> list[float]:
        """:meth:`scores` as floats: the landlord's is twice a farmer's, a zero sum."""
        return [float(x) for x in self.scores()]

    @property
    def known_cards(self) -> tuple[Cards, ...]:
        """Per seat, the cards publicly known to be in that hand: the kitty's cards the
        landlord has not played yet (none in the auction)."""
        landlord = self.landlord
        return tuple(Cards.from_masks(self._kitty & self.hand(s).lo if s == landlord else 0) for s in range(SEATS))

    def played_cards(self) -> tuple[Cards, ...]:
        """The cards each seat has played so far."""
        return self._played_cards(SEATS)

    # -- actions -------------------------------------------------------------------------
    # legal_actions(), apply() and apply_index() are the compiled base's
    # (chupai.state.compiled.CompiledState): the bids of the auction, then every legal play
    # (every suit choice) and PASS when following; none once over.
    def _apply_checked(self, action: Any) -> None:
        """Make ``action`` (not an item of the current ``legal_actions()``) for the current
        player, validated in full; ``IllegalActionError`` (state unchanged) if it is not
        legal now."""
        if action is not PASS and not isinstance(action, (Bid, Play)):
            raise foreign_action(action, "doudizhu", _EXPECTED)
        if self._phase is _OVER:
            raise IllegalActionError(f"{action!r}: the deal is over")
        if self._phase is _BID:
            if not isinstance(action, Bid):
                raise IllegalActionError(f"{action!r} is not legal in the auction: seat {self.current_player} bids "
                                         f"among {list(self._auction.legal())!r}")
            self._bid(action)
            return
        if isinstance(action, Bid):
            raise IllegalActionError(f"{action!r} is not legal in the card play (a Play or PASS)")
        self._commit(action)  # the one check, in the engine: IllegalActionError, state unchanged

    def _ended(self) -> None:
        self._phase = _OVER

    def card_play(self) -> DealEngine | None:
        """A copy of the compiled card-play engine (for bots and playouts), or ``None``
        outside the card play (the auction, the deal over)."""
        return self._engine.clone() if self._phase is _PLAY and self._engine is not None else None

    # -- copies, views -------------------------------------------------------------------
    def clone(self) -> Deal:
        """An independent copy (the engine is copied in C; plays and bids are shared,
        being immutable)."""
        other = shallow_clone(self, copied=("_held",))
        other._auction = self._auction.copy()
        return other

    def observation(self, player: int) -> dict[str, Any]:
        """What seat ``player`` knows: their hand and everything public, nothing hidden.

        Keys: those of every game (:data:`chupai.contract.OBSERVATION_KEYS`) and
        ``first``, ``bids`` (the current auction's), ``landlord``, ``base``, ``kitty``
        (``None`` until the auction ends), ``redeals``, ``trick`` (``last_play``,
        ``last_player``, ``passes``, ``plays``: the trick's events), ``played`` (cards
        played per seat), ``stake``, ``winner``.
        """
        p = check_seat(player, SEATS)
        last, last_player, passes = self.trick
        return {
            "player": p,
            "players": SEATS,
            "phase": self._phase,
            "current_player": self.current_player,
            "hand": self.hand(p),
            "hand_sizes": self.hand_sizes(),
            "first": self._first,
            "bids": self.bids,
            "landlord": self.landlord,
            "base": self.base,
            "kitty": self.kitty if self._engine is not None else None,
            "redeals": self._redeals,
            "trick": {
                "last_play": last,
                "last_player": last_player,
                "passes": passes,
                "plays": tuple(self._history[self._trick_start:]) if self._engine is not None else (),
            },
            "history": tuple(self._history),
            "played": self.played_cards(),
            "stake": self.stake,
            "winner": self.winner,
            "over": self.is_terminal(),
        }

    def _determinize(self, player: int, seed: int) -> Deal:
        """The cards hidden from ``player`` dealt again uniformly, each hand keeping its
        size: in the auction the other two hands and the kitty; in the card play the
        other hands but the kitty's cards the landlord still holds (the kitty was shown
        to all; compiled, :mod:`chupai.doudizhu._world`). Nothing in a Dou Dizhu history
        constrains where a hidden card is (a bid and a pass are free choices), so this is
        uniform over the consistent deals.
        """
        p = check_seat(player, SEATS)
        other = self.clone()
        other._legal = None
        if self._phase is _OVER:
            return other
        if self._engine is None:
            rng = np.random.default_rng(seed)
            hidden = [s for s in range(SEATS) if s != p]
            pool = _faces(sum(self._held[s] for s in hidden) | self._kitty)
            rng.shuffle(pool)
            sizes = [self._held[s].bit_count() for s in hidden]
            at = 0
            for s, n in zip(hidden, sizes):
                other._held[s] = _mask(pool[at:at + n])
                at += n
            other._kitty = _mask(pool[at:])
            return other
        other._engine = world(self._engine, p, self.known_cards, seed)
        return other

    def _world_card_play(self, player: int, seed: int) -> DealEngine | None:
        if self._phase is not _PLAY or self._engine is None:
            return self._determinize(player, seed).card_play()
        return world(self._engine, player, self.known_cards, seed)

    # -- printing ------------------------------------------------------------------------
    def __str__(self) -> str:
        lines = [f"Dou Dizhu deal, first bidder {self._first}, phase {self._phase}"
                 + ("" if self.landlord is None else f", landlord {self.landlord} at {self.base}")]
        cur = self.current_player
        for s in range(SEATS):
            h = self.hand(s)
            mark = ">" if s == cur else " "
            lines.append(f" {mark}seat {s} [{len(h):2d}]: {h}")
        if self._phase is _OVER:
            lines.append("  void: nobody bid" if self.winner is None else
                         f"  over: seat {self.winner} went out, stake {self.stake}, scores {self.scores()}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<doudizhu.Deal {self._phase} sizes {self.hand_sizes()}>"


def _dealt(seed: int, redeal: int, first: int) -> tuple[list[int], int]:
    """The hands (masks) and the kitty of deal ``redeal`` of ``seed``'s stream: 17 cards
    each and 3 for the kitty, as ``DealEngine.random`` deals them."""
    engine = DealEngine.random(seed if redeal == 0 else match_deal(seed, redeal), landlord=first)
    kitty = engine.kitty.lo
    return [engine.hand(s).lo & ~kitty for s in range(SEATS)], kitty


def _faces(mask: int) -> list[int]:
    return [f for f in range(54) if mask >> f & 1]


def _mask(faces: Any) -> int:
    out = 0
    for f in faces:
        out |= 1 << int(f)
    return out

