# The Dou Dizhu play generator: nogil kernels over the one-deck masks of chupai.core.records.
from chupai.core.records cimport mask_t, playbuf_t, target_t

# play types (chupai.doudizhu.play.PlayType)
cdef enum:
    DDZ_SINGLE = 1
    DDZ_PAIR = 2
    DDZ_TRIO = 3
    DDZ_TRIO_SINGLE = 4
    DDZ_TRIO_PAIR = 5
    DDZ_STRAIGHT = 6
    DDZ_PAIR_SEQUENCE = 7
    DDZ_AIRPLANE = 8
    DDZ_AIRPLANE_SINGLES = 9
    DDZ_AIRPLANE_PAIRS = 10
    DDZ_FOUR_TWO_SINGLES = 11
    DDZ_FOUR_TWO_PAIRS = 12
    DDZ_BOMB = 13
    DDZ_ROCKET = 14

# values, the game's order of ranks (chupai.doudizhu.play): 3..A are 0..11
cdef enum:
    DDZ_N_VALUES = 15
    DDZ_ACE_VALUE = 11           # the top of every sequence
    DDZ_TWO_VALUE = 12
    DDZ_BJ_VALUE = 13
    DDZ_RJ_VALUE = 14

# the bomb class (the record's cls): 0 for every ordinary combination
cdef enum:
    DDZ_BOMB_CLASS = 1
    DDZ_ROCKET_CLASS = 2

# option flags (chupai.doudizhu.rules)
cdef enum:
    DDZ_FLAG_FOUR_TWO_PAIR = 1       # the two singles of a four with two may be a pair
    DDZ_FLAG_KICKER_ROCKET = 2       # kickers may be both jokers
    DDZ_FLAG_REPEAT_KICKERS = 4      # an airplane's single kickers may repeat a rank
    DDZ_FLAG_KICKER_SPLITS_BOMB = 8  # a kicker may come from a rank of which four are held
    DDZ_FLAG_KICKER_TRIO_RANK = 16   # a single kicker may be the fourth card of a trio's rank
    DDZ_FLAG_FOUR_WITH_TWO = 32      # four with two singles and four with two pairs are plays

# What to generate: everything (lead), or what beats one play (follow).
ctypedef target_t ddz_target  # the play to beat (chupai.core.records)

cdef int ddz_generate(mask_t hand, int flags, int collapse, const ddz_target *target,
                      playbuf_t *out) noexcept nogil
# the generator flags of a Rules (None: the default rules); ValueError otherwise
cdef int ddz_rules_flags(object rules) except -1
