"""The Gan Deng Yan legal-play generator (``docs/rules/gandengyan.md``).

A play is a product of per-rank choices: each rank's natural cards are a nibble pair
(one deck: one nibble), and a precomputed table lists every sub-multiset of every
nibble pattern by size.  Jokers are pure wilds: a play with ``w`` standing-in jokers
is a choice of natural cards plus each sub-multiset of size ``w`` of the jokers held
(``BJ`` and ``RJ`` are different cards, so each is its own play), the jokers filling
exactly the ranks the natural cards leave open.  Following a play asks only for the
keys that may follow it: one rank higher, the 2s, the same rank (an option), bombs.
The suit-collapsed view keeps only the first natural sub-multiset of each size, one
representative per group of ``docs/rules/cards.md`` (jokers count as the ranks BJ and RJ).
"""
from libc.stdint cimport uint8_t

from chupai.core.records cimport (
    GEN_TOO_MANY,
    target_set,
    BJ_BIT,
    MAX_PER_RANK,
    N_SUITS,
    RANK_2,
    RJ_BIT,
    SUIT_S,
    SUIT_S_MASK,
    SUITED_MASK,
    PlayList,
    bit,
    GameClasses,
    face_of,
    lowest_bit,
    mask_t,
    multiset_valid,
    roomy_filled,
    roomy_playlist,
    nibble_counts,
    play_push,
    play_t,
    playbuf_free,
    playbuf_open,
    playbuf_t,
    rank_nibble,
    rank_pattern,
    rank_subsets,
    slot_hi,
    slot_lo,
    slot_t,
    subset_slot,
    subsets_t,
    suit_ranks,
)

from chupai.core.cardset cimport hand_masks
from chupai.core.play cimport PlayRecord
from chupai.core.wrappers cimport (
    PLAY_LIMIT, bad_record, check_flag, check_generated, check_previous, check_repeat, check_run, count_plays,
    kernel_array, target_of_row,
)

#: the Python classes this generator makes and reads (Play, Rules), bound by
#: chupai.gandengyan.play when it is imported: this layer imports nothing above it
GAME_CLASSES = GameClasses("gandengyan")
cdef GameClasses CLASSES = GAME_CLASSES

#: the option flags of the compiled code (Rules._flags), from the C declarations
FLAG_TRIPLES_ARE_BOMBS = GDY_FLAG_TRIPLES_ARE_BOMBS
FLAG_TRIPLE_SEQUENCES = GDY_FLAG_TRIPLE_SEQUENCES
FLAG_JOKER_AS_TWO = GDY_FLAG_JOKER_AS_TWO
FLAG_JOKER_LEAD_OUT = GDY_FLAG_JOKER_LEAD_OUT
FLAG_FOLLOW_SAME_RANK = GDY_FLAG_FOLLOW_SAME_RANK

# the sub-multiset table of chupai.core.records (every choice of a rank's natural cards, by size)
cdef const subsets_t *SUBS = rank_subsets()

cdef enum:
    MAX_JOKERS = 4               # two decks: two of each joker
    N_JOKER_SETS = 9             # sub-multisets of BJ BJ RJ RJ
    MAX_SET = 4                  # bombs hold at most four equal cards
    RUN_LOW = 1                  # the rank index of 3, the lowest rank of a sequence
    MAX_RUN = 12                 # ranks 3..A
    MIN_SEQUENCE = 3             # ranks of the shortest sequence
    MIN_MULTI_SEQUENCE = 2       # ranks of the shortest double or triple sequence

# value masks: bit v for the rank value v (3..A -> 1..12, 2 -> 13)
cdef unsigned ALL_VALUES = ((1u << (GDY_TWO_VALUE + 1)) - 1) & ~1u
cdef unsigned ALL_TOPS = ((1u << (GDY_ACE_VALUE + 1)) - 1) & ~1u
# per-nibble masks for the SWAR rank counts
cdef mask_t NIBBLE_LOW = SUIT_S_MASK
cdef mask_t NIBBLE_TOP = SUIT_S_MASK << (N_SUITS - 1)


