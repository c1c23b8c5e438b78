# The compiled determinization every climbing game shares: the cards hidden from one
# seat dealt again, uniformly over the deals that respect what the public history
# proves (faces a hand cannot hold, faces a hand must hold one of).
from libc.stdint cimport uint8_t

from chupai.core.records cimport mask_t, rng_t
from chupai.engine.base cimport Engine

cdef enum:
    DZ_MAX_HANDS = 9             # the other seats of 8 and a talon
    DZ_MAX_POOL = 108            # two decks
    DZ_MAX_CLASSES = 4           # hands with different constraints the exact count handles
    DZ_OK = 0
    DZ_NONE = -1                 # no deal respects the constraints
    DZ_TRIES = -2                # the "must" constraints rejected every draw
    DZ_TOO_MANY = -3             # more differently constrained hands than DZ_MAX_CLASSES, or
                                 # more deals than the 128-bit counts hold

# One redeal: `pool` (one face per copy) dealt to `nh` hands of sizes `need`; hand j
# receives no face of `forbid[j]` and, when `must[j]` is not 0, at least one face of it.
# On DZ_OK `out` holds hand 0's faces, then hand 1's, ...: each hand's in no particular
# order but hand `ordered`'s (a talon; -1 for none), in a uniformly random one.
ctypedef struct dz_job_t:
    int nh
    int ordered
    int need[DZ_MAX_HANDS]
    mask_t forbid[DZ_MAX_HANDS]
    mask_t must[DZ_MAX_HANDS]
    int npool
    uint8_t pool[DZ_MAX_POOL]
    uint8_t out[DZ_MAX_POOL]

# Uniform over the deals allowed by `forbid`, then by rejection those allowed by `must`
# (at most `tries` draws).  Holds no Python object but uses a module buffer: call it
# with the GIL held.  DZ_OK, DZ_NONE, DZ_TRIES or DZ_TOO_MANY.
cdef int dz_deal(dz_job_t *job, rng_t *rng, int tries) noexcept

# A test of a world's hands (`lo`/`hi` per seat) that only some deals the forbid / must
# masks allow pass (what is still to come in a tribute, ...); `arg` is its data.
ctypedef int (*dz_accept_t)(const mask_t *lo, const mask_t *hi, const void *arg) noexcept

# Seat `player`'s view of `seats` hands (two-deck masks lo/hi, in place): every card of
# another seat that is not in its `klo/khi` (known) part, and the `nextra` faces of
# `extra` (a talon, in place, any order), are dealt again keeping every size; forbid /
# must per seat (NULL: none); `accept` (NULL: none) takes the hands of a draw or has it
# drawn again: uniform over the deals it takes (`tries` draws in all, the must masks'
# rejections included; the counts are made once).  A DZ_* code; the hands are unchanged
# unless DZ_OK.
cdef int dz_world(int seats, int player, mask_t *lo, mask_t *hi, const mask_t *klo, const mask_t *khi,
                  const mask_t *forbid, const mask_t *must, uint8_t *extra, int nextra,
                  dz_accept_t accept, const void *arg, rng_t *rng, int tries) noexcept

# dz_world for Python callers: `known` (Cards or one-deck int masks per seat), `forbid`
# and `must` (None or per-seat int masks) read and checked, `seed` an int, at most
# MUST_TRIES draws; raises ReplayError / RuntimeError on DZ_NONE / DZ_TRIES (the hands
# unchanged).
cdef int dz_redeal(int seats, int player, mask_t *lo, mask_t *hi, object known, object forbid, object must,
                   object seed, uint8_t *extra, int nextra, dz_accept_t accept, const void *arg) except -1

# The faces of the highest card of the one-deck mask `faces` (several for tied suits; 0
# for none) where the rank `top` is above the ace and the rest keep their order (Guan
# Dan's level, Zheng Shangyou's 2), the jokers above all: the faces a payer chooses from.
cdef mask_t dz_top_faces(mask_t faces, int top) noexcept

# `known` (called `what` in errors): a tuple or list of `n` Cards or one-deck int face
# masks, read into `klo` / `khi` (TypeError / ValueError naming the entry).
cdef int dz_read_known(object known, int n, mask_t *klo, mask_t *khi, str what) except -1

# A clone of `engine`, checked to be an engine of `game` (TypeError otherwise).
cdef Engine dz_copy_of(Engine engine, str game)
