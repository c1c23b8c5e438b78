# The Zheng Shangyou trick engine: one deal's card play as a C struct, shared by the
# Python state machine (chupai.zhengshangyou.game) and the playouts.
from chupai._core cimport mask_t, play_t, playbuf_t, rng_t

cdef enum:
    ZS_MIN_SEATS = 2
    ZS_MAX_SEATS = 8
    ZS_DECK = 54

cdef enum:
    ZS_FIRST_POINTS = 2          # points for the first player out
    ZS_SECOND_POINTS = 1         # and for the second

cdef enum:
    ZS_POLICY_RANDOM = 0
    ZS_POLICY_GREEDY = 1

ctypedef struct zs_deal_t:
    mask_t hand[ZS_MAX_SEATS]    # each seat's cards (one-deck masks)
    int n                        # players
    int flags                    # generator option flags (chupai.zhengshangyou.rules)
    int current                  # the seat to act; -1 once the deal is over
    int last_player              # who made the trick's last play; -1 when leading
    play_t last                  # that play
    int npass                    # passes since the last play
    int nout                     # entries of `out`
    int out[ZS_MAX_SEATS]        # finishing order; once over, the last holder is last

cdef void zs_start(zs_deal_t *d, int leader) noexcept nogil
cdef void zs_deal_random(zs_deal_t *d, rng_t *rng, int n, int dealer, int flags) noexcept nogil
cdef int zs_legal(const zs_deal_t *d, int collapse, playbuf_t *out) noexcept nogil
cdef void zs_play(zs_deal_t *d, const play_t *p) noexcept nogil
cdef void zs_pass(zs_deal_t *d) noexcept nogil
cdef int zs_playout(zs_deal_t *d, rng_t *rng, int policy, playbuf_t *buf) noexcept nogil
