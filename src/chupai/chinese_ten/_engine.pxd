# The Chinese Ten deal engine: one deal's play as a C struct, shared by the Python state
# machine (chupai.chinese_ten.game) and the playouts, so both follow one rule text.
from libc.stdint cimport int16_t, uint8_t

from chupai.core.records cimport mask_t, playbuf_t, play_t, rng_t
from chupai.engine.base cimport Engine, GameSpec, trick_t
from chupai.chinese_ten._movegen cimport CT_DECK

cdef enum:
    CT_MAX_PLAYERS = 4
    CT_NOBODY = -1
    CT_NO_CARD = -1
    CT_PHASE_PLAY = 0            # the current player plays a card from the hand
    CT_PHASE_TURN = 1            # the current player chooses the turned card's capture
    CT_PHASE_OVER = 2

ctypedef struct ct_deal_t:
    trick_t t                    # seats, turn and trick (chupai.engine.base)
    mask_t hand[CT_MAX_PLAYERS]
    mask_t pile[CT_MAX_PLAYERS]  # the cards each player has captured
    mask_t layout
    mask_t last_captured         # what the last turned stock card captured
    int last_turned              # the last turned stock card (CT_NO_CARD before any)
    int flags                    # option flags (chupai.chinese_ten.rules)
    int dealer
    int phase                    # CT_PHASE_*
    int turned                   # the turned card awaiting its capture choice, or CT_NO_CARD
    int bonus                    # who captured a red 5 with the other red 5, or CT_NOBODY
    int nstock
    uint8_t stock[CT_DECK]       # stock[nstock - 1] is the top card
    int16_t points[CT_DECK]      # the points of each card in this variant and table size
    int hand_size                # a fresh deal's sizes (chupai.chinese_ten.rules.deal_sizes)
    int layout_size
    int first                    # who plays first in a fresh deal

cdef int ct_deal_random(ct_deal_t *d, rng_t *rng, int hand_size, int layout_size,
                        int first) noexcept nogil
cdef int ct_legal(const ct_deal_t *d, int collapse, playbuf_t *out) noexcept nogil
cdef void ct_apply(ct_deal_t *d, const play_t *p) noexcept nogil
cdef int ct_score(const ct_deal_t *d, int seat) noexcept nogil


# The engine (chupai.engine.base.Engine) over a ct_deal_t: the hooks below are the
# Chinese Ten rules; `st` is a ct_deal_t *.  Nobody passes (PASS_NEVER) and there is no
# trick (h_last_player is -1); a record's `taken` holds what the card captures.
# h_returns ignores the weights (score - par, with the red five bonus).
cdef class DealCore(Engine):
    # the hooks are declared once, in chupai/engine/base.pxd; _engine.pyx overrides them
    cdef ct_deal_t d
    cdef readonly int redeals
