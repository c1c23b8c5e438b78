"""Gan Deng Yan's compiled tables behind ``chupai.rl.VectorEnv("gandengyan")``: the shared
tables (``chupai.rl._tables.Tables``) with Gan Deng Yan's observation
(``chupai.gandengyan._rl.GanDengYan.encode``: the climbing games' fields, the cards a
pass on lead has shown among them, then the talon's size and the general multiplier).
"""
cimport cython

from chupai.core.records cimport multiset_remove, play_t
from chupai.gandengyan._deal cimport gdy_deal_t
from chupai.gandengyan._engine cimport gdy_general_multiplier
from chupai.rl._tables cimport F_CLIMBING, Tables, one_winner, table_t

cdef enum:
    # Gan Deng Yan's fields, after the climbing games' (chupai.gandengyan._rl.GanDengYan)
    F_TALON_SIZE = F_CLIMBING
    F_MULTIPLIER = F_CLIMBING + 1

#: the fields after the climbing games', in the order of the offsets the tables take
FIELDS = ("talon_size", "multiplier")


@cython.final
cdef class GanDengYanTables(Tables):
    """``n`` Gan Deng Yan tables (``chupai.rl._tables.Tables``), first deals."""

    cdef bint h_collapsed_choice(self) noexcept nogil:
        # one deck: the generator's collapsed plays of a legal id include its concrete
        # choice (the fewest wild cards, then the lowest suits), which the tables pick
        # among them as among the concrete plays
        return 1

    cdef void h_finished(self, const void *st, int *place) noexcept nogil:
        one_winner(self.seats, (<const gdy_deal_t *>st).winner, place)

    cdef void h_moved(self, table_t *t, int seat, const play_t *p, bint leading) noexcept nogil:
        """A pass on lead shows the hand (chupai.gandengyan.Deal.known_cards); a seat
        whose cards are known plays some of them."""
        cdef const gdy_deal_t *d = <const gdy_deal_t *>t.st
        if p == NULL:
            if leading:
                t.known_lo[seat] = d.lo[seat]
                t.known_hi[seat] = d.hi[seat]
        elif t.known_lo[seat]:
            multiset_remove(&t.known_lo[seat], &t.known_hi[seat], p.lo, p.hi)

    cdef void h_encode(self, const table_t *t, float *obs, int observer) noexcept nogil:
        """chupai.gandengyan._rl.GanDengYan.encode (a first deal in its card play, or over)."""
        cdef const gdy_deal_t *d = <const gdy_deal_t *>t.st
        self.climbing_fields(t, obs, observer)
        obs[self.off[F_TALON_SIZE]] = d.end - d.top
        obs[self.off[F_MULTIPLIER]] = gdy_general_multiplier(d)
