"""Gan Deng Yan's playout policies: the greedy one and the heuristic one.

Each reads a deal (``gdy_deal_t``) and the suit-collapsed legal plays of the seat to
act and returns the index of its choice (-1: pass); the engine
(``chupai.gandengyan._engine``) calls them through its ``h_greedy`` and ``h_heuristic`` hooks.
"""
from chupai.gandengyan._movegen cimport GDY_FLAG_TRIPLES_ARE_BOMBS, GDY_PAIR, GDY_SINGLE, GDY_TWO_VALUE
from chupai.core.records cimport JOKER_MASK, N_RANKS, RANK_2, RANK_A, mask_t, play_t, playbuf_t, popcount, rank_count
from chupai.engine.base cimport going_out, hand_after
from chupai.gandengyan._deal cimport gdy_deal_t, hand_size

# a greedy player spends a bomb only on a player holding at most this many cards
cdef int GREEDY_BOMB_THREAT = 3


# --- playout policies -------------------------------------------------------------------
cdef inline bint cheaper(const play_t *a, const play_t *b) noexcept nogil:
    """Greedy preference among plays of one kind: fewer jokers, then the lower key."""
    if a.nwild != b.nwild:
        return a.nwild < b.nwild
    return a.key < b.key


cdef int choose_greedy(const gdy_deal_t *d, const playbuf_t *buf) noexcept nogil:
    """Go out if a play empties the hand; lead the longest ordinary play; follow with the
    cheapest ordinary play; a bomb only on a player about to go out (or when nothing
    else can be led).  -1 = pass."""
    cdef Py_ssize_t i
    cdef int best = -1, bomb = -1, size = hand_size(d, d.t.current)
    cdef const play_t *p
    for i in range(buf.len):
        p = &buf.data[i]
        if p.length == size:
            return <int>i
        if p.cls:
            if bomb < 0 or p.cls < buf.data[bomb].cls or (p.cls == buf.data[bomb].cls and cheaper(p, &buf.data[bomb])):
                bomb = <int>i
        elif best < 0:
            best = <int>i
        elif d.t.last_player < 0 and p.length != buf.data[best].length:
            if p.length > buf.data[best].length:
                best = <int>i
        elif cheaper(p, &buf.data[best]):
            best = <int>i
    if d.t.last_player < 0:
        return best if best >= 0 else bomb
    if best >= 0:
        return best
    if bomb >= 0 and hand_size(d, d.t.last_player) <= GREEDY_BOMB_THREAT:
        return bomb
    return -1


# --- the heuristic policy (h_heuristic) -------------------------------------------------
# What good players do, cheaply enough to run inside playouts.  The hand is scored by
# its *burden*: the plays it still has to make (a single or a pair of each rank 3..A),
# each costing a unit plus a little more the lower it ranks, while 2s, jokers and bombs
# count as assets.  Leading, the play that leaves the lightest hand wins (sequences
# and double sequences that shed the weak cards first, the more cards the better),
# the more so if no unseen cards can follow it (the lead comes back); a single costs
# more the likelier an opponent holding one card can follow it (and so go out), by
# counting the unseen cards that follow it.  Following, the play that adds the least
# burden, and only if it adds none (no broken pairs, no spent 2s, jokers or bombs)
# unless the play leaves the hand nearly out or an opponent is about to go out: the
# player who made the trick's play holding at most two cards when they lead next,
# counting the card they draw first at the trick's end while the talon lasts (with
# three cards after the draw they must hold one combination to go out at once: rarely
# worth a bomb), or the next player holding one card on a trick of a single.  It reads
# only the player's own hand, every seat's card count, the trick, the talon's size and
# the unseen cards (the other hands and the talon) as a whole.

cdef enum:
    GX_VALUES = 14               # values: 3..A 1..12, 2 13 (0 unused)
    GX_UNIT = 6                  # each play still to make
    GX_RANK_STEP = 3             # a play of value v costs GX_UNIT + (12 - v) // GX_RANK_STEP
    GX_PAIR_BONUS = 1            # a pair costs that much less than a single of its rank
    GX_TWO_ASSET = 5             # what a 2 in hand is worth (negative burden)
    GX_JOKER_ASSET = 6           # and a joker
    GX_BOMB_ASSET = 6            # and a bomb
    GX_FOLLOW_SLACK = 0          # burden a follow may add without a reason
    GX_THREAT = 2                # a player leading next with this many cards is about to go out
    GX_ONE_CARD_LEAD = 40        # a single led, times the chance a one-card opponent follows it
    GX_SAFE_LEAD = 8             # leading what no unseen cards follow (the lead comes back)
    GX_CARD_LEAD = 2             # each card a lead sheds (fewer cards left to pay for)
    GX_NEAR_OUT = 1              # a follow (a bomb too) is worth it if it leaves this many plays
    GX_HUGE = 1 << 28


ctypedef struct gx_hand_t:
    int cnt[GX_VALUES]           # natural cards of each value
    int jokers
    int bombs_from               # a rank with this many natural cards is a bomb


cdef void gx_count(mask_t lo, mask_t hi, gx_hand_t *h) noexcept nogil:
    cdef int r
    for r in range(1, N_RANKS):
        h.cnt[r] = rank_count(lo, hi, r)
    h.cnt[0] = 0
    h.cnt[GDY_TWO_VALUE] = rank_count(lo, hi, RANK_2)
    h.jokers = popcount(lo & JOKER_MASK) + popcount(hi & JOKER_MASK)


