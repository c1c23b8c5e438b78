# One Dou Dizhu deal's card play as a C struct, declared apart from the engine that runs
# it so that the playout policies (chupai.doudizhu._policies) read it without importing
# the engine.  The auction is decided before it (chupai.doudizhu.auction): the struct
# holds its outcome, the landlord and the base stake.
from chupai.core.records cimport mask_t
from chupai.engine.base cimport trick_t

cdef enum:
    DDZ_SEATS = 3
    DDZ_HAND = 17                # cards dealt to each player
    DDZ_KITTY = 3                # cards set aside for the landlord
    DDZ_DECK = 54

ctypedef struct ddz_deal_t:
    trick_t t                    # seats, turn and trick (chupai.engine.base)
    mask_t hand[DDZ_SEATS]       # each seat's cards (one-deck masks)
    mask_t kitty                 # the kitty the landlord took (shown to all; 0 if not given)
    int flags                    # generator option flags (chupai.doudizhu.rules)
    int landlord                 # the landlord's seat, who led the card play
    int base                     # the auction's base stake (>= 1)
    int cap                      # the most the doublings may multiply it by (0: no cap)
    int doublings                # bombs and rockets played
    int plays[DDZ_SEATS]         # the plays each seat has made (spring and anti-spring)
    int winner                   # the first seat out (the deal's end), -1 while on
