"""Dou Dizhu's playout policies: greedy and heuristic.

Each reads a deal (``ddz_deal_t``) and the suit-collapsed legal plays of the seat to act
and returns the index of its choice (-1: pass); the engine (``chupai.doudizhu._engine``)
calls them through its ``h_greedy`` and ``h_heuristic`` hooks.
"""
from chupai.core.records cimport play_t, playbuf_t, popcount
from chupai.engine.base cimport going_out
from chupai.doudizhu._deal cimport ddz_deal_t
from chupai.doudizhu._movegen cimport DDZ_BOMB, DDZ_ROCKET

# a greedy player bombs only a player of the other side holding at most this many cards
cdef int GREEDY_THREAT = 3


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
