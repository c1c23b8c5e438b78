"""The Dou Dizhu deal engine and the playouts (``docs/rules/doudizhu.md``, "The auction",
"Play" and "Scoring").

A deal is the C struct ``ddz_deal_t``: three hands, the auction (its rules and state),
the trick (last play, who made it, passes since), the landlord and the base stake the
auction gave, and what the scoring counts (bombs and rockets, each seat's plays).  The
auction (``chupai.doudizhu.auction``) runs from seat 0; its landlord takes the kitty
and leads; play goes from seat to seat in increasing order; when the two others pass,
the last player to play leads; the deal ends when a player has no cards left.
``DealEngine`` wraps a card play for Python (the ``Deal`` state machine runs its
auction); the playouts deal, bid and play each deal to the end inside C with the GIL
released, and the compiled tables (``chupai.doudizhu._tables``) run the same auction
for their players.
"""
cimport cython

from libc.stdint cimport uint8_t, uint64_t

from chupai.core.records cimport (
    GameClasses,
    JOKER_MASK,
    SUITED_MASK,
    bit,
    mask_t,
    match_deal_hash,
    play_t,
    playbuf_t,
    rng_below,
    rng_next,
    rng_seed,
    rng_shuffle,
    rng_t,
    seed64,
)
from chupai.engine.base cimport (
    PASS_FOLLOWING, POLICY_CALLER, Engine, GameSpec, check_seat, checked_hands, onedeck_plays_of, trick_played, trick_start,
    trick_target,
)
from chupai.doudizhu._deal cimport (
    DDZ_ALL_PASS_FIRST, DDZ_ALL_PASS_REDEAL, DDZ_BID_NONE, DDZ_BID_ONCE, DDZ_BID_VALUES, DDZ_DECK,
    DDZ_FIRST_BIDDER, DDZ_HAND, DDZ_MAX_REDEALS, DDZ_SEATS, DDZ_TOP_BID, ddz_bid_value, ddz_deal_t,
)
from chupai.doudizhu._movegen cimport DDZ_BOMB, DDZ_ROCKET, ddz_generate, ddz_rules_flags, ddz_target
from chupai.doudizhu._policies cimport choose_bid, choose_greedy, choose_heuristic

from chupai.doudizhu cimport _movegen as mg

from chupai.engine.base import POLICIES, RowField
from chupai.core.cardset import Cards
from chupai.doudizhu._movegen import GAME_CLASSES as _BOUND

SEATS = DDZ_SEATS
#: the most times an auction in which nobody bids deals again (``rules.all_pass="redeal"``);
#: in the last deal, nobody bidding makes the first bidder the landlord at 1
MAX_REDEALS = DDZ_MAX_REDEALS
#: the Python constants that must equal the C declarations (tests/test_engine_base.py)
C_CONSTANTS = {
    **{f"play.PlayType.{name}": value for name, value in (
        ("SINGLE", mg.DDZ_SINGLE), ("PAIR", mg.DDZ_PAIR), ("TRIO", mg.DDZ_TRIO),
        ("TRIO_SINGLE", mg.DDZ_TRIO_SINGLE), ("TRIO_PAIR", mg.DDZ_TRIO_PAIR), ("STRAIGHT", mg.DDZ_STRAIGHT),
        ("PAIR_SEQUENCE", mg.DDZ_PAIR_SEQUENCE), ("AIRPLANE", mg.DDZ_AIRPLANE),
        ("AIRPLANE_SINGLES", mg.DDZ_AIRPLANE_SINGLES), ("AIRPLANE_PAIRS", mg.DDZ_AIRPLANE_PAIRS),
        ("FOUR_TWO_SINGLES", mg.DDZ_FOUR_TWO_SINGLES), ("FOUR_TWO_PAIRS", mg.DDZ_FOUR_TWO_PAIRS),
        ("BOMB", mg.DDZ_BOMB), ("ROCKET", mg.DDZ_ROCKET))},
    "play.ACE_VALUE": mg.DDZ_ACE_VALUE, "play.TWO_VALUE": mg.DDZ_TWO_VALUE,
    "play.BLACK_JOKER_VALUE": mg.DDZ_BJ_VALUE, "play.RED_JOKER_VALUE": mg.DDZ_RJ_VALUE,
    "play.BOMB_CLASS": mg.DDZ_BOMB_CLASS, "play.ROCKET_CLASS": mg.DDZ_ROCKET_CLASS,
}

