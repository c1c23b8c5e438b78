# The Gan Deng Yan deal engine: one deal's card play (a gdy_deal_t, chupai.gandengyan._deal:
# hands, talon, trick, bombs played) run by the rules below, shared by the Python state
# machine (chupai.gandengyan.game) and the playouts, so both follow one rule text.
from chupai.core.records cimport play_t, playbuf_t, rng_t
from chupai.engine.base cimport Engine

from chupai.gandengyan._deal cimport (
    GDY_MIN_PLAYERS,
    GDY_MAX_PLAYERS,
    GDY_DECK,
    GDY_MAX_CARDS,
    GDY_DEALER_CARDS,
    GDY_HAND_CARDS,
    GDY_NO_LIMIT,
    GDY_BOMB_THREE,
    GDY_BOMB_THREE_SOFT,
    GDY_BOMB_FOUR,
    GDY_BOMB_FOUR_SOFT,
    GDY_BOMB_JOKERS,
    GDY_BOMB_KINDS,
    gdy_opts_t,
    gdy_deal_t,
)

cdef void gdy_start(gdy_deal_t *d, int dealer) noexcept nogil
cdef void gdy_deal_random(gdy_deal_t *d, rng_t *rng, int dealer) noexcept nogil
ctypedef gdy_deal_t deal_t

cdef int deal_legal(const deal_t *d, int collapse, playbuf_t *out) noexcept nogil
cdef void deal_play(deal_t *d, const play_t *p) noexcept nogil
cdef void deal_pass(deal_t *d) noexcept nogil
cdef double gdy_general_multiplier(const gdy_deal_t *d) noexcept nogil
cdef void gdy_returns(const gdy_deal_t *d, double *out) noexcept nogil


# h_legal, h_play, h_pass and h_greedy over the functions above
# (chupai/engine/deal_hooks.pxi)
cdef class DealHooks(Engine):
    pass


# The engine (chupai.engine.base.Engine) over a gdy_deal_t: the hooks below are the
# Gan Deng Yan rules; `st` is a gdy_deal_t *.  h_returns ignores the weights (the
# scores are the returns).
cdef class DealEngine(DealHooks):
    # the hooks are declared once, in chupai/engine/base.pxd; _engine.pyx overrides them
    cdef gdy_deal_t d
