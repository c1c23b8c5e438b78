"""Guan Dan's compiled tables behind ``chupai.rl.VectorEnv("guandan")``: the shared tables
(``chupai.rl._tables.Tables``) with Guan Dan's observations, the default layout
(``chupai.guandan._rl.GuanDan.encode``: the climbing games' fields, then the levels and
the declarers of a first deal) and DanZero's (``chupai.guandan.danzero.observation``).
"""
cimport cython

from chupai.core.records cimport mask_t, multiset_size
from chupai.guandan._deal cimport GD_SEATS, gd_deal_t
from chupai.rl._tables cimport F_CLIMBING, Tables, fill, put_cards, table_t

cdef enum:
    N_CARDS = 54
    N_LEVELS = 13
    MAX_HAND = 27                # the cards-left one-hots have MAX_HAND + 1 values
    # Guan Dan's fields of the default layout, after the climbing games' (chupai.guandan._rl.GuanDan)
    F_OWN_LEVEL = F_CLIMBING
    F_OPP_LEVEL = F_CLIMBING + 1
    F_LEVEL = F_CLIMBING + 2
    F_DECLARERS = F_CLIMBING + 3
    # the DanZero layout's fields (chupai.guandan.danzero.LAYOUT)
    Z_HAND = 0
    Z_WILD = 1
    Z_UNSEEN = 2
    Z_LAST = 3
    Z_PARTNER = 4
    Z_PLAYED = 5                 # next, partner, previous: 3 x 54
    Z_LEFT = 6                   # next, partner, previous: 3 x 28
    Z_OWN_LEVEL = 7
    Z_OPP_LEVEL = 8
    Z_LEVEL = 9
    LAYOUT_DANZERO = 1           # Tables.layout of DanZero's observation

#: the field names of each layout, in the order of the offsets the tables take
#: (the default layout's first ones are the climbing games' fields)
DEFAULT_FIELDS = ("hand", "played", "known", "hand_sizes", "trick_cards", "trick_player", "passes", "to_act",
                  "finished", "phase", "own_level", "opponent_level", "level", "declarers")
DANZERO_FIELDS = ("hand", "wild_flags", "unseen", "last_action", "partner_action", "played_next",
                  "left_next", "own_level", "opponent_level", "level")


cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil


cdef void wild_flags(float *res, mask_t lo, int level) noexcept nogil:
    """chupai.guandan.danzero.wild_flags of the hand whose faces held are `lo` (12 values,
    zeroed by the caller); the flags only ask which faces are held, never how often."""
    cdef int wild = level * 4 + 1           # the heart (chupai suit 1) of the level rank
    cdef int n[N_LEVELS]
    cdef int r, s, start, k, top = 0, first, run = 0, a, b, c
    cdef mask_t held
    if not (lo >> wild) & 1:
        return
    res[0] = 1
    held = lo & ~(<mask_t>1 << wild)
    for s in range(4):
        for start in range(N_LEVELS - 5):
            k = 0
            for r in range(start, start + 5):
                k += (held >> (r * 4 + s)) & 1
            if k >= 4:
                res[1] = 1
                break
        if res[1]:
            break
    for r in range(N_LEVELS):
        n[r] = __builtin_popcountll((held >> (r * 4)) & 0xF)
        if n[r] > top:
            top = n[r]
    first = 4 if top >= 4 else (5 if top == 3 else (6 if top == 2 else 7))
    for k in range(first, 8):
        res[k] = 1
    for r in range(N_LEVELS):
        run = run + 1 if n[r] else 0
        if r >= 1:
            if (n[r] == 2 and n[r - 1] >= 3) or (n[r] >= 3 and n[r - 1] == 2):
                res[9] = 1
            elif n[r] == 2 and n[r - 1] == 2:
                res[11] = 1
        if r >= 2:
            a = n[r - 2]
            b = n[r - 1]
            c = n[r]
            if (a == 1 and b >= 2 and c >= 2) or (a >= 2 and b == 1 and c >= 2) or (a >= 2 and b >= 2 and c == 1):
                res[10] = 1
    if run >= 4:
        res[8] = 1


