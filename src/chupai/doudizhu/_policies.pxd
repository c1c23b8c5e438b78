# Dou Dizhu's playout policies (see _policies.pyx): a bid's index among the legal bids
# (drawn from rng by the random policy), a card play's index among the suit-collapsed
# plays in buf (-1 to pass); and a hand's worth in bids (chupai.doudizhu.bidding.worth).
from chupai.core.records cimport mask_t, playbuf_t, rng_t
from chupai.doudizhu._deal cimport ddz_deal_t

cdef int hand_worth(mask_t hand) noexcept nogil
cdef int choose_bid(const ddz_deal_t *d, int policy, rng_t *rng) noexcept nogil

cdef int choose_greedy(const ddz_deal_t *d, const playbuf_t *buf) noexcept nogil
cdef int choose_heuristic(const ddz_deal_t *d, const playbuf_t *buf) noexcept nogil