#: the fields of the batch row ``h_row`` writes, in order (chupai.engine.batch.split_rows)
ROW = (RowField("landlord", "int8"), RowField("base", "int32"), RowField("winner", "int8"),
       RowField("stake", "int32"), RowField("redeals", "int8"), RowField("returns", "float64", per_seat=True))

# the generator flags a deal may hold (chupai.doudizhu.rules)
cdef int ALL_FLAGS = 63
# the largest base stake a deal takes (the call-and-rob auction's is at most 8), and the
# most bombs and rockets one deal holds (13 bombs and the rocket)
cdef int MAX_BASE_C = 1 << 20
cdef int DDZ_MAX_DOUBLINGS = 14
#: the largest base stake a deal takes
MAX_BASE = MAX_BASE_C


# --- the rules of play ------------------------------------------------------------------
cdef void ddz_start(ddz_deal_t *d, int landlord, int leader) noexcept nogil:
    """Start the card play with `leader` (the landlord, in a deal) on lead (hands, flags,
    base and cap set)."""
    cdef int s
    trick_start(&d.t, DDZ_SEATS, PASS_FOLLOWING, leader)
    d.landlord = landlord
    d.doublings = 0
    d.winner = -1
    for s in range(DDZ_SEATS):
        d.plays[s] = 0


cdef void ddz_deal_random(ddz_deal_t *d, rng_t *rng, int landlord) noexcept nogil:
    """Shuffle the 54 cards, deal 17 to each seat and the last 3 to the kitty, which the
    landlord takes; the landlord leads.  flags, base and cap are kept."""
    cdef uint8_t deck[DDZ_DECK]
    cdef int i
    for i in range(DDZ_DECK):
        deck[i] = i
    rng_shuffle(deck, DDZ_DECK, rng)
    for i in range(DDZ_SEATS):
        d.hand[i] = 0
    d.kitty = 0
    for i in range(DDZ_SEATS * DDZ_HAND):
        d.hand[i % DDZ_SEATS] |= bit(deck[i])
    for i in range(DDZ_SEATS * DDZ_HAND, DDZ_DECK):
        d.kitty |= bit(deck[i])
    d.hand[landlord] |= d.kitty
    ddz_start(d, landlord, landlord)


# --- the auction (chupai.doudizhu.auction.Auction) -------------------------------------------
cdef void ddz_auction_rules(ddz_deal_t *d, int bidding, int all_pass) noexcept nogil:
    """The auction's rules (DDZ_BID_*, DDZ_ALL_PASS_*); no auction open."""
    d.a.bidding = bidding
    d.a.all_pass = all_pass
    d.a.open = 0
    d.a.redeals = 0


cdef void deal_aside(ddz_deal_t *d, rng_t *rng, int landlord) noexcept nogil:
    """ddz_deal_random's deal with the kitty set aside: no hand holds it until the
    auction ends (auction_end)."""
    ddz_deal_random(d, rng, landlord)
    d.hand[landlord] &= ~d.kitty


cdef void ddz_auction_deal(ddz_deal_t *d, rng_t *rng) noexcept nogil:
    """A fresh deal from `rng` (the cards of DealEngine.random's deal of that stream),
    the hands of 17 (the kitty aside), the auction opened; the deal's seed, from which a
    deal nobody bids in is dealt again, is drawn from `rng` after the cards."""
    deal_aside(d, rng, rng_below(rng, DDZ_SEATS))
    d.a.seed = rng_next(rng) >> 1
    d.a.redeals = 0
    ddz_auction_open(d)