@cython.final
cdef class GuanDanTables(Tables):
    """``n`` Guan Dan tables (``chupai.rl._tables.Tables``), first deals at level 2."""

    cdef bint h_collapsed_choice(self) noexcept nogil:
        # the generator's representative of a suit-collapsed group is its smallest play by
        # (hi, lo) (chupai.core.records, rank_subsets), and a legal id's concrete choice (the
        # fewest wild cards, then the smallest hi, then lo) is the smallest of its group
        return 1

    cdef void h_finished(self, const void *st, int *place) noexcept nogil:
        cdef const gd_deal_t *d = <const gd_deal_t *>st
        cdef int k
        for k in range(GD_SEATS):
            place[k] = -1
        for k in range(d.nout):
            if d.out[k] >= 0:
                place[d.out[k]] = k

    cdef void h_encode(self, const table_t *t, float *obs, int observer) noexcept nogil:
        if self.layout == LAYOUT_DANZERO:
            self._obs_danzero(t, obs)
        else:
            self._obs_default(t, obs, observer)

    cdef void _obs_default(self, const table_t *t, float *obs, int observer) noexcept nogil:
        """chupai.guandan._rl.GuanDan.encode (a first deal in its card play, or over)."""
        cdef const gd_deal_t *d = <const gd_deal_t *>t.st
        cdef const int *off = self.off
        self.climbing_fields(t, obs, observer)
        # a first deal: both teams at level 2 (the level played), no declarers yet
        obs[off[F_OWN_LEVEL] + d.level] = 1.0
        obs[off[F_OPP_LEVEL] + d.level] = 1.0
        obs[off[F_LEVEL] + d.level] = 1.0
        obs[off[F_DECLARERS] + 2] = 1.0

    cdef void _obs_danzero(self, const table_t *t, float *obs) noexcept nogil:
        """chupai.guandan.danzero.observation (a first deal in its card play)."""
        cdef const gd_deal_t *d = <const gd_deal_t *>t.st
        cdef const int *off = self.off
        cdef int p = d.t.current, k, s, f, prev, partner
        cdef mask_t lo, hi
        cdef bint out[GD_SEATS]
        cdef float *unseen = obs + off[Z_UNSEEN]
        put_cards(obs + off[Z_HAND], self.perm, d.lo[p], d.hi[p])
        wild_flags(obs + off[Z_WILD], d.lo[p], d.level)
        # unseen = 2 - hand - everything played = the three other hands (their sum as one
        # two-deck multiset: no face is held more than twice in all)
        lo = 0
        hi = 0
        for s in range(GD_SEATS):
            out[s] = False
            if s != p:
                hi |= d.hi[s] | (lo & d.lo[s])
                lo |= d.lo[s]
        put_cards(unseen, self.perm, lo, hi)
        for k in range(d.nout):
            if d.out[k] >= 0:
                out[d.out[k]] = True
        prev = (p + 3) % GD_SEATS
        partner = (p + 2) % GD_SEATS
        if t.last_seat < 0 or (out[prev] and t.last_seat != prev):
            fill(obs + off[Z_LAST], N_CARDS, -1.0)
        else:
            put_cards(obs + off[Z_LAST], self.perm, t.last_lo, t.last_hi)
        if t.acted[partner] and not out[partner]:
            put_cards(obs + off[Z_PARTNER], self.perm, t.move_lo[partner], t.move_hi[partner])
        else:
            fill(obs + off[Z_PARTNER], N_CARDS, -1.0)
        for k in range(3):
            s = (p + 1 + k) % GD_SEATS
            put_cards(obs + off[Z_PLAYED] + k * N_CARDS, self.perm, t.played_lo[s], t.played_hi[s])
            f = multiset_size(d.lo[s], d.hi[s])
            obs[off[Z_LEFT] + k * (MAX_HAND + 1) + (f if f < MAX_HAND else MAX_HAND)] = 1.0
        obs[off[Z_OWN_LEVEL] + d.level] = 1.0
        obs[off[Z_OPP_LEVEL] + d.level] = 1.0
        obs[off[Z_LEVEL] + d.level] = 1.0
