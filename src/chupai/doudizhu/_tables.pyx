"""Dou Dizhu's compiled tables behind ``chupai.rl.VectorEnv("doudizhu")``: the shared
tables (``chupai.rl._tables.Tables``) with Dou Dizhu's auction as their decisions before
the card play (the engine's auction, ``chupai.doudizhu._engine``, as
``chupai.doudizhu.auction``: one bid each, call and rob, or none; a deal in which nobody
bids dealt again, made void or given to the first bidder, as ``Rules.all_pass`` says)
and Dou Dizhu's observation (``chupai.doudizhu._rl.DouDizhu.encode``: the climbing
games' fields, then the landlord, the kitty, the bids, the base and the stake).  The first bidder is seat 0, as in ``chupai.doudizhu.Deal(seed=...)``.
"""
cimport cython

from libc.stdint cimport int32_t

from chupai.core.records cimport play_t, popcount
from chupai.doudizhu._deal cimport DDZ_BID_VALUES, ddz_bid_count, ddz_bid_value, ddz_deal_t
from chupai.doudizhu._engine cimport ddz_bid, ddz_stake
from chupai.doudizhu._policies cimport choose_bid
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

#: the fields after the climbing games', in the order of the offsets the tables take
FIELDS = ("landlord", "kitty", "bids", "base", "stake")


@cython.final
cdef class DouDizhuTables(Tables):
    """``n`` Dou Dizhu tables (``chupai.rl._tables.Tables``): the auction of the
    prototype's rules (the engine's, ``chupai.doudizhu._engine``), then the card play."""

    cdef int bid_id, bid_phase   # (bid_phase -1 until auction() sets them)

    def __cinit__(self, *args, **kwargs):
        self.bid_phase = -1

    def auction(self, int bid_id, int bid_phase):
        """The action id of ``Bid(0)`` and the index of the phase "bid" in the layout;
        set once, before the first reset."""
        if not (0 <= bid_id <= self.num_actions - DDZ_BID_VALUES and bid_phase >= 0):
            raise ValueError("auction: bid_id or bid_phase out of range")
        self.bid_id, self.bid_phase = bid_id, bid_phase

    def reset(self):
        """``Tables.reset``; ``RuntimeError`` until :meth:`auction` has set the bids' ids."""
        if self.bid_phase < 0:
            raise RuntimeError("call auction() before reset(): the tables do not know the bids' ids")
        return Tables.reset(self)

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

    # -- the auction (the engine's) ----------------------------------------------------------
    cdef void h_dealt(self, table_t *t) noexcept nogil:
        """The engine dealt the hands of 17 and opened the auction: a deal dealt again is
        dealt from this deal's seed, as chupai.doudizhu.Deal(seed=...)'s."""
        (<ddz_deal_t *>t.st).a.seed = t.deal_seed
        self._shown(t)

    cdef void _shown(self, table_t *t) noexcept nogil:
        """Once the auction has made a landlord, every seat knows the kitty in its hand."""
        cdef const ddz_deal_t *d = <const ddz_deal_t *>t.st
        if not d.a.open and d.t.current >= 0:
            t.known_lo[d.landlord] = d.kitty

    cdef bint h_deciding(self, const table_t *t) noexcept nogil:
        return (<const ddz_deal_t *>t.st).a.open

    cdef int h_decisions(self, const table_t *t, int32_t *ids) noexcept nogil:
        """The legal bids' ids (chupai.doudizhu._deal.ddz_bid_value)."""
        cdef const ddz_deal_t *d = <const ddz_deal_t *>t.st
        cdef int k, n = ddz_bid_count(d)
        for k in range(n):
            ids[k] = self.bid_id + ddz_bid_value(d, k)
        return n

    cdef void h_decide(self, table_t *t, int k) noexcept nogil:
        ddz_bid(<ddz_deal_t *>t.st, k)
        self._shown(t)

    cdef int h_decision_policy(self, table_t *t, int policy) noexcept nogil:
        return choose_bid(<const ddz_deal_t *>t.st, policy, &t.rng)

    # -- the observation -------------------------------------------------------------------
    cdef void h_encode(self, const table_t *t, float *obs, int observer) noexcept nogil:
        """chupai.doudizhu._rl.DouDizhu.encode (a deal in its auction, its card play, or
        over; the observer is the current player in the auction)."""
        cdef const ddz_deal_t *d = <const ddz_deal_t *>t.st
        cdef int n = self.seats, p = observer, k, s, v
        if d.a.open:
            put_cards(obs + self.off[F_HAND], self.perm, d.hand[p], 0)
            for k in range(n):
                s = (p + k) % n
                obs[self.off[F_SIZES] + k] = popcount(d.hand[s])
            obs[self.off[F_TO_ACT]] = 1.0
            obs[self.off[F_PHASE] + self.bid_phase] = 1.0
            obs[self.off[F_BASE]] = d.a.base
        else:
            self.climbing_fields(t, obs, observer)
            obs[self.off[F_LANDLORD] + (d.landlord - p + n) % n] = 1.0
            put_cards(obs + self.off[F_KITTY], self.perm, d.kitty, 0)
            obs[self.off[F_BASE]] = d.base
            obs[self.off[F_STAKE]] = ddz_stake(d)
        for k in range(n):
            s = (p + k) % n
            for v in range(DDZ_BID_VALUES):
                obs[self.off[F_BIDS] + k * DDZ_BID_VALUES + v] = d.a.bids[s * DDZ_BID_VALUES + v]
