# The Zheng Shangyou trick engine: one deal's card play as a C struct, shared by the
# Python state machine (chupai.zhengshangyou.game) and the playouts.
from chupai.core.records cimport mask_t, play_t, playbuf_t, rng_t
from chupai.engine.base cimport Engine, GameSpec, trick_t

cdef enum:
    ZS_MIN_SEATS = 2
    ZS_MAX_SEATS = 8
    ZS_DECK = 54

cdef enum:
    ZS_FIRST_POINTS = 2          # points for the first player out
    ZS_SECOND_POINTS = 1         # and for the second

ctypedef struct zs_deal_t:
    trick_t t                    # seats, turn and trick (chupai.engine.base)
    mask_t hand[ZS_MAX_SEATS]    # each seat's cards (one-deck masks)
    int flags                    # generator option flags (chupai.zhengshangyou.rules)
    int nout                     # entries of `out`
    int out[ZS_MAX_SEATS]        # finishing order; once over, the last holder is last

cdef void zs_start(zs_deal_t *d, int leader) noexcept nogil
cdef void zs_deal_random(zs_deal_t *d, rng_t *rng, int n, int dealer, int flags) noexcept nogil
cdef int zs_legal(const zs_deal_t *d, int collapse, playbuf_t *out) noexcept nogil
cdef void zs_play(zs_deal_t *d, const play_t *p) noexcept nogil
cdef void zs_pass(zs_deal_t *d) noexcept nogil


# The engine (chupai.engine.base.Engine) over a zs_deal_t: the hooks below are the
# Zheng Shangyou rules; `st` is a zs_deal_t *.  h_returns' weights: weights[place] is
# the value of finishing in that place (0 first).
cdef class DealCore(Engine):
    # the hooks are declared once, in chupai/engine/base.pxd; _engine.pyx overrides them
    cdef zs_deal_t d
