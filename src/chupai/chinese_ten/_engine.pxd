# The Chinese Ten deal engine: one deal's play (a ct_deal_t, chupai.chinese_ten._deal) run
# by the rules below, shared by the Python state machine (chupai.chinese_ten.game) and
# the playouts, so both follow one rule text.
from chupai.core.records cimport playbuf_t, play_t, rng_t
from chupai.engine.base cimport Engine

from chupai.chinese_ten._deal cimport (
    CT_MAX_PLAYERS,
    CT_NOBODY,
    CT_NO_CARD,
    CT_PHASE_PLAY,
    CT_PHASE_TURN,
    CT_PHASE_OVER,
    CT_BONUS_POINTS,
    ct_deal_t,
)

cdef int ct_deal_random(ct_deal_t *d, rng_t *rng, int hand_size, int layout_size,
                        int first) noexcept nogil
cdef int ct_legal(const ct_deal_t *d, int collapse, playbuf_t *out) noexcept nogil
cdef void ct_apply(ct_deal_t *d, const play_t *p) noexcept nogil
cdef int ct_score(const ct_deal_t *d, int seat) noexcept nogil


# The engine (chupai.engine.base.Engine) over a ct_deal_t: the hooks below are the
# Chinese Ten rules; `st` is a ct_deal_t *.  Nobody passes (PASS_NEVER) and there is no
# trick (h_last_player is -1); a record's `taken` holds what the card captures.
# h_returns ignores the weights (score - par, with the red five bonus).
cdef class DealEngine(Engine):
    # the hooks are declared once, in chupai/engine/base.pxd; _engine.pyx overrides them
    cdef ct_deal_t d
    cdef readonly int redeals
