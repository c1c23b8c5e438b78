"""Chinese Ten's compiled tables behind ``chupai.rl.VectorEnv("chinese_ten")``: the shared
tables (``chupai.rl._tables.Tables``) with Chinese Ten's observation
(``chupai.chinese_ten._rl.ChineseTen.encode``: the hand, the layout, the turned card,
the piles and their points, the hand sizes, the stock, the seat to act and the phase).
"""
cimport cython

from chupai.chinese_ten._deal cimport CT_NO_CARD, ct_deal_t
from chupai.chinese_ten._engine cimport ct_score
from chupai.core.records cimport popcount
from chupai.rl._tables cimport Tables, put_cards, table_t

cdef enum:
    CARDS = 52                   # the card vectors of the layout (no jokers)
    # the layout's fields, in the order of the offsets the tables take (chupai.chinese_ten._rl.ChineseTen)
    F_HAND = 0
    F_LAYOUT = 1
    F_TURNED = 2
    F_PILES = 3
    F_SCORES = 4
    F_SIZES = 5
    F_STOCK = 6
    F_TO_ACT = 7
    F_PHASE = 8

#: the layout's fields, in the order of the offsets the tables take
FIELDS = ("hand", "layout", "turned", "piles", "scores", "hand_sizes", "stock_size", "to_act", "phase")


@cython.final
cdef class ChineseTenTables(Tables):
    """``n`` Chinese Ten tables (``chupai.rl._tables.Tables``), first deals (dealer seat 0)."""

    cdef void h_encode(self, const table_t *t, float *obs, int observer) noexcept nogil:
        """chupai.chinese_ten._rl.ChineseTen.encode (its phases: play, turn, over)."""
        cdef const ct_deal_t *d = <const ct_deal_t *>t.st
        cdef const int *off = self.off
        cdef int n = self.seats, p = observer, cur = d.t.current, k, s
        put_cards(obs + off[F_HAND], self.perm, d.hand[p], 0)
        put_cards(obs + off[F_LAYOUT], self.perm, d.layout, 0)
        if d.turned != CT_NO_CARD:
            obs[off[F_TURNED] + d.turned] = 1.0
        for k in range(n):
            s = p + k - n if p + k >= n else p + k  # (p + k) % n without a division
            put_cards(obs + off[F_PILES] + k * CARDS, self.perm, d.pile[s], 0)
            obs[off[F_SCORES] + k] = ct_score(d, s)
            obs[off[F_SIZES] + k] = popcount(d.hand[s])
        obs[off[F_STOCK]] = d.nstock
        if cur >= 0:
            obs[off[F_TO_ACT] + (cur - p if cur >= p else cur - p + n)] = 1.0
        obs[off[F_PHASE] + d.phase] = 1.0
