# The card core: the bit layout, written down once, and the play buffer.
#
# One card face is one bit of a uint64: bit = rank * 4 + suit, ranks 2..A -> 0..12,
# suits S H C D -> 0..3, the black joker is bit 52 and the red joker bit 53.
# A one-deck set is one word.  A two-deck multiset is two words: `lo` holds the
# faces held at least once, `hi` the faces held twice (hi is a subset of lo).
from libc.stdint cimport uint8_t, uint32_t, uint64_t

ctypedef uint64_t mask_t

cdef enum:
    N_RANKS = 13
    N_SUITS = 4
    N_FACES = 54
    SUIT_S = 0
    SUIT_H = 1
    SUIT_C = 2
    SUIT_D = 3
    RANK_2 = 0
    RANK_T = 8
    RANK_A = 12
    BJ_BIT = 52
    RJ_BIT = 53
    RANK_BITS = 4           # bits per rank nibble
    NIBBLE = 0xF
    NO_FACE = 0xFF          # an unused slot of play_t.decl
    MAX_WILDS = 10          # wild cards one play may declare

cdef extern from *:
    """
    #define CHUPAI_SUITED_MASK 0x000FFFFFFFFFFFFFULL
    #define CHUPAI_JOKER_MASK 0x0030000000000000ULL
    #define CHUPAI_SUIT_S_MASK 0x0001111111111111ULL
    """
    # the 52 suited faces; the two jokers; the spades (shift left by the suit)
    const mask_t SUITED_MASK "CHUPAI_SUITED_MASK"
    const mask_t JOKER_MASK "CHUPAI_JOKER_MASK"
    const mask_t SUIT_S_MASK "CHUPAI_SUIT_S_MASK"

# One play, as the generators write it: the physical cards (wilds as themselves),
# the type and comparison key (their meaning is the game's), and what each wild
# card stands for, in the order of the wild cards' faces.
ctypedef struct play_t:
    mask_t lo
    mask_t hi
    uint8_t type
    uint8_t key
    uint8_t length
    uint8_t cls
    uint8_t nwild
    uint8_t flags
    uint8_t decl[MAX_WILDS]

# A growable array of plays owned by whoever created it.  `oom` is set (and the
# play dropped) if the array could not grow; callers raise MemoryError on it.
ctypedef struct playbuf_t:
    play_t *data
    Py_ssize_t len
    Py_ssize_t cap
    int oom

cdef int playbuf_init(playbuf_t *buf, Py_ssize_t cap) noexcept nogil
cdef void playbuf_free(playbuf_t *buf) noexcept nogil
cdef int playbuf_grow(playbuf_t *buf) noexcept nogil

cdef inline play_t *playbuf_push(playbuf_t *buf) noexcept nogil:
    """A fresh record at the end of the buffer, or NULL (and `oom`) if it cannot grow."""
    if buf.len == buf.cap and playbuf_grow(buf) != 0:
        return NULL
    buf.len += 1
    return &buf.data[buf.len - 1]

cdef inline int popcount(mask_t m) noexcept nogil:
    # SWAR popcount: portable and branch-free (the builtin is a library call without
    # -mpopcnt, which the default build does not assume)
    m = m - ((m >> 1) & 0x5555555555555555ULL)
    m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL)
    m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0FULL
    return <int>((m * 0x0101010101010101ULL) >> 56)

cdef inline int face_of(int rank, int suit) noexcept nogil:
    return rank * RANK_BITS + suit

cdef inline mask_t bit(int face) noexcept nogil:
    return (<mask_t>1) << face

cdef inline unsigned suit_ranks(mask_t m, int suit) noexcept nogil:
    """The ranks (bit r for rank r) at which `m` holds the card of `suit`."""
    cdef mask_t x = (m >> suit) & SUIT_S_MASK
    x = (x | (x >> 3)) & 0x0303030303030303ULL
    x = (x | (x >> 6)) & 0x000F000F000F000FULL
    x = (x | (x >> 12)) & 0x000000FF000000FFULL
    x = (x | (x >> 24)) & 0xFFFFULL
    return <unsigned>x

cdef inline unsigned rank_nibble(mask_t m, int rank) noexcept nogil:
    return <unsigned>((m >> (rank * RANK_BITS)) & NIBBLE)


cimport cython


@cython.no_gc
cdef class PlayList:
    """A sequence of plays backed by a C buffer (see the game modules)."""
    cdef playbuf_t buf
    cdef object factory
    cdef object context
    cdef object __weakref__
    cdef object _get(self, Py_ssize_t i)


# --- the random number generator -------------------------------------------------------
# xoshiro256** seeded through splitmix64: the same seed gives the same stream on every
# machine.  Each playout or deal derives its own stream from (seed, index), so results
# do not depend on how work is split between threads.
ctypedef struct rng_t:
    uint64_t s[4]

cdef inline uint64_t splitmix64(uint64_t *x) noexcept nogil:
    x[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)

cdef inline void rng_seed(rng_t *r, uint64_t seed, uint64_t stream) noexcept nogil:
    cdef uint64_t x = seed ^ splitmix64(&stream)
    r.s[0] = splitmix64(&x)
    r.s[1] = splitmix64(&x)
    r.s[2] = splitmix64(&x)
    r.s[3] = splitmix64(&x)

cdef inline uint64_t _rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))

cdef inline uint64_t rng_next(rng_t *r) noexcept nogil:
    cdef uint64_t result = _rotl(r.s[1] * 5, 7) * 9
    cdef uint64_t t = r.s[1] << 17
    r.s[2] ^= r.s[0]
    r.s[3] ^= r.s[1]
    r.s[1] ^= r.s[2]
    r.s[0] ^= r.s[3]
    r.s[2] ^= t
    r.s[3] = _rotl(r.s[3], 45)
    return result

cdef inline uint32_t rng_below(rng_t *r, uint32_t n) noexcept nogil:
    """Uniform in [0, n), n >= 1 (Lemire's multiply-shift with rejection)."""
    cdef uint64_t m = (rng_next(r) >> 32) * n
    cdef uint32_t low = <uint32_t>m, threshold
    if low < n:
        threshold = (<uint32_t>(-n)) % n
        while low < threshold:
            m = (rng_next(r) >> 32) * n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)
