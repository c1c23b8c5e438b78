# The Gan Deng Yan deal engine: one deal's card play as a C struct (hands, talon, trick,
# bombs played), shared by the Python state machine (chupai.gandengyan.game) and the
# playouts, so both follow one rule text.
from libc.stdint cimport uint8_t

from chupai.core.records cimport mask_t, play_t, playbuf_t, rng_t
from chupai.engine.base cimport Engine, GameSpec, trick_t

cdef enum:
    GDY_MIN_PLAYERS = 2
    GDY_MAX_PLAYERS = 6
    GDY_DECK = 54                # cards in one deck
    GDY_MAX_CARDS = 108          # two decks
    GDY_DEALER_CARDS = 6
    GDY_HAND_CARDS = 5
    GDY_NO_LIMIT = -1            # min_talon_to_win off

# bombs played, by kind (general multiplier)
cdef enum:
    GDY_BOMB_THREE = 0
    GDY_BOMB_THREE_SOFT = 1
    GDY_BOMB_FOUR = 2
    GDY_BOMB_FOUR_SOFT = 3
    GDY_BOMB_JOKERS = 4
    GDY_BOMB_KINDS = 5

# the options of the deal (chupai.gandengyan.rules)
ctypedef struct gdy_opts_t:
    int flags                    # generator flags
    int max_ranks
    int decks
    int min_talon                # GDY_NO_LIMIT or the most cards in the talon to win
    int multipliers
    int soft_bombs
    int ace_multiplier           # 0: off
    int positive_only
    int joker_bombs_held         # held bombs may hold jokers (rules.joker_bombs_in_hand)
    double max_payment           # the most a loser pays per deal; 0: no limit

ctypedef struct gdy_deal_t:
    trick_t t                    # seats, turn and trick (chupai.engine.base)
    gdy_opts_t o
    mask_t lo[GDY_MAX_PLAYERS]   # each seat's hand (two-deck masks)
    mask_t hi[GDY_MAX_PLAYERS]
    uint8_t talon[GDY_MAX_CARDS] # faces in drawing order: talon[top .. end - 1]
    int top
    int end
    int dealer
    int lead_passes              # leaders in a row who could not lead
    int winner                   # -1: none (yet, or nobody could finish)
    int tricks                   # tricks completed
    int bombs[GDY_BOMB_KINDS]

cdef void gdy_start(gdy_deal_t *d, int dealer) noexcept nogil
cdef void gdy_deal_random(gdy_deal_t *d, rng_t *rng, int dealer) noexcept nogil
cdef int gdy_legal(const gdy_deal_t *d, int collapse, playbuf_t *out) noexcept nogil
cdef void gdy_play(gdy_deal_t *d, const play_t *p) noexcept nogil
cdef void gdy_pass(gdy_deal_t *d) noexcept nogil
cdef void gdy_returns(const gdy_deal_t *d, double *out) noexcept nogil


# The engine (chupai.engine.base.Engine) over a gdy_deal_t: the hooks below are the
# Gan Deng Yan rules; `st` is a gdy_deal_t *.  h_returns ignores the weights (the
# scores are the returns).
cdef class DealCore(Engine):
    # the hooks are declared once, in chupai/engine/base.pxd; _engine.pyx overrides them
    cdef gdy_deal_t d
