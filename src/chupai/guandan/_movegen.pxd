# The Guan Dan play generator: nogil kernels over the two-deck masks of chupai.core.records.
from chupai.core.records cimport mask_t, play_t, playbuf_t, target_t
from libc.stdint cimport uint8_t

# play types (chupai.guandan.play.PlayType)
cdef enum:
    GD_SINGLE = 1
    GD_PAIR = 2
    GD_TRIPLE = 3
    GD_FULL_HOUSE = 4
    GD_STRAIGHT = 5
    GD_TUBE = 6
    GD_PLATE = 7
    GD_BOMB = 8
    GD_STRAIGHT_FLUSH = 9
    GD_FOUR_JOKERS = 10

# level-order values of the special ranks
cdef enum:
    GD_LEVEL_VALUE = 12
    GD_BJ_VALUE = 13
    GD_RJ_VALUE = 14

# bomb classes (chupai.guandan.play.BOMB_CLASS); n of a kind: GD_N_KIND_CLASS[n]
cdef enum:
    GD_CLASS_NONE = 0
    GD_CLASS_SF = 3
    GD_CLASS_FOUR_JOKERS = 9

# option flags (chupai.guandan.rules)
cdef enum:
    GD_FLAG_SF_AS_STRAIGHT = 1
    GD_FLAG_JOKER_PAIR_IN_FH = 2

# What to generate: everything (lead), or what beats one play (follow).
ctypedef target_t gd_target  # the play to beat (chupai.core.records)

cdef int gd_generate(mask_t lo, mask_t hi, int level, int flags, int collapse,
                     const gd_target *target, playbuf_t *out) noexcept nogil

# the rank index of a level argument (a rank character, "10" or 0..12), ValueError else
cdef int level_index(object level) except -1
