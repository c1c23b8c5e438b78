# The compiled tables of chupai.rl.VectorEnv, written once for every game: N deals of
# one game stepped in C with the GIL released through its engine's hooks
# (chupai.engine.base), their observations, masks and action features written into
# numpy arrays the caller allocated.  A game's tables are a subclass that writes its
# observations (h_encode, h_finished).  See _tables.pyx.
cimport cython
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t

from chupai.core.records cimport mask_t, play_t, playbuf_t, rng_t
from chupai.engine.base cimport ENGINE_MAX_SEATS, Engine, GameSpec
from chupai.rl._workers cimport TaskQueue, Workers, task_t, work_fn

cdef enum:
    TB_MAX_FIELDS = 32           # offsets of the observation layout's fields
    TB_MAX_MOVES = 1024          # a deal's plays and passes (a record longer than this is refused)
    TB_TOP_STRIDE = 16           # ints between two workers' slots of `top` (a cache line: no false sharing)
    TB_PARTS = 4                 # the tasks a step handed to a TaskQueue is cut into (Tables.start)
    TB_MAX_WEIGHTS = 16          # outcome weights (chupai.engine.base.ENGINE_MAX_WEIGHTS)
    TB_STATE_WORDS = 64          # the room for a game's struct in each table (512 bytes)
    TB_DECISION_WORDS = 32       # the most decisions a seat has at a time (h_decisions)
    MOVE_PASS = 0xFFFFFFFF       # a logged pass
    MOVE_COLLAPSED = 0x80000000  # a logged index into the suit-collapsed list (a built-in policy's)
    # the climbing games' shared observation fields (chupai.encoding.climbing.ClimbingGame.layout),
    # the first offsets a climbing game's tables take
    F_HAND = 0
    F_PLAYED = 1
    F_KNOWN = 2
    F_SIZES = 3
    F_TRICK_CARDS = 4
    F_TRICK_PLAYER = 5
    F_PASSES = 6
    F_TO_ACT = 7
    F_FINISHED = 8
    F_PHASE = 9
    F_CLIMBING = 10              # the number of those fields: a game's own fields follow

ctypedef struct table_t:
    uint64_t state[TB_STATE_WORDS]  # the deal: the game's struct (a copy of the prototype's, then dealt)
    void *st                     # = state
    rng_t rng                    # the built-in policies' choices
    uint64_t episode             # the number of the next deal (from 0 at each seed)
    int dealt                    # 0: no deal yet, or it ended (the next is dealt on advancing)
    mask_t played_lo[ENGINE_MAX_SEATS]  # the cards each seat has played this deal (two-deck masks)
    mask_t played_hi[ENGINE_MAX_SEATS]
    mask_t known_lo[ENGINE_MAX_SEATS]  # the cards of each hand every seat knows (h_moved keeps them)
    mask_t known_hi[ENGINE_MAX_SEATS]
    int last_seat                # the seat of the deal's last play or pass (-1: none yet)
    mask_t last_lo               # its cards (zeros for a pass)
    mask_t last_hi
    int acted[ENGINE_MAX_SEATS]  # each seat has played or passed this deal
    mask_t move_lo[ENGINE_MAX_SEATS]  # each seat's last play (zeros for a pass)
    mask_t move_hi[ENGINE_MAX_SEATS]
    int can_pass                 # the current player may pass
    int nrows                    # rows of action features (index mode's range)
    int nids                     # the legal ids listed in Tables.ids (the entries of choice set)
    uint64_t deal_seed           # the seed of this deal: Deal(seed=deal_seed)
    int nmoves                   # its moves (Tables.moves): indices into the legal lists, or passes
    int final_row                # its row of the bound final observations holds a finished deal's


# The action ids of play records: a dense table over the fields of a record's pattern.
ctypedef struct lookup_t:
    int32_t *ids                 # (type, key, third, cls) -> id (-1: outside the space)
    int types, keys, thirds, classes  # the bounds of each field
    int capture_type             # the record type read as (type, card, captured card, 0), or -1:
                                 # every record as (type, key, length, cls)


# Write the copy counts of the multiset (lo, hi) into out, which is zero (face f at
# out[perm[f]]; hi is a subset of lo: stores only).
cdef void put_cards(float *out, const int *perm, mask_t lo, mask_t hi) noexcept nogil
cdef void fill(float *out, int n, float v) noexcept nogil
# place (per seat its finishing place, -1 while on) of a deal that ends when one seat,
# `winner` (-1: none yet), goes out: a game's h_finished
cdef void one_winner(int seats, int winner, int *place) noexcept nogil