cdef void ddz_auction_open(ddz_deal_t *d) noexcept nogil:
    """A new auction over the hands dealt (ended at once under bidding "none": the first
    bidder is the landlord at 1)."""
    cdef int k
    for k in range(DDZ_BID_VALUES * DDZ_SEATS):
        d.a.bids[k] = 0
    d.a.last = d.a.redeals == DDZ_MAX_REDEALS
    if d.a.bidding == DDZ_BID_NONE:
        auction_end(d, DDZ_FIRST_BIDDER, 1)
        return
    d.a.open = 1
    d.a.base = 0
    d.a.landlord = -1
    d.a.caller = -1
    d.a.pos = 0
    d.a.norder = DDZ_SEATS
    for k in range(DDZ_SEATS):
        d.a.order[k] = (DDZ_FIRST_BIDDER + k) % DDZ_SEATS
    d.t.current = DDZ_FIRST_BIDDER
    d.t.last_player = -1
    d.winner = -1


cdef void auction_end(ddz_deal_t *d, int landlord, int base) noexcept nogil:
    """The landlord takes the kitty (shown to all) and leads the card play at `base`."""
    d.a.open = 0
    d.hand[landlord] |= d.kitty
    d.base = base
    ddz_start(d, landlord, landlord)


cdef void auction_nobody(ddz_deal_t *d) noexcept nogil:
    """Nobody bid: the first bidder is the landlord at 1, the deal is dealt again
    (chupai.doudizhu.deal: DealEngine.random(match_deal(seed, redeals), landlord=first)),
    or it ends void (no landlord, no winner)."""
    cdef rng_t r
    if d.a.all_pass == DDZ_ALL_PASS_FIRST or d.a.last:
        auction_end(d, DDZ_FIRST_BIDDER, 1)
    elif d.a.all_pass == DDZ_ALL_PASS_REDEAL:
        d.a.redeals += 1
        rng_seed(&r, match_deal_hash(d.a.seed, <uint64_t>d.a.redeals), 0)
        rng_below(&r, DDZ_SEATS)  # (DealEngine.random's landlord: the first bidder's here)
        deal_aside(d, &r, DDZ_FIRST_BIDDER)
        ddz_auction_open(d)
    else:
        d.a.open = 0
        d.t.current = -1
        d.winner = -1
        d.landlord = -1


cdef void ddz_bid(ddz_deal_t *d, int k) noexcept nogil:
    """The seat to bid makes the k-th of its legal bids (chupai.doudizhu.auction.Auction.apply)."""
    cdef int seat = d.t.current, j
    cdef int value = ddz_bid_value(d, k)
    d.a.bids[seat * DDZ_BID_VALUES + value] += 1
    d.a.pos += 1
    if d.a.bidding == DDZ_BID_ONCE:
        if value:
            d.a.base = value
            d.a.landlord = seat
            if value == DDZ_TOP_BID:
                auction_end(d, seat, value)
                return
        if d.a.pos == DDZ_SEATS:
            if d.a.landlord < 0:
                auction_nobody(d)
            else:
                auction_end(d, d.a.landlord, d.a.base)
            return
        d.t.current = d.a.order[d.a.pos]
        return
    # call and rob
    if d.a.caller < 0:
        if value:
            # the call: the later players of the first round may rob, then the caller
            d.a.caller = seat
            d.a.landlord = seat
            d.a.base = 1
            for j in range(d.a.pos, d.a.norder):
                d.a.order[j - d.a.pos] = d.a.order[j]
            d.a.norder -= d.a.pos
            d.a.pos = 0
        elif d.a.pos == DDZ_SEATS:
            auction_nobody(d)
            return
    elif value:
        d.a.landlord = seat
        d.a.base *= 2
    if d.a.caller >= 0 and d.a.pos == d.a.norder:
        if d.a.landlord == d.a.caller or (d.a.norder and d.a.order[d.a.norder - 1] == d.a.caller):
            auction_end(d, d.a.landlord, d.a.base)
            return
        d.a.order[d.a.norder] = d.a.caller  # the caller's last word
        d.a.norder += 1
    d.t.current = d.a.order[d.a.pos]


# --- the card play --------------------------------------------------------------------------
cdef int deal_legal(const ddz_deal_t *d, int collapse, playbuf_t *out) noexcept nogil:
    """Append the current player's legal plays (passing, when allowed, is not listed)."""
    cdef ddz_target tg
    cdef int s = d.t.current
    if s < 0:
        return 0
    trick_target(&d.t, &tg)
    return ddz_generate(d.hand[s], d.flags, collapse, &tg, out)


