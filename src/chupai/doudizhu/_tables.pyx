"""Dou Dizhu's compiled tables behind ``chupai.rl.VectorEnv("doudizhu")``: the shared
tables (``chupai.rl._tables.Tables``) with Dou Dizhu's auction as their decisions before
the card play (``chupai.doudizhu.auction``: one bid each, call and rob, or none; a deal
in which nobody bids dealt again, made void or given to the first bidder, as
``Rules.all_pass`` says) and Dou Dizhu's observation (``chupai.doudizhu._rl.DouDizhu.encode``:
the climbing games' fields, then the landlord, the kitty, the bids, the base and the
stake).  The first bidder is seat 0, as in ``chupai.doudizhu.Deal(seed=...)``.
"""
cimport cython

from libc.stdint cimport int32_t, uint64_t

from chupai.core.records cimport mask_t, match_deal_hash, play_t, popcount, rng_below, rng_seed, rng_t
from chupai.doudizhu._deal cimport DDZ_SEATS, ddz_deal_t
from chupai.doudizhu._engine cimport ddz_deal_random, ddz_stake, ddz_start
from chupai.engine.base cimport POLICY_RANDOM
from chupai.rl._tables cimport (
    F_CLIMBING, F_HAND, F_PHASE, F_SIZES, F_TO_ACT, Tables, one_winner, put_cards, table_t,
)

cdef enum:
    # Dou Dizhu's fields, after the climbing games' (chupai.doudizhu._rl.DouDizhu)
    F_LANDLORD = F_CLIMBING
    F_KITTY = F_CLIMBING + 1
    F_BIDS = F_CLIMBING + 2
    F_BASE = F_CLIMBING + 3
    F_STAKE = F_CLIMBING + 4
    # the seat that bids first (chupai.doudizhu.Deal's default `first`)
    FIRST_BIDDER = 0
    # the bids of the one-bid auction: 0 (pass) .. TOP_BID (chupai.doudizhu.auction)
    TOP_BID = 3
    BID_VALUES = TOP_BID + 1
    # Rules.bidding and Rules.all_pass, by their index in chupai.doudizhu.rules.BIDDING / ALL_PASS
    BID_ONCE = 0
    BID_ROB = 1
    BID_NONE = 2
    ALL_PASS_REDEAL = 0
    ALL_PASS_VOID = 1
    ALL_PASS_FIRST = 2
    # table_t.decision: the auction (chupai.doudizhu.auction.Auction's state)
    D_BIDDING = 0                # 1 while the auction runs
    D_BASE = 1                   # the base stake so far
    D_LANDLORD = 2               # the highest bidder, the caller or the last robber so far (-1: none)
    D_CALLER = 3                 # the call-and-rob auction's caller (-1: none yet)
    D_POS = 4                    # bids made in this round (an index into the order)
    D_NORDER = 5                 # the seats of the order
    D_ORDER = 6                  # .. D_ORDER + 4: the seats to speak, in order
    D_REDEALS = 11               # the deals dealt again so far
    D_LAST = 12                  # 1: nobody bidding makes the first bidder the landlord (the last redeal)
    D_BIDS = 13                  # .. + 3 * BID_VALUES: per seat, the bids it made of each value

#: the fields after the climbing games', in the order of the offsets the tables take
FIELDS = ("landlord", "kitty", "bids", "base", "stake")


