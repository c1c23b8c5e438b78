# The Dou Dizhu trick engine: one deal's card play after the auction (a ddz_deal_t,
# chupai.doudizhu._deal) run by the rules below.
from chupai.core.records cimport play_t, playbuf_t, rng_t
from chupai.engine.base cimport Engine

from chupai.doudizhu._deal cimport DDZ_SEATS, ddz_deal_t

cdef void ddz_start(ddz_deal_t *d, int landlord, int leader) noexcept nogil
cdef void ddz_deal_random(ddz_deal_t *d, rng_t *rng, int landlord) noexcept nogil
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
