# One Guan Dan deal's card play as a C struct, declared apart from the engine that runs it
# so that the policies (chupai.guandan._policies), the determinizer (_world) and the RL
# tables (_tables) read it without importing the engine.
from chupai.core.records cimport mask_t, multiset_size
from chupai.engine.base cimport trick_t

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


cdef inline int hand_size(const gd_deal_t *d, int s) noexcept nogil:
    """The cards seat ``s`` holds."""
    return multiset_size(d.lo[s], d.hi[s])