# --- the kernel ------------------------------------------------------------------
ctypedef struct ctx_t:
    playbuf_t *out
    int flags
    int max_ranks
    int collapse
    int nj                           # jokers held (0..4)
    mask_t lo                        # the hand's natural cards (two-deck masks)
    mask_t hi
    mask_t counts                    # natural cards of each rank, one nibble a rank
    unsigned has[MAX_SET + 1]        # has[k]: values with at least k natural cards
    int jbeg[MAX_JOKERS + 2]         # joker sets of size w: jlo/jhi[jbeg[w] : jbeg[w + 1]]
    mask_t jlo[N_JOKER_SETS]
    mask_t jhi[N_JOKER_SETS]
    int full                         # PLAY_LIMIT reached: stop

# a sequence being filled: ranks start .. start + n - 1, `width` cards each
ctypedef struct run_t:
    int type
    int width
    int start
    int n
    int need[MAX_RUN + 1]            # jokers needed by ranks j.. for lack of natural cards
    uint8_t decl[MAX_JOKERS]         # what the jokers used so far stand for


cdef inline int rank_of(int value) noexcept nogil:
    return RANK_2 if value == GDY_TWO_VALUE else value


cdef inline int cnt(const ctx_t *c, int rank) noexcept nogil:
    """The natural cards of a rank held."""
    return <int>rank_nibble(c.counts, rank)


cdef inline void sub_range(const ctx_t *c, int rank, int m, slot_t *s) noexcept nogil:
    """The size-m sub-multisets of a rank's natural cards (only the first when collapsing)."""
    subset_slot(SUBS, rank_pattern(c.lo, c.hi, rank), rank, m, c.collapse, s)


cdef inline void emit(ctx_t *c, mask_t lo, mask_t hi, int type_, int key, int length, int cls,
                      int nw, const uint8_t *decl) noexcept nogil:
    """Append the natural cards lo/hi with each set of `nw` jokers standing for decl."""
    cdef int i, k
    cdef play_t *p
    for i in range(c.jbeg[nw], c.jbeg[nw + 1]):
        if c.out.len >= PLAY_LIMIT:
            c.full = 1
            return
        p = play_push(c.out, lo | c.jlo[i], hi | c.jhi[i], type_, key, length, cls)
        if p == NULL:
            return
        p.nwild = nw
        for k in range(MAX_JOKERS):
            if k < nw:
                p.decl[k] = decl[k]


cdef void gen_sets(ctx_t *c, int n, int type_, int cls, unsigned keys) noexcept nogil:
    """n cards of one rank value in `keys`, at least one of them natural, jokers filling."""
    cdef int v, r, w, wmin, wmax, k
    cdef slot_t s
    cdef uint8_t decl[MAX_JOKERS]
    # at least one natural card, and enough natural cards and jokers
    keys &= c.has[1] & c.has[n - c.nj if n - c.nj > 1 else 1]
    while keys:
        v = lowest_bit(keys)
        keys &= keys - 1
        r = rank_of(v)
        wmin = n - cnt(c, r) if n > cnt(c, r) else 0
        wmax = c.nj if c.nj < n - 1 else n - 1
        if r == RANK_2 and not (c.flags & GDY_FLAG_JOKER_AS_TWO):
            wmax = 0
        for w in range(MAX_JOKERS):
            decl[w] = face_of(r, SUIT_S)
        for w in range(wmin, wmax + 1):
            sub_range(c, r, n - w, &s)
            for k in range(s.begin, s.end):
                emit(c, slot_lo(&s, k), slot_hi(&s, k), type_, v, n, cls, w, decl)


cdef void run_dfs(ctx_t *c, run_t *w, int j, mask_t lo, mask_t hi, int nwu) noexcept nogil:
    """Fill rank j of the run and the ones after it every way; emit each full choice
    that holds a natural card (`nwu` jokers used so far)."""
    cdef int r, wj, wmax, k, i
    cdef slot_t sl
    if c.full or c.out.oom:
        return
    if j == w.n:
        if nwu < w.n * w.width:
            emit(c, lo, hi, w.type, w.start + w.n - 1, w.n * w.width, GDY_CLS_NONE, nwu, w.decl)
        return
    r = w.start + j
    wj = w.width - cnt(c, r)
    if wj < 0:
        wj = 0
    wmax = c.nj - nwu - w.need[j + 1]
    if wmax > w.width:
        wmax = w.width
    while wj <= wmax:
        for i in range(wj):
            w.decl[nwu + i] = face_of(r, SUIT_S)
        sub_range(c, r, w.width - wj, &sl)
        for k in range(sl.begin, sl.end):
            run_dfs(c, w, j + 1, lo | slot_lo(&sl, k), hi | slot_hi(&sl, k), nwu + wj)
        wj += 1


