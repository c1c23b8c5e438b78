# Chinese Ten's playout policies (see _policies.pyx): each returns the index of its choice
# among the suit-collapsed plays in buf, -1 to pass.
from chupai.core.records cimport playbuf_t
from chupai.chinese_ten._deal cimport ct_deal_t

cdef int choose_greedy(const ct_deal_t *d, const playbuf_t *buf) noexcept nogil
cdef int choose_heuristic(const ct_deal_t *d, const playbuf_t *buf) noexcept nogil
