"""Dou Dizhu's playout policies: the bids, and the greedy and heuristic card play.

A bid policy reads a deal in its auction and returns the index of its bid among the
legal ones; a card-play policy reads a deal (``ddz_deal_t``) and the suit-collapsed
legal plays of the seat to act and returns the index of its choice (-1: pass).  The
engine (``chupai.doudizhu._engine``) calls them in its playouts (``h_deal``,
``h_greedy``, ``h_heuristic``), the compiled tables for their built-in players.
"""
from chupai.core.records cimport mask_t, play_t, playbuf_t, popcount, rng_below, rng_t
from chupai.engine.base cimport POLICY_RANDOM, going_out
from chupai.doudizhu._deal cimport DDZ_BID_ROB, DDZ_BID_VALUES, DDZ_SEATS, ddz_bid_count, ddz_deal_t
from chupai.doudizhu._movegen cimport DDZ_BOMB, DDZ_ROCKET

# a greedy player bombs only a player of the other side holding at most this many cards
cdef int GREEDY_THREAT = 3


# --- the bids ---------------------------------------------------------------------------
cdef int hand_worth(mask_t hand) noexcept nogil:
    """chupai.doudizhu.bidding.worth: the rocket 8, a lone red joker 4, a lone black
    joker 3, each bomb 6, each 2 held 2, each ace 1; a bid of 3 from 10 points, 2 from 7,
    1 from 4, else none (faces rank * 4 + suit, ranks 2..A, then the black and the red joker)."""
    cdef int points, r, count
    cdef bint black = (hand >> 52) & 1, red = (hand >> 53) & 1
    points = 8 if black and red else 4 * red + 3 * black
    for r in range(13):
        count = popcount((hand >> (4 * r)) & 15)
        if count == 4:
            points += 6
        if r == 0:
            points += 2 * count
        elif r == 12:
            points += count
    if points >= 10:
        return 3
    if points >= 7:
        return 2
    return 1 if points >= 4 else 0


cdef int choose_bid(const ddz_deal_t *d, int policy, rng_t *rng) noexcept nogil:
    """The index of the seat to bid's bid among its legal ones (Bid(0), then the higher
    bids: chupai.doudizhu._deal.ddz_bid_value).  Random: uniform; greedy and
    heuristic: chupai.doudizhu.bidding.decision_choice (the highest legal bid up to the
    hand's worth; call from a worth of 1, rob from 2)."""
    cdef int worth, s, robbing = 0
    if policy == POLICY_RANDOM:
        return <int>rng_below(rng, ddz_bid_count(d))
    worth = hand_worth(d.hand[d.t.current])
    if d.a.bidding == DDZ_BID_ROB:
        for s in range(DDZ_SEATS):
            robbing |= d.a.bids[s * DDZ_BID_VALUES + 1]
        return 1 if worth >= (2 if robbing else 1) else 0
    return worth - d.a.base if worth > d.a.base else 0


cdef inline bint is_bomb(const play_t *p) noexcept nogil:
    return p.type == DDZ_BOMB or p.type == DDZ_ROCKET


cdef inline bint lead_less(const play_t *a, const play_t *b) noexcept nogil:
    """Leading: no bomb before a bomb, then the lower key, then more cards."""
    if is_bomb(a) != is_bomb(b):
        return not is_bomb(a)
    if a.key != b.key:
        return a.key < b.key
    return a.length > b.length


cdef inline bint follow_less(const play_t *a, const play_t *b) noexcept nogil:
    """Following: no bomb before a bomb, then the lower key (the rocket last)."""
    if is_bomb(a) != is_bomb(b):
        return not is_bomb(a)
    if a.type != b.type:
        return a.type < b.type
    return a.key < b.key


cdef int choose_greedy(const ddz_deal_t *d, const playbuf_t *buf) noexcept nogil:
    """Go out when a play empties the hand; lead the lowest play (no bomb while another
    play is left, the longest of the lowest key); follow with the lowest play that beats,
    never over the partner (two farmers), a bomb or the rocket only against a player of
    the other side holding at most three cards; -1 = pass."""
    cdef Py_ssize_t i
    cdef int best = -1, s = d.t.current, last = d.t.last_player
    best = going_out(buf, popcount(d.hand[s]))
    if best >= 0:
        return best
    if last < 0:
        for i in range(buf.len):
            if best < 0 or lead_less(&buf.data[i], &buf.data[best]):
                best = <int>i
        return best
    if s != d.landlord and last != d.landlord:
        return -1
    for i in range(buf.len):
        if best < 0 or follow_less(&buf.data[i], &buf.data[best]):
            best = <int>i
    if best >= 0 and is_bomb(&buf.data[best]) and popcount(d.hand[last]) > GREEDY_THREAT:
        return -1
    return best


# the heuristic stops a player of the other side holding at most this many cards with
# its highest play, a bomb or the rocket included
cdef int STOP_AT = 2


cdef inline bint shed_less(const play_t *a, const play_t *b) noexcept nogil:
    """Leading to empty the hand: no bomb before a bomb, then more cards, then the lower key."""
    if is_bomb(a) != is_bomb(b):
        return not is_bomb(a)
    if a.length != b.length:
        return a.length > b.length
    return a.key < b.key


cdef int choose_heuristic(const ddz_deal_t *d, const playbuf_t *buf) noexcept nogil:
    """Greedy's choice but: lead the play that sheds the most cards (no bomb while
    another play is left; a farmer whose partner, next to play, holds one card leads
    its lowest single); against a player of the other side holding at most two cards,
    follow with the highest play that beats, a bomb or the rocket included; -1 = pass."""
    cdef Py_ssize_t i
    cdef int best, s = d.t.current, last = d.t.last_player, nxt
    best = going_out(buf, popcount(d.hand[s]))
    if best >= 0:
        return best
    if last < 0:
        nxt = (s + 1) % 3
        if s != d.landlord and nxt != d.landlord and popcount(d.hand[nxt]) == 1:
            for i in range(buf.len):
                if buf.data[i].length == 1 and (best < 0 or buf.data[i].key < buf.data[best].key):
                    best = <int>i
            if best >= 0:
                return best
        for i in range(buf.len):
            if best < 0 or shed_less(&buf.data[i], &buf.data[best]):
                best = <int>i
        return best
    if s != d.landlord and last != d.landlord:
        return -1
    if popcount(d.hand[last]) <= STOP_AT:
        for i in range(buf.len):
            if best < 0 or follow_less(&buf.data[best], &buf.data[i]):
                best = <int>i
        return best
    return choose_greedy(d, buf)