cdef void deal_play(ddz_deal_t *d, const play_t *p) noexcept nogil:
    """The current player plays `p` (which the caller has checked is legal)."""
    cdef int s = d.t.current
    d.hand[s] &= ~p.lo
    d.plays[s] += 1
    if p.type == DDZ_BOMB or p.type == DDZ_ROCKET:
        d.doublings += 1
    trick_played(&d.t, p)
    if not d.hand[s]:
        d.winner = s
        d.t.current = -1
        return
    d.t.current = (s + 1) % DDZ_SEATS


cdef void deal_pass(ddz_deal_t *d) noexcept nogil:
    """The current player passes (only when following); after two passes the last player
    to play leads."""
    d.t.npass += 1
    if d.t.npass >= DDZ_SEATS - 1:
        d.t.current = d.t.last_player
        d.t.last_player = -1
        d.t.npass = 0
    else:
        d.t.current = (d.t.current + 1) % DDZ_SEATS


cdef double ddz_stake(const ddz_deal_t *d) noexcept nogil:
    """The stake as it stands: the base doubled for every bomb and rocket, and once over
    for a spring or an anti-spring, the doublings capped (chupai.doudizhu.scoring)."""
    cdef int n = d.doublings, s, farmers = 0
    cdef double m
    if d.winner >= 0:
        if d.winner == d.landlord:
            for s in range(DDZ_SEATS):
                if s != d.landlord:
                    farmers += d.plays[s]
            n += farmers == 0
        else:
            n += d.plays[d.landlord] == 1
    m = 1.0
    for s in range(n):
        m *= 2.0
    if d.cap and m > d.cap:
        m = d.cap
    return d.base * m


cdef int valid(const ddz_deal_t *d) noexcept nogil:
    """0 if the fields are in range and no card is in two hands."""
    cdef int s
    cdef mask_t seen = 0
    if d.t.seats != DDZ_SEATS or d.t.pass_rule != PASS_FOLLOWING or d.flags & ~ALL_FLAGS:
        return 1
    if not (-1 <= d.t.current < DDZ_SEATS and -1 <= d.t.last_player < DDZ_SEATS and 0 <= d.t.npass < DDZ_SEATS - 1):
        return 2
    for s in range(DDZ_SEATS):
        if d.hand[s] & ~(SUITED_MASK | JOKER_MASK) or d.hand[s] & seen or not 0 <= d.plays[s] <= DDZ_DECK:
            return 3
        seen |= d.hand[s]
    if d.kitty & ~(SUITED_MASK | JOKER_MASK):
        return 3
    if not (0 <= d.landlord < DDZ_SEATS and 1 <= d.base <= MAX_BASE_C and d.cap >= 0
            and 0 <= d.doublings <= DDZ_MAX_DOUBLINGS and -1 <= d.winner < DDZ_SEATS):
        return 4
    if (d.t.current < 0) != (d.winner >= 0) or (d.winner >= 0 and d.hand[d.winner]):
        return 5
    if d.t.current >= 0 and not d.hand[d.t.current]:
        return 5
    return 0


# --- the engine -------------------------------------------------------------------------
cdef GameClasses CLASSES = _BOUND  # the game's Play and Rules (chupai.doudizhu.play binds them)
cdef GameSpec SPEC = GameSpec(CLASSES, sizeof(ddz_deal_t), 256)


cdef int cap_of(object rules) except -1:
    cap = CLASSES.rules_of(rules).multiplier_cap
    return 0 if cap is None else min(int(cap), 1 << 30)


cdef int checked_base(object base) except -1:
    if isinstance(base, bool) or not isinstance(base, int):
        raise TypeError(f"base must be an int, not {base!r}")
    if not 1 <= base <= MAX_BASE:
        raise ValueError(f"base must be a stake from 1 to {MAX_BASE}, not {base}")
    return base


