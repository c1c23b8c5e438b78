# The Guan Dan trick engine: one deal's card play as a C struct, shared by the Python
# state machine (chupai.guandan.game) and the playouts, so both follow one rule text.
from chupai.core.records cimport mask_t, play_t, playbuf_t, rng_t
from chupai.engine.base cimport Engine, GameSpec, trick_t

cdef enum:
    GD_SEATS = 4
    GD_HAND = 27                 # cards dealt to each seat
    GD_DECK = 108
    GD_RESULT_NONE = 0           # still playing
    GD_RESULT_12 = 1             # the first finisher's partner came 2nd / 3rd / 4th
    GD_RESULT_13 = 2
    GD_RESULT_14 = 3

ctypedef struct gd_deal_t:
    trick_t t                    # seats, turn and trick (chupai.engine.base)
    mask_t lo[GD_SEATS]          # each seat's hand (two-deck masks)
    mask_t hi[GD_SEATS]
    int level                    # rank index of the level being played
    int flags                    # generator option flags (chupai.guandan.rules)
    int nout
    int out[GD_SEATS]            # finishing order; -1 where undecided (after a 1-2)
    int result                   # GD_RESULT_*
    int aces_out                 # the first finisher went out with a play made only of aces

cdef void gd_start(gd_deal_t *d, int leader) noexcept nogil
cdef void gd_deal_random(gd_deal_t *d, rng_t *rng, int flags) noexcept nogil
cdef int gd_legal(const gd_deal_t *d, int collapse, playbuf_t *out) noexcept nogil
cdef void gd_play(gd_deal_t *d, const play_t *p) noexcept nogil
cdef void gd_pass(gd_deal_t *d) noexcept nogil


# The engine (chupai.engine.base.Engine) over a gd_deal_t: the hooks below are the
# Guan Dan rules; `st` is a gd_deal_t *.  h_returns' weights: weights[result] is the
# value of a deal won with that result (0 for GD_RESULT_NONE).
cdef class DealCore(Engine):
    # the hooks are declared once, in chupai/engine/base.pxd; _engine.pyx overrides them
    cdef gd_deal_t d
