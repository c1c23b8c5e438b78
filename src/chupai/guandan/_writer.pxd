# The Guan Dan generator's record writer (chupai.guandan._movegen): inline, so that every
# record is written in place by the loop that makes it.
from libc.stdint cimport uint64_t

from chupai.core.records cimport NO_FACE, mask_t, play_t

# A record is written as five word stores: lo, hi, taken (0), then the eight bytes type,
# key, length, cls, nwild, flags (0), decl[0], decl[1] as one word (the "tail", built
# once per group of plays that share it), then decl[2:10], which the generator never
# uses (NO_FACE).  The generator's import-time check holds this to play_t's layout.
cdef extern from *:
    """
    /* the tail word in memory order: its low byte first */
    #if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    #define CHUPAI_GD_MEMORY_ORDER(t) __builtin_bswap64(t)
    #else
    #define CHUPAI_GD_MEMORY_ORDER(t) (t)
    #endif
    """
    uint64_t memory_order "CHUPAI_GD_MEMORY_ORDER"(uint64_t t) noexcept nogil

cdef enum:
    RECORD_WORDS = 5             # a play_t is five 64-bit words

cdef inline uint64_t head_of(int type_, int key, int length, int cls) noexcept nogil:
    """The first half of a tail word: type, key, length, cls."""
    return memory_order(<uint64_t>type_ | <uint64_t>key << 8 | <uint64_t>length << 16
                        | <uint64_t>cls << 24)


cdef inline uint64_t wilds_of(int nw, int d0, int d1) noexcept nogil:
    """The second half: `nw` (0..2) wilds standing for d0 (and d1, d0 <= d1), flags 0."""
    if nw == 0:
        d0 = NO_FACE
        d1 = NO_FACE
    elif nw == 1:
        d1 = NO_FACE
    return memory_order(<uint64_t>nw << 32 | <uint64_t>d0 << 48 | <uint64_t>d1 << 56)


cdef inline uint64_t tail_of(int type_, int key, int length, int cls, int nw, int d0,
                             int d1) noexcept nogil:
    """The tail word of a play with `nw` (0..2) wilds standing for d0 (and d1, d0 <= d1)."""
    return head_of(type_, key, length, cls) | wilds_of(nw, d0, d1)


cdef extern from *:
    """
    /* One record as five words (lo, hi, taken = 0, tail, decl[2:10] = NO_FACE); with SSE2
       the first four as two 16-byte stores. */
    #if defined(__SSE2__)
    #include <emmintrin.h>
    static inline void chupai_gd_put(void *p, uint64_t lo, uint64_t hi, uint64_t tail) {
        _mm_storeu_si128((__m128i *)p, _mm_set_epi64x((long long)hi, (long long)lo));
        _mm_storeu_si128((__m128i *)p + 1, _mm_set_epi64x((long long)tail, 0));
        ((uint64_t *)p)[4] = 0xFFFFFFFFFFFFFFFFULL;
    }
    #else
    static inline void chupai_gd_put(void *p, uint64_t lo, uint64_t hi, uint64_t tail) {
        uint64_t *w = (uint64_t *)p;
        w[0] = lo;
        w[1] = hi;
        w[2] = 0;
        w[3] = tail;
        w[4] = 0xFFFFFFFFFFFFFFFFULL;
    }
    #endif
    """
    void c_put "chupai_gd_put"(void *p, uint64_t lo, uint64_t hi, uint64_t tail) noexcept nogil


cdef inline void put(play_t *p, mask_t lo, mask_t hi, uint64_t tail) noexcept nogil:
    """Write one record: the cards lo/hi (wilds included) and a tail word (a record is
    five aligned words: the generator's import-time check)."""
    c_put(p, lo, hi, tail)
