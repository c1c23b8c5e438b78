# Gan Deng Yan's playout policies (see _policies.pyx): each returns the index of its choice
# among the suit-collapsed plays in buf, -1 to pass.
from chupai.core.records cimport playbuf_t
from chupai.gandengyan._deal cimport gdy_deal_t

cdef int choose_greedy(const gdy_deal_t *d, const playbuf_t *buf) noexcept nogil
cdef int choose_heuristic(const gdy_deal_t *d, const playbuf_t *buf) noexcept nogil
