# Dou Dizhu's playout policies (see _policies.pyx): the index of its choice among the
# suit-collapsed plays in buf, -1 to pass.
from chupai.core.records cimport playbuf_t
from chupai.doudizhu._deal cimport ddz_deal_t

cdef int choose_greedy(const ddz_deal_t *d, const playbuf_t *buf) noexcept nogil
cdef int choose_heuristic(const ddz_deal_t *d, const playbuf_t *buf) noexcept nogil
