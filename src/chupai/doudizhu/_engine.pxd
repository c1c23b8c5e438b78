# The Dou Dizhu deal engine: one deal (a ddz_deal_t, chupai.doudizhu._deal), its auction
# and its card play, run by the rules below.
from chupai.core.records cimport play_t, playbuf_t, rng_t
from chupai.engine.base cimport Engine

from chupai.doudizhu._deal cimport DDZ_SEATS, ddz_deal_t

cdef void ddz_start(ddz_deal_t *d, int landlord, int leader) noexcept nogil
cdef void ddz_deal_random(ddz_deal_t *d, rng_t *rng, int landlord) noexcept nogil

# the auction: a fresh deal from `rng` (the kitty aside) and its auction opened, d.a.seed
# the deal's seed (drawn from `rng`; a deal nobody bids in is dealt again from
# match_deal(d.a.seed, redeals));
# the seat to bid has ddz_bid_count legal bids, the k-th of value ddz_bid_value
# (chupai.doudizhu._deal), and makes it with ddz_bid; the auction is over once d.a.open
# is 0 (its landlord leads the card play, or the deal ended void: d.t.current -1, no
# landlord)
cdef void ddz_auction_deal(ddz_deal_t *d, rng_t *rng) noexcept nogil
cdef void ddz_bid(ddz_deal_t *d, int k) noexcept nogil
ctypedef ddz_deal_t deal_t

cdef int deal_legal(const deal_t *d, int collapse, playbuf_t *out) noexcept nogil
cdef void deal_play(deal_t *d, const play_t *p) noexcept nogil
cdef void deal_pass(deal_t *d) noexcept nogil
cdef double ddz_stake(const ddz_deal_t *d) noexcept nogil


# h_legal, h_play, h_pass and h_greedy over the functions above
# (chupai/engine/deal_hooks.pxi)
cdef class DealHooks(Engine):
    pass


# The engine (chupai.engine.base.Engine) over a ddz_deal_t: the hooks below are the Dou
# Dizhu rules of the card play; `st` is a ddz_deal_t *.  h_returns gives each seat's
# payment once the deal is over (chupai.doudizhu.scoring).
cdef class DealEngine(DealHooks):
    # the hooks are declared once, in chupai/engine/base.pxd; _engine.pyx overrides them
    cdef ddz_deal_t d