cdef inline void try_run(ctx_t *c, run_t *w, int start, int n) noexcept nogil:
    """Every run of ranks start .. start + n - 1 (both within 3..A)."""
    cdef int j, d
    w.start = start
    w.n = n
    w.need[n] = 0
    for j in range(n - 1, -1, -1):
        d = w.width - cnt(c, start + j)
        w.need[j] = w.need[j + 1] + (d if d > 0 else 0)
    if w.need[0] <= c.nj:
        run_dfs(c, w, 0, 0, 0, 0)


cdef void gen_runs(ctx_t *c, int type_, int width, int min_n, int max_n, unsigned tops,
                   int length) noexcept nogil:
    """Sequences of `width` cards a rank, min_n..max_n ranks, top rank in `tops`; only
    of `length` cards if it is not 0."""
    cdef int s, n, need, d, top
    cdef unsigned full, starts
    cdef run_t w
    w.type = type_
    w.width = width
    if length:
        if length % width:
            return
        n = length // width
        if n < min_n or n > max_n:
            return
        for top in range(RUN_LOW + n - 1, MAX_RUN + 1):
            if (tops >> top) & 1:
                try_run(c, &w, top - n + 1, n)
        return
    if c.nj == 0:
        # no joker: every rank of the run is full, so a run starts where min_n full ranks do
        full = c.has[width] & ALL_TOPS
        starts = full
        for n in range(1, min_n):
            starts &= full >> n
        while starts:
            s = lowest_bit(starts)
            starts &= starts - 1
            n = min_n
            while n <= max_n and (full >> (s + n - 1)) & 1:
                if (tops >> (s + n - 1)) & 1:
                    try_run(c, &w, s, n)
                n += 1
        return
    for s in range(RUN_LOW, MAX_RUN + 1):
        need = 0
        for n in range(1, max_n + 1):
            top = s + n - 1
            if top > MAX_RUN:
                break
            d = width - cnt(c, top)
            if d > 0:
                need += d
                if need > c.nj:
                    break
            if n >= min_n and (tops >> top) & 1:
                try_run(c, &w, s, n)


cdef inline unsigned above(int key) noexcept nogil:
    """The values strictly above `key` (0..14)."""
    return ALL_VALUES & ~((2u << key) - 1)


cdef void gen_bombs(ctx_t *c, int cls, int key, mask_t jokers) noexcept nogil:
    """Every bomb that beats class `cls` and key `key` (cls 0: every bomb)."""
    if c.flags & GDY_FLAG_TRIPLES_ARE_BOMBS and cls <= GDY_CLS_THREE:
        gen_sets(c, 3, GDY_THREE_BOMB, GDY_CLS_THREE, above(key) if cls == GDY_CLS_THREE else ALL_VALUES)
    if cls <= GDY_CLS_FOUR:
        gen_sets(c, 4, GDY_FOUR_BOMB, GDY_CLS_FOUR, above(key) if cls == GDY_CLS_FOUR else ALL_VALUES)
    if cls < GDY_CLS_JOKER and (jokers & bit(BJ_BIT)) and (jokers & bit(RJ_BIT)):
        play_push(c.out, bit(BJ_BIT) | bit(RJ_BIT), 0, GDY_JOKER_BOMB, 0, 2, GDY_CLS_JOKER)


cdef void gen_lead(ctx_t *c, mask_t lo, mask_t hi) noexcept nogil:
    cdef mask_t jokers = lo & (bit(BJ_BIT) | bit(RJ_BIT))
    gen_sets(c, 1, GDY_SINGLE, GDY_CLS_NONE, ALL_VALUES)
    gen_sets(c, 2, GDY_PAIR, GDY_CLS_NONE, ALL_VALUES)
    if not (c.flags & GDY_FLAG_TRIPLES_ARE_BOMBS):
        gen_sets(c, 3, GDY_TRIPLE, GDY_CLS_NONE, ALL_VALUES)
    gen_runs(c, GDY_SEQUENCE, 1, MIN_SEQUENCE, c.max_ranks, ALL_TOPS, 0)
    gen_runs(c, GDY_DOUBLE_SEQUENCE, 2, MIN_MULTI_SEQUENCE, c.max_ranks, ALL_TOPS, 0)
    if c.flags & GDY_FLAG_TRIPLE_SEQUENCES:
        gen_runs(c, GDY_TRIPLE_SEQUENCE, 3, MIN_MULTI_SEQUENCE, MAX_RUN, ALL_TOPS, 0)
    gen_bombs(c, GDY_CLS_NONE, 0, jokers)
    # a player whose only cards are a joker (or two identical jokers) leads them and goes out
    if c.flags & GDY_FLAG_JOKER_LEAD_OUT and lo == jokers and (lo == bit(BJ_BIT) or lo == bit(RJ_BIT)):
        play_push(c.out, lo, hi, GDY_SINGLE if hi == 0 else GDY_PAIR, GDY_JOKER_VALUE,
                 1 if hi == 0 else 2, GDY_CLS_NONE)