cdef int gx_burden(const gx_hand_t *h, int *units) noexcept nogil:
    """The hand's burden (see above) and, in `units`, the plays it splits into."""
    cdef int v, s = 0, n = 0
    for v in range(1, GDY_TWO_VALUE):
        if h.cnt[v] >= h.bombs_from:
            s -= GX_BOMB_ASSET
            n += 1
        elif h.cnt[v] == 2:
            s += GX_UNIT + (RANK_A - v + 1) // GX_RANK_STEP - GX_PAIR_BONUS
            n += 1
        elif h.cnt[v] == 1:
            s += GX_UNIT + (RANK_A - v + 1) // GX_RANK_STEP
            n += 1
    if h.cnt[GDY_TWO_VALUE]:
        n += 1
    units[0] = n
    return s - GX_TWO_ASSET * h.cnt[GDY_TWO_VALUE] - GX_JOKER_ASSET * h.jokers


cdef bint gx_unbeatable(const play_t *p, const gx_hand_t *unseen) noexcept nogil:
    """No unseen natural cards follow a single or a pair (one rank higher, or 2s)."""
    cdef int v = p.key
    if p.type != GDY_SINGLE and p.type != GDY_PAIR:
        return False
    if v < GDY_TWO_VALUE and unseen.cnt[GDY_TWO_VALUE] + (unseen.jokers if p.type == GDY_PAIR else 0) >= p.length:
        return False
    return v + 1 >= GDY_TWO_VALUE or unseen.cnt[v + 1] + (unseen.jokers if p.type == GDY_PAIR else 0) < p.length


cdef inline int next_holder(const gdy_deal_t *d, int s) noexcept nogil:
    """The next player after s holding cards (s itself if nobody else does)."""
    cdef int k, t
    for k in range(1, d.t.seats):
        t = (s + k) % d.t.seats
        if d.lo[t]:
            return t
    return s


cdef inline int gx_followers(int v, const gx_hand_t *unseen) noexcept nogil:
    """The unseen natural cards that follow a single of value v < 2 (one rank higher, or a 2)."""
    return unseen.cnt[v + 1] + (unseen.cnt[GDY_TWO_VALUE] if v + 1 < GDY_TWO_VALUE else 0)


cdef int choose_heuristic(const gdy_deal_t *d, const playbuf_t *buf) noexcept nogil:
    """The heuristic policy's choice among the suit-collapsed plays in buf; -1 = pass."""
    cdef Py_ssize_t i
    cdef int me = d.t.current, lp = d.t.last_player, s, k, size = hand_size(d, me)
    cdef int ones = 0, n_unseen, before, units, after_units, score, best = -1, best_score = GX_HUGE
    cdef mask_t lo, hi
    cdef gx_hand_t h, unseen, part
    cdef const play_t *p
    cdef bint threat
    i = going_out(buf, size)
    if i >= 0:
        return <int>i        # going out
    h.bombs_from = 3 if d.o.flags & GDY_FLAG_TRIPLES_ARE_BOMBS else 4
    for k in range(GX_VALUES):
        unseen.cnt[k] = 0
    unseen.jokers = 0
    for s in range(d.t.seats):
        if s != me and d.lo[s]:
            ones += hand_size(d, s) == 1
            gx_count(d.lo[s], d.hi[s], &part)
            for k in range(GX_VALUES):
                unseen.cnt[k] += part.cnt[k]
            unseen.jokers += part.jokers
    for k in range(d.top, d.end):
        if ((<mask_t>1) << d.talon[k]) & JOKER_MASK:
            unseen.jokers += 1
        elif d.talon[k] // 4 == RANK_2:
            unseen.cnt[GDY_TWO_VALUE] += 1
        else:
            unseen.cnt[d.talon[k] // 4] += 1
    n_unseen = unseen.jokers
    for k in range(GX_VALUES):
        n_unseen += unseen.cnt[k]
    gx_count(d.lo[me], d.hi[me], &h)
    before = gx_burden(&h, &units)
    # the trick's player leads next if all pass, after drawing first while the talon lasts
    threat = lp >= 0 and hand_size(d, lp) + (d.top < d.end) <= GX_THREAT
    if lp >= 0 and not threat:
        # or the next player is down to one card and may follow the trick's single: beat it
        k = next_holder(d, me)
        threat = k != lp and hand_size(d, k) == 1 and d.t.last.length == 1
    for i in range(buf.len):
        p = &buf.data[i]
        hand_after(d.lo[me], d.hi[me], p, &lo, &hi)
        gx_count(lo, hi, &h)
        score = gx_burden(&h, &after_units)
        if lp < 0:
            score -= GX_CARD_LEAD * p.length
            if p.key < GDY_TWO_VALUE and gx_unbeatable(p, &unseen):
                score -= GX_SAFE_LEAD
            elif ones and p.type == GDY_SINGLE and p.key < GDY_TWO_VALUE:
                score += GX_ONE_CARD_LEAD * ones * gx_followers(p.key, &unseen) // n_unseen
        elif not threat and after_units > GX_NEAR_OUT and (p.cls or score - before > GX_FOLLOW_SLACK):
            continue             # a bomb only when it stops an opponent or decides the deal
        if best < 0 or score < best_score or (score == best_score and (p.length > buf.data[best].length or (
                p.length == buf.data[best].length and cheaper(p, &buf.data[best])))):
            best = <int>i
            best_score = score
    return best
