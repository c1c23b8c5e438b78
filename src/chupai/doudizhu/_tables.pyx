"""Dou Dizhu's compiled tables behind ``chupai.rl.VectorEnv("doudizhu")``: the shared
tables (``chupai.rl._tables.Tables``) with Dou Dizhu's observation
(``chupai.doudizhu._rl.DouDizhu.encode``: the climbing games' fields, then the landlord,
the kitty, the bids, the base and the stake), for rules without an auction (the first
bidder, seat 0, is the landlord at a base of 1: ``Rules(bidding="none")``).
"""
cimport cython

from chupai.core.records cimport play_t
from chupai.doudizhu._deal cimport ddz_deal_t
from chupai.doudizhu._engine cimport ddz_stake, ddz_start
from chupai.rl._tables cimport F_CLIMBING, Tables, put_cards, table_t

cdef enum:
    # Dou Dizhu's fields, after the climbing games' (chupai.doudizhu._rl.DouDizhu)
    F_LANDLORD = F_CLIMBING
    F_KITTY = F_CLIMBING + 1
    F_BASE = F_CLIMBING + 2
    F_STAKE = F_CLIMBING + 3
    # the seat that is the landlord without an auction (chupai.doudizhu.Deal's first bidder)
    FIRST_BIDDER = 0

#: the fields after the climbing games', in the order of the offsets the tables take
#: (the bids' field stays zero: there is no auction)
FIELDS = ("landlord", "kitty", "base", "stake")


@cython.final
cdef class DouDizhuTables(Tables):
    """``n`` Dou Dizhu tables (``chupai.rl._tables.Tables``), deals without an auction."""

    cdef bint h_collapsed_choice(self) noexcept nogil:
        # one deck, no wild cards: the generator's collapsed plays of a legal id include
        # its concrete choice (the lowest cards), which the tables pick among them as
        # among the concrete plays
        return 1

    cdef void h_finished(self, const void *st, int *place) noexcept nogil:
        cdef const ddz_deal_t *d = <const ddz_deal_t *>st
        cdef int k
        for k in range(self.seats):
            place[k] = -1
        if d.winner >= 0:
            place[d.winner] = 0

    cdef void h_dealt(self, table_t *t) noexcept nogil:
        """The first bidder takes the kitty and leads (the engine's deal drew a landlord
        from the seed, as the playouts do); the kitty is known to all."""
        cdef ddz_deal_t *d = <ddz_deal_t *>t.st
        d.hand[d.landlord] &= ~d.kitty
        d.hand[FIRST_BIDDER] |= d.kitty
        ddz_start(d, FIRST_BIDDER, FIRST_BIDDER)
        t.known_lo[FIRST_BIDDER] = d.kitty

    cdef void h_moved(self, table_t *t, int seat, const play_t *p, bint leading) noexcept nogil:
        """The kitty's cards the landlord plays are no longer known to be in its hand."""
        if p != NULL:
            t.known_lo[seat] &= ~p.lo

    cdef void h_encode(self, const table_t *t, float *obs) noexcept nogil:
        """chupai.doudizhu._rl.DouDizhu.encode (a deal without an auction, in its card play)."""
        cdef const ddz_deal_t *d = <const ddz_deal_t *>t.st
        cdef int n = self.seats, p = d.t.current
        self.climbing_fields(t, obs)
        obs[self.off[F_LANDLORD] + (d.landlord - p + n) % n] = 1.0
        put_cards(obs + self.off[F_KITTY], self.perm, d.kitty, 0)
        obs[self.off[F_BASE]] = d.base
        obs[self.off[F_STAKE]] = ddz_stake(d)