cdef void gen_follow(ctx_t *c, const gdy_target *tg, mask_t jokers) noexcept nogil:
    cdef unsigned keys = 0
    cdef int k = tg.key
    if tg.cls == GDY_CLS_NONE and 0 <= k <= GDY_JOKER_VALUE:
        # exactly one rank higher, a 2 on any ordinary single, pair or triple, the same rank
        if k < GDY_ACE_VALUE:
            keys |= 1u << (k + 1)
        if (k <= GDY_ACE_VALUE and
                (tg.type == GDY_SINGLE or tg.type == GDY_PAIR or tg.type == GDY_TRIPLE)):
            keys |= 1u << GDY_TWO_VALUE
        if c.flags & GDY_FLAG_FOLLOW_SAME_RANK and k < GDY_JOKER_VALUE:
            keys |= 1u << k
        if tg.type == GDY_SINGLE and tg.length == 1:
            gen_sets(c, 1, GDY_SINGLE, GDY_CLS_NONE, keys)
        elif tg.type == GDY_PAIR and tg.length == 2:
            gen_sets(c, 2, GDY_PAIR, GDY_CLS_NONE, keys)
        elif tg.type == GDY_TRIPLE and tg.length == 3:
            gen_sets(c, 3, GDY_TRIPLE, GDY_CLS_NONE, keys)
        elif tg.type == GDY_SEQUENCE:
            gen_runs(c, GDY_SEQUENCE, 1, MIN_SEQUENCE, c.max_ranks, keys & ALL_TOPS, tg.length)
        elif tg.type == GDY_DOUBLE_SEQUENCE:
            gen_runs(c, GDY_DOUBLE_SEQUENCE, 2, MIN_MULTI_SEQUENCE, c.max_ranks, keys & ALL_TOPS,
                     tg.length)
        elif tg.type == GDY_TRIPLE_SEQUENCE:
            gen_runs(c, GDY_TRIPLE_SEQUENCE, 3, MIN_MULTI_SEQUENCE, MAX_RUN, keys & ALL_TOPS,
                     tg.length)
        gen_bombs(c, GDY_CLS_NONE, 0, jokers)
    elif GDY_CLS_THREE <= tg.cls <= GDY_CLS_JOKER and 0 <= k <= GDY_TWO_VALUE:
        gen_bombs(c, tg.cls, k, jokers)


