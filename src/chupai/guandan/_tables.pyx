"""The compiled tables behind ``chupai.rl.VectorEnv("guandan")``.

``GuanDanTables`` holds N Guan Dan deals as plain ``gd_deal_t`` structs and steps
them with the GIL released, calling the engine base's ``nogil`` hooks of one prototype
``DealEngine`` (``chupai.engine.base``): the caller's action is checked against the
current legal ids, applied, the seats of the built-in policies play, a finished deal
is scored and the next one dealt, and the acting player's observation, legal mask and
(on request) the legal actions' card vectors are written straight into numpy arrays
the caller allocated.  ``reset``, ``step`` and ``features`` check their arguments with
the GIL, then run one job over every table on the tables' ``Workers``
(``chupai.rl._workers``): the calling thread and the worker threads each step blocks
of tables, one call at a time (a second thread calling in meanwhile gets
``RuntimeError``).

It is an exact port of the Python path (``chupai.rl.vector``, ``chupai.encoding.climbing``
with ``chupai.guandan._rl`` and ``chupai.guandan.danzero``): same deals (a table's deal of seed ``s`` is
``Deal(seed=s)``: ``DealEngine.random`` draws it from ``rng_seed(s, 0)``), same action
ids and concrete choices, same tensors bit for bit (``tests/test_rl_vector_compiled.py``).
What it covers: first deals (both teams at level 2, no tribute: what ``VectorEnv``
deals), so the phase is always the card play.

Deal seeds are derived in C: the deal number ``e`` of table ``i`` (counted from the last
``seed``) is ``Deal(seed=chupai.core.seeds.table_deal(seed, i, e))``, a pure function the Python path calls
too, so a table's deals never depend on how the tables are split between threads and
no Python code runs per deal.  Every element of every output row is written by the
thread that steps the table (no zeroing or filling by the caller), so the parallel
part is the whole per-step work but for the action check and the allocation of the
arrays.
"""
cimport cython

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.math cimport NAN
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset

import numpy as np

from chupai.core.records cimport (
    GEN_OOM,
    mask_t,
    multiset_remove,
    play_t,
    playbuf_free,
    playbuf_init,
    playbuf_t,
    raise_generated,
    rng_seed,
    rng_t,
    seed64,
    table_deal_hash,
)
from chupai.engine.base cimport (
    CHOICE_OOM,
    CHOICE_OVER,
    CHOICE_PASS,
    PASS_FOLLOWING,
    PASS_IF_STUCK,
    PASS_NEVER,
    POLICY_GREEDY,
    POLICY_RANDOM,
    trick_t,
)
from chupai.guandan._deal cimport gd_deal_t
from chupai.guandan._engine cimport DealEngine

from chupai.guandan._engine import DealEngine as _DealEngine
from chupai.rl._workers cimport Workers, work_fn

cdef enum:
    N_CARDS = 54
    N_LEVELS = 13
    MAX_HAND = 27                # the cards-left one-hots have MAX_HAND + 1 values
    PLAYBUF_CAP = 256
    OUTSIDE_SPACE = 1            # error: a play record without an action id
    # the default layout's fields (chupai.encoding.climbing.ClimbingGame.layout + chupai.guandan._rl.GuanDan's)
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
    F_OWN_LEVEL = 10
    F_OPP_LEVEL = 11
    F_LEVEL = 12
    F_DECLARERS = 13
    F_PHASE_PLAY = 14            # (not an offset: the index of the phase "play")
    # the DanZero layout's fields (chupai.guandan.danzero.LAYOUT)
    Z_HAND = 0
    Z_WILD = 1
    Z_UNSEEN = 2
    Z_LAST = 3
    Z_PARTNER = 4
    Z_PLAYED = 5                 # next, partner, previous: 3 x 54
    Z_LEFT = 6                   # next, partner, previous: 3 x 28
    Z_OWN_LEVEL = 7
    Z_OPP_LEVEL = 8
    Z_LEVEL = 9

#: the field names, in the order of the offsets passed to the constructor
DEFAULT_FIELDS = ("hand", "played", "known", "hand_sizes", "trick_cards", "trick_player", "passes", "to_act",
                  "finished", "phase", "own_level", "opponent_level", "level", "declarers")
