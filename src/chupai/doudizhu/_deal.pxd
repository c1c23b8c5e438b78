# One Dou Dizhu deal as a C struct, declared apart from the engine that runs it so that
# the playout policies (chupai.doudizhu._policies) read it without importing the engine:
# the auction (chupai.doudizhu.auction), whose outcome is the landlord and the base
# stake, then the card play.
from libc.stdint cimport uint64_t

from chupai.core.records cimport mask_t
from chupai.engine.base cimport trick_t

cdef enum:
    DDZ_SEATS = 3
    DDZ_HAND = 17                # cards dealt to each player
    DDZ_KITTY = 3                # cards set aside for the landlord
    DDZ_DECK = 54
    DDZ_FIRST_BIDDER = 0         # the seat that bids first (chupai.doudizhu.Deal's default `first`)
    DDZ_TOP_BID = 3              # the one-bid auction's bids: 0 (pass) .. DDZ_TOP_BID
    DDZ_BID_VALUES = DDZ_TOP_BID + 1
    DDZ_ORDER_CAP = DDZ_SEATS + 1  # the seats to speak in a round (the caller's last word too)
    DDZ_MAX_REDEALS = 3          # the deals an auction nobody bids in is dealt again at most

# Rules.bidding and Rules.all_pass, by their index in chupai.doudizhu.rules.BIDDING and ALL_PASS
cdef enum:
    DDZ_BID_ONCE = 0
    DDZ_BID_ROB = 1
    DDZ_BID_NONE = 2
    DDZ_ALL_PASS_REDEAL = 0
    DDZ_ALL_PASS_VOID = 1
    DDZ_ALL_PASS_FIRST = 2

# The auction (chupai.doudizhu.auction.Auction's state) and its rules.
ctypedef struct ddz_auction_t:
    int bidding                  # Rules.bidding (DDZ_BID_*)
    int all_pass                 # Rules.all_pass (DDZ_ALL_PASS_*)
    int open                     # 1 while the auction runs
    int base                     # the base stake so far
    int landlord                 # the highest bidder, the caller or the last robber so far (-1: none)
    int caller                   # the call-and-rob auction's caller (-1: none yet)
    int pos                      # bids made in this round (an index into order)
    int norder                   # the seats of the order
    int order[DDZ_ORDER_CAP]     # the seats to speak, in order
    int redeals                  # the deals dealt again so far
    int last                     # 1: nobody bidding makes the first bidder the landlord (the last redeal)
    int bids[DDZ_SEATS * DDZ_BID_VALUES]  # per seat, the bids it made of each value
    uint64_t seed                # the deal's seed: a deal dealt again is match_deal(seed, redeals)

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
    ddz_auction_t a              # the auction (a.open 0 once it has ended, or for a card play alone)


cdef inline int ddz_bid_count(const ddz_deal_t *d) noexcept nogil:
    """The legal bids of the seat to bid: Bid(0), then Bid(base + 1) .. Bid(3) (one bid
    each) or Bid(1) (call and rob)."""
    return 2 if d.a.bidding == DDZ_BID_ROB else DDZ_BID_VALUES - d.a.base


cdef inline int ddz_bid_value(const ddz_deal_t *d, int k) noexcept nogil:
    """The value of the k-th legal bid (ddz_bid_count)."""
    return k if d.a.bidding == DDZ_BID_ROB or k == 0 else d.a.base + k
