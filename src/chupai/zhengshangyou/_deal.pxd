# One Zheng Shangyou deal as a C struct, declared apart from the engine that runs it so
# that the playout policies (chupai.zhengshangyou._policies) and the other compiled modules
# read it without importing the engine.
from chupai.core.records cimport mask_t
from chupai.engine.base cimport trick_t

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
