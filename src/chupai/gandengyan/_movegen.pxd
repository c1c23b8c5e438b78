# The Gan Deng Yan play generator: a nogil kernel over the masks of chupai.core.records.
from chupai.core.records cimport mask_t, playbuf_t, target_t

# play types (chupai.gandengyan.play.PlayType)
cdef enum:
    GDY_SINGLE = 1
    GDY_PAIR = 2
    GDY_SEQUENCE = 3
    GDY_DOUBLE_SEQUENCE = 4
    GDY_TRIPLE = 5
    GDY_TRIPLE_SEQUENCE = 6
    GDY_THREE_BOMB = 7
    GDY_FOUR_BOMB = 8
    GDY_JOKER_BOMB = 9

# bomb classes (chupai.gandengyan.play.BOMB_CLASS)
cdef enum:
    GDY_CLS_NONE = 0
    GDY_CLS_THREE = 1
    GDY_CLS_FOUR = 2
    GDY_CLS_JOKER = 3

# rank values (chupai.gandengyan.play): 3..A are 1..12
cdef enum:
    GDY_ACE_VALUE = 12
    GDY_TWO_VALUE = 13
    GDY_JOKER_VALUE = 14

# option flags (chupai.gandengyan.rules)
cdef enum:
    GDY_FLAG_TRIPLES_ARE_BOMBS = 1
    GDY_FLAG_TRIPLE_SEQUENCES = 2
    GDY_FLAG_JOKER_AS_TWO = 4
    GDY_FLAG_JOKER_LEAD_OUT = 8
    GDY_FLAG_FOLLOW_SAME_RANK = 16

# What to generate: every lead (type 0), or what may follow one play.
ctypedef target_t gdy_target  # the play to beat (chupai.core.records)

cdef int gdy_generate(mask_t lo, mask_t hi, int flags, int max_ranks, int collapse,
                      const gdy_target *target, playbuf_t *out) noexcept nogil