@cython.final
cdef class DouDizhuTables(Tables):
    """``n`` Dou Dizhu tables (``chupai.rl._tables.Tables``): the auction, then the card play."""

    cdef int bidding, all_pass, max_redeals, bid_id, bid_phase

    def auction(self, int bidding, int all_pass, int max_redeals, int bid_id, int bid_phase):
        """The auction's rules (indices into chupai.doudizhu.rules.BIDDING and ALL_PASS),
        the deals dealt again at most, the action id of ``Bid(0)`` and the index of the
        phase "bid" in the layout; set once, before the first reset."""
        if not (0 <= bidding <= BID_NONE and 0 <= all_pass <= ALL_PASS_FIRST and max_redeals >= 0
                and 0 <= bid_id <= self.num_actions - BID_VALUES and bid_phase >= 0):
            raise ValueError("auction: bidding, all_pass, max_redeals, bid_id or bid_phase out of range")
        self.bidding, self.all_pass, self.max_redeals = bidding, all_pass, max_redeals
        self.bid_id, self.bid_phase = bid_id, bid_phase

    cdef bint h_collapsed_choice(self) noexcept nogil:
        # one deck, no wild cards: the generator's collapsed plays of a legal id include
        # its concrete choice (the lowest cards), which the tables pick among them as
        # among the concrete plays
        return 1

    cdef void h_finished(self, const void *st, int *place) noexcept nogil:
        one_winner(self.seats, (<const ddz_deal_t *>st).winner, place)

    cdef void h_moved(self, table_t *t, int seat, const play_t *p, bint leading) noexcept nogil:
        """The kitty's cards the landlord plays are no longer known to be in its hand."""
        if p != NULL:
            t.known_lo[seat] &= ~p.lo

    # -- the auction -----------------------------------------------------------------------
    cdef void h_dealt(self, table_t *t) noexcept nogil:
        """The hands of 17 (the engine's deal gave the kitty to a landlord drawn from the
        seed, as the playouts do), then the auction from the first bidder."""
        cdef ddz_deal_t *d = <ddz_deal_t *>t.st
        d.hand[d.landlord] &= ~d.kitty
        t.decision[D_REDEALS] = 0
        self._open(t)

    cdef void _open(self, table_t *t) noexcept nogil:
        """A new auction over the hands dealt (none under bidding "none")."""
        cdef ddz_deal_t *d = <ddz_deal_t *>t.st
        cdef int *a = <int *>t.decision
        cdef int k
        for k in range(BID_VALUES * DDZ_SEATS):
            a[D_BIDS + k] = 0
        a[D_LAST] = a[D_REDEALS] == self.max_redeals
        if self.bidding == BID_NONE:
            self._end(t, FIRST_BIDDER, 1)
            return
        a[D_BIDDING] = 1
        a[D_BASE] = 0
        a[D_LANDLORD] = -1
        a[D_CALLER] = -1
        a[D_POS] = 0
        a[D_NORDER] = DDZ_SEATS
        for k in range(DDZ_SEATS):
            a[D_ORDER + k] = (FIRST_BIDDER + k) % DDZ_SEATS
        d.t.current = FIRST_BIDDER
        d.t.last_player = -1
        d.winner = -1

    cdef void _end(self, table_t *t, int landlord, int base) noexcept nogil:
        """The landlord takes the kitty (shown to all) and leads the card play at `base`."""
        cdef ddz_deal_t *d = <ddz_deal_t *>t.st
        t.decision[D_BIDDING] = 0
        d.hand[landlord] |= d.kitty
        d.base = base
        ddz_start(d, landlord, landlord)
        t.known_lo[landlord] = d.kitty

    cdef void _nobody(self, table_t *t) noexcept nogil:
        """Nobody bid: the first bidder is the landlord at 1, the deal is dealt again
        (chupai.core.seeds.match_deal of the deal's seed), or it ends void."""
        cdef ddz_deal_t *d = <ddz_deal_t *>t.st
        cdef rng_t r
        if self.all_pass == ALL_PASS_FIRST or t.decision[D_LAST]:
            self._end(t, FIRST_BIDDER, 1)
        elif self.all_pass == ALL_PASS_REDEAL:
            t.decision[D_REDEALS] += 1
            # chupai.doudizhu.deal._dealt: DealEngine.random(match_deal(seed, redeals), landlord=first)
            rng_seed(&r, match_deal_hash(t.deal_seed, <uint64_t>t.decision[D_REDEALS]), 0)
            rng_below(&r, DDZ_SEATS)
            ddz_deal_random(d, &r, FIRST_BIDDER)
            d.hand[FIRST_BIDDER] &= ~d.kitty
            self._open(t)
        else:
            t.decision[D_BIDDING] = 0
            d.t.current = -1
            d.winner = -1

    cdef bint h_deciding(self, const table_t *t) noexcept nogil:
        return t.decision[D_BIDDING]

    cdef int h_decisions(self, const table_t *t, int32_t *ids) noexcept nogil:
        """Bid(0), then Bid(base + 1) .. Bid(3) (one bid each) or Bid(1) (call and rob)."""
        cdef int n = 1, v
        ids[0] = self.bid_id
        if self.bidding == BID_ROB:
            ids[1] = self.bid_id + 1
            return 2
        for v in range(t.decision[D_BASE] + 1, TOP_BID + 1):
            ids[n] = self.bid_id + v
            n += 1
        return n

    cdef void h_decide(self, table_t *t, int k) noexcept nogil:
        """chupai.doudizhu.auction.Auction.apply of the k-th legal bid."""
        cdef ddz_deal_t *d = <ddz_deal_t *>t.st
        cdef int *a = <int *>t.decision
        cdef int seat = d.t.current
        cdef int value = k if self.bidding == BID_ROB or k == 0 else a[D_BASE] + k
        a[D_BIDS + seat * BID_VALUES + value] += 1
        a[D_POS] += 1
        if self.bidding == BID_ONCE:
            if value:
                a[D_BASE] = value
                a[D_LANDLORD] = seat
                if value == TOP_BID:
                    self._end(t, seat, value)
                    return
            if a[D_POS] == DDZ_SEATS:
                if a[D_LANDLORD] < 0:
                    self._nobody(t)
                else:
                    self._end(t, a[D_LANDLORD], a[D_BASE])
                return
            d.t.current = a[D_ORDER + a[D_POS]]
            return
        # call and rob
        if a[D_CALLER] < 0:
            if value:
                # the call: the later players of the first round may rob, then the caller
                a[D_CALLER] = seat
                a[D_LANDLORD] = seat
                a[D_BASE] = 1
                for k in range(a[D_POS], a[D_NORDER]):
                    a[D_ORDER + k - a[D_POS]] = a[D_ORDER + k]
                a[D_NORDER] -= a[D_POS]
                a[D_POS] = 0
            elif a[D_POS] == DDZ_SEATS:
                self._nobody(t)
                return
        elif value:
            a[D_LANDLORD] = seat
            a[D_BASE] *= 2
        if a[D_CALLER] >= 0 and a[D_POS] == a[D_NORDER]:
            if a[D_LANDLORD] == a[D_CALLER] or (a[D_NORDER] and a[D_ORDER + a[D_NORDER] - 1] == a[D_CALLER]):
                self._end(t, a[D_LANDLORD], a[D_BASE])
                return
            a[D_ORDER + a[D_NORDER]] = a[D_CALLER]  # the caller's last word
            a[D_NORDER] += 1
        d.t.current = a[D_ORDER + a[D_POS]]

    cdef int h_decision_policy(self, table_t *t, int policy) noexcept nogil:
        """Random: uniform; greedy and heuristic: chupai.doudizhu.bidding.decision_choice
        (the highest legal bid up to the hand's worth; call from a worth of 1, rob from 2)."""
        cdef const ddz_deal_t *d = <const ddz_deal_t *>t.st
        cdef int worth = hand_worth(d.hand[d.t.current]), s, robbing = 0
        if policy == POLICY_RANDOM:
            return <int>rng_below(&t.rng, BID_VALUES - t.decision[D_BASE] if self.bidding == BID_ONCE else 2)
        if self.bidding == BID_ROB:
            for s in range(DDZ_SEATS):
                robbing |= t.decision[D_BIDS + s * BID_VALUES + 1]
            return 1 if worth >= (2 if robbing else 1) else 0
        return worth - t.decision[D_BASE] if worth > t.decision[D_BASE] else 0

    # -- the observation -------------------------------------------------------------------
    cdef void h_encode(self, const table_t *t, float *obs) noexcept nogil:
        """chupai.doudizhu._rl.DouDizhu.encode (a deal in its auction or its card play)."""
        cdef const ddz_deal_t *d = <const ddz_deal_t *>t.st
        cdef int n = self.seats, p = d.t.current, k, s, v
        if t.decision[D_BIDDING]:
            put_cards(obs + self.off[F_HAND], self.perm, d.hand[p], 0)
            for k in range(n):
                s = (p + k) % n
                obs[self.off[F_SIZES] + k] = popcount(d.hand[s])
            obs[self.off[F_TO_ACT]] = 1.0
            obs[self.off[F_PHASE] + self.bid_phase] = 1.0
            obs[self.off[F_BASE]] = t.decision[D_BASE]
        else:
            self.climbing_fields(t, obs)
            obs[self.off[F_LANDLORD] + (d.landlord - p + n) % n] = 1.0
            put_cards(obs + self.off[F_KITTY], self.perm, d.kitty, 0)
            obs[self.off[F_BASE]] = d.base
            obs[self.off[F_STAKE]] = ddz_stake(d)
        for k in range(n):
            s = (p + k) % n
            for v in range(BID_VALUES):
                obs[self.off[F_BIDS] + k * BID_VALUES + v] = t.decision[D_BIDS + s * BID_VALUES + v]


cdef int hand_worth(mask_t hand) noexcept nogil:
    """chupai.doudizhu.bidding.worth: the rocket 8, a lone red joker 4, a lone black
    joker 3, each bomb 6, each 2 held 2, each ace 1; a bid of 3 from 10 points, 2 from 7,
    1 from 4, else none (faces rank * 4 + suit, ranks 2..A, then the black and the red joker)."""
    cdef int points, r, count
    cdef bint black = (hand >> 52) & 1, red = (hand >> 53) & 1
    points = 8 if black and red else 4 * red + 3 * black
    for r in range(13):
        count = popcount((hand >> (4 * r)) & 15)
        if count == 4:
            points += 6
        if r == 0:
            points += 2 * count
        elif r == 12:
            points += count
    if points >= 10:
        return 3
    if points >= 7:
        return 2
    return 1 if points >= 4 else 0
