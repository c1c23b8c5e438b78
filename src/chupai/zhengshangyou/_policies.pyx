"""Zheng Shangyou's playout policies: the greedy one and the heuristic one.

Each reads a deal (``zs_deal_t``) and the suit-collapsed legal plays of the seat to
act and returns the index of its choice (-1: pass); the engine
(``chupai.zhengshangyou._engine``) calls them through its ``h_greedy`` and ``h_heuristic`` hooks.
"""
from chupai.core.records cimport BJ_BIT, N_RANKS, RJ_BIT, rank_nibble
from chupai.zhengshangyou._movegen cimport ZS_BJ_VALUE, ZS_RJ_VALUE, ZS_SET, ZS_SINGLE
from chupai.core.records cimport mask_t, play_t, playbuf_t, popcount
from chupai.engine.base cimport going_out
from chupai.zhengshangyou._deal cimport ZS_DECK, zs_deal_t
from chupai.zhengshangyou._movegen cimport ZS_SUITED_KEY, ZS_TWO_VALUE

# a greedy player spends wild cards, 2s and jokers only on a player holding at most this many cards
cdef int GREEDY_THREAT = 3


# --- playout policies -------------------------------------------------------------------
cdef inline int play_value(const play_t *p) noexcept nogil:
    return (p.key % ZS_SUITED_KEY) >> 1


cdef inline int low_value(const play_t *p) noexcept nogil:
    """The value of the lowest rank of the play (the bottom of a sequence)."""
    return play_value(p) - p.length // p.cls + 1


cdef inline bint lead_less(const play_t *a, const play_t *b) noexcept nogil:
    """Greedy lead preference: fewer wild cards, lower bottom rank, then more cards."""
    if a.nwild != b.nwild:
        return a.nwild < b.nwild
    if low_value(a) != low_value(b):
        return low_value(a) < low_value(b)
    return a.length > b.length


cdef inline bint follow_less(const play_t *a, const play_t *b) noexcept nogil:
    """Greedy follow preference: fewer wild cards, then the lower key."""
    if a.nwild != b.nwild:
        return a.nwild < b.nwild
    return a.key < b.key


cdef int choose_greedy(const zs_deal_t *d, const playbuf_t *buf) noexcept nogil:
    """The smallest play; when following, wild cards, 2s and jokers only against a player
    about to go out (or to go out oneself); -1 = pass."""
    cdef Py_ssize_t i
    cdef int best = -1
    cdef const play_t *p
    if d.t.last_player < 0:
        for i in range(buf.len):
            if best < 0 or lead_less(&buf.data[i], &buf.data[best]):
                best = i
        return best
    for i in range(buf.len):
        if best < 0 or follow_less(&buf.data[i], &buf.data[best]):
            best = i
    if best < 0:
        return -1
    p = &buf.data[best]
    if ((p.nwild or play_value(p) >= ZS_TWO_VALUE) and p.lo != d.hand[d.t.current]
            and popcount(d.hand[d.t.last_player]) > GREEDY_THREAT):
        return -1
    return best


# --- the heuristic policy (h_heuristic) -------------------------------------------------
# What good players do, cheaply enough to run inside playouts.  The hand is scored by
# its *burden*: the combinations it still has to get rid of (a single or a set of each
# rank 3..A), each costing more the lower it ranks, while 2s and jokers (top singles
# and wild cards) count as assets.  Leading, the play that leaves the lightest hand
# wins (the fewest and weakest combinations: the weakest first, sequences when they
# shed weak cards); following, the play that adds the least burden, and only if it
# adds none (no broken sets, no spent 2s or jokers) unless the player who made the
# trick's play is about to go out or the own hand is nearly out.  Leading against a
# player about to go out, it leads what they cannot match (longer than their hand, or
# unbeatable by the unseen cards).  It reads only the player's own hand, every seat's
# card count, the trick and the unseen cards as a whole.

cdef enum:
    ZX_VALUES = 15               # values: 3..A 0..11, 2 12, BJ 13, RJ 14
    ZX_NATURALS = 12             # the values a set or sequence may be of (3..A)
    ZX_TOP = 11                  # a combination of value v costs ZX_TOP - v (an ace: 0)
    ZX_SET_BONUS = 1             # a set costs that much less than a single of its rank
    ZX_TWO_ASSET = 8             # what a 2 in hand is worth (negative burden)
    ZX_JOKER_ASSET = 10           # and a joker
    ZX_FOLLOW_SLACK = 2          # burden a follow may add without a reason
    ZX_THREAT = 3                # a player with this many cards is about to go out
    ZX_CARD_LEAD = 2             # each card a lead sheds
    ZX_SHORT_LEAD = 40           # leading what a player about to go out may match
    ZX_KEEP_LEAD = 50            # an unbeatable lead when the rest is at most ZX_NEAR_OUT plays
    ZX_NEAR_OUT = 2
    ZX_HUGE = 1 << 28