cdef int gdy_generate(mask_t lo, mask_t hi, int flags, int max_ranks, int collapse,
                      const gdy_target *target, playbuf_t *out) noexcept nogil:
    """Append every legal play of the hand (lo, hi) to `out`; -1 if memory ran out,
    GEN_TOO_MANY (having stopped) past PLAY_LIMIT plays.

    `lo`/`hi` must be a valid two-deck hand (hi a subset of lo, faces below 54).
    """
    cdef ctx_t c
    cdef int k, w, b, nb, nr, i
    cdef mask_t ge
    cdef unsigned ranks
    cdef mask_t jokers = lo & (bit(BJ_BIT) | bit(RJ_BIT))
    c.out = out
    c.full = 0
    c.flags = flags
    c.max_ranks = max_ranks if 0 < max_ranks < MAX_RUN else MAX_RUN
    c.collapse = collapse
    c.lo = lo & SUITED_MASK
    c.hi = hi & SUITED_MASK
    # the natural cards of each rank, summed per nibble (at most 8: no carry between nibbles)
    c.counts = nibble_counts(c.lo) + nibble_counts(c.hi)
    c.has[0] = ALL_VALUES
    for k in range(1, MAX_SET + 1):
        # a nibble holds at least k cards when adding 8 - k sets its top bit
        ge = (c.counts + (MAX_PER_RANK - k) * NIBBLE_LOW) & NIBBLE_TOP
        ranks = suit_ranks(ge, N_SUITS - 1)
        c.has[k] = (ranks & ~1u) | ((ranks & 1u) << GDY_TWO_VALUE)
    # the joker sets by size, BJ copies first
    if jokers == 0:
        c.nj = 0
        c.jlo[0] = 0
        c.jhi[0] = 0
        c.jbeg[0] = 0
        for w in range(1, MAX_JOKERS + 2):
            c.jbeg[w] = 1
    else:
        nb = <int>((lo >> BJ_BIT) & 1) + <int>((hi >> BJ_BIT) & 1)
        nr = <int>((lo >> RJ_BIT) & 1) + <int>((hi >> RJ_BIT) & 1)
        c.nj = nb + nr
        i = 0
        for w in range(MAX_JOKERS + 1):
            c.jbeg[w] = i
            for b in range(nb, -1, -1):
                if w - b < 0 or w - b > nr:
                    continue
                c.jlo[i] = (bit(BJ_BIT) if b >= 1 else 0) | (bit(RJ_BIT) if w - b >= 1 else 0)
                c.jhi[i] = (bit(BJ_BIT) if b == 2 else 0) | (bit(RJ_BIT) if w - b == 2 else 0)
                i += 1
        c.jbeg[MAX_JOKERS + 1] = i
    if target == NULL or target.type == 0:
        gen_lead(&c, lo, hi)
    else:
        gen_follow(&c, target, jokers)
    if c.full:
        return GEN_TOO_MANY
    return -1 if out.oom else 0


# --- the Python entry point ---------------------------------------------------------
cdef int _TRIPLE = GDY_TRIPLE
cdef int _TRIPLE_SEQUENCE = GDY_TRIPLE_SEQUENCE
cdef int _THREE_BOMB = GDY_THREE_BOMB


cdef inline int run_width(int t) noexcept:
    """The cards per rank of a run type; 0 for a type that is not a run."""
    if t == GDY_SEQUENCE:
        return 1
    if t == GDY_DOUBLE_SEQUENCE:
        return 2
    return 3 if t == GDY_TRIPLE_SEQUENCE else 0
# a first buffer big enough for most in-game hands (it grows when needed)
cdef Py_ssize_t _FIRST_CAP = 32


cdef int _check_previous(PlayRecord previous, int flags) except -1:
    """``ValueError`` if ``previous`` cannot be a play under these rules (or at all)."""
    cdef int t = previous.rec.type, cls = GDY_CLS_NONE
    if t == _THREE_BOMB:
        cls = GDY_CLS_THREE
    elif t == GDY_FOUR_BOMB:
        cls = GDY_CLS_FOUR
    elif t == GDY_JOKER_BOMB:
        cls = GDY_CLS_JOKER
    if (previous.rec.key > GDY_JOKER_VALUE or previous.rec.cls != cls or previous.rec.length == 0
            or not multiset_valid(previous.rec.lo, previous.rec.hi)):
        bad_record(previous, "Gan Deng Yan")
    check_run(previous, "Gan Deng Yan", run_width(t), previous.rec.key, 1, GDY_ACE_VALUE)
    if t == _TRIPLE and flags & GDY_FLAG_TRIPLES_ARE_BOMBS:
        raise ValueError(f"previous play {previous} is a triple, but these rules make triples bombs")
    if t == _THREE_BOMB and not (flags & GDY_FLAG_TRIPLES_ARE_BOMBS):
        raise ValueError(f"previous play {previous} is a three bomb, but these rules make triples ordinary")
    if t == _TRIPLE_SEQUENCE and not (flags & GDY_FLAG_TRIPLE_SEQUENCES):
        raise ValueError(f"previous play {previous} is a triple sequence, which these rules do not allow")
    return 0


