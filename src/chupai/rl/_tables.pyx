"""The compiled tables behind ``chupai.rl.VectorEnv``, written once for every game.

``Tables`` holds N deals of one game as plain copies of its engine's struct and steps
them with the GIL released, calling the engine base's ``nogil`` hooks of one prototype
engine (``chupai.engine.base``): the caller's action is checked against the current
legal ids, applied, the seats of the built-in policies play, a finished deal is scored
(``h_returns`` with the outcome weights the game's Python side gives) and the next one
dealt (``h_deal``), and the acting player's observation, legal mask and (on request)
the legal actions' card vectors are written straight into numpy arrays the caller
allocated.  ``reset``, ``step`` and ``features`` check their arguments with the GIL,
then run one job over every table on the tables' ``Workers`` (``chupai.rl._workers``):
the calling thread and the worker threads each step blocks of tables, one call at a
time (a second thread calling in meanwhile gets ``RuntimeError``).

A game's tables are a subclass in its package that writes its observations: the hooks
``h_encode`` (the layout's fields; the climbing games' shared fields are
``climbing_fields``) and ``h_finished``.  Everything else -- deals, moves, masks, ids,
features, rewards, threads -- is here, and is the Python path's (``chupai.rl.vector``)
bit for bit: same deals (a table's deal of seed ``s`` is ``Deal(seed=s)``, which the
game's engine draws from ``rng_seed(s, 0)`` as its ``h_deal`` does), same action ids and
concrete choices, same tensors (``tests/test_rl_vector_compiled.py``).  The tables play
first deals (what ``VectorEnv`` deals), so the phase is always the card play.

Deal seeds are derived in C: the deal number ``e`` of table ``i`` (counted from the last
``seed``) is ``Deal(seed=chupai.core.seeds.table_deal(seed, i, e))``, a pure function the
Python path calls too, so a table's deals never depend on how the tables are split
between threads and no Python code runs per deal.  Every element of every output row is
written by the thread that steps the table (no zeroing or filling by the caller), so the
parallel part is the whole per-step work but for the action check and the allocation
of the arrays.
"""
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.math cimport NAN
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset

from chupai.core.records cimport (
    GEN_OOM,
    mask_t,
    multiset_size,
    play_t,
    playbuf_free,
    playbuf_init,
    playbuf_t,
    raise_generated,
    rng_below,
    rng_seed,
    rng_t,
    seed64,
    table_deal_hash,
)
from chupai.engine.base cimport (
    CHOICE_OOM,
    CHOICE_PASS,
    ENGINE_MAX_SEATS,
    PASS_IF_STUCK,
    PASS_NEVER,
    POLICY_CALLER,
    Engine,
    GameSpec,
    trick_t,
)
from cpython.ref cimport Py_DECREF, Py_INCREF

from chupai.rl._workers cimport TASK_IDLE, TaskQueue, Workers, work_fn

cdef enum:
    N_CARDS = 54
    PLAYBUF_CAP = 256
    OUTSIDE_SPACE = 1            # error: a play record without an action id
    # why step() refuses a table's action (Tables._refusal; 0: it takes it)
    REFUSED_NOT_DEALT = 1        # no deal on (reset() not called)
    REFUSED_RANGE = 2            # outside the ids, or the table's rows
    REFUSED_ILLEGAL = 3          # an id not legal now
    CACHE_LINE = 64
    # how many tables ahead a block asks for the memory of the table it will step (or
    # check) next: the memory of 1,024 tables is out of the core's caches by the time a
    # step comes back to one, and a table's step takes about as long as one fetch
    AHEAD = 4
    CHECK_AHEAD = 16             # (a check is a few instructions)


cdef extern from *:
    """
    static inline void chupai_set_error(int *p, int v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    """
    # an engine failure seen by any worker (several may report one at once)
    void set_error "chupai_set_error"(int *p, int v) noexcept nogil
    int __builtin_ctzll(unsigned long long) nogil
    void prefetch "__builtin_prefetch"(const void *p) noexcept nogil


# the jobs Workers.run hands out: ctx is the Tables (borrowed: the caller holds it)
cdef void reset_job(void *ctx, Py_ssize_t lo, Py_ssize_t hi, int worker) noexcept nogil:
    (<Tables>ctx)._reset_block(lo, hi, worker)


cdef void check_job(void *ctx, Py_ssize_t lo, Py_ssize_t hi, int worker) noexcept nogil:
    (<Tables>ctx)._check_block(lo, hi, worker)


cdef void step_job(void *ctx, Py_ssize_t lo, Py_ssize_t hi, int worker) noexcept nogil:
    (<Tables>ctx)._step_block(lo, hi, worker)


cdef void features_job(void *ctx, Py_ssize_t lo, Py_ssize_t hi, int worker) noexcept nogil:
    (<Tables>ctx)._features_block(lo, hi, worker)


# the tasks a TaskQueue runs (Tables.start): ctx is the Tables, which holds itself until
# finish; task k steps the k-th of its TB_PARTS runs of tables, as participant k
cdef void part_task(void *ctx, int k) noexcept nogil:
    (<Tables>ctx)._step_part(k)


# --- card vectors -------------------------------------------------------------------------
cdef inline int lookup_id(const lookup_t *lk, const play_t *p) noexcept nogil:
    """The action id of a play record (-1 outside the space): its pattern is (type, key,
    length, cls), or with a capture type (type, card, the lowest captured card, 0), as
    chupai.encoding._ids.PatternIds reads it."""
    cdef int third = p.length, cls = p.cls
    if lk.capture_type >= 0:
        cls = 0
        third = __builtin_ctzll(p.taken) if p.type == lk.capture_type and p.taken else 0
    if p.type >= lk.types or p.key >= lk.keys or third >= lk.thirds or cls >= lk.classes:
        return -1
    return lk.ids[((p.type * lk.keys + p.key) * lk.thirds + third) * lk.classes + cls]


