# The Guan Dan generator's kernel: nogil, over the two-deck masks of chupai.core.records,
# and the C facts of its records.
from chupai.core.records cimport mask_t, playbuf_t, target_t

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

# bomb classes (chupai.guandan.play.BOMB_CLASS); n of a kind: n_kind_class(n) below
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

cdef enum:
    N_STRAIGHT = 10              # window positions: A-2-3-4-5 .. T-J-Q-K-A
    N_TUBE = 12
    N_PLATE = 13
    MAX_BOMB = 10                # the most cards of one rank: eight and both wilds


cdef inline int n_kind_class(int n) noexcept nogil:
    """The bomb class of n (4..MAX_BOMB) of a kind (chupai.guandan.play.BOMB_CLASS)."""
    return 1 if n == 4 else (2 if n == 5 else n - 2)


# Append every legal play of the hand (lo, hi) at `level` (a rank index) to `out`: leading
# if `target` is NULL or of type 0, else every play that beats it; -1 if memory ran out.
cdef int gd_generate(mask_t lo, mask_t hi, int level, int flags, int collapse,
                     const gd_target *target, playbuf_t *out) noexcept nogil
