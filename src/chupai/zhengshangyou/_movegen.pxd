# The Zheng Shangyou play generator: nogil kernels over the one-deck masks of chupai.core.records.
from chupai.core.records cimport mask_t, playbuf_t, target_t

# play types (chupai.zhengshangyou.play.PlayType)
cdef enum:
    ZS_SINGLE = 1
    ZS_SET = 2
    ZS_SEQUENCE = 3
    ZS_MULTI = 4

# the key encoding (chupai.zhengshangyou.play): SUITED_KEY * suited + 2 * value + pure
cdef enum:
    ZS_TWO_VALUE = 12
    ZS_BJ_VALUE = 13
    ZS_RJ_VALUE = 14
    ZS_JOKER_PAIR_VALUE = 13
    ZS_SUITED_KEY = 32
    ZS_PURE = 1

# option flags (chupai.zhengshangyou.rules)
cdef enum:
    ZS_FLAG_JOKER_PAIR = 1

# What to generate: everything (lead), or what beats one play (follow): the plays of
# the same shape (type, length, cls) with a greater key.
ctypedef target_t zs_target  # the play to beat (chupai.core.records)

cdef int zs_generate(mask_t hand, int flags, int collapse, const zs_target *target,
                     playbuf_t *out) noexcept nogil
# the generator flags of a Rules (None: the Pagat rules); ValueError otherwise
cdef int zs_rules_flags(object rules) except -1
