# The Zheng Shangyou trick engine: one deal's card play (a zs_deal_t,
# chupai.zhengshangyou._deal) run by the rules below, shared by the Python state machine
# (chupai.zhengshangyou.game) and the playouts.
from chupai.core.records cimport play_t, playbuf_t, rng_t
from chupai.engine.base cimport Engine

from chupai.zhengshangyou._deal cimport (
    ZS_MIN_SEATS,
    ZS_MAX_SEATS,
    ZS_DECK,
    ZS_FIRST_POINTS,
    ZS_SECOND_POINTS,
    zs_deal_t,
)

cdef void zs_start(zs_deal_t *d, int leader) noexcept nogil
cdef void zs_deal_random(zs_deal_t *d, rng_t *rng, int n, int dealer, int flags) noexcept nogil
ctypedef zs_deal_t deal_t

cdef int deal_legal(const deal_t *d, int collapse, playbuf_t *out) noexcept nogil
cdef void deal_play(deal_t *d, const play_t *p) noexcept nogil
cdef void deal_pass(deal_t *d) noexcept nogil


# h_legal, h_play, h_pass and h_greedy over the functions above
# (chupai/engine/deal_hooks.pxi)
cdef class DealHooks(Engine):
    pass


# The engine (chupai.engine.base.Engine) over a zs_deal_t: the hooks below are the
# Zheng Shangyou rules; `st` is a zs_deal_t *.  h_returns' weights: weights[place] is
# the value of finishing in that place (0 first).
cdef class DealEngine(DealHooks):
    # the hooks are declared once, in chupai/engine/base.pxd; _engine.pyx overrides them
    cdef zs_deal_t d
