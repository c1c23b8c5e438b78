# The Guan Dan trick engine: one deal's card play (a gd_deal_t, chupai.guandan._deal) run
# by the rules below, shared by the Python state machine (chupai.guandan.game) and the
# playouts, so both follow one rule text.
from chupai.core.records cimport mask_t, play_t, playbuf_t, rng_t
from chupai.engine.base cimport Engine, GameSpec, trick_t

from chupai.guandan._deal cimport (
    GD_DECK, GD_HAND, GD_RESULT_12, GD_RESULT_13, GD_RESULT_14, GD_RESULT_NONE, GD_SEATS, gd_deal_t,
)

cdef void gd_start(gd_deal_t *d, int leader) noexcept nogil
cdef void gd_deal_random(gd_deal_t *d, rng_t *rng, int flags) noexcept nogil
ctypedef gd_deal_t deal_t

cdef int deal_legal(const deal_t *d, int collapse, playbuf_t *out) noexcept nogil
cdef void deal_play(deal_t *d, const play_t *p) noexcept nogil
cdef void deal_pass(deal_t *d) noexcept nogil


# h_legal, h_play, h_pass and h_greedy over the functions above
# (chupai/engine/deal_hooks.pxi)
cdef class DealHooks(Engine):
    pass


# The engine (chupai.engine.base.Engine) over a gd_deal_t: the hooks below are the
# Guan Dan rules; `st` is a gd_deal_t *.  h_returns' weights: weights[result] is the
# value of a deal won with that result (0 for GD_RESULT_NONE).
cdef class DealEngine(DealHooks):
    # the hooks are declared once, in chupai/engine/base.pxd; _engine.pyx overrides them
    cdef gd_deal_t d