ctypedef fused count_t:
    float
    int8_t


cdef inline void put_counts(count_t *out, const int *perm, mask_t lo, mask_t hi) noexcept nogil:
    """The copy counts of the multiset (lo, hi) into out (float32 or int8), which is zero."""
    cdef int f
    while lo:
        f = __builtin_ctzll(lo)
        out[perm[f]] = 1
        lo &= lo - 1
    while hi:
        f = __builtin_ctzll(hi)
        out[perm[f]] = 2
        hi &= hi - 1


cdef void put_cards(float *out, const int *perm, mask_t lo, mask_t hi) noexcept nogil:
    put_counts(out, perm, lo, hi)


cdef void one_winner(int seats, int winner, int *place) noexcept nogil:
    cdef int k
    for k in range(seats):
        place[k] = -1
    if winner >= 0:
        place[winner] = 0


cdef void fill(float *out, int n, float v) noexcept nogil:
    cdef int i
    for i in range(n):
        out[i] = v


cdef class Tables:
    """``n`` tables of the game of ``proto`` (module doc).  Built by a game's compiled
    path (``chupai.rl.compiled``), which checks every argument; ``policies[s]`` is -1
    for the caller's seats, else a policy code; ``layout`` is 0 for the default
    observation, else the game's own layout's code."""

    def __cinit__(self, *args, **kwargs):
        self.final_seat = -1
        self.over_phase = -1

    def __init__(self, Py_ssize_t n, int threads, Engine proto not None, policies, int layout, bint by_id,
                 bint index_mode, patterns, int capture_type, offsets, int play_phase, perm, weights, int num_actions,
                 int pass_id, int obs_size):
        cdef Py_ssize_t i
        cdef int k, t, key, length, cls
        if self.tabs != NULL:
            raise RuntimeError("Tables are initialized once")
        self.seats = proto.h_seats(proto.h_state())
        if n < 1:
            raise ValueError(f"n must be >= 1, not {n}")
        if len(policies) != self.seats:
            raise ValueError(f"policies must hold one entry per seat ({self.seats}), not {len(policies)}")
        if len(offsets) > TB_MAX_FIELDS:
            raise ValueError(f"offsets must hold at most {TB_MAX_FIELDS} fields, not {len(offsets)}")
        if len(perm) != N_CARDS:
            raise ValueError(f"perm must hold {N_CARDS} faces, not {len(perm)}")
        if len(weights) > TB_MAX_WEIGHTS:
            raise ValueError(f"weights must hold at most {TB_MAX_WEIGHTS} values, not {len(weights)}")
        if not patterns:
            raise ValueError("patterns must name at least one play pattern")
        if not -1 <= pass_id < num_actions:
            raise ValueError(f"pass_id must be -1 or an action id below num_actions ({num_actions}), not {pass_id}")
        if threads < 1:
            raise ValueError(f"threads must be >= 1, not {threads}")
        self.n = n
        self.proto = proto
        self.spec = proto.h_spec()
        if self.spec.state_size > TB_STATE_WORDS * sizeof(uint64_t):
            raise ValueError(f"Tables: a {self.spec.name} struct of {self.spec.state_size} bytes is larger than "
                             f"a table's room ({TB_STATE_WORDS * sizeof(uint64_t)})")
        self.workers = Workers(min(<Py_ssize_t>threads, n))
        # per participant: the workers' jobs, or the parts of a step handed to a TaskQueue
        self.participants = self.workers.threads if self.workers.threads > TB_PARTS else TB_PARTS
        self.top = <int *>calloc(self.participants * TB_TOP_STRIDE, sizeof(int))
        self.refused = <Py_ssize_t *>calloc(self.participants * TB_TOP_STRIDE, sizeof(Py_ssize_t))
        if self.top == NULL or self.refused == NULL:
            raise MemoryError()
        self.tabs = <table_t *>calloc(n, sizeof(table_t))
        self.legal = <playbuf_t *>calloc(n, sizeof(playbuf_t))
        self.scratch = <playbuf_t *>calloc(n, sizeof(playbuf_t))
        self.words = (num_actions + 63) // 64
        self.ids = <int32_t *>calloc(n * num_actions, sizeof(int32_t))
        self.recs = <int32_t *>calloc(n * num_actions, sizeof(int32_t))
        self.bits = <uint64_t *>calloc(n * self.words, sizeof(uint64_t))
        self.slots = <int32_t *>calloc(self.participants * num_actions, sizeof(int32_t))
        self.moves = <uint32_t *>calloc(n * TB_MAX_MOVES, sizeof(uint32_t))
        if self.tabs == NULL or self.legal == NULL or self.scratch == NULL or self.ids == NULL \
                or self.recs == NULL or self.bits == NULL or self.slots == NULL or self.moves == NULL:
            raise MemoryError()
        memset(self.slots, 0xFF, self.participants * num_actions * sizeof(int32_t))  # every slot -1
        for i in range(n):
            if playbuf_init(&self.legal[i], PLAYBUF_CAP) != 0 or playbuf_init(&self.scratch[i], PLAYBUF_CAP) != 0:
                raise MemoryError()
            self.tabs[i].st = <void *>self.tabs[i].state
            memcpy(self.tabs[i].st, proto.h_state(), self.spec.state_size)
            self.tabs[i].dealt = 0
        self.num_actions = num_actions
        self.pass_id = pass_id
        self.obs_size = obs_size
        self.layout = layout
        self.play_phase = play_phase
        self.by_id = by_id
        self.collapse = by_id and self.h_collapsed_choice()
        self.index_mode = index_mode
        for k in range(self.seats):
            self.policy[k] = policies[k]
        for k in range(len(weights)):
            self.weights[k] = weights[k]
        for k in range(len(offsets)):
            self.off[k] = offsets[k]
        for k in range(N_CARDS):
            self.perm[k] = perm[k]
        self.num_plays = len(patterns)
        self.lk.capture_type = capture_type
        self.lk.types = 1 + max(p[0] for p in patterns)
        self.lk.keys = 1 + max(p[1] for p in patterns)
        self.lk.thirds = 1 + max(p[2] for p in patterns)
        self.lk.classes = 1 + max(p[3] for p in patterns)
        size = self.lk.types * self.lk.keys * self.lk.thirds * self.lk.classes
        self.lk.ids = <int32_t *>calloc(size, sizeof(int32_t))
        if self.lk.ids == NULL:
            raise MemoryError()
        for k in range(size):
            self.lk.ids[k] = -1
        for k, (t, key, length, cls) in enumerate(patterns):
            self.lk.ids[((t * self.lk.keys + key) * self.lk.thirds + length) * self.lk.classes + cls] = k

    def __dealloc__(self):
        cdef Py_ssize_t i
        if self.legal != NULL:
            for i in range(self.n):
                playbuf_free(&self.legal[i])
        if self.scratch != NULL:
            for i in range(self.n):
                playbuf_free(&self.scratch[i])
        free(self.legal)
        free(self.scratch)
        free(self.tabs)
        free(self.ids)
        free(self.recs)
        free(self.bits)
        free(self.slots)
        free(self.moves)
        free(self.lk.ids)
        free(self.top)
        free(self.refused)

    # -- hooks (a game's tables override them) ----------------------------------------------
    cdef void h_encode(self, const table_t *t, float *obs, int observer) noexcept nogil:
        pass

    cdef void h_finished(self, const void *st, int *place) noexcept nogil:
        cdef int s
        for s in range(self.seats):
            place[s] = -1

    cdef void h_moved(self, table_t *t, int seat, const play_t *p, bint leading) noexcept nogil:
        pass

    cdef void h_dealt(self, table_t *t) noexcept nogil:
        pass

    cdef bint h_deciding(self, const table_t *t) noexcept nogil:
        return 0

    cdef int h_decisions(self, const table_t *t, int32_t *ids) noexcept nogil:
        return 0

    cdef void h_decide(self, table_t *t, int k) noexcept nogil:
        pass

    cdef int h_decision_policy(self, table_t *t, int policy) noexcept nogil:
        cdef int32_t ids[TB_DECISION_WORDS]
        return <int>rng_below(&t.rng, <uint32_t>self.h_decisions(t, ids))

    cdef bint h_collapsed_choice(self) noexcept nogil:
        return 0

    # -- seeds (with the GIL) ---------------------------------------------------------------
    def seed(self, seed, Py_ssize_t first=0):
        """Restart every table's deals (deal 0 next) and its policy stream, from (seed,
        number): table i is number first + i (first >= 0)."""
        cdef uint64_t s = seed64(seed)
        cdef Py_ssize_t i
        if first < 0:
            raise ValueError(f"first must be >= 0, not {first}")
        self.base_seed = s
        self.first = <uint64_t>first
        for i in range(self.n):
            rng_seed(&self.tabs[i].rng, s, self.first + <uint64_t>i)
            self.tabs[i].episode = 0

    def close(self):
        """Stop the worker threads (the calling thread steps every table from then on)."""
        self._enter()
        self.workers.close()
        self.busy = 0

    # -- checks (with the GIL) -------------------------------------------------------------
    cdef int _raise_refused(self, Py_ssize_t i, int64_t a) except -1:
        """ValueError saying why table i refuses action `a` (0 if it takes it)."""
        cdef int why = self._refusal(i, a)
        if why == REFUSED_NOT_DEALT:
            raise ValueError("call reset() before step()")
        if why == REFUSED_RANGE and self.index_mode:
            raise ValueError(f"table {i}: action index {a} is outside 0..{self.tabs[i].nrows - 1}")
        if why == REFUSED_RANGE:
            raise ValueError(f"table {i}: action id {a} is outside 0..{self.num_actions - 1}")
        if why == REFUSED_ILLEGAL:
            raise ValueError(f"table {i}: action id {a} is not legal now")
        return 0

    cdef int _refusal(self, Py_ssize_t i, int64_t a) noexcept nogil:
        """Why table i refuses action `a` (a REFUSED_* code), or 0 if it takes it."""
        if not self.tabs[i].dealt or (<const trick_t *>self.tabs[i].st).current < 0:
            return REFUSED_NOT_DEALT
        if self.index_mode:
            return 0 if 0 <= a < self.tabs[i].nrows else REFUSED_RANGE
        if not 0 <= a < self.num_actions:
            return REFUSED_RANGE
        if not (self.bits[i * self.words + (a >> 6)] >> (a & 63)) & 1:
            return REFUSED_ILLEGAL
        return 0

    cdef Py_ssize_t _first_refused(self) noexcept nogil:
        """The first table whose action (j_actions) is refused, n if none, checked on the
        workers (a table's memory then warm for the step that follows on most of them)."""
        cdef int k
        cdef Py_ssize_t first = self.n
        for k in range(self.workers.threads):
            self.refused[k * TB_TOP_STRIDE] = self.n
        self.workers.run(check_job, <void *>self, self.n)
        for k in range(self.workers.threads):
            if self.refused[k * TB_TOP_STRIDE] < first:
                first = self.refused[k * TB_TOP_STRIDE]
        return first

    def raise_error(self):
        """MemoryError if a legal list could not grow (or passed the play limit) during the
        last call; RuntimeError for a play without an action id."""
        cdef int e = self.error
        self.error = 0
        if e == OUTSIDE_SPACE:
            raise RuntimeError(f"a {self.spec.name} play record has no action id (outside the action space)")
        if e:
            raise_generated(e)

    def history(self, Py_ssize_t i):
        """Table i's deal as ``(seed, moves)``: the deal is ``Deal(seed=seed)``, each move
        ``None`` (a pass), ``("concrete", k)`` (``legal_actions()[k]``) or ``("collapsed",
        k)`` (``legal_plays(collapse_suits=True)[k]`` of the deal's engine)."""
        if not 0 <= i < self.n:
            raise IndexError(i)
        cdef table_t *t = &self.tabs[i]
        cdef uint32_t m
        cdef int k
        if t.nmoves > TB_MAX_MOVES:
            raise RuntimeError(f"table {i}: the deal's record overflowed ({t.nmoves} moves)")
        moves = []
        for k in range(t.nmoves):
            m = self.moves[i * TB_MAX_MOVES + k]
            if m == <uint32_t>MOVE_PASS:
                moves.append(None)
            elif m & <uint32_t>MOVE_COLLAPSED:
                moves.append(("collapsed", m & ~(<uint32_t>MOVE_COLLAPSED)))
            else:
                moves.append(("concrete", m))
        return t.deal_seed, moves

    def engine(self, Py_ssize_t i):
        """An engine holding a copy of table i's deal (for inspection and tests)."""
        if not 0 <= i < self.n:
            raise IndexError(i)
        cdef Engine c = self.proto.clone()
        memcpy(c.h_state(), self.tabs[i].st, self.spec.state_size)
        return c

    # -- stepping (every table, on the workers; nogil inside) -------------------------------
    cdef int _enter(self) except -1:
        if self.busy:
            raise RuntimeError("Tables: one call at a time (another thread is stepping these tables)")
        self.busy = 1
        return 0

    cdef int _check_out(self, float[:, ::1] obs, int8_t[:, ::1] mask, int64_t[::1] player,
                        int64_t[::1] rows) except -1:
        if obs.shape[0] != self.n or obs.shape[1] != self.obs_size:
            raise ValueError(f"obs must have shape ({self.n}, {self.obs_size}), not {obs.shape[0], obs.shape[1]}")
        if mask.shape[0] != self.n or mask.shape[1] != self.num_actions:
            raise ValueError(f"mask must have shape ({self.n}, {self.num_actions}), not {mask.shape[0], mask.shape[1]}")
        if player.shape[0] != self.n:
            raise ValueError(f"player must have shape ({self.n},), not ({player.shape[0]},)")
        if rows.shape[0] != self.n:
            raise ValueError(f"rows must have shape ({self.n},), not ({rows.shape[0]},)")
        return 0

    cdef int _check_scores(self, double[:, ::1] rewards, uint8_t[::1] terminated, double[:, ::1] final) except -1:
        if rewards.shape[0] != self.n or rewards.shape[1] != self.seats:
            raise ValueError(f"rewards must have shape ({self.n}, {self.seats})")
        if final.shape[0] != self.n or final.shape[1] != self.seats:
            raise ValueError(f"final must have shape ({self.n}, {self.seats})")
        if terminated.shape[0] != self.n:
            raise ValueError(f"terminated must have shape ({self.n},)")
        return 0

    cdef int _run(self, work_fn job) noexcept nogil:
        """job over every table on the workers; the largest per-worker result (rows)."""
        cdef int k, top = 0
        for k in range(self.workers.threads):
            self.top[k * TB_TOP_STRIDE] = 0
        self.workers.run(job, <void *>self, self.n)
        for k in range(self.workers.threads):
            if self.top[k * TB_TOP_STRIDE] > top:
                top = self.top[k * TB_TOP_STRIDE]
        return top

    def terminal(self, int seat, int over_phase):
        """Write each finished deal seen by ``seat`` into the final observations bound
        (``bind(..., final_obs)``), its phase one-hot at ``over_phase``; once, before the
        first bind (the default layout only)."""
        if self.final_seat >= 0:
            raise RuntimeError("Tables.terminal is called once")
        if self.layout != 0:
            raise ValueError("final observations are written in the default layout only")
        if not (0 <= seat < self.seats and over_phase >= 0 and over_phase != self.play_phase):
            raise ValueError(f"terminal: seat must be 0..{self.seats - 1} and over_phase a phase index "
                             f"other than play's, not {seat}, {over_phase}")
        self.final_seat, self.over_phase = seat, over_phase

    def bind(self, float[:, ::1] obs, int8_t[:, ::1] mask, int64_t[::1] player, int64_t[::1] rows,
             double[:, ::1] rewards, uint8_t[::1] terminated, double[:, ::1] final, float[:, ::1] final_obs=None):
        """The arrays the next calls of reset and step write, held until the next bind
        (ValueError for a wrong shape, the arrays bound before kept); ``final_obs`` (zero,
        after ``terminal``) gets the rows of the tables whose deal ends, the rows of the
        others zero."""
        self._enter()
        try:
            self._check_out(obs, mask, player, rows)
            self._check_scores(rewards, terminated, final)
            if final_obs is not None and (self.final_seat < 0 or final_obs.shape[0] != self.n
                                          or final_obs.shape[1] != self.obs_size):
                raise ValueError(f"final_obs must have shape ({self.n}, {self.obs_size}), after terminal()")
            self.b_obs, self.b_mask, self.b_player, self.b_rows = obs, mask, player, rows
            self.b_rewards, self.b_terminated, self.b_final = rewards, terminated, final
            self.j_obs, self.j_mask, self.j_player, self.j_rows = &obs[0, 0], &mask[0, 0], &player[0], &rows[0]
            self.j_rewards, self.j_terminated, self.j_final = &rewards[0, 0], &terminated[0], &final[0, 0]
            self.b_final_obs = final_obs
            self.j_final_obs = NULL if final_obs is None else &final_obs[0, 0]
            self.bound = 1
        finally:
            self.busy = 0

    cdef int _enter_bound(self) except -1:
        if not self.bound:
            raise RuntimeError("Tables: bind the output arrays before reset or step")
        return self._enter()

    def reset(self):
        """Start a new deal at every table and write every element of the bound obs, mask,
        player and rows (the number of action-feature rows); the largest of those rows."""
        cdef int top
        self._enter_bound()
        try:
            with nogil:
                top = self._run(reset_job)
        finally:
            self.busy = 0
        return top

    def step(self, const int64_t[::1] actions, const uint8_t[::1] wait=None):
        """Apply the actions (checked first: ValueError naming the first bad table, no table
        advanced), run the built-in policies, start new deals where one ended, and write
        every element of every bound output (rewards 0 and final NaN but where a deal
        ended); the largest of the rows.  A table whose ``wait`` is nonzero does not
        move (its action unread, its outputs those of its state now)."""
        cdef int top
        cdef Py_ssize_t first
        self._enter_bound()
        try:
            if actions.shape[0] != self.n:
                raise ValueError(f"actions must have shape ({self.n},), not ({actions.shape[0]},)")
            if wait is not None and wait.shape[0] != self.n:
                raise ValueError(f"wait must have shape ({self.n},), not ({wait.shape[0]},)")
            self.j_actions = &actions[0]
            self.j_wait = NULL if wait is None else &wait[0]
            with nogil:
                first = self._first_refused()
            if first < self.n:
                self._raise_refused(first, actions[first])
            with nogil:
                top = self._run(step_job)
        finally:
            self.j_wait = NULL
            self.busy = 0
        return top

    cdef void _step_part(self, int k) noexcept nogil:
        self._step_block(k * self.n // TB_PARTS, (k + 1) * self.n // TB_PARTS, k)

    def start(self, TaskQueue queue not None, const int64_t[::1] actions):
        """``step(actions)`` handed to ``queue``: the actions checked here and now, then the
        tables stepped in TB_PARTS runs, each a task (the first a queue's thread takes,
        the last most likely the thread that calls ``finish``); returns at once, the
        tables busy until ``finish`` (``actions`` held meanwhile, not to be changed)."""
        cdef int k
        self._enter_bound()
        if actions.shape[0] != self.n:
            self.busy = 0
            raise ValueError(f"actions must have shape ({self.n},), not ({actions.shape[0]},)")
        self.j_actions = &actions[0]
        self.j_wait = NULL
        with nogil:
            self.t_first = self._first_refused()
        self.t_actions = actions
        self.t_queue = queue
        Py_INCREF(self)         # alive while a thread steps it, whoever drops it
        if self.t_first < self.n:
            return              # refused: nothing steps, finish says why
        for k in range(TB_PARTS):
            self.top[k * TB_TOP_STRIDE] = 0
            self.parts[k].fn = part_task
            self.parts[k].ctx = <void *>self
            self.parts[k].index = k
            with nogil:
                queue.submit(&self.parts[k])

    def finish(self):
        """Wait for the step ``start`` handed out and return what ``step`` returns (its
        ``ValueError`` for a refused action, no table advanced)."""
        cdef int k, lost = 0, top = 0
        cdef TaskQueue queue = self.t_queue
        if queue is None:
            raise RuntimeError("Tables.finish: no step was started")
        with nogil:
            for k in range(TB_PARTS - 1, -1, -1):   # the last queued first: this thread may run it
                lost |= queue.wait(&self.parts[k])
        for k in range(TB_PARTS):
            self.parts[k].state = TASK_IDLE
            if self.top[k * TB_TOP_STRIDE] > top:
                top = self.top[k * TB_TOP_STRIDE]
        self.t_queue = None
        actions, self.t_actions = self.t_actions, None
        self.busy = 0
        Py_DECREF(self)
        if lost:
            raise RuntimeError("Tables.finish: the tables were stepping when this process forked; "
                               "their state here is lost")
        if self.t_first < self.n:
            self._raise_refused(self.t_first, actions[self.t_first])
        return top

    def features(self, feats, int64_t[:, ::1] ids):
        """Write the action-feature rows of every table, all K of them (zeros and id -1 after
        a table's last row; K >= every table's rows); ``feats`` float32 or int8 (the card
        counts, 0..2)."""
        cdef Py_ssize_t i
        cdef float[:, :, ::1] f32
        cdef int8_t[:, :, ::1] f8
        cdef char *start
        cdef int size
        if getattr(getattr(feats, "dtype", None), "char", None) == "b":
            f8 = feats
            shape, size = (f8.shape[0], f8.shape[1], f8.shape[2]), 1
            start = NULL if f8.shape[1] == 0 else <char *>&f8[0, 0, 0]
        else:
            f32 = feats
            shape, size = (f32.shape[0], f32.shape[1], f32.shape[2]), sizeof(float)
            start = NULL if f32.shape[1] == 0 else <char *>&f32[0, 0, 0]
        if shape[0] != self.n or shape[2] != N_CARDS or ids.shape[0] != self.n or ids.shape[1] != shape[1]:
            raise ValueError(f"feats must have shape ({self.n}, K, {N_CARDS}) and ids ({self.n}, K)")
        for i in range(self.n):
            if self.tabs[i].nrows > shape[1]:
                raise ValueError(f"table {i} has {self.tabs[i].nrows} rows, more than K = {shape[1]}")
        if shape[1] == 0:
            return
        self._enter()
        try:
            self.j_feats = start
            self.j_feat_size = size
            self.j_ids = &ids[0, 0]
            self.j_k = shape[1]
            with nogil:
                self._run(features_job)
        finally:
            self.busy = 0

    cdef void _check_block(self, Py_ssize_t lo, Py_ssize_t hi, int worker) noexcept nogil:
        cdef Py_ssize_t i
        for i in range(lo, hi):
            if i + CHECK_AHEAD < hi:
                prefetch(self.tabs[i + CHECK_AHEAD].state)
                prefetch(&self.tabs[i + CHECK_AHEAD].dealt)
                prefetch(&self.bits[(i + CHECK_AHEAD) * self.words])
            if (self.j_wait == NULL or not self.j_wait[i]) and self._refusal(i, self.j_actions[i]):
                if i < self.refused[worker * TB_TOP_STRIDE]:
                    self.refused[worker * TB_TOP_STRIDE] = i
                return

    cdef void _reset_block(self, Py_ssize_t lo, Py_ssize_t hi, int worker) noexcept nogil:
        cdef Py_ssize_t i
        for i in range(lo, hi):
            self.tabs[i].dealt = 0
            self._advance(i, worker, NULL, NULL, NULL)
            self._output(i, worker)

    cdef void _step_block(self, Py_ssize_t lo, Py_ssize_t hi, int worker) noexcept nogil:
        cdef Py_ssize_t i
        cdef int s
        cdef double *rewards
        cdef double *final
        for i in range(lo, hi):
            if i + AHEAD < hi:
                self._prefetch(i + AHEAD)
            rewards = self.j_rewards + i * self.seats
            final = self.j_final + i * self.seats
            self.j_terminated[i] = 0
            for s in range(self.seats):
                rewards[s] = 0.0
                final[s] = NAN
            if self.j_final_obs != NULL and self.tabs[i].final_row:
                fill(self.j_final_obs + i * self.obs_size, self.obs_size, 0.0)
                self.tabs[i].final_row = 0
            if self.j_wait == NULL or not self.j_wait[i]:
                self._apply(i, self.j_actions[i])
                self._advance(i, worker, rewards, <char *>&self.j_terminated[i], final)
            self._output(i, worker)

    cdef void _output(self, Py_ssize_t i, int worker) noexcept nogil:
        """Table i's row of obs, mask, player and rows; the worker's largest rows."""
        self._write(i, self.j_obs + i * self.obs_size, self.j_mask + i * self.num_actions, self.j_player + i)
        self.j_rows[i] = self.tabs[i].nrows
        if self.tabs[i].nrows > self.top[worker * TB_TOP_STRIDE]:
            self.top[worker * TB_TOP_STRIDE] = self.tabs[i].nrows

    cdef void _features_block(self, Py_ssize_t lo, Py_ssize_t hi, int worker) noexcept nogil:
        cdef Py_ssize_t i
        for i in range(lo, hi):
            self._features(i, worker, self.j_k, self.j_feats + i * self.j_k * N_CARDS * self.j_feat_size,
                           self.j_ids + i * self.j_k)

    # -- the per-table kernels ---------------------------------------------------------------
    cdef void _prefetch(self, Py_ssize_t i) noexcept nogil:
        """Ask for the memory a step of table i reads first (its deal, its record, its
        legal ids and their records), so that it arrives while an earlier table steps."""
        cdef const char *p = <const char *>self.tabs[i].state
        cdef const char *end = p + self.spec.state_size
        while p < end:
            prefetch(p)
            p += CACHE_LINE
        p = <const char *>&self.tabs[i].st
        end = <const char *>(&self.tabs[i] + 1)
        while p < end:
            prefetch(p)
            p += CACHE_LINE
        prefetch(&self.ids[i * self.num_actions])
        prefetch(&self.recs[i * self.num_actions])
        prefetch(self.legal[i].data)

    cdef void _record(self, table_t *t, int seat, mask_t lo, mask_t hi) noexcept nogil:
        """`seat` made a play (lo, hi) or passed (zeros): what the observations read."""
        t.last_seat = seat
        t.last_lo = lo
        t.last_hi = hi
        t.acted[seat] = 1
        t.move_lo[seat] = lo
        t.move_hi[seat] = hi
        # the seat's played cards and this play: at most two copies of a face in all
        t.played_hi[seat] |= hi | (t.played_lo[seat] & lo)
        t.played_lo[seat] |= lo

    cdef void _log(self, table_t *t, uint32_t move) noexcept nogil:
        if t.nmoves < TB_MAX_MOVES:
            self.moves[(t - self.tabs) * TB_MAX_MOVES + t.nmoves] = move
        t.nmoves += 1

    cdef void _play(self, table_t *t, const play_t *p, uint32_t move) noexcept nogil:
        cdef int seat = (<const trick_t *>t.st).current
        cdef bint leading = (<const trick_t *>t.st).last_player < 0
        self._record(t, seat, p.lo, p.hi)
        self._log(t, move)
        self.proto.h_play(t.st, p)
        self.h_moved(t, seat, p, leading)

    cdef void _pass(self, table_t *t) noexcept nogil:
        cdef int seat = (<const trick_t *>t.st).current
        cdef bint leading = (<const trick_t *>t.st).last_player < 0
        self._record(t, seat, 0, 0)
        self._log(t, MOVE_PASS)
        self.proto.h_pass(t.st)
        self.h_moved(t, seat, NULL, leading)

    cdef void _decide(self, table_t *t, int k) noexcept nogil:
        """The current seat makes the k-th of its decisions (logged as the k-th of the
        deal's legal actions)."""
        self._log(t, <uint32_t>k)
        self.h_decide(t, k)

    cdef int _record_of(self, Py_ssize_t i, int aid) noexcept nogil:
        """The record legal id `aid` of table i stands for (-2: pass; it is in the list)."""
        cdef const int32_t *ids = &self.ids[i * self.num_actions]
        cdef int k
        for k in range(self.tabs[i].nids):
            if ids[k] == aid:
                return self.recs[i * self.num_actions + k]
        return -2  # (not reached: the action was checked legal)

    cdef void _apply(self, Py_ssize_t i, int64_t a) noexcept nogil:
        """The caller's action (checked): an id, or an index into the feature rows."""
        cdef table_t *t = &self.tabs[i]
        cdef const uint64_t *bits = &self.bits[i * self.words]
        cdef int k, w
        cdef uint64_t word
        if self.index_mode:
            if self.by_id:
                # the a-th legal id in id order: the a-th set bit
                for w in range(self.words):
                    word = bits[w]
                    while word:
                        if a == 0:
                            break
                        word &= word - 1
                        a -= 1
                    if word:
                        break
                k = self._record_of(i, w * 64 + __builtin_ctzll(word))
            elif self.h_deciding(t):
                k = self.recs[i * self.num_actions + a]
            else:
                k = <int>a if a < self.legal[i].len else -2
        else:
            k = self._record_of(i, <int>a)
        if k <= -3:
            self._decide(t, -3 - k)
        elif k == -2:
            self._pass(t)
        else:
            self._play(t, &self.legal[i].data[k], (<uint32_t>MOVE_COLLAPSED if self.collapse else 0) | <uint32_t>k)

    cdef void _deal(self, Py_ssize_t i) noexcept nogil:
        """Table i's next deal: Deal(seed=table_deal(seed, first + i, episode))."""
        cdef table_t *t = &self.tabs[i]
        cdef rng_t r
        cdef int s
        t.deal_seed = table_deal_hash(self.base_seed, self.first + <uint64_t>i, t.episode)
        t.episode += 1
        t.nmoves = 0
        rng_seed(&r, t.deal_seed, 0)
        self.proto.h_deal(t.st, &r, POLICY_CALLER)
        t.dealt = 1
        t.last_seat = -1
        for s in range(ENGINE_MAX_SEATS):
            t.played_lo[s] = 0
            t.played_hi[s] = 0
            t.known_lo[s] = 0
            t.known_hi[s] = 0
            t.acted[s] = 0
            t.move_lo[s] = 0
            t.move_hi[s] = 0
        self.h_dealt(t)

    cdef int _advance(self, Py_ssize_t i, int worker, double *rewards, char *terminated, double *final) noexcept nogil:
        """Play the built-in policies' seats until a caller's seat is to act, scoring a
        finished deal (rewards, terminated, final; NULL at reset) and dealing the next."""
        cdef table_t *t = &self.tabs[i]
        cdef playbuf_t *buf = &self.scratch[i]
        cdef int seat, k, s
        cdef double ret[ENGINE_MAX_SEATS]
        while True:
            if not t.dealt:
                self._deal(i)
            seat = (<const trick_t *>t.st).current
            if seat < 0:
                if rewards != NULL:
                    self.proto.h_returns(t.st, self.weights, ret)
                    for s in range(self.seats):
                        rewards[s] += ret[s]
                        final[s] = rewards[s]
                    terminated[0] = 1
                    if self.j_final_obs != NULL:
                        self._final(i)
                t.dealt = 0
                continue
            if self.policy[seat] < 0:
                return self._refresh(i, worker)
            if self.h_deciding(t):
                self._decide(t, self.h_decision_policy(t, self.policy[seat]))
                continue
            k = self.proto.h_choose(t.st, &t.rng, self.policy[seat], buf)
            if k == CHOICE_OOM:
                set_error(&self.error, GEN_OOM)
                return CHOICE_OOM
            if k == CHOICE_PASS:
                self._pass(t)
            else:
                self._play(t, &buf.data[k], MOVE_COLLAPSED | <uint32_t>k)

    cdef int _refresh(self, Py_ssize_t i, int worker) noexcept nogil:
        """The current player's legal plays (suit-collapsed by id: one per set of ranks,
        whose choice of suits is the concrete choice), and their legal ids, each with its
        concrete choice: the fewest wild cards, then the smallest hi, then the smallest lo
        (generator order on ties), as chupai.rl.id_to_action."""
        cdef table_t *t = &self.tabs[i]
        cdef playbuf_t *buf = &self.legal[i]
        cdef int32_t *ids = &self.ids[i * self.num_actions]
        cdef int32_t *recs = &self.recs[i * self.num_actions]
        cdef uint64_t *bits = &self.bits[i * self.words]
        cdef int32_t *slot = &self.slots[worker * self.num_actions]
        cdef Py_ssize_t k
        cdef int aid, j, nids = 0, rule, rc
        cdef const play_t *p
        cdef const play_t *q
        cdef bint deciding = self.h_deciding(t)
        buf.len = 0
        if deciding:
            # the decisions' ids (their records -3 - k: the k-th of the deal's legal actions)
            nids = self.h_decisions(t, ids)
            for j in range(nids):
                recs[j] = -3 - j
            t.can_pass = 0
        else:
            rc = self.proto.h_legal(t.st, self.collapse, buf)
            if rc != 0:
                set_error(&self.error, rc)
                buf.len = 0
            for k in range(buf.len):
                p = &buf.data[k]
                aid = lookup_id(&self.lk, p)
                if aid < 0:
                    set_error(&self.error, OUTSIDE_SPACE)
                    continue
                j = slot[aid]
                if j < 0:
                    slot[aid] = nids
                    ids[nids] = aid
                    recs[nids] = <int32_t>k
                    nids += 1
                else:
                    q = &buf.data[recs[j]]
                    if p.nwild < q.nwild or (p.nwild == q.nwild and (p.hi < q.hi or (p.hi == q.hi and p.lo < q.lo))):
                        recs[j] = <int32_t>k
            rule = (<const trick_t *>t.st).pass_rule
            t.can_pass = rule != PASS_NEVER and ((<const trick_t *>t.st).last_player >= 0
                                                 or (rule == PASS_IF_STUCK and buf.len == 0))
            if t.can_pass:
                ids[nids] = self.pass_id
                recs[nids] = -2
                nids += 1
        memset(bits, 0, self.words * sizeof(uint64_t))
        for j in range(nids):
            slot[ids[j]] = -1
            bits[ids[j] >> 6] |= (<uint64_t>1) << (ids[j] & 63)
        t.nids = nids
        t.nrows = nids if self.by_id or deciding else <int>buf.len + t.can_pass
        return 0

    cdef void _write(self, Py_ssize_t i, float *obs, int8_t *mask, int64_t *player) noexcept nogil:
        """The acting player's observation and the legal mask of table i."""
        cdef table_t *t = &self.tabs[i]
        cdef const int32_t *ids = &self.ids[i * self.num_actions]
        cdef int k
        player[0] = (<const trick_t *>t.st).current
        memset(mask, 0, self.num_actions)
        for k in range(t.nids):
            mask[ids[k]] = 1
        fill(obs, self.obs_size, 0.0)
        self.h_encode(t, obs, (<const trick_t *>t.st).current)

    cdef void _final(self, Py_ssize_t i) noexcept nogil:
        """Table i's finished deal seen by final_seat, into its row of the final
        observations."""
        cdef float *row = self.j_final_obs + i * self.obs_size
        fill(row, self.obs_size, 0.0)
        self.h_encode(&self.tabs[i], row, self.final_seat)
        self.tabs[i].final_row = 1

    cdef void climbing_fields(self, const table_t *t, float *obs, int observer) noexcept nogil:
        """chupai.encoding.climbing.ClimbingGame.encode's shared fields (a first deal in its
        card play, or over), seen by seat observer."""
        cdef const void *st = t.st
        cdef const int *off = self.off
        cdef int n = self.seats
        cdef int p = observer, cur = (<const trick_t *>st).current, k, s, lp
        cdef int place[ENGINE_MAX_SEATS]
        cdef mask_t lo, hi
        cdef const play_t *last
        self.proto.h_hand(st, p, &lo, &hi)
        put_cards(obs + off[F_HAND], self.perm, lo, hi)
        self.h_finished(st, place)
        for k in range(n):
            s = p + k - n if p + k >= n else p + k  # (p + k) % n without a division
            put_cards(obs + off[F_PLAYED] + k * N_CARDS, self.perm, t.played_lo[s], t.played_hi[s])
            put_cards(obs + off[F_KNOWN] + k * N_CARDS, self.perm, t.known_lo[s], t.known_hi[s])
            if k:  # (k = 0: the current player's hand, read above)
                self.proto.h_hand(st, s, &lo, &hi)
            obs[off[F_SIZES] + k] = multiset_size(lo, hi)
            if place[s] >= 0:
                obs[off[F_FINISHED] + k * n + place[s]] = 1.0
        lp = (<const trick_t *>st).last_player
        if lp >= 0:
            last = &(<const trick_t *>st).last
            put_cards(obs + off[F_TRICK_CARDS], self.perm, last.lo, last.hi)
            obs[off[F_TRICK_PLAYER] + (lp - p if lp >= p else lp - p + n)] = 1.0
            obs[off[F_PASSES]] = (<const trick_t *>st).npass
        if cur >= 0:
            obs[off[F_TO_ACT] + (cur - p if cur >= p else cur - p + n)] = 1.0
            obs[off[F_PHASE] + self.play_phase] = 1.0
        else:
            obs[off[F_PHASE] + self.over_phase] = 1.0

    cdef inline void _put_row(self, char *feats, Py_ssize_t row, const play_t *p) noexcept nogil:
        """The card counts of the play p into row `row` of a table's feature rows."""
        if self.j_feat_size == 1:
            put_counts(<int8_t *>feats + row * N_CARDS, self.perm, p.lo | p.taken, p.hi)
        else:
            put_cards(<float *>feats + row * N_CARDS, self.perm, p.lo | p.taken, p.hi)

    cdef void _features(self, Py_ssize_t i, int worker, Py_ssize_t k_rows, char *feats, int64_t *ids) noexcept nogil:
        """All k_rows card vectors and ids of table i: its rows (every concrete play in
        generator order then PASS, or (by_id) the concrete choice of each legal id in id
        order), then zero vectors with id -1."""
        cdef table_t *t = &self.tabs[i]
        cdef const playbuf_t *buf = &self.legal[i]
        cdef const int32_t *mine = &self.ids[i * self.num_actions]
        cdef const int32_t *recs = &self.recs[i * self.num_actions]
        cdef const uint64_t *bits = &self.bits[i * self.words]
        cdef int32_t *slot = &self.slots[worker * self.num_actions]
        cdef Py_ssize_t k
        cdef int aid, w, r, row = 0
        cdef uint64_t word
        memset(feats, 0, k_rows * N_CARDS * self.j_feat_size)
        for k in range(k_rows):
            ids[k] = -1
        if (<const trick_t *>t.st).current < 0:  # (an engine failure left no deal: raise_error reports it)
            return
        if self.by_id:
            for k in range(t.nids):
                slot[mine[k]] = <int32_t>k
            for w in range(self.words):
                word = bits[w]
                while word:
                    aid = w * 64 + __builtin_ctzll(word)
                    word &= word - 1
                    r = recs[slot[aid]]
                    if r >= 0:
                        self._put_row(feats, row, &buf.data[r])
                    ids[row] = aid
                    row += 1
            for k in range(t.nids):
                slot[mine[k]] = -1
            return
        if self.h_deciding(t):  # a decision's row: its id, no cards
            for k in range(t.nids):
                ids[k] = mine[k]
            return
        for k in range(buf.len):
            self._put_row(feats, k, &buf.data[k])
            ids[k] = lookup_id(&self.lk, &buf.data[k])
        if t.can_pass:
            ids[buf.len] = self.pass_id