cdef class Tables:
    cdef Engine proto            # the prototype deal: its struct is copied into every table
    cdef GameSpec spec
    cdef Py_ssize_t n
    cdef int seats
    cdef int num_actions, num_plays, pass_id, obs_size, layout, by_id, index_mode
    cdef int play_phase          # the index of the phase "play" in the layout's phase one-hot
    cdef int over_phase          # the index of the phase "over" (Tables.terminal; -1: not set)
    cdef int final_seat          # the seat whose view of a finished deal is written (-1: none)
    # the caller's legal plays are the suit-collapsed ones (by id, where h_collapsed_choice),
    # else the concrete ones
    cdef int collapse
    cdef table_t *tabs
    cdef playbuf_t *legal        # per table: the current player's legal plays (concrete, or collapsed)
    cdef playbuf_t *scratch      # per table: the built-in policies' suit-collapsed plays
    # table i's legal ids (table_t.nids of them, in the order their plays come from the
    # generator) and the record each stands for (its concrete choice; -2: pass), and the
    # ids as a bit set (for the action check); each row has room for every id
    cdef int32_t *ids            # n x num_actions
    cdef int32_t *recs           # n x num_actions
    cdef uint64_t *bits          # n x words
    cdef int words               # 64-bit words of a bit set of num_actions ids
    # per worker, id -> its place in the table's list while one is built or read (-1
    # between uses): a dense map that stays in the worker's cache
    cdef int32_t *slots          # threads x num_actions
    cdef uint32_t *moves         # n x TB_MAX_MOVES: each table's deal's moves (table_t.nmoves)
    cdef lookup_t lk             # a play record's action id
    cdef int policy[ENGINE_MAX_SEATS]  # -1: the caller's seat, else POLICY_*
    cdef double weights[TB_MAX_WEIGHTS]
    cdef int off[TB_MAX_FIELDS]  # field offsets of the observation layout (the game's order)
    cdef int perm[54]            # chupai face -> output index of card vectors
    cdef int error               # an engine failure inside nogil code (GEN_* code), else 0
    cdef uint64_t base_seed      # the seed of every table's deals (deal_seed)
    cdef uint64_t first          # table i's number in the seeds: first + i
    cdef readonly Workers workers  # the threads stepping the tables
    cdef int *top                # per worker (every TB_TOP_STRIDE): the largest rows of its tables in this call
    cdef Py_ssize_t *refused     # per worker (every TB_TOP_STRIDE): the first table of its blocks whose
                                 # action step() refuses (n: none)
    cdef int busy                # a call is stepping the tables (one at a time)
    # the arrays reset and step write (bind), held so that the pointers below stay valid
    cdef float[:, ::1] b_obs
    cdef int8_t[:, ::1] b_mask
    cdef int64_t[::1] b_player
    cdef int64_t[::1] b_rows
    cdef double[:, ::1] b_rewards
    cdef uint8_t[::1] b_terminated
    cdef double[:, ::1] b_final
    cdef float[:, ::1] b_final_obs
    cdef int bound               # bind has been called
    # the current call's arrays (set with the GIL by bind/step/features, read by the workers)
    cdef const int64_t *j_actions
    cdef float *j_obs
    cdef int8_t *j_mask
    cdef int64_t *j_player
    cdef int64_t *j_rows
    cdef double *j_rewards
    cdef uint8_t *j_terminated
    cdef double *j_final
    cdef float *j_final_obs      # NULL: no final observations
    cdef const uint8_t *j_wait   # NULL: every table moves
    cdef char *j_feats           # float32 rows, or int8 (j_feat_size 1)
    cdef int j_feat_size
    cdef int64_t *j_ids
    cdef Py_ssize_t j_k
    # a step handed to a TaskQueue (start .. finish): its tasks, its queue and actions held,
    # the first refused table (n if none)
    cdef task_t parts[TB_PARTS]
    cdef TaskQueue t_queue
    cdef object t_actions
    cdef Py_ssize_t t_first
    cdef int participants        # the per-participant scratch sets (top, refused, slots)

    # --- hooks: a game's tables implement these (nogil, table t of any worker) ---------
    # table t seen by seat `observer` in layout `self.layout` (0: the default) into obs,
    # which is zero: the current player's view while the deal runs, any seat's once it
    # is over (current -1; the default layout only)
    cdef void h_encode(self, const table_t *t, float *obs, int observer) noexcept nogil
    # per seat its finishing place (0 first out, ...), -1 while it holds cards
    cdef void h_finished(self, const void *st, int *place) noexcept nogil
    # `seat` has made the play `p` (NULL: passed), `leading` a new trick, and it is
    # applied to t.st: what every seat learnt of the hands (t.known_*); nothing by default
    cdef void h_moved(self, table_t *t, int seat, const play_t *p, bint leading) noexcept nogil
    # a fresh deal (h_deal) is in t.st and the table's record is cleared: what the game
    # sets before the first move (what every seat knows of the hands, t.known_*); nothing
    # by default
    cdef void h_dealt(self, table_t *t) noexcept nogil
    # 1 if the suit-collapsed plays the generator gives for each legal id include that
    # id's concrete choice (chupai.rl.id_to_action): the tables then generate only the
    # collapsed plays where actions are ids; 0 by default
    cdef bint h_collapsed_choice(self) noexcept nogil
    # decisions before the card play (an auction): while h_deciding(t), the trick's
    # current seat decides among h_decisions (their action ids into ids, in the order of
    # the deal's legal_actions(); the count), h_decide(t, k) makes the k-th of them (the
    # game then keeps the trick's current seat, starting the card play or ending the
    # deal), and a built-in policy picks k with h_decision_policy (by default uniformly,
    # from t.rng); none by default.  At most TB_DECISION_WORDS decisions at a time.
    cdef bint h_deciding(self, const table_t *t) noexcept nogil
    cdef int h_decisions(self, const table_t *t, int32_t *ids) noexcept nogil
    cdef void h_decide(self, table_t *t, int k) noexcept nogil
    cdef int h_decision_policy(self, table_t *t, int policy) noexcept nogil

    # --- written once -----------------------------------------------------------------
    # the climbing games' shared fields (at the offsets F_HAND .. F_PHASE) of table t,
    # seen by seat `observer`, in the phase "play" (or "over" once it is)
    @cython.final
    cdef void climbing_fields(self, const table_t *t, float *obs, int observer) noexcept nogil
    @cython.final
    cdef void _final(self, Py_ssize_t i) noexcept nogil

    cdef int _enter(self) except -1
    cdef int _enter_bound(self) except -1
    cdef int _check_out(self, float[:, ::1] obs, int8_t[:, ::1] mask, int64_t[::1] player,
                        int64_t[::1] rows) except -1
    cdef int _check_scores(self, double[:, ::1] rewards, uint8_t[::1] terminated, double[:, ::1] final) except -1
    cdef int _raise_refused(self, Py_ssize_t i, int64_t a) except -1
    cdef int _refusal(self, Py_ssize_t i, int64_t a) noexcept nogil
    @cython.final
    cdef Py_ssize_t _first_refused(self) noexcept nogil
    @cython.final
    cdef int _run(self, work_fn job) noexcept nogil
    cdef void _step_part(self, int k) noexcept nogil
    @cython.final
    cdef void _reset_block(self, Py_ssize_t lo, Py_ssize_t hi, int worker) noexcept nogil
    @cython.final
    cdef void _check_block(self, Py_ssize_t lo, Py_ssize_t hi, int worker) noexcept nogil
    @cython.final
    cdef void _step_block(self, Py_ssize_t lo, Py_ssize_t hi, int worker) noexcept nogil
    @cython.final
    cdef void _output(self, Py_ssize_t i, int worker) noexcept nogil
    @cython.final
    cdef void _features_block(self, Py_ssize_t lo, Py_ssize_t hi, int worker) noexcept nogil
    @cython.final
    cdef void _prefetch(self, Py_ssize_t i) noexcept nogil
    @cython.final
    cdef void _record(self, table_t *t, int seat, mask_t lo, mask_t hi) noexcept nogil
    @cython.final
    cdef void _play(self, table_t *t, const play_t *p, uint32_t move) noexcept nogil
    @cython.final
    cdef void _pass(self, table_t *t) noexcept nogil
    @cython.final
    cdef void _decide(self, table_t *t, int k) noexcept nogil
    @cython.final
    cdef void _log(self, table_t *t, uint32_t move) noexcept nogil
    @cython.final
    cdef void _apply(self, Py_ssize_t i, int64_t a) noexcept nogil
    @cython.final
    cdef void _deal(self, Py_ssize_t i) noexcept nogil
    @cython.final
    cdef int _advance(self, Py_ssize_t i, int worker, double *rewards, char *terminated, double *final) noexcept nogil
    @cython.final
    cdef int _refresh(self, Py_ssize_t i, int worker) noexcept nogil
    @cython.final
    cdef int _record_of(self, Py_ssize_t i, int aid) noexcept nogil
    @cython.final
    cdef void _write(self, Py_ssize_t i, float *obs, int8_t *mask, int64_t *player) noexcept nogil
    @cython.final
    cdef void _put_row(self, char *feats, Py_ssize_t row, const play_t *p) noexcept nogil
    cdef void _features(self, Py_ssize_t i, int worker, Py_ssize_t k_rows, char *feats, int64_t *ids) noexcept nogil