DANZERO_FIELDS = ("hand", "wild_flags", "unseen", "last_action", "partner_action", "played_next",
                  "left_next", "own_level", "opponent_level", "level")



cdef extern from *:
    """
    static inline void chupai_set_error(int *p, int v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    """
    # an engine failure seen by any worker (several may report one at once)
    void set_error "chupai_set_error"(int *p, int v) noexcept nogil


# the jobs Workers.run hands out: ctx is the GuanDanTables (borrowed: the caller holds it)
cdef void reset_job(void *ctx, Py_ssize_t lo, Py_ssize_t hi, int worker) noexcept nogil:
    (<GuanDanTables>ctx)._reset_block(lo, hi, worker)


cdef void step_job(void *ctx, Py_ssize_t lo, Py_ssize_t hi, int worker) noexcept nogil:
    (<GuanDanTables>ctx)._step_block(lo, hi, worker)


cdef void features_job(void *ctx, Py_ssize_t lo, Py_ssize_t hi, int worker) noexcept nogil:
    (<GuanDanTables>ctx)._features_block(lo, hi)


# --- card vectors -------------------------------------------------------------------------
cdef inline void put_cards(float *out, const int *perm, mask_t lo, mask_t hi) noexcept nogil:
    """Write the copy counts of the multiset (lo, hi) into out, which is zero (face f at
    out[perm[f]]; hi is a subset of lo: stores only, no read-modify-write)."""
    cdef int f
    while lo:
        f = __builtin_ctzll(lo)
        out[perm[f]] = 1.0
        lo &= lo - 1
    while hi:
        f = __builtin_ctzll(hi)
        out[perm[f]] = 2.0
        hi &= hi - 1


cdef inline void played_cards(float *out, const int *perm, mask_t dealt_lo, mask_t dealt_hi,
                              mask_t held_lo, mask_t held_hi) noexcept nogil:
    """Write the counts of what a seat played (the cards dealt minus the cards held) into
    out, which is zero."""
    multiset_remove(&dealt_lo, &dealt_hi, held_lo, held_hi)
    put_cards(out, perm, dealt_lo, dealt_hi)


cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_popcountll(unsigned long long) nogil


cdef inline int hand_size(mask_t lo, mask_t hi) noexcept nogil:
    return __builtin_popcountll(lo) + __builtin_popcountll(hi)


cdef inline void fill(float *out, int n, float v) noexcept nogil:
    cdef int i
    for i in range(n):
        out[i] = v


cdef void wild_flags(float *res, mask_t lo, int level) noexcept nogil:
    """chupai.guandan.danzero.wild_flags of the hand whose faces held are `lo` (12 values,
    zeroed by the caller); the flags only ask which faces are held, never how often."""
    cdef int wild = level * 4 + 1           # the heart (chupai suit 1) of the level rank
    cdef int n[N_LEVELS]
    cdef int r, s, start, k, top = 0, first, run = 0, a, b, c
    cdef mask_t held
    if not (lo >> wild) & 1:
        return
    res[0] = 1
    held = lo & ~(<mask_t>1 << wild)
    for s in range(4):
        for start in range(N_LEVELS - 5):
            k = 0
            for r in range(start, start + 5):
                k += (held >> (r * 4 + s)) & 1
            if k >= 4:
                res[1] = 1
                break
        if res[1]:
            break
    for r in range(N_LEVELS):
        n[r] = __builtin_popcountll((held >> (r * 4)) & 0xF)
        if n[r] > top:
            top = n[r]
    first = 4 if top >= 4 else (5 if top == 3 else (6 if top == 2 else 7))
    for k in range(first, 8):
        res[k] = 1
    for r in range(N_LEVELS):
        run = run + 1 if n[r] else 0
        if r >= 1:
            if (n[r] == 2 and n[r - 1] >= 3) or (n[r] >= 3 and n[r - 1] == 2):
                res[9] = 1
            elif n[r] == 2 and n[r - 1] == 2:
                res[11] = 1
        if r >= 2:
            a = n[r - 2]
            b = n[r - 1]
            c = n[r]
            if (a == 1 and b >= 2 and c >= 2) or (a >= 2 and b == 1 and c >= 2) or (a >= 2 and b >= 2 and c == 1):
                res[10] = 1
    if run >= 4:
        res[8] = 1


