# The Chinese Ten capture generator: nogil helpers over the one-deck masks of chupai.core.records.
#
# A card of rank r captures a layout card of rank ct_partner(r): the rank making ten
# with it for A-9, its own rank for T-K.  The ranks that capture themselves (5, T-K)
# are those whose opening triple is taken whole by the fourth card.
from chupai.core.records cimport (
    NIBBLE,
    RANK_2,
    RANK_A,
    RANK_BITS,
    RANK_T,
    SUIT_C,
    SUIT_D,
    SUIT_H,
    SUIT_S,
    SUIT_S_MASK,
    bit,
    face_of,
    mask_t,
    playbuf_t,
    popcount,
)

# play types (chupai.chinese_ten.play.PlayType)
cdef enum:
    CT_CAPTURE = 1
    CT_TRIPLE = 2
    CT_DISCARD = 3

# option flags (chupai.chinese_ten.rules)
cdef enum:
    CT_FLAG_FORCED = 1
    CT_FLAG_BONUS = 2
    CT_FLAG_REDEAL = 4
    CT_FLAG_REDEAL_CROWDED = 8   # main_merah: also redeal a crowded capture group

cdef enum:
    CT_DECK = 52
    CT_SUM = 10                  # a numeral capture makes exactly ten
    CT_ACE_PIP = 1
    CT_PIPS_OF_RANK_2 = 2        # rank index RANK_2 is the two
    CT_RANK_5 = RANK_2 + 3
    CT_TRIPLE_SIZE = 3
    CT_RANK_SIZE = 4             # cards of one rank in the deck
    # a club differs from its spade, and a diamond from its heart, by this many bits
    CT_CLASS_SHIFT = SUIT_C - SUIT_S


cdef inline int ct_partner(int rank) noexcept nogil:
    """The rank that a card of `rank` captures."""
    cdef int pip
    if rank >= RANK_T and rank < RANK_A:
        return rank
    pip = CT_ACE_PIP if rank == RANK_A else rank - RANK_2 + CT_PIPS_OF_RANK_2
    pip = CT_SUM - pip
    return RANK_A if pip == CT_ACE_PIP else pip - CT_PIPS_OF_RANK_2 + RANK_2


cdef inline mask_t ct_rank_mask(int rank) noexcept nogil:
    return (<mask_t>NIBBLE) << (rank * RANK_BITS)


cdef inline mask_t ct_targets(int face, mask_t layout) noexcept nogil:
    """The layout cards `face` could capture, one at a time (before the triple rule)."""
    return layout & ct_rank_mask(ct_partner(face // RANK_BITS))


cdef inline bint ct_takes_triple(int face, mask_t targets) noexcept nogil:
    """Whether `face` takes its targets as one triple: three of its own rank (5, T-K)."""
    cdef int rank = face // RANK_BITS
    return popcount(targets) == CT_TRIPLE_SIZE and ct_partner(rank) == rank


cdef inline mask_t ct_red_fives() noexcept nogil:
    return bit(face_of(CT_RANK_5, SUIT_H)) | bit(face_of(CT_RANK_5, SUIT_D))


cdef inline mask_t ct_class_reps(mask_t m) noexcept nogil:
    """One card of each score class held in `m` (chupai.chinese_ten.play.score_class):
    a club is dropped beside its spade and a diamond beside its heart, except that the
    two black aces stay apart."""
    cdef mask_t paired = ((SUIT_S_MASK << SUIT_S) | (SUIT_S_MASK << SUIT_H)) & ~bit(face_of(RANK_A, SUIT_S))
    return m & ~((m & paired) << CT_CLASS_SHIFT)


cdef int ct_generate(mask_t hand, mask_t layout, int flags, int collapse,
                     playbuf_t *out) noexcept nogil
