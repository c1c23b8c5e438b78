# One Gan Deng Yan deal as a C struct, declared apart from the engine that runs it so
# that the playout policies (chupai.gandengyan._policies) and the other compiled modules
# read it without importing the engine.
from libc.stdint cimport uint8_t
from chupai.core.records cimport mask_t, multiset_size
from chupai.engine.base cimport trick_t

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


cdef inline int hand_size(const gdy_deal_t *d, int s) noexcept nogil:
    """The cards seat ``s`` holds."""
    return multiset_size(d.lo[s], d.hi[s])
