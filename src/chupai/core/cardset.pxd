# The compiled Cards: an immutable multiset of card faces as the core's two words.
cimport cython

from libc.stdint cimport uint8_t

from chupai.core.records cimport mask_t

cdef enum:
    MAX_COPIES = 2          # no game uses more than two decks
    MAX_LAYERS = 4          # a declared view: two copies and two wild cards standing in


@cython.final
cdef class Cards:
    # w[k]: the faces held more than k times (nested); w[0], w[1] are the core's lo and
    # hi, w[2] and w[3] are empty except in a declared view
    cdef mask_t w[MAX_LAYERS]
    cdef list _faces(self)


# A Cards of valid masks (faces below 54, hi a subset of lo: the caller's promise).
cdef Cards cards_new(mask_t lo, mask_t hi)
# The multiset of 54 per-face counts, each 0..MAX_LAYERS (the caller's promise).
cdef Cards cards_of_counts(const uint8_t *counts)
# The masks of `hand` (Cards, card string or iterable of card strings) holding each
# card at most `decks` times; TypeError / ValueError naming `what` otherwise.
cdef int hand_masks(object hand, int decks, str what, mask_t *lo, mask_t *hi) except -1
# The canonical name of a face 0..53 (no check).
cdef str name_of(int face)