def legal_plays(hand, previous=None, *, rules=None, collapse_suits=False):
    """Every legal play of a Gan Deng Yan hand (``docs/rules/gandengyan.md``).

    Args:
        hand: the player's whole hand, a ``Cards`` or a card string such as
            ``"7S 7D 2H BJ"`` (whether a lone joker may be led depends on it).
        previous: the ``Play`` to follow, or ``None`` when leading.
        rules: a ``Rules`` object (default ``Rules()``, one deck).
        collapse_suits: one representative per suit-collapsed group
            (``docs/rules/cards.md``) instead of every concrete play.

    Returns:
        A ``PlayList``: leading, every combination the hand can form; following, every
        play that may follow ``previous`` (passing is always allowed then and is not
        listed).

    >>> [str(p) for p in legal_plays("4S 5S 5D BJ")]   # doctest: +NORMALIZE_WHITESPACE
    ['single 4: 4S', 'single 5: 5S', 'single 5: 5D', 'pair 4: 4S BJ(=4)', 'pair 5: 5S 5D',
     'pair 5: 5S BJ(=5)', 'pair 5: 5D BJ(=5)', 'sequence 3-5: 4S 5S BJ(=3)',
     'sequence 3-5: 4S 5D BJ(=3)', 'sequence 4-6: 4S 5S BJ(=6)', 'sequence 4-6: 4S 5D BJ(=6)',
     'double sequence 4-5: 4S 5S 5D BJ(=4)', 'three bomb 5: 5S 5D BJ(=5)']
    """
    cdef int flags, max_ranks, decks
    cdef mask_t lo = 0, hi = 0
    cdef gdy_target tg
    cdef PlayList out
    if rules is None:
        flags = CLASSES.pagat_flags
        max_ranks = CLASSES.pagat._max_ranks
        decks = 1
    else:
        rules = CLASSES.rules_of(rules)
        flags = rules._flags
        max_ranks = rules._max_ranks
        decks = rules.decks
    hand_masks(hand, decks, "hand", &lo, &hi)
    cdef bint collapse = check_flag(collapse_suits, "collapse_suits")
    cdef PlayRecord prev
    tg.type = 0
    if previous is not None:
        prev = check_previous(previous, CLASSES.play)
        _check_previous(prev, flags)
        target_set(&tg, &prev.rec)
    out = roomy_playlist(CLASSES.factory, None, _FIRST_CAP)
    # well under a microsecond of work: releasing the GIL would cost more than it frees
    check_generated(gdy_generate(lo, hi, flags, max_ranks, collapse, &tg, &out.buf))
    roomy_filled(out)
    return out


ctypedef struct gdy_batch_t:     # a kernel_count batch
    const unsigned long long *lo
    const unsigned long long *hi
    const unsigned char *rows    # the plays to beat, n rows (type, length, cls, key), or NULL
    int flags
    int max_ranks
    int collapse


cdef int gdy_count_one(const void *batch, Py_ssize_t i, playbuf_t *out) noexcept nogil:
    cdef const gdy_batch_t *b = <const gdy_batch_t *>batch
    cdef gdy_target tg
    tg.type = 0
    if b.rows != NULL:
        target_of_row(&b.rows[4 * i], &tg)
    return gdy_generate(b.lo[i], b.hi[i], b.flags, b.max_ranks, b.collapse, &tg, out)


def kernel_count(los, his, targets=None, *, rules=None, collapse_suits=False, repeat=1):
    """Run the bare kernel on many hands, reusing one buffer; the total number of plays.

    For throughput measurements (``bench/``): no Python object is created per hand or
    per play.  ``los``/``his`` are the hands' masks; ``targets`` (optional, one row per
    hand) the play to follow as ``(type, length, cls, key)``, type 0 to lead.
    """
    cdef const unsigned long long[::1] lo = kernel_array(los, "los", "uint64", 1)
    cdef const unsigned long long[::1] hi = kernel_array(his, "his", "uint64", 1)
    cdef const unsigned char[:, ::1] rows = None if targets is None else kernel_array(targets, "targets", "uint8", 2)
    cdef bint collapse = check_flag(collapse_suits, "collapse_suits")
    cdef int times = check_repeat(repeat)
    cdef Py_ssize_t i, n = lo.shape[0]
    cdef object checked = CLASSES.rules_of(rules)
    cdef gdy_batch_t b
    if hi.shape[0] != n or (targets is not None and (rows.shape[0] != n or rows.shape[1] != 4)):
        raise ValueError("los, his and targets must have one entry per hand (targets: n x 4)")
    for i in range(n):
        if not multiset_valid(lo[i], hi[i]):
            raise ValueError(f"hand {i} is not a valid hand (faces 0..53, hi a subset of lo)")
    if n == 0:
        return 0
    b.lo = &lo[0]
    b.hi = &hi[0]
    b.rows = NULL if targets is None else &rows[0, 0]
    b.flags = checked._flags
    b.max_ranks = checked._max_ranks
    b.collapse = collapse
    return count_plays(gdy_count_one, &b, n, times, 4096)