@cython.final
cdef class GuanDanTables:
    """``n`` Guan Dan tables (module doc).  Built by ``chupai.rl.vector``, which checks
    every argument; ``policies[s]`` is -1 for the caller's seats, else a policy code."""

    def __init__(self, Py_ssize_t n, int threads, rules, policies, bint danzero, bint by_id, bint index_mode,
                 patterns, offsets, perm, weights, int num_actions, int pass_id, int obs_size):
        cdef Py_ssize_t i
        cdef int k, t, key, length, cls
        if self.tabs != NULL:
            raise RuntimeError("GuanDanTables is initialized once")
        if n < 1 or len(policies) != TB_SEATS or len(offsets) > TB_MAX_FIELDS or len(perm) != N_CARDS \
                or len(weights) > 16 or not patterns or not 0 <= pass_id < num_actions:
            raise ValueError("GuanDanTables: arguments out of range (built by chupai.rl.vector)")
        self.n = n
        if threads < 1:
            raise ValueError(f"threads must be >= 1, not {threads}")
        self.proto = _DealEngine.random(0, level="2", rules=rules)
        self.workers = Workers(min(<Py_ssize_t>threads, n))
        self.top = <int *>calloc(self.workers.threads * TB_TOP_STRIDE, sizeof(int))
        if self.top == NULL:
            raise MemoryError()
        self.tabs = <table_t *>calloc(n, sizeof(table_t))
        self.legal = <playbuf_t *>calloc(n, sizeof(playbuf_t))
        self.scratch = <playbuf_t *>calloc(n, sizeof(playbuf_t))
        self.choice = <int32_t *>calloc(n * num_actions, sizeof(int32_t))
        if self.tabs == NULL or self.legal == NULL or self.scratch == NULL or self.choice == NULL:
            raise MemoryError()
        for i in range(n):
            if playbuf_init(&self.legal[i], PLAYBUF_CAP) != 0 or playbuf_init(&self.scratch[i], PLAYBUF_CAP) != 0:
                raise MemoryError()
            memcpy(&self.tabs[i].d, &self.proto.d, sizeof(gd_deal_t))
            self.tabs[i].d.t.current = -1
        self.num_actions = num_actions
        self.pass_id = pass_id
        self.obs_size = obs_size
        self.danzero = danzero
        self.by_id = by_id
        self.index_mode = index_mode
        for k in range(TB_SEATS):
            self.policy[k] = policies[k]
        for k in range(len(weights)):
            self.weights[k] = weights[k]
        for k in range(len(offsets)):
            self.off[k] = offsets[k]
        for k in range(N_CARDS):
            self.perm[k] = perm[k]
        self.num_plays = len(patterns)
        self.lk_types = 1 + max(p[0] for p in patterns)
        self.lk_keys = 1 + max(p[1] for p in patterns)
        self.lk_lens = 1 + max(p[2] for p in patterns)
        size = self.lk_types * self.lk_keys * self.lk_lens
        self.lookup = <short *>calloc(size, sizeof(short))
        self.lookup_cls = <unsigned char *>calloc(size, sizeof(unsigned char))
        if self.lookup == NULL or self.lookup_cls == NULL:
            raise MemoryError()
        for k in range(size):
            self.lookup[k] = -1
        for k, (t, key, length, cls) in enumerate(patterns):
            i = (t * self.lk_keys + key) * self.lk_lens + length
            self.lookup[i] = k
            self.lookup_cls[i] = cls

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
        free(self.choice)
        free(self.lookup)
        free(self.lookup_cls)
        free(self.top)

    # -- seeds (with the GIL) ---------------------------------------------------------------
    def seed(self, seed):
        """Restart every table's deals (deal 0 next) and its policy stream, from (seed, table)."""
        cdef uint64_t s = seed64(seed)
        cdef Py_ssize_t i
        self.base_seed = s
        for i in range(self.n):
            rng_seed(&self.tabs[i].rng, s, <uint64_t>i)
            self.tabs[i].episode = 0

    def close(self):
        """Stop the worker threads (the calling thread steps every table from then on)."""
        self._enter()
        self.workers.close()
        self.busy = 0

    # -- checks (with the GIL) -------------------------------------------------------------
    cdef int _check_actions(self, Py_ssize_t lo, Py_ssize_t hi, const int64_t[::1] actions) except -1:
        cdef Py_ssize_t i
        cdef int64_t a
        if actions.shape[0] != self.n:
            raise ValueError(f"actions must have shape ({self.n},), not ({actions.shape[0]},)")
        for i in range(lo, hi):
            a = actions[i]
            if self.tabs[i].d.t.current < 0:
                raise ValueError("call reset() before step()")
            if self.index_mode:
                if not 0 <= a < self.tabs[i].nrows:
                    raise ValueError(f"table {i}: action index {a} is outside 0..{self.tabs[i].nrows - 1}")
            elif not 0 <= a < self.num_actions:
                raise ValueError(f"table {i}: action id {a} is outside 0..{self.num_actions - 1}")
            elif self.choice[i * self.num_actions + a] == -1:
                raise ValueError(f"table {i}: action id {a} is not legal now")
        return 0

    def raise_error(self):
        """MemoryError if a legal list could not grow (or passed the play limit) during the
        last call; RuntimeError for a play without an action id."""
        cdef int e = self.error
        self.error = 0
        if e == OUTSIDE_SPACE:
            raise RuntimeError("a Guan Dan play record has no action id (outside the action space)")
        if e:
            raise_generated(e)

    def history(self, Py_ssize_t i):
        """Table i's deal as ``(seed, moves)``: the deal is ``Deal(seed=seed)``, each move
        ``None`` (a pass), ``("concrete", k)`` (``legal_actions()[k]``) or ``("collapsed",
        k)`` (``legal_plays(collapse_suits=True)[k]`` of the deal's engine)."""
        if not 0 <= i < self.n:
            raise IndexError(i)
        cdef table_t *t = &self.tabs[i]
        if t.nmoves > TB_MAX_MOVES:
            raise RuntimeError(f"table {i}: the deal's record overflowed ({t.nmoves} moves)")
        moves = []
        for k in range(t.nmoves):
            m = t.moves[k]
            if m == MOVE_PASS:
                moves.append(None)
            elif m & MOVE_COLLAPSED:
                moves.append(("collapsed", m & ~MOVE_COLLAPSED))
            else:
                moves.append(("concrete", m))
        return t.deal_seed, moves

    def engine(self, Py_ssize_t i):
        """A ``DealEngine`` holding a copy of table i's deal (for inspection and tests)."""
        if not 0 <= i < self.n:
            raise IndexError(i)
        cdef DealEngine c = <DealEngine>self.proto.clone()
        memcpy(&c.d, &self.tabs[i].d, sizeof(gd_deal_t))
        return c

    # -- stepping (every table, on the workers; nogil inside) -------------------------------
    cdef int _enter(self) except -1:
        if self.busy:
            raise RuntimeError("GuanDanTables: one call at a time (another thread is stepping these tables)")
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
        self.j_obs = &obs[0, 0]
        self.j_mask = &mask[0, 0]
        self.j_player = &player[0]
        self.j_rows = &rows[0]
        return 0

    cdef int _check_scores(self, double[:, ::1] rewards, uint8_t[::1] terminated, double[:, ::1] final) except -1:
        if rewards.shape[0] != self.n or rewards.shape[1] != TB_SEATS:
            raise ValueError(f"rewards must have shape ({self.n}, {TB_SEATS})")
        if final.shape[0] != self.n or final.shape[1] != TB_SEATS:
            raise ValueError(f"final must have shape ({self.n}, {TB_SEATS})")
        if terminated.shape[0] != self.n:
            raise ValueError(f"terminated must have shape ({self.n},)")
        self.j_rewards = &rewards[0, 0]
        self.j_terminated = &terminated[0]
        self.j_final = &final[0, 0]
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

    def reset(self, float[:, ::1] obs, int8_t[:, ::1] mask, int64_t[::1] player, int64_t[::1] rows):
        """Start a new deal at every table and write every element of obs, mask, player and
        rows (the number of action-feature rows); the largest of those rows."""
        cdef int top
        self._enter()
        try:
            self._check_out(obs, mask, player, rows)
            with nogil:
                top = self._run(reset_job)
        finally:
            self.busy = 0
        return top

    def step(self, const int64_t[::1] actions, float[:, ::1] obs, int8_t[:, ::1] mask, int64_t[::1] player,
             int64_t[::1] rows, double[:, ::1] rewards, uint8_t[::1] terminated, double[:, ::1] final):
        """Apply the actions (checked first: ValueError naming the first bad table, no table
        advanced), run the built-in policies, start new deals where one ended, and write
        every element of every output (rewards 0 and final NaN but where a deal ended);
        the largest of the rows."""
        cdef int top
        self._enter()
        try:
            self._check_out(obs, mask, player, rows)
            self._check_scores(rewards, terminated, final)
            self._check_actions(0, self.n, actions)
            self.j_actions = &actions[0]
            with nogil:
                top = self._run(step_job)
        finally:
            self.busy = 0
        return top

    def features(self, float[:, :, ::1] feats, int64_t[:, ::1] ids):
        """Write the action-feature rows of every table, all K of them (zeros and id -1 after
        a table's last row; K >= every table's rows)."""
        cdef Py_ssize_t i
        if feats.shape[0] != self.n or feats.shape[2] != N_CARDS or ids.shape[0] != self.n \
                or ids.shape[1] != feats.shape[1]:
            raise ValueError(f"feats must have shape ({self.n}, K, {N_CARDS}) and ids ({self.n}, K)")
        for i in range(self.n):
            if self.tabs[i].nrows > feats.shape[1]:
                raise ValueError(f"table {i} has {self.tabs[i].nrows} rows, more than K = {feats.shape[1]}")
        if feats.shape[1] == 0:
            return
        self._enter()
        try:
            self.j_feats = &feats[0, 0, 0]
            self.j_ids = &ids[0, 0]
            self.j_k = feats.shape[1]
            with nogil:
                self._run(features_job)
        finally:
            self.busy = 0

    cdef void _reset_block(self, Py_ssize_t lo, Py_ssize_t hi, int worker) noexcept nogil:
        cdef Py_ssize_t i
        for i in range(lo, hi):
            self.tabs[i].dealt = 0
            self._advance(i, NULL, NULL, NULL)
            self._output(i, worker)

    cdef void _step_block(self, Py_ssize_t lo, Py_ssize_t hi, int worker) noexcept nogil:
        cdef Py_ssize_t i
        cdef int s
        cdef double *rewards
        cdef double *final
        for i in range(lo, hi):
            rewards = self.j_rewards + i * TB_SEATS
            final = self.j_final + i * TB_SEATS
            self.j_terminated[i] = 0
            for s in range(TB_SEATS):
                rewards[s] = 0.0
                final[s] = NAN
            self._apply(i, self.j_actions[i])
            self._advance(i, rewards, <char *>&self.j_terminated[i], final)
            self._output(i, worker)

    cdef void _output(self, Py_ssize_t i, int worker) noexcept nogil:
        """Table i's row of obs, mask, player and rows; the worker's largest rows."""
        self._write(i, self.j_obs + i * self.obs_size, self.j_mask + i * self.num_actions, self.j_player + i)
        self.j_rows[i] = self.tabs[i].nrows
        if self.tabs[i].nrows > self.top[worker * TB_TOP_STRIDE]:
            self.top[worker * TB_TOP_STRIDE] = self.tabs[i].nrows

    cdef void _features_block(self, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
        cdef Py_ssize_t i
        for i in range(lo, hi):
            self._features(i, self.j_k, self.j_feats + i * self.j_k * N_CARDS, self.j_ids + i * self.j_k)

    # -- the per-table kernels ---------------------------------------------------------------
    cdef int _id_of(self, const play_t *p) noexcept nogil:
        """The action id of a play record (-1 outside the space)."""
        cdef Py_ssize_t k
        if p.type >= self.lk_types or p.key >= self.lk_keys or p.length >= self.lk_lens:
            return -1
        k = (p.type * self.lk_keys + p.key) * self.lk_lens + p.length
        if self.lookup[k] < 0 or self.lookup_cls[k] != p.cls:
            return -1
        return self.lookup[k]

    cdef void _record(self, table_t *t, int seat, mask_t lo, mask_t hi) noexcept nogil:
        """`seat` made a play (lo, hi) or passed (zeros): the DanZero bookkeeping."""
        t.last_seat = seat
        t.last_lo = lo
        t.last_hi = hi
        t.acted[seat] = 1
        t.move_lo[seat] = lo
        t.move_hi[seat] = hi

    cdef void _log(self, table_t *t, uint32_t move) noexcept nogil:
        if t.nmoves < TB_MAX_MOVES:
            t.moves[t.nmoves] = move
        t.nmoves += 1

    cdef void _play(self, table_t *t, const play_t *p, uint32_t move) noexcept nogil:
        self._record(t, t.d.t.current, p.lo, p.hi)
        self._log(t, move)
        self.proto.h_play(&t.d, p)

    cdef void _pass(self, table_t *t) noexcept nogil:
        self._record(t, t.d.t.current, 0, 0)
        self._log(t, MOVE_PASS)
        self.proto.h_pass(&t.d)

    cdef void _apply(self, Py_ssize_t i, int64_t a) noexcept nogil:
        """The caller's action (checked): an id, or an index into the feature rows."""
        cdef table_t *t = &self.tabs[i]
        cdef const int32_t *ch = &self.choice[i * self.num_actions]
        cdef int k, aid
        if self.index_mode:
            if self.by_id:
                # the a-th legal id in id order
                for aid in range(self.num_actions):
                    if ch[aid] != -1:
                        if a == 0:
                            break
                        a -= 1
                k = ch[aid]
            else:
                k = <int>a if a < self.legal[i].len else -2
        else:
            k = ch[a]
        if k == -2:
            self._pass(t)
        else:
            self._play(t, &self.legal[i].data[k], <uint32_t>k)

    cdef void _deal(self, Py_ssize_t i) noexcept nogil:
        """Table i's next deal: Deal(seed=table_deal(seed, i, episode))."""
        cdef table_t *t = &self.tabs[i]
        cdef rng_t r
        cdef int s
        t.deal_seed = table_deal_hash(self.base_seed, <uint64_t>i, t.episode)
        t.episode += 1
        t.nmoves = 0
        rng_seed(&r, t.deal_seed, 0)
        self.proto.h_deal(&t.d, &r)
        t.dealt = 1
        t.last_seat = -1
        for s in range(TB_SEATS):
            t.lo0[s] = t.d.lo[s]
            t.hi0[s] = t.d.hi[s]
            t.acted[s] = 0
            t.move_lo[s] = 0
            t.move_hi[s] = 0

    cdef int _advance(self, Py_ssize_t i, double *rewards, char *terminated, double *final) noexcept nogil:
        """Play the built-in policies' seats until a caller's seat is to act, scoring a
        finished deal (rewards, terminated, final; NULL at reset) and dealing the next."""
        cdef table_t *t = &self.tabs[i]
        cdef playbuf_t *buf = &self.scratch[i]
        cdef int seat, k, s
        cdef double ret[TB_SEATS]
        while True:
            if not t.dealt:
                self._deal(i)
            seat = t.d.t.current
            if seat < 0:
                if rewards != NULL:
                    self.proto.h_returns(&t.d, self.weights, ret)
                    for s in range(TB_SEATS):
                        rewards[s] += ret[s]
                        final[s] = rewards[s]
                    terminated[0] = 1
                t.dealt = 0
                continue
            if self.policy[seat] < 0:
                return self._refresh(i)
            k = self.proto.h_choose(&t.d, &t.rng, self.policy[seat], buf)
            if k == CHOICE_OOM:
                set_error(&self.error, GEN_OOM)
                return CHOICE_OOM
            if k == CHOICE_PASS:
                self._pass(t)
            else:
                self._play(t, &buf.data[k], MOVE_COLLAPSED | <uint32_t>k)

    cdef int _refresh(self, Py_ssize_t i) noexcept nogil:
        """The current player's concrete legal plays, and per id its concrete choice: the
        fewest wild cards, then the smallest hi, then the smallest lo (generator order
        on ties), as chupai.rl.id_to_action."""
        cdef table_t *t = &self.tabs[i]
        cdef playbuf_t *buf = &self.legal[i]
        cdef int32_t *ch = &self.choice[i * self.num_actions]
        cdef Py_ssize_t k
        cdef int aid, j, nids = 0, rule, rc
        cdef const play_t *p
        cdef const play_t *q
        buf.len = 0
        rc = self.proto.h_legal(&t.d, 0, buf)
        if rc != 0:
            set_error(&self.error, rc)
            buf.len = 0
        for aid in range(self.num_actions):
            ch[aid] = -1
        for k in range(buf.len):
            p = &buf.data[k]
            aid = self._id_of(p)
            if aid < 0:
                set_error(&self.error, OUTSIDE_SPACE)
                continue
            j = ch[aid]
            if j < 0:
                ch[aid] = <int32_t>k
                nids += 1
            else:
                q = &buf.data[j]
                if p.nwild < q.nwild or (p.nwild == q.nwild and (p.hi < q.hi or (p.hi == q.hi and p.lo < q.lo))):
                    ch[aid] = <int32_t>k
        rule = t.d.t.pass_rule
        t.can_pass = rule != PASS_NEVER and (t.d.t.last_player >= 0 or (rule == PASS_IF_STUCK and buf.len == 0))
        if t.can_pass:
            ch[self.pass_id] = -2
            nids += 1
        t.nrows = nids if self.by_id else <int>buf.len + t.can_pass
        return 0

    cdef void _write(self, Py_ssize_t i, float *obs, int8_t *mask, int64_t *player) noexcept nogil:
        """The acting player's observation and the legal mask of table i."""
        cdef table_t *t = &self.tabs[i]
        cdef const int32_t *ch = &self.choice[i * self.num_actions]
        cdef int aid
        player[0] = t.d.t.current
        for aid in range(self.num_actions):
            mask[aid] = ch[aid] != -1
        if self.danzero:
            self._obs_danzero(t, obs)
        else:
            self._obs_default(t, obs)

    cdef void _obs_default(self, table_t *t, float *obs) noexcept nogil:
        """chupai.guandan._rl.GuanDan.encode (a first deal in its card play)."""
        cdef const gd_deal_t *d = &t.d
        cdef const int *off = self.off
        cdef int p = d.t.current, k, s, lp
        cdef int place[TB_SEATS]
        fill(obs, self.obs_size, 0.0)
        put_cards(obs + off[F_HAND], self.perm, d.lo[p], d.hi[p])
        for s in range(TB_SEATS):
            place[s] = -1
        for k in range(d.nout):
            if d.out[k] >= 0:
                place[d.out[k]] = k
        for k in range(TB_SEATS):
            s = (p + k) % TB_SEATS
            played_cards(obs + off[F_PLAYED] + k * N_CARDS, self.perm, t.lo0[s], t.hi0[s], d.lo[s], d.hi[s])
            obs[off[F_SIZES] + k] = hand_size(d.lo[s], d.hi[s])
            if place[s] >= 0:
                obs[off[F_FINISHED] + k * TB_SEATS + place[s]] = 1.0
        lp = d.t.last_player
        if lp >= 0:
            put_cards(obs + off[F_TRICK_CARDS], self.perm, d.t.last.lo, d.t.last.hi)
            obs[off[F_TRICK_PLAYER] + (lp - p + TB_SEATS) % TB_SEATS] = 1.0
            obs[off[F_PASSES]] = d.t.npass
        obs[off[F_TO_ACT]] = 1.0
        obs[off[F_PHASE] + off[F_PHASE_PLAY]] = 1.0
        # a first deal: both teams at level 2 (the level played), no declarers yet
        obs[off[F_OWN_LEVEL] + d.level] = 1.0
        obs[off[F_OPP_LEVEL] + d.level] = 1.0
        obs[off[F_LEVEL] + d.level] = 1.0
        obs[off[F_DECLARERS] + 2] = 1.0

    cdef void _obs_danzero(self, table_t *t, float *obs) noexcept nogil:
        """chupai.guandan.danzero.observation (a first deal in its card play)."""
        cdef const gd_deal_t *d = &t.d
        cdef const int *off = self.off
        cdef int p = d.t.current, k, s, f, prev, partner
        cdef mask_t lo, hi
        cdef bint out[TB_SEATS]
        cdef float *unseen = obs + off[Z_UNSEEN]
        fill(obs, self.obs_size, 0.0)
        put_cards(obs + off[Z_HAND], self.perm, d.lo[p], d.hi[p])
        wild_flags(obs + off[Z_WILD], d.lo[p], d.level)
        # unseen = 2 - hand - everything played = the three other hands (their sum as one
        # two-deck multiset: no face is held more than twice in all)
        lo = 0
        hi = 0
        for s in range(TB_SEATS):
            out[s] = False
            if s != p:
                hi |= d.hi[s] | (lo & d.lo[s])
                lo |= d.lo[s]
        put_cards(unseen, self.perm, lo, hi)
        for k in range(d.nout):
            if d.out[k] >= 0:
                out[d.out[k]] = True
        prev = (p + 3) % TB_SEATS
        partner = (p + 2) % TB_SEATS
        if t.last_seat < 0 or (out[prev] and t.last_seat != prev):
            fill(obs + off[Z_LAST], N_CARDS, -1.0)
        else:
            put_cards(obs + off[Z_LAST], self.perm, t.last_lo, t.last_hi)
        if t.acted[partner] and not out[partner]:
            put_cards(obs + off[Z_PARTNER], self.perm, t.move_lo[partner], t.move_hi[partner])
        else:
            fill(obs + off[Z_PARTNER], N_CARDS, -1.0)
        for k in range(3):
            s = (p + 1 + k) % TB_SEATS
            played_cards(obs + off[Z_PLAYED] + k * N_CARDS, self.perm, t.lo0[s], t.hi0[s], d.lo[s], d.hi[s])
            f = hand_size(d.lo[s], d.hi[s])
            obs[off[Z_LEFT] + k * (MAX_HAND + 1) + (f if f < MAX_HAND else MAX_HAND)] = 1.0
        obs[off[Z_OWN_LEVEL] + d.level] = 1.0
        obs[off[Z_OPP_LEVEL] + d.level] = 1.0
        obs[off[Z_LEVEL] + d.level] = 1.0

    cdef void _features(self, Py_ssize_t i, Py_ssize_t k_rows, float *feats, int64_t *ids) noexcept nogil:
        """All k_rows card vectors and ids of table i: its rows (every concrete play in
        generator order then PASS, or (by_id) the concrete choice of each legal id in id
        order), then zero vectors with id -1."""
        cdef table_t *t = &self.tabs[i]
        cdef const playbuf_t *buf = &self.legal[i]
        cdef const int32_t *ch = &self.choice[i * self.num_actions]
        cdef Py_ssize_t k
        cdef int aid, row = 0
        memset(feats, 0, k_rows * N_CARDS * sizeof(float))
        for k in range(k_rows):
            ids[k] = -1
        if t.d.t.current < 0:       # (an engine failure left no deal: raise_error reports it)
            return
        if self.by_id:
            for aid in range(self.num_actions):
                if ch[aid] == -1:
                    continue
                if ch[aid] >= 0:
                    put_cards(feats + row * N_CARDS, self.perm, buf.data[ch[aid]].lo, buf.data[ch[aid]].hi)
                ids[row] = aid
                row += 1
            return
        for k in range(buf.len):
            put_cards(feats + k * N_CARDS, self.perm, buf.data[k].lo, buf.data[k].hi)
            ids[k] = self._id_of(&buf.data[k])
        if t.can_pass:
            ids[buf.len] = self.pass_id
