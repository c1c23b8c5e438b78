"""Zheng Shangyou's compiled tables behind ``chupai.rl.VectorEnv("zhengshangyou")``: the
shared tables (``chupai.rl._tables.Tables``) with Zheng Shangyou's observation
(``chupai.zhengshangyou._rl.ZhengShangyou.encode``: the climbing games' fields, then the
exchange's face-up cards, none in a first deal, and each seat's points so far).
"""
cimport cython

from chupai.rl._tables cimport F_CLIMBING, Tables, table_t
from chupai.zhengshangyou._deal cimport ZS_FIRST_POINTS, ZS_SECOND_POINTS, zs_deal_t

cdef enum:
    # Zheng Shangyou's fields, after the climbing games' (chupai.zhengshangyou._rl.ZhengShangyou)
    F_TABLE = F_CLIMBING         # the exchange's face-up cards (none in a first deal)
    F_POINTS = F_CLIMBING + 1

#: the fields after the climbing games', in the order of the offsets the tables take
FIELDS = ("table", "points")


@cython.final
cdef class ZhengShangyouTables(Tables):
    """``n`` Zheng Shangyou tables (``chupai.rl._tables.Tables``), first deals."""

    cdef bint h_collapsed_choice(self) noexcept nogil:
        # one deck: the generator's collapsed plays of a legal id include its concrete
        # choice (the fewest wild cards, then the lowest suits), which the tables pick
        # among them as among the concrete plays
        return 1

    cdef void h_finished(self, const void *st, int *place) noexcept nogil:
        cdef const zs_deal_t *d = <const zs_deal_t *>st
        cdef int k
        for k in range(self.seats):
            place[k] = -1
        for k in range(d.nout):
            if d.out[k] >= 0:
                place[d.out[k]] = k

    cdef void h_encode(self, const table_t *t, float *obs, int observer) noexcept nogil:
        """chupai.zhengshangyou._rl.ZhengShangyou.encode (a first deal in its card play, or over)."""
        cdef const zs_deal_t *d = <const zs_deal_t *>t.st
        cdef int n = self.seats, p = observer, k
        self.climbing_fields(t, obs, observer)
        # points: the first out 2, the second 1 (unless they are the last holder)
        for k in range(d.nout if d.nout < 2 else 2):
            if k < n - 1:
                obs[self.off[F_POINTS] + (d.out[k] - p + n) % n] = ZS_FIRST_POINTS if k == 0 else ZS_SECOND_POINTS
