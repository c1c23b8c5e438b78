# The compiled tables of chupai.rl.VectorEnv for Guan Dan: N deals stepped in C with
# the GIL released, their observations, masks and action features written into numpy
# arrays the caller allocated.  See _tables.pyx.
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t

from chupai.core.records cimport mask_t, play_t, playbuf_t, rng_t
from chupai.guandan._deal cimport gd_deal_t
from chupai.guandan._engine cimport DealEngine
from chupai.rl._workers cimport Workers, work_fn

cdef enum:
    TB_SEATS = 4
    TB_MAX_FIELDS = 32           # offsets of the observation layout's fields
    TB_MAX_MOVES = 512           # a deal's plays and passes (at most 108 plays, 3 passes after each)
    TB_TOP_STRIDE = 16           # ints between two workers' slots of `top` (a cache line: no false sharing)
    MOVE_PASS = 0xFFFFFFFF       # a logged pass
    MOVE_COLLAPSED = 0x80000000  # a logged index into the suit-collapsed list (a built-in policy's)

ctypedef struct table_t:
    gd_deal_t d                  # the deal (a copy of the prototype's struct, then dealt)
    rng_t rng                    # the built-in policies' choices
    uint64_t episode             # the number of the next deal (from 0 at each seed)
    int dealt                    # 0: no deal yet, or it ended (the next is dealt on advancing)
    mask_t lo0[TB_SEATS]         # the hands as dealt (what each seat played = dealt - held)
    mask_t hi0[TB_SEATS]
    int last_seat                # the seat of the deal's last play or pass (-1: none yet)
    mask_t last_lo               # its cards (zeros for a pass)
    mask_t last_hi
    int acted[TB_SEATS]          # each seat has played or passed this deal
    mask_t move_lo[TB_SEATS]     # each seat's last play (zeros for a pass)
    mask_t move_hi[TB_SEATS]
    int can_pass                 # the current player may pass
    int nrows                    # rows of action features (index mode's range)
    uint64_t deal_seed           # the seed of this deal: Deal(seed=deal_seed)
    int nmoves                   # its plays and passes, as indices into the legal lists
    uint32_t moves[TB_MAX_MOVES]


cdef class GuanDanTables:
    cdef DealEngine proto
    cdef Py_ssize_t n
    cdef int num_actions, num_plays, pass_id, obs_size, danzero, by_id, index_mode
    cdef table_t *tabs
    cdef playbuf_t *legal        # per table: the current player's concrete legal plays
    cdef playbuf_t *scratch      # per table: the built-in policies' suit-collapsed plays
    cdef int32_t *choice         # n x num_actions: the record of each legal id (-2 pass, -1 not legal)
    cdef short *lookup           # (type, key, length) -> id (-1: outside the space)
    cdef int lk_types, lk_keys, lk_lens
    cdef unsigned char *lookup_cls  # the cls each pattern must have
    cdef int policy[TB_SEATS]    # -1: the caller's seat, else POLICY_*
    cdef double weights[16]
    cdef int off[TB_MAX_FIELDS]  # field offsets of the observation layout
    cdef int perm[54]            # chupai face -> output index of card vectors
    cdef int error               # an engine failure inside nogil code (GEN_* code), else 0
    cdef uint64_t base_seed      # the seed of every table's deals (deal_seed)
    cdef readonly Workers workers  # the threads stepping the tables
    cdef int *top                # per worker (every TB_TOP_STRIDE): the largest rows of its tables in this call
    cdef int busy                # a call is stepping the tables (one at a time)
    # the current call's arrays (set with the GIL by reset/step/features, read by the workers)
    cdef const int64_t *j_actions
    cdef float *j_obs
    cdef int8_t *j_mask
    cdef int64_t *j_player
    cdef int64_t *j_rows
    cdef double *j_rewards
    cdef uint8_t *j_terminated
    cdef double *j_final
    cdef float *j_feats
    cdef int64_t *j_ids
    cdef Py_ssize_t j_k

    cdef int _enter(self) except -1
    cdef int _check_out(self, float[:, ::1] obs, int8_t[:, ::1] mask, int64_t[::1] player,
                        int64_t[::1] rows) except -1
    cdef int _check_scores(self, double[:, ::1] rewards, uint8_t[::1] terminated, double[:, ::1] final) except -1
    cdef int _check_actions(self, Py_ssize_t lo, Py_ssize_t hi, const int64_t[::1] actions) except -1
    cdef int _run(self, work_fn job) noexcept nogil
    cdef void _reset_block(self, Py_ssize_t lo, Py_ssize_t hi, int worker) noexcept nogil
    cdef void _step_block(self, Py_ssize_t lo, Py_ssize_t hi, int worker) noexcept nogil
    cdef void _output(self, Py_ssize_t i, int worker) noexcept nogil
    cdef void _features_block(self, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil

    # the per-table kernels (nogil; table i of a block a worker claimed)
    cdef int _id_of(self, const play_t *p) noexcept nogil
    cdef void _record(self, table_t *t, int seat, mask_t lo, mask_t hi) noexcept nogil
    cdef void _play(self, table_t *t, const play_t *p, uint32_t move) noexcept nogil
    cdef void _pass(self, table_t *t) noexcept nogil
    cdef void _log(self, table_t *t, uint32_t move) noexcept nogil
    cdef void _apply(self, Py_ssize_t i, int64_t a) noexcept nogil
    cdef void _deal(self, Py_ssize_t i) noexcept nogil
    cdef int _advance(self, Py_ssize_t i, double *rewards, char *terminated, double *final) noexcept nogil
    cdef int _refresh(self, Py_ssize_t i) noexcept nogil
    cdef void _write(self, Py_ssize_t i, float *obs, int8_t *mask, int64_t *player) noexcept nogil
    cdef void _obs_default(self, table_t *t, float *obs) noexcept nogil
    cdef void _obs_danzero(self, table_t *t, float *obs) noexcept nogil
    cdef void _features(self, Py_ssize_t i, Py_ssize_t k_rows, float *feats, int64_t *ids) noexcept nogil
