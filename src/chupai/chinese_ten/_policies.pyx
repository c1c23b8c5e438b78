"""Chinese Ten's playout policies: the greedy one and the heuristic one.

Each reads a deal (``ct_deal_t``) and the suit-collapsed legal plays of the seat to
act and returns the index of its choice (-1: pass); the engine
(``chupai.chinese_ten._engine``) calls them through its ``h_greedy`` and ``h_heuristic`` hooks.
"""
from chupai.core.records cimport bit, lowest_bit, mask_t, play_t, playbuf_t, popcount
from chupai.chinese_ten._deal cimport CT_BONUS_POINTS, CT_PHASE_PLAY, ct_deal_t
from chupai.chinese_ten._movegen cimport CT_FLAG_BONUS, ct_partner, ct_rank_mask, ct_red_fives


# --- playout policies -------------------------------------------------------------------------
cdef inline int gain(const ct_deal_t *d, const play_t *p) noexcept nogil:
    """Greedy value of a capture: the points taken, and the red five bonus."""
    cdef int v = d.points[p.key]
    cdef mask_t m = p.taken, fives = ct_red_fives()
    while m:
        v += d.points[lowest_bit(m)]
        m &= m - 1
    if (d.flags & CT_FLAG_BONUS) and (p.lo & fives) and ((p.lo | p.taken) & fives) == fives:
        v += CT_BONUS_POINTS * (d.t.seats - 1)
    return v


cdef int choose_greedy(const ct_deal_t *d, const playbuf_t *buf) noexcept nogil:
    """The capture taking the most points; with no capture, the card worth least joins
    the layout (first in face order among equals)."""
    cdef Py_ssize_t i
    cdef int best = -1, best_v = 0, v
    cdef bint best_cap = False, cap
    for i in range(buf.len):
        cap = buf.data[i].taken != 0
        v = gain(d, &buf.data[i]) if cap else -d.points[buf.data[i].key]
        if best < 0 or (cap and not best_cap) or (cap == best_cap and v > best_v):
            best, best_v, best_cap = i, v, cap
    return best


# --- the heuristic policy (h_heuristic) -------------------------------------------------
# What good players do, cheaply enough to run inside playouts.  Every play of the card
# from the hand gets a value (in hundredths of a point of the final score), a sum of
# what a player weighs at the table; the weights were fitted by least squares to flat
# Monte Carlo values (600 to 1,000 determinized worlds each, greedy rollouts) of 22,000
# four-player positions with a choice, then tuned against GreedyBot (docs/search.md):
#
# * a capture: the points it takes (the red five bonus included) — but a point taken
#   now is worth less than a point at the end, since the capturing card would score
#   later anyway; better a target that many unseen cards could take (it is contested)
#   and that is the last of its rank on the layout; better a capturing card that has
#   few chances left (few unseen cards of the rank it captures) and of which this
#   player also holds a partner (the two can never take each other from the hand);
# * a discard (the card joins the layout): its points are exposed; a card nobody else
#   can take (every card of its capturing rank seen) is safe, one only this player can
#   take back nearly so; otherwise it costs the best points of the unseen cards that
#   take it (a black 9 while the aces are out feeds an ace) — and, over the fitted
#   range, a little less the more of them are unseen (it is no good to keep either).
#
# The turned stock card's capture takes the most points (as greedy; the data show no
# gain there).  It reads only the player's own hand, the layout and the unseen cards
# (the other hands and the stock) as a whole, never where an unseen card is: the
# choice is the same in every determinized world of the player (tests/test_heuristic.py).
cdef enum:
    CX_CAPTURE = -45             # a capture rather than a discard, all else equal
    CX_GAIN = 39                 # per point taken
    CX_CARD_CHANCES = -15        # per unseen card the capturing card could still take
    CX_CARD_PARTNERS = 81        # per card held that the capturing card could take
    CX_CONTESTED = 74            # per unseen card that could take the target
    CX_TARGET_TWIN = -60         # per other layout card of the target's rank
    CX_DISCARD_POINTS = -24      # per point of the discarded card
    CX_EXPOSED = 71              # per unseen card that takes the discard
    CX_EXPOSED_POINTS = -6       # per unseen taker and point of the discard
    CX_FEEDS = -29               # per point of the best unseen card that takes it
    CX_TAKE_BACK = 120           # per card held that takes it back
    CX_CAN_TAKE_BACK = 25        # some card held takes it back
    CX_SAFE = 320                # no unseen card takes it


cdef inline int max_points(const ct_deal_t *d, mask_t m) noexcept nogil:
    cdef int top = 0
    while m:
        top = max(top, d.points[lowest_bit(m)])
        m &= m - 1
    return top


cdef int heuristic_value(const ct_deal_t *d, const play_t *p, mask_t unseen) noexcept nogil:
    """The value of the play `p` of a card from the hand (see above)."""
    cdef int card = p.key, y, n, pts = d.points[p.key]
    cdef mask_t partners = ct_rank_mask(ct_partner(card >> 2)) & ~bit(card)
    cdef mask_t takers = unseen & partners, held = d.hand[d.t.current] & partners
    n = popcount(takers)
    if p.taken:
        y = lowest_bit(p.taken)
        return (CX_CAPTURE + CX_GAIN * gain(d, p) + CX_CARD_CHANCES * n + CX_CARD_PARTNERS * popcount(held)
                + CX_CONTESTED * popcount(unseen & ct_rank_mask(ct_partner(y >> 2)) & ~bit(y))
                + CX_TARGET_TWIN * popcount(d.layout & ct_rank_mask(y >> 2) & ~p.taken))
    return (CX_DISCARD_POINTS * pts + CX_EXPOSED * n + CX_EXPOSED_POINTS * n * pts
            + CX_FEEDS * max_points(d, takers) + CX_TAKE_BACK * popcount(held)
            + (CX_CAN_TAKE_BACK if held else 0) + (CX_SAFE if n == 0 else 0))


cdef int choose_heuristic(const ct_deal_t *d, const playbuf_t *buf) noexcept nogil:
    """The heuristic policy's choice among the plays in buf (there is always one)."""
    cdef Py_ssize_t i
    cdef int s, k, v, me = d.t.current, best = -1, best_v = 0
    cdef mask_t unseen = 0
    if d.phase != CT_PHASE_PLAY:
        return choose_greedy(d, buf)  # the turned card's capture: the most points
    for s in range(d.t.seats):
        if s != me:
            unseen |= d.hand[s]
    for k in range(d.nstock):
        unseen |= bit(d.stock[k])
    for i in range(buf.len):
        v = heuristic_value(d, &buf.data[i], unseen)
        if best < 0 or v > best_v:
            best, best_v = <int>i, v
    return best