ctypedef struct zx_hand_t:
    int cnt[ZX_VALUES]


cdef void zx_count(mask_t m, zx_hand_t *h) noexcept nogil:
    cdef int r
    for r in range(1, N_RANKS):
        h.cnt[r - 1] = popcount(rank_nibble(m, r))
    h.cnt[ZS_TWO_VALUE] = popcount(rank_nibble(m, 0))
    h.cnt[ZS_BJ_VALUE] = <int>((m >> BJ_BIT) & 1)
    h.cnt[ZS_RJ_VALUE] = <int>((m >> RJ_BIT) & 1)


cdef int zx_burden(const zx_hand_t *h, int *units) noexcept nogil:
    """The hand's burden (see above) and, in `units`, the plays it splits into."""
    cdef int v, s = 0, n = 0
    for v in range(ZX_NATURALS):
        if h.cnt[v] == 1:
            s += ZX_TOP - v
            n += 1
        elif h.cnt[v] > 1:
            s += ZX_TOP - v - ZX_SET_BONUS
            n += 1
    s -= ZX_TWO_ASSET * h.cnt[ZS_TWO_VALUE] + ZX_JOKER_ASSET * (h.cnt[ZS_BJ_VALUE] + h.cnt[ZS_RJ_VALUE])
    if h.cnt[ZS_TWO_VALUE] or h.cnt[ZS_BJ_VALUE] or h.cnt[ZS_RJ_VALUE]:
        n += 1
    units[0] = n
    return s


cdef bint zx_unbeatable(const play_t *p, const zx_hand_t *unseen) noexcept nogil:
    """No unseen cards make a higher single or set."""
    cdef int v, w = play_value(p), wild = unseen.cnt[ZS_TWO_VALUE] + unseen.cnt[ZS_BJ_VALUE] + unseen.cnt[ZS_RJ_VALUE]
    if p.type == ZS_SINGLE:
        for v in range(w + 1, ZX_VALUES):
            if unseen.cnt[v]:
                return False
        return True
    if p.type != ZS_SET:
        return False
    for v in range(w + 1, ZX_NATURALS):
        if unseen.cnt[v] and unseen.cnt[v] + wild >= p.length:
            return False
    return w >= ZS_TWO_VALUE or not (unseen.cnt[ZS_TWO_VALUE] and wild >= p.length)


cdef int choose_heuristic(const zs_deal_t *d, const playbuf_t *buf) noexcept nogil:
    """The heuristic policy's choice among the suit-collapsed plays in buf; -1 = pass."""
    cdef Py_ssize_t i
    cdef int me = d.t.current, lp = d.t.last_player, s, size = popcount(d.hand[me])
    cdef int opp_min = ZS_DECK, before, units, after_units, score, best = -1, best_score = ZX_HUGE
    cdef mask_t others = 0
    cdef zx_hand_t h, unseen
    cdef const play_t *p
    cdef bint threat
    i = going_out(buf, size)
    if i >= 0:
        return <int>i        # going out
    for s in range(d.t.seats):
        if s != me and d.hand[s]:
            others |= d.hand[s]
            if popcount(d.hand[s]) < opp_min:
                opp_min = popcount(d.hand[s])
    zx_count(others, &unseen)
    zx_count(d.hand[me], &h)
    before = zx_burden(&h, &units)
    threat = lp >= 0 and popcount(d.hand[lp]) <= ZX_THREAT
    for i in range(buf.len):
        p = &buf.data[i]
        zx_count(d.hand[me] & ~p.lo, &h)
        score = zx_burden(&h, &after_units)
        if lp < 0:
            score -= ZX_CARD_LEAD * p.length
            if opp_min <= ZX_THREAT and p.length <= opp_min and not zx_unbeatable(p, &unseen):
                score += ZX_SHORT_LEAD - play_value(p)
            if after_units <= ZX_NEAR_OUT and zx_unbeatable(p, &unseen):
                score -= ZX_KEEP_LEAD
        elif not threat and units > ZX_NEAR_OUT and score - before > ZX_FOLLOW_SLACK:
            continue
        if score < best_score or (score == best_score and (lead_less(p, &buf.data[best]) if lp < 0
                                                           else follow_less(p, &buf.data[best]))):
            best = <int>i
            best_score = score
    return best