cdef int set_rules_of(ddz_deal_t *d, object rules) except -1:
    """The options of `rules` (None: the default rules): generator flags, the doublings'
    cap and the auction's rules."""
    bidding, all_pass = CLASSES.rules_of(rules)._auction
    d.flags = ddz_rules_flags(rules)
    d.cap = cap_of(rules)
    ddz_auction_rules(d, bidding, all_pass)
    return 0


include "chupai/engine/deal_hooks.pxi"


@cython.no_gc  # no reference cycles (see Engine): no GC bookkeeping per clone
cdef class DealEngine(DealHooks):
    """One deal's card play after the auction: three hands, the trick, the landlord and
    the base stake, the bombs and plays the scoring counts.

    Seats ``0 .. 2``, turn order ``s -> (s + 1) % 3``; the landlord leads.  The mechanisms
    are ``chupai.engine.base.Engine``'s; this class holds the Dou Dizhu rules.
    """

    cdef void *h_state(self) noexcept nogil:
        return &self.d

    cdef GameSpec h_spec(self):
        return SPEC

    @staticmethod
    def from_hands(hands, *, current=None, landlord=0, base=1, kitty=None, rules=None):
        """A deal's card play from three one-deck hands (``Cards`` or strings; the
        landlord's already holding the kitty), at ``base``, ``current`` to lead (``None``:
        the landlord); ``kitty`` (optional) the three cards it took, for the record."""
        cdef DealEngine self = DealEngine.__new__(DealEngine)
        cdef int s, lord, lead
        parsed = checked_hands(hands, DDZ_SEATS, DDZ_SEATS, 1)
        lord = check_seat(landlord, DDZ_SEATS, "landlord")
        lead = lord if current is None else check_seat(current, DDZ_SEATS, "current")
        for s in range(DDZ_SEATS):
            self.d.hand[s] = parsed[s].lo
            if not self.d.hand[s]:
                raise ValueError(f"seat {s} holds no cards")
        self.d.kitty = 0
        if kitty is not None:
            taken = Cards(kitty) if isinstance(kitty, str) else kitty
            if not isinstance(taken, Cards) or taken.hi:
                raise TypeError(f"kitty must be one-deck Cards or a card string, not {kitty!r}")
            self.d.kitty = taken.lo
        self.d.base = checked_base(base)
        set_rules_of(&self.d, rules)
        self.d.t.seats = DDZ_SEATS
        self.set_rules(CLASSES.rules_of(rules))
        ddz_start(&self.d, lord, lead)
        return self

    @staticmethod
    def random(seed, *, landlord=None, base=1, rules=None):
        """A fresh deal's card play from a seed: 17 cards each, the kitty to the landlord
        (``None``: drawn from the seed), who leads at ``base``; the same seed deals the
        cards of ``playouts``' first deal (before its auction)."""
        cdef DealEngine self = DealEngine.__new__(DealEngine)
        cdef rng_t rng
        cdef int lead
        rng_seed(&rng, seed64(seed), 0)
        lead = rng_below(&rng, DDZ_SEATS)
        if landlord is not None:
            lead = check_seat(landlord, DDZ_SEATS, "landlord")
        self.d.base = checked_base(base)
        set_rules_of(&self.d, rules)
        self.d.t.seats = DDZ_SEATS
        self.set_rules(CLASSES.rules_of(rules))
        ddz_deal_random(&self.d, &rng, lead)
        return self

    def with_hands(self, hands):
        """A copy holding other hands (three ``Cards``, each of the size held now, the
        same cards in all): the trick, the turn, the landlord and what the scoring
        counts are kept (a determinized world)."""
        cdef DealEngine other = self.clone()
        cdef int s
        cdef mask_t before = 0, after = 0
        if not isinstance(hands, (list, tuple)) or not all(isinstance(h, Cards) for h in hands):
            raise TypeError(f"hands must be a list or tuple of {DDZ_SEATS} Cards, not {hands!r}")
        if len(hands) != DDZ_SEATS:
            raise ValueError(f"hands must be {DDZ_SEATS} Cards, not {len(hands)}")
        for s in range(DDZ_SEATS):
            if hands[s].hi or len(hands[s]) != len(self.hand(s)):
                raise ValueError(f"hand {s} must be one-deck Cards of {len(self.hand(s))} cards")
            if after & hands[s].lo:
                raise ValueError(f"hand {s} repeats a card of another hand")
            before |= self.d.hand[s]
            after |= hands[s].lo
        if before != after:
            raise ValueError("the new hands are not the cards of this deal")
        for s in range(DDZ_SEATS):
            other.d.hand[s] = hands[s].lo
        if other.d.t.current >= 0 and not other.d.hand[other.d.t.current]:
            raise ValueError("the player to act would hold no cards")
        return other

    # -- hooks ------------------------------------------------------------------------
    cdef void h_hand(self, const void *st, int seat, mask_t *lo, mask_t *hi) noexcept nogil:
        lo[0] = (<const ddz_deal_t *>st).hand[seat]
        hi[0] = 0

    cdef int h_plays_of(self, const void *st, const play_t *p, int lead, playbuf_t *out) noexcept nogil:
        cdef const ddz_deal_t *d = <const ddz_deal_t *>st
        return onedeck_plays_of(ddz_generate, &d.t, d.hand[d.t.current] if d.t.current >= 0 else 0, d.flags, p, lead, out)

    cdef int h_heuristic(self, const void *st, const playbuf_t *buf) noexcept nogil:
        return choose_heuristic(<const ddz_deal_t *>st, buf)  # the heuristic block

    cdef void h_returns(self, const void *st, const double *weights, double *out) noexcept nogil:
        """Each seat's payment once over (the landlord twice the stake, each farmer the
        stake, the other way); 0 for all while on."""
        cdef const ddz_deal_t *d = <const ddz_deal_t *>st
        cdef double won = 0.0
        cdef int s
        if d.winner >= 0:
            won = ddz_stake(d) if d.winner == d.landlord else -ddz_stake(d)
        for s in range(DDZ_SEATS):
            out[s] = 2.0 * won if s == d.landlord else -won

    cdef int h_deal(self, void *st, rng_t *rng, int policy) noexcept nogil:
        """A fresh deal and its auction (ddz_auction_deal), bid by `policy` (chupai.doudizhu._policies.choose_bid) unless POLICY_CALLER;
        the redeals."""
        cdef ddz_deal_t *d = <ddz_deal_t *>st
        ddz_auction_deal(d, rng)
        if policy != POLICY_CALLER:
            while d.a.open:
                ddz_bid(d, choose_bid(d, policy, rng))
        return d.a.redeals

    cdef int h_row_width(self, const void *st) noexcept nogil:
        return 5 + DDZ_SEATS

    cdef void h_row(self, const void *st, int dealt, double *row) noexcept nogil:
        """The landlord and the auction's base, the winner, the stake (-1, 0, -1, 0 for a
        void deal), the redeals, then each seat's return."""
        cdef const ddz_deal_t *d = <const ddz_deal_t *>st
        cdef bint void = d.landlord < 0
        row[0] = d.landlord
        row[1] = 0.0 if void else d.base
        row[2] = d.winner
        row[3] = 0.0 if void else ddz_stake(d)
        row[4] = dealt
        self.h_returns(st, NULL, row + 5)

    cdef int h_valid(self, const void *st) noexcept nogil:
        return valid(<const ddz_deal_t *>st)

    cdef object h_outcome(self):
        return self.landlord, self.winner, self.stake, tuple(self.returns())

    # -- Dou Dizhu state --------------------------------------------------------------
    @property
    def landlord(self):
        """The landlord's seat."""
        return self.d.landlord

    @property
    def base(self):
        """The auction's base stake."""
        return self.d.base

    @property
    def kitty(self):
        """The kitty the landlord took (empty if not given)."""
        return Cards.from_masks(self.d.kitty)

    @property
    def winner(self):
        """The first seat out, or ``None`` while the deal is on."""
        return None if self.d.winner < 0 else self.d.winner

    @property
    def doublings(self):
        """The bombs and rockets played so far."""
        return self.d.doublings

    @property
    def plays_made(self):
        """The plays each seat has made so far."""
        return tuple(self.d.plays[s] for s in range(DDZ_SEATS))

    @property
    def stake(self):
        """The stake as it stands (once over, with a spring or an anti-spring)."""
        return int(ddz_stake(&self.d))
