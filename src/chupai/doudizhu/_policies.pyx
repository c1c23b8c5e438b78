"""Dou Dizhu's greedy playout policy.

It reads a deal (``ddz_deal_t``) and the suit-collapsed legal plays of the seat to act
and returns the index of its choice (-1: pass); the engine (``chupai.doudizhu._engine``)
calls it through its ``h_greedy`` hook (and, having no heuristic of its own yet, through
``h_heuristic``).
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
