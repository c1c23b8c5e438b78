"""The Zheng Shangyou legal-play generator (``docs/rules/zhengshangyou.md``).

A hand is one word of the card core (one deck: each face at most once).  Each rank's
natural cards are a nibble; the sub-multiset table of ``chupai.core.records`` lists every sub-nibble
of every nibble by size, so a set is a choice of natural cards times a choice of wild
cards (2s and jokers, listed once per call by size), and sequences go up the ranks
from each start rank, every prefix of three ranks or more a play: a single sequence
takes one suit or a joker at each rank, a multiple sequence a sub-nibble of natural
cards whose shortfall the 2s (one a rank) and jokers make up.  Sequences are walked
depth first, except a lead's single sequences: they are built length by length, each
length's records written from the last's, in groups by the jokers they hold (so that
the loop over a group's records has no branch on them).  Each play is reached by exactly one path
(its window, its natural cards, its wild cards), so nothing is listed twice.  The suit-collapsed view keeps one choice of natural cards
per rank and size (and per suit for suited sequences, plus one mixed representative),
exactly one representative per group of ``docs/rules/cards.md``.
"""
from libc.stdint cimport uint8_t

from chupai.core.records cimport (
    GEN_TOO_MANY,
    target_set,
    BJ_BIT,
    JOKER_MASK,
    N_RANKS,
    N_SUITS,
    NIBBLE,
    RANK_2,
    RANK_BITS,
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
    play_set,
    play_t,
    playbuf_reserve,
    playbuf_free,
    playbuf_open,
    playbuf_t,
    popcount,
    rank_nibble,
    rank_subsets,
    slot_lo,
    slot_t,
    subset_slot,
    subsets_t,
)

from chupai.core.cardset cimport hand_masks
from chupai.core.play cimport PlayRecord
from chupai.core.wrappers cimport (
    PLAY_LIMIT, bad_record, check_flag, check_generated, check_previous, check_run, onedeck_kernel_count,
)

#: the Python classes this generator makes and reads (Play, Rules), bound by
#: chupai.zhengshangyou.play when it is imported: this layer imports nothing above it
GAME_CLASSES = GameClasses("zhengshangyou")
cdef GameClasses CLASSES = GAME_CLASSES

#: the option flags of the compiled code (Rules._flags), from the C declarations
FLAG_JOKER_PAIR = ZS_FLAG_JOKER_PAIR

cdef enum:
    RANK_3 = 1                   # the lowest rank of a sequence (sequences run 3..A)
    MIN_SEQ = 3                  # ranks in the shortest sequence
    MAX_SET = 4
    MAX_MULT = 4
    MAX_WILD_SETS = 64           # subsets of four 2s times subsets of two jokers
    N_JOKERS = 2
    MAX_WILD_CARDS = 6           # four 2s and two jokers

# the sub-multiset table of chupai.core.records: a one-deck rank's nibble is its pattern (no hi
# nibble), so its entries are the sub-nibbles, in the order of their values
cdef const subsets_t *SUBS = rank_subsets()
# NIBBLE_BITS[b]: the cards of a rank's nibble b
cdef uint8_t NIBBLE_BITS[16]
for _b in range(16):
    NIBBLE_BITS[_b] = bin(_b).count("1")
# VALUE[r]: the game-order value of rank index r (3..A -> 0..11, 2 -> 12)
cdef uint8_t VALUE[N_RANKS]


cdef void _build_tables() noexcept:
    cdef int k
    for k in range(N_RANKS):
        VALUE[k] = ZS_TWO_VALUE if k == RANK_2 else k - 1


_build_tables()


# --- the kernel ------------------------------------------------------------------
# the wild cards of the hand (2s and jokers), every subset once, grouped by size
ctypedef struct wilds_t:
    int off[MAX_WILD_CARDS + 2]
    mask_t mask[MAX_WILD_SETS]
    uint8_t ntwo[MAX_WILD_SETS]

ctypedef struct ctx_t:
    playbuf_t *out
    int full                     # PLAY_LIMIT reached: stop
    int flags
    int collapse
    int lead
    zs_target tg
    unsigned nib[N_RANKS]        # natural cards of each rank (suit bits)
    int cnt[N_RANKS]
    mask_t jokers                # joker bits held
    int nj
    int n2                       # 2s held
    mask_t jsub[N_JOKERS + 1][N_JOKERS]  # the subsets of the jokers held, by size
    int njsub[N_JOKERS + 1]
    wilds_t wl

# a single sequence walk from one start rank
ctypedef struct seq_t:
    int lmin                     # emit windows of lmin..lmax ranks
    int lmax
    int kmin                     # emit keys above this
    int suited_only
    int gap[N_JOKERS]            # the ranks the jokers stand for, lowest first

# a multiple sequence walk from one start rank
ctypedef struct multi_t:
    int m
    int start
    int nmin
    int nmax
    int kmin
    uint8_t nat[N_RANKS]         # natural cards taken at each rank of the window


cdef inline unsigned low_bit(unsigned x) noexcept nogil:
    return x & (~x + 1)


cdef enum:
    NOT_WANTED = -2              # a *_min answer: no play of this kind can beat the target


cdef inline int shape_min(const ctx_t *c, int type_, int length, int cls) noexcept nogil:
    """The key a play of this shape must exceed, or NOT_WANTED if the shape is not wanted."""
    if c.lead:
        return -1
    if c.tg.type == type_ and c.tg.length == length and c.tg.cls == cls:
        return c.tg.key
    return NOT_WANTED


cdef inline play_t *push(ctx_t *c, mask_t lo, int type_, int key, int length, int cls,
                         int nwild) noexcept nogil:
    """A new record for a play (its declaration left blank), or NULL if out of memory
    or past PLAY_LIMIT."""
    cdef play_t *p
    if c.out.len >= PLAY_LIMIT:
        c.full = 1
        return NULL
    p = play_push(c.out, lo, 0, type_, key, length, cls)
    if p != NULL:
        p.nwild = nwild
    return p


cdef inline void sub_range(const ctx_t *c, int rank, int k, slot_t *s) noexcept nogil:
    """The size-k sub-nibbles of a rank's natural cards (only the first when collapsing)."""
    subset_slot(SUBS, c.nib[rank], rank, k, c.collapse, s)


cdef void build_wilds(ctx_t *c, int most) noexcept nogil:
    """Every choice of at most `most` 2s and jokers (one choice of 2s per count when
    collapsing); none of more."""
    cdef int pos = 0, size, t, j, k, i
    cdef wilds_t *w = &c.wl
    cdef slot_t s
    for size in range(MAX_WILD_CARDS + 1):
        w.off[size] = pos
        if size > most:
            continue
        for t in range((size if size < c.n2 else c.n2) + 1):
            j = size - t
            if j > c.nj:
                continue
            sub_range(c, RANK_2, t, &s)
            for k in range(s.begin, s.end):
                for i in range(c.njsub[j]):
                    w.mask[pos] = slot_lo(&s, k) | c.jsub[j][i]
                    w.ntwo[pos] = t
                    pos += 1
    w.off[MAX_WILD_CARDS + 1] = pos


cdef void gen_singles(ctx_t *c) noexcept nogil:
    cdef int kmin = shape_min(c, ZS_SINGLE, 1, 1), r, key
    cdef unsigned nib, b
    if kmin == NOT_WANTED:
        return
    for r in range(N_RANKS):
        key = 2 * VALUE[r] + ZS_PURE
        if key <= kmin:
            continue
        nib = c.nib[r]
        if c.collapse:
            nib = low_bit(nib)
        while nib:
            b = low_bit(nib)
            nib ^= b
            push(c, <mask_t>b << (r * RANK_BITS), ZS_SINGLE, key, 1, 1, 0)
    if (c.jokers & bit(BJ_BIT)) and 2 * ZS_BJ_VALUE + ZS_PURE > kmin:
        push(c, bit(BJ_BIT), ZS_SINGLE, 2 * ZS_BJ_VALUE + ZS_PURE, 1, 1, 0)
    if (c.jokers & bit(RJ_BIT)) and 2 * ZS_RJ_VALUE + ZS_PURE > kmin:
        push(c, bit(RJ_BIT), ZS_SINGLE, 2 * ZS_RJ_VALUE + ZS_PURE, 1, 1, 0)


cdef inline void declare_set(play_t *p, int rank, unsigned nat, int nwild) noexcept nogil:
    """The wild cards of a set take the suits its natural cards lack, in suit order."""
    cdef unsigned miss = ~nat & NIBBLE
    cdef int q
    for q in range(nwild):
        p.decl[q] = face_of(rank, lowest_bit(miss))
        miss &= miss - 1


cdef void gen_sets(ctx_t *c) noexcept nogil:
    cdef int size, kmin, R, a, amax, w, key, k, i
    cdef unsigned nat
    cdef play_t *p
    cdef slot_t s
    for size in range(2, MAX_SET + 1):
        kmin = shape_min(c, ZS_SET, size, size)
        if kmin == NOT_WANTED:
            continue
        # one rank 3..A, with 2s and jokers standing in: the ranks held, from the lowest
        # whose pure set beats kmin (VALUE ascends from 3 to A)
        R = RANK_3
        while R < N_RANKS and 2 * VALUE[R] + ZS_PURE <= kmin:
            R += 1
        for R in range(R, N_RANKS):
            if not c.cnt[R]:
                continue
            amax = c.cnt[R] if c.cnt[R] < size else size
            for a in range(1, amax + 1):
                w = size - a
                key = 2 * VALUE[R] + (ZS_PURE if w == 0 else 0)
                if key <= kmin or c.wl.off[w] == c.wl.off[w + 1]:
                    continue
                sub_range(c, R, a, &s)
                for k in range(s.begin, s.end):
                    nat = s.sub[k]
                    for i in range(c.wl.off[w], c.wl.off[w + 1]):
                        p = push(c, slot_lo(&s, k) | c.wl.mask[i], ZS_SET, key, size, size, w)
                        if p == NULL:
                            return
                        declare_set(p, R, nat, w)
        # 2s, with jokers standing in
        amax = c.n2 if c.n2 < size else size
        for a in range(1, amax + 1):
            w = size - a
            key = 2 * ZS_TWO_VALUE + (ZS_PURE if w == 0 else 0)
            if w > c.nj or key <= kmin:
                continue
            sub_range(c, RANK_2, a, &s)
            for k in range(s.begin, s.end):
                nat = s.sub[k]
                for i in range(c.njsub[w]):
                    p = push(c, slot_lo(&s, k) | c.jsub[w][i], ZS_SET, key, size, size, w)
                    if p == NULL:
                        return
                    declare_set(p, RANK_2, nat, w)
        # the pair of jokers
        key = 2 * ZS_JOKER_PAIR_VALUE + ZS_PURE
        if size == N_JOKERS and (c.flags & ZS_FLAG_JOKER_PAIR) and c.nj == N_JOKERS and key > kmin:
            push(c, c.jokers, ZS_SET, key, N_JOKERS, N_JOKERS, 0)


cdef inline void emit_sequence(ctx_t *c, const seq_t *s, int top, int length, mask_t lo,
                               int suited, int suit, int nju) noexcept nogil:
    """A single sequence of natural cards lo and nju jokers at s.gap (every joker choice)."""
    cdef int key = (ZS_SUITED_KEY if suited else 0) + 2 * VALUE[top] + (ZS_PURE if nju == 0 else 0)
    cdef play_t *p
    cdef int i
    if key <= s.kmin:
        return
    if nju == 0:
        push(c, lo, ZS_SEQUENCE, key, length, 1, 0)
    elif nju == 1:
        for i in range(c.njsub[1]):
            p = push(c, lo | c.jsub[1][i], ZS_SEQUENCE, key, length, 1, 1)
            if p == NULL:
                return
            p.decl[0] = face_of(s.gap[0], suit)
    else:
        p = push(c, lo | c.jokers, ZS_SEQUENCE, key, length, 1, 2)
        if p == NULL:
            return
        p.decl[0] = face_of(s.gap[0], suit)
        p.decl[1] = face_of(s.gap[1], suit)


cdef void seq_walk(ctx_t *c, seq_t *s, int start) noexcept nogil:
    """Every single sequence from rank `start`: at each rank every suit held, then a joker,
    depth first (a sequence before its extensions), on a stack of one frame a rank.

    Frame d (rank start + d, d ranks filled before it) holds the natural cards so far
    `lo`, the suit they all have `su` (all four suits before the first card, 0 once they
    differ), the jokers used `nju`, the suits of the rank not yet tried and whether the
    joker is still to try there.
    """
    cdef mask_t lo[N_RANKS + 1]
    cdef unsigned su[N_RANKS + 1]
    cdef int nju[N_RANKS + 1]
    cdef unsigned left[N_RANKS + 1]
    cdef bint joker[N_RANKS + 1]
    cdef int d = 0, r
    cdef unsigned b
    lo[0], su[0], nju[0] = 0, NIBBLE, 0
    while True:
        # frame d entered: its sequence so far, then what may extend it
        r = start + d
        if d >= s.lmin:
            emit_sequence(c, s, r - 1, d, lo[d], su[d] != 0, lowest_bit(su[d]) if su[d] else SUIT_S, nju[d])
            if c.out.oom or c.full:
                return
        if d == s.lmax or r >= N_RANKS:
            left[d] = 0
            joker[d] = 0
        else:
            left[d] = c.nib[r]
            joker[d] = nju[d] < c.nj
        # the next extension of the deepest frame that has one left
        while True:
            r = start + d
            if left[d]:
                b = low_bit(left[d])
                left[d] ^= b
                if s.suited_only and not (su[d] & b):
                    continue
                lo[d + 1] = lo[d] | (<mask_t>b << (r * RANK_BITS))
                su[d + 1] = su[d] & b
                nju[d + 1] = nju[d]
                break
            if joker[d]:
                joker[d] = 0
                s.gap[nju[d]] = r
                lo[d + 1] = lo[d]
                su[d + 1] = su[d]
                nju[d + 1] = nju[d] + 1
                break
            if d == 0:
                return
            d -= 1
        d += 1


# The single sequences of one length, as lead_sequences keeps them: records laid out in
# four groups, one after another, by the jokers they hold (a group's count at its index)
cdef enum:
    SEQ_PLAIN = 0                # no joker
    SEQ_LOW = 1                  # one joker, the lower of those held (or the only one)
    SEQ_HIGH = 2                 # one joker, the higher of two held
    SEQ_BOTH = 3                 # both jokers
    SEQ_GROUPS = 4


cdef inline unsigned one_suit(const play_t *p) noexcept nogil:
    """The one suit of a sequence record's natural cards, as a suit bit (0: they differ;
    every suit: no natural card yet), without a branch (a record's suitedness follows no
    pattern): the suit of its lowest natural card, kept if its key says suited (a bit
    past the mask stands in for no card)."""
    cdef mask_t nat = p.lo & SUITED_MASK
    cdef unsigned su = (1u << (lowest_bit(nat | (<mask_t>1 << 63)) & (RANK_BITS - 1))) & (
        0u - <unsigned>(p.key >= ZS_SUITED_KEY))
    return su | (NIBBLE & (0u - <unsigned>(nat == 0)))


cdef inline play_t *seq_children(const ctx_t *c, const play_t *src, Py_ssize_t n, int r, const play_t *proto,
                                 int nju, play_t *q, mask_t jokers, play_t **jq) noexcept nogil:
    """Each of the n sequences at `src` (each holding `nju` jokers) with each suit held
    of rank r, written from `q` on (`proto[nju]`: the new length's record with nju wild
    cards), and with each joker of `jokers` (their bits, lowest first; none, one or both
    of the jokers held) standing for r, written from jq[0] and jq[1] on (advanced past
    them); the record after the last of the suits'."""
    cdef Py_ssize_t j
    cdef int shift = r * RANK_BITS, top = 2 * VALUE[r], i, nj = popcount(jokers)
    cdef unsigned left, b, su, s1
    cdef uint8_t g0, g1
    cdef mask_t lo
    cdef mask_t J[N_JOKERS]
    cdef play_t *p
    for i in range(nj):
        J[i] = jokers & (~jokers + 1)
        jokers ^= J[i]
    for j in range(n):
        lo = src[j].lo
        su = one_suit(&src[j])
        # the ranks of its jokers, as faces of the first suit
        g0 = src[j].decl[0] & ~(RANK_BITS - 1)
        g1 = src[j].decl[1] & ~(RANK_BITS - 1)
        left = c.nib[r]
        while left:
            b = low_bit(left)
            left ^= b
            s1 = su & b
            q[0] = proto[nju]
            q.lo = lo | (<mask_t>b << shift)
            if nju == 0:
                q.key = (ZS_SUITED_KEY if s1 else 0) + top + ZS_PURE
            else:
                q.key = (ZS_SUITED_KEY if s1 else 0) + top
                b = lowest_bit(s1) if s1 else SUIT_S
                q.decl[0] = g0 + b
                if nju == 2:
                    q.decl[1] = g1 + b
            q += 1
        if nj:
            b = lowest_bit(su) if su != 0 else SUIT_S
            for i in range(nj):
                p = jq[i]
                jq[i] += 1
                p[0] = proto[nju + 1]
                p.lo = lo | J[i]
                p.key = (ZS_SUITED_KEY if su else 0) + top
                if nju == 0:
                    p.decl[0] = face_of(r, b)
                else:
                    p.decl[0] = g0 + b
                    p.decl[1] = face_of(r, b)
    return q


cdef inline Py_ssize_t seq_counts(const ctx_t *c, const Py_ssize_t *n, int r, Py_ssize_t *m) noexcept nogil:
    """How many sequences seq_extend makes in each group (to m) of the groups n at rank
    r, and in all: each group's children with a joker first (of the joker-free sequences,
    or of those with the lower joker), then those of its own sequences with a suit."""
    cdef Py_ssize_t k = c.cnt[r]
    cdef bint two = c.nj == N_JOKERS
    m[SEQ_PLAIN] = n[SEQ_PLAIN] * k
    m[SEQ_LOW] = (n[SEQ_PLAIN] if c.nj else 0) + n[SEQ_LOW] * k
    m[SEQ_HIGH] = (n[SEQ_PLAIN] if two else 0) + n[SEQ_HIGH] * k
    m[SEQ_BOTH] = (n[SEQ_LOW] if two else 0) + n[SEQ_BOTH] * k
    return m[SEQ_PLAIN] + m[SEQ_LOW] + m[SEQ_HIGH] + m[SEQ_BOTH]


cdef void seq_extend(const ctx_t *c, const play_t *src, const Py_ssize_t *n, int r, int length,
                     play_t *dst, Py_ssize_t *m) noexcept nogil:
    """The single sequences of `length` ranks that end at rank r, written at `dst` in
    groups (their counts to m, seq_counts'): the sequences at `src`
    (groups of n, ending at rank r - 1) each with each suit held of r, then with each
    joker standing for r (a second joker only after the lower of the two, so that each
    play is written once).

    A record tells what extending it needs: its cards, its jokers (its group) and the
    ranks they stand for (`decl`), and whether its natural cards are all of one suit
    (its key: suited, or no natural card yet)."""
    cdef play_t proto[N_JOKERS + 1]
    cdef const play_t *plain = src
    cdef const play_t *low = plain + n[SEQ_PLAIN]
    cdef const play_t *high = low + n[SEQ_LOW]
    cdef const play_t *both = high + n[SEQ_HIGH]
    cdef play_t *start[SEQ_GROUPS]    # where each group is written
    cdef play_t *jq[N_JOKERS]
    cdef mask_t lower = c.jsub[1][0] if c.nj else 0
    cdef mask_t higher = c.jsub[1][1] if c.nj == N_JOKERS else 0
    cdef int i
    # proto[jokers]: the record of a sequence of this length, but its cards, its key and
    # the faces its jokers stand for
    play_set(&proto[0], 0, 0, ZS_SEQUENCE, 0, length, 1)
    for i in range(1, N_JOKERS + 1):
        proto[i] = proto[0]
        proto[i].nwild = i
    seq_counts(c, n, r, m)
    start[SEQ_PLAIN] = dst
    for i in range(1, SEQ_GROUPS):
        start[i] = start[i - 1] + m[i - 1]
    jq[0] = start[SEQ_LOW]
    jq[1] = start[SEQ_HIGH]
    seq_children(c, plain, n[SEQ_PLAIN], r, proto, 0, start[SEQ_PLAIN], lower | higher, jq)
    jq[0] = start[SEQ_BOTH]
    seq_children(c, low, n[SEQ_LOW], r, proto, 1, start[SEQ_LOW] + (n[SEQ_PLAIN] if lower else 0), higher, jq)
    seq_children(c, high, n[SEQ_HIGH], r, proto, 1, start[SEQ_HIGH] + (n[SEQ_PLAIN] if higher else 0), 0, jq)
    seq_children(c, both, n[SEQ_BOTH], r, proto, 2, start[SEQ_BOTH] + (n[SEQ_LOW] if higher else 0), 0, jq)


cdef void lead_sequences(ctx_t *c, int start) noexcept nogil:
    """Every single sequence from rank `start`, leading, by length: those of one and two
    ranks in local arrays, then each length's from the last's, in the play buffer (a
    length that would take the list past PLAY_LIMIT is not written)."""
    cdef play_t empty
    cdef play_t one[N_SUITS + N_JOKERS]
    cdef play_t two[(N_SUITS + N_JOKERS) * (N_SUITS + N_JOKERS)]
    cdef Py_ssize_t n[SEQ_GROUPS]
    cdef Py_ssize_t m[SEQ_GROUPS]
    cdef const play_t *src
    cdef play_t *dst
    cdef Py_ssize_t total, last = 0
    cdef int r, i
    play_set(&empty, 0, 0, ZS_SEQUENCE, ZS_SUITED_KEY, 0, 1)
    n[SEQ_PLAIN], n[SEQ_LOW], n[SEQ_HIGH], n[SEQ_BOTH] = 1, 0, 0, 0
    seq_extend(c, &empty, n, start, 1, one, m)
    seq_extend(c, one, m, start + 1, 2, two, n)
    for r in range(start + 2, N_RANKS):
        total = seq_counts(c, n, r, m)
        if total == 0:
            return
        if c.out.len + total > PLAY_LIMIT:
            c.full = 1
            return
        dst = playbuf_reserve(c.out, total)
        if dst == NULL:
            return
        # the sources are addressed after the reservation (a reallocation moves them)
        src = &two[0] if r == start + 2 else &c.out.data[last]
        seq_extend(c, src, n, r, r - start + 1, dst, m)
        last = c.out.len
        c.out.len += total
        for i in range(SEQ_GROUPS):
            n[i] = m[i]


cdef void seq_walk_collapsed(ctx_t *c, seq_t *s, int r, int depth, mask_t rep, mask_t full,
                             unsigned su, unsigned common, int swap_r, unsigned swap_b,
                             int nju) noexcept nogil:
    """Extend a collapsed single sequence at rank r: a natural card or a joker.

    `rep` takes the lowest suit of each natural rank, `full` every face of those ranks,
    `su` the suit all of rep's cards share (0 if they differ), `common` the suits held at
    every natural rank; `swap_r`/`swap_b` the first natural rank where another suit than
    rep's one suit is held, and that suit (to make a mixed representative).
    """
    cdef unsigned nib, b, s0
    cdef int nat = depth - nju, shift, suit
    cdef mask_t mixed
    if c.out.oom or c.full:
        return
    if depth >= s.lmin:
        # one suited play per suit held at every natural rank
        nib = common
        while nib:
            suit = lowest_bit(nib)
            nib &= nib - 1
            emit_sequence(c, s, r - 1, depth, full & (SUIT_S_MASK << suit), 1, suit, nju)
        # one mixed representative, if the natural cards can be of two suits
        if not s.suited_only and nat >= 2 and (su == 0 or swap_r >= 0):
            mixed = rep
            if su:
                shift = swap_r * RANK_BITS
                mixed = (rep & ~(<mask_t>su << shift)) | (<mask_t>swap_b << shift)
            emit_sequence(c, s, r - 1, depth, mixed, 0, SUIT_S, nju)
    if depth == s.lmax or r >= N_RANKS:
        return
    nib = c.nib[r]
    if nib and not (s.suited_only and not (common & nib)):
        b = low_bit(nib)
        s0 = su & b
        if s0 and swap_r < 0 and nib != b:
            seq_walk_collapsed(c, s, r + 1, depth + 1, rep | (<mask_t>b << (r * RANK_BITS)),
                               full | (<mask_t>NIBBLE << (r * RANK_BITS)), s0, common & nib,
                               r, low_bit(nib ^ b), nju)
        else:
            seq_walk_collapsed(c, s, r + 1, depth + 1, rep | (<mask_t>b << (r * RANK_BITS)),
                               full | (<mask_t>NIBBLE << (r * RANK_BITS)), s0, common & nib,
                               swap_r, swap_b, nju)
    if nju < c.nj:
        s.gap[nju] = r
        seq_walk_collapsed(c, s, r + 1, depth + 1, rep, full, su, common, swap_r, swap_b, nju + 1)


cdef void gen_sequences(ctx_t *c) noexcept nogil:
    cdef seq_t s
    cdef int start, top, length, r
    cdef unsigned held = 0        # bit r: a natural card of rank r (3..A) is held
    for r in range(RANK_3, N_RANKS):
        if c.cnt[r]:
            held |= 1u << r
    if c.lead:
        s.lmin = MIN_SEQ
        s.lmax = N_RANKS - RANK_3
        s.kmin = -1
        s.suited_only = 0
        for start in range(RANK_3, N_RANKS - MIN_SEQ + 1):
            # the jokers must make up for the ranks missing among the first three
            if popcount(~(held >> start) & 7) > c.nj:
                continue
            if c.collapse:
                seq_walk_collapsed(c, &s, start, 0, 0, 0, NIBBLE, NIBBLE, -1, 0, 0)
            else:
                lead_sequences(c, start)
            if c.out.oom or c.full:
                return
        return
    length = c.tg.length
    if c.tg.type != ZS_SEQUENCE or c.tg.cls != 1 or length < MIN_SEQ or length > N_RANKS - RANK_3:
        return
    s.lmin = length
    s.lmax = length
    s.kmin = c.tg.key
    for start in range(RANK_3, N_RANKS - length + 1):
        top = start + length - 1
        if ZS_SUITED_KEY + 2 * VALUE[top] + ZS_PURE <= s.kmin:
            continue
        # the jokers must make up for every rank of the window missing
        if popcount(~(held >> start) & ((1u << length) - 1)) > c.nj:
            continue
        # a mixed sequence of this top cannot beat the target: walk the suited ones only
        s.suited_only = 2 * VALUE[top] + ZS_PURE <= s.kmin
        if c.collapse:
            seq_walk_collapsed(c, &s, start, 0, 0, 0, NIBBLE, NIBBLE, -1, 0, 0)
        else:
            seq_walk(c, &s, start)


cdef void emit_multi(ctx_t *c, const multi_t *s, int top, int n, mask_t lo, int short,
                     int nshort) noexcept nogil:
    """A multiple sequence of natural cards lo over n ranks, `short` cards short at
    `nshort` ranks: every choice of 2s (at most one a rank) and jokers making them up."""
    cdef int key = 2 * VALUE[top] + (ZS_PURE if short == 0 else 0)
    cdef int i, t, q, d, tw, need
    cdef unsigned miss
    cdef play_t *p
    cdef int lack[N_RANKS]       # the cards each rank lacks of m
    if key <= s.kmin:
        return
    for d in range(n if short else 0):
        lack[d] = s.m - NIBBLE_BITS[s.nat[d]]
    for i in range(c.wl.off[short], c.wl.off[short + 1]):
        t = c.wl.ntwo[i]
        if t > nshort:
            continue
        p = push(c, lo | c.wl.mask[i], ZS_MULTI, key, n * s.m, s.m, short)
        if p == NULL:
            return
        if short == 0:
            continue
        # the 2s, one each to the short ranks from the lowest ...
        q = 0
        for d in range(n):
            if q == t:
                break
            if lack[d] > 0:
                p.decl[q] = face_of(s.start + d, lowest_bit(~s.nat[d] & NIBBLE))
                q += 1
        # ... then the jokers fill what is left, from the lowest rank
        tw = 0
        for d in range(n):
            need = lack[d]
            if need <= 0:
                continue
            miss = ~s.nat[d] & NIBBLE
            if tw < t:
                tw += 1
                need -= 1
                miss &= miss - 1
            while need > 0:
                p.decl[q] = face_of(s.start + d, lowest_bit(miss))
                miss &= miss - 1
                q += 1
                need -= 1


cdef void multi_walk(ctx_t *c, multi_t *s, int r, int depth, mask_t lo, int short,
                     int nshort) noexcept nogil:
    """Extend a multiple sequence at rank r with each choice of natural cards."""
    cdef int k, kmax, d, i
    cdef slot_t sl
    if c.out.oom or c.full:
        return
    if depth >= s.nmin:
        emit_multi(c, s, r - 1, depth, lo, short, nshort)
    if depth == s.nmax or r >= N_RANKS:
        return
    kmax = c.cnt[r] if c.cnt[r] < s.m else s.m
    for k in range(kmax, -1, -1):
        d = s.m - k
        # a rank takes at most one 2 besides the jokers
        if d > 1 + c.nj or short + d > c.n2 + c.nj:
            break
        # the ranks still needed to reach the shortest sequence must be fillable with what is left
        if depth + 1 < s.nmin and not fillable_ahead(c, s.m, r + 1, s.nmin - depth - 1, short + d,
                                                     nshort + (1 if d else 0)):
            break
        sub_range(c, r, k, &sl)
        for i in range(sl.begin, sl.end):
            s.nat[depth] = sl.sub[i]
            multi_walk(c, s, r + 1, depth + 1, lo | slot_lo(&sl, i), short + d,
                       nshort + (1 if d else 0))


cdef inline unsigned fillable(const ctx_t *c, int m) noexcept nogil:
    """The ranks (bit r) that natural cards, one 2 and the jokers could fill m deep."""
    cdef unsigned out = 0
    cdef int r, extra = (1 if c.n2 else 0) + c.nj
    for r in range(RANK_3, N_RANKS):
        if c.cnt[r] + extra >= m:
            out |= 1u << r
    return out


cdef inline bint fillable_ahead(const ctx_t *c, int m, int r, int n, int short, int nshort) noexcept nogil:
    """Whether a multiple sequence `short` cards short at `nshort` ranks can take the n
    ranks r .. r + n - 1 next: 2s (one a rank) and jokers making up together what they all
    lack of m cards each (fillable says it of each rank alone)."""
    cdef int j, d
    if r + n > N_RANKS:
        return 0
    for j in range(n):
        d = m - c.cnt[r + j]
        if d > 0:
            short += d
            nshort += 1
    return short <= (c.n2 if c.n2 < nshort else nshort) + c.nj


cdef void gen_multi(ctx_t *c) noexcept nogil:
    cdef multi_t s
    cdef int m, start, n
    cdef unsigned ok
    if c.lead:
        s.nmin = MIN_SEQ
        s.nmax = N_RANKS - RANK_3
        s.kmin = -1
        for m in range(2, MAX_MULT + 1):
            s.m = m
            # starts whose first three ranks can all be filled
            ok = fillable(c, m)
            ok &= (ok >> 1) & (ok >> 2)
            for start in range(RANK_3, N_RANKS - MIN_SEQ + 1):
                if (ok >> start) & 1 and fillable_ahead(c, m, start, MIN_SEQ, 0, 0):
                    s.start = start
                    multi_walk(c, &s, start, 0, 0, 0, 0)
        return
    if c.tg.type != ZS_MULTI or c.tg.cls < 2 or c.tg.cls > MAX_MULT:
        return
    s.m = c.tg.cls
    n = c.tg.length // s.m
    if n < MIN_SEQ or n * s.m != c.tg.length:
        return
    s.nmin = n
    s.nmax = n
    s.kmin = c.tg.key
    for start in range(RANK_3, N_RANKS - n + 1):
        if 2 * VALUE[start + n - 1] + ZS_PURE <= s.kmin:
            continue
        s.start = start
        multi_walk(c, &s, start, 0, 0, 0, 0)


cdef int zs_generate(mask_t hand, int flags, int collapse, const zs_target *target,
                     playbuf_t *out) noexcept nogil:
    """Append every legal play of the one-deck hand to `out`; -1 if memory ran out, -2
    (GEN_TOO_MANY) past PLAY_LIMIT plays."""
    cdef ctx_t c
    cdef int r, t
    cdef mask_t counts
    c.out = out
    c.full = 0
    c.flags = flags
    c.collapse = collapse
    c.lead = target == NULL or target.type == 0
    t = 0 if c.lead else target.type
    if not c.lead:
        c.tg = target[0]
    counts = nibble_counts(hand)
    for r in range(N_RANKS):
        c.nib[r] = rank_nibble(hand, r)
        c.cnt[r] = rank_nibble(counts, r)
    c.n2 = c.cnt[RANK_2]
    c.jokers = hand & JOKER_MASK
    c.nj = popcount(c.jokers)
    c.njsub[0] = 1
    c.jsub[0][0] = 0
    c.njsub[1] = 0
    if c.jokers & bit(BJ_BIT):
        c.jsub[1][c.njsub[1]] = bit(BJ_BIT)
        c.njsub[1] += 1
    if c.jokers & bit(RJ_BIT):
        c.jsub[1][c.njsub[1]] = bit(RJ_BIT)
        c.njsub[1] += 1
    c.njsub[N_JOKERS] = 1 if c.nj == N_JOKERS else 0
    c.jsub[N_JOKERS][0] = c.jokers
    if c.lead or t == ZS_SINGLE:
        gen_singles(&c)
    if c.lead or t == ZS_MULTI:
        build_wilds(&c, MAX_WILD_CARDS)
    elif t == ZS_SET:
        build_wilds(&c, target.length - 1)  # a set of n cards has a natural one
    if c.lead or t == ZS_SET:
        gen_sets(&c)
    if c.lead or t == ZS_SEQUENCE:
        gen_sequences(&c)
    if c.lead or t == ZS_MULTI:
        gen_multi(&c)
    if c.full:
        return GEN_TOO_MANY
    return -1 if out.oom else 0


# --- the Python entry point ---------------------------------------------------------


cdef mask_t hand_mask(object hand) except? 0xFFFFFFFFFFFFFFFF:
    """The one-deck mask of a hand (``Cards``, string or iterable of card strings)."""
    cdef mask_t lo, hi
    hand_masks(hand, 1, "hand", &lo, &hi)
    return lo


# a list's first room (records), for nearly every hand's plays (roomy_playlist)
cdef enum:
    ROOMY_LEAD = 1024
    ROOMY_FOLLOW = 64


cdef int check_record(PlayRecord p) except -1:
    """ValueError unless the record is a Zheng Shangyou play: one deck, a key below two
    suited keys, a multiplicity 1..4 and a length that is a multiple of it."""
    if (p.rec.hi or p.rec.key >= 2 * ZS_SUITED_KEY or not 1 <= p.rec.cls <= MAX_MULT
            or p.rec.length == 0 or p.rec.length % p.rec.cls):
        bad_record(p, "Zheng Shangyou")
    check_run(p, "Zheng Shangyou", p.rec.cls if p.rec.type == ZS_SEQUENCE or p.rec.type == ZS_MULTI else 0,
              (p.rec.key % ZS_SUITED_KEY) // 2, 0, ZS_TWO_VALUE - 1)
    return 0


cdef int zs_rules_flags(object rules) except -1:
    """The generator flags of `rules` (None: the Pagat rules); ValueError if not a Rules."""
    if rules is None:
        return CLASSES.pagat_flags
    return CLASSES.rules_of(rules)._flags


def legal_plays(hand, previous=None, *, rules=None, collapse_suits=False):
    """Every legal play of a Zheng Shangyou hand (``docs/rules/zhengshangyou.md``).

    Args:
        hand: a one-deck ``Cards`` or a card string such as ``"7S 2D BJ"``.
        previous: the ``Play`` to beat, or ``None`` when leading.
        rules: a ``Rules`` object (default ``Rules()``).
        collapse_suits: one representative per suit-collapsed group
            (``docs/rules/cards.md``) instead of every concrete play.

    Returns:
        A ``PlayList``: leading, every combination the hand can form; following, every
        play of the same shape with a higher key (passing is always allowed then and
        is not listed).

    Raises:
        ValueError: a bad card, a card given twice, bad ``previous`` or ``rules``.
        MemoryError: more than 20 million plays (a hand of most of the deck; the
            suit-collapsed view stays small), or memory ran out.

    >>> plays = legal_plays("6H 8H BJ")
    >>> [str(p) for p in plays if p.length == 3]
    ['sequence 6-8 suited impure: 6H 8H BJ(=7H)']
    >>> previous = legal_plays("7C 8C 9S")[-1]
    >>> str(previous)
    'sequence 7-9 mixed: 7C 8C 9S'
    >>> [str(p) for p in legal_plays("6H 8H BJ", previous)]
    ['sequence 6-8 suited impure: 6H 8H BJ(=7H)']
    """
    cdef mask_t lo = hand_mask(hand)
    cdef int flags = zs_rules_flags(rules)
    cdef zs_target tg
    cdef PlayList out
    cdef bint collapse = check_flag(collapse_suits, "collapse_suits")
    cdef PlayRecord prev
    target_set(&tg, NULL)
    if previous is not None:
        prev = check_previous(previous, CLASSES.play)
        check_record(prev)
        target_set(&tg, &prev.rec)
    out = roomy_playlist(CLASSES.factory, None, ROOMY_FOLLOW if tg.type else ROOMY_LEAD)
    # a few microseconds of work: releasing the GIL would cost more than it frees
    check_generated(zs_generate(lo, flags, collapse, &tg, &out.buf))
    roomy_filled(out)
    return out


def kernel_count(hands, previous=None, *, rules=None, collapse_suits=False, repeat=1):
    """Run the bare kernel on many hands, reusing one buffer; the total number of plays.

    For throughput measurements (``bench/``): no Python object is created per hand or
    per play.  ``hands`` are one-deck masks; ``previous``, if given, holds one row
    ``(type, length, cls, key)`` per hand, the play to beat (type 0: leading).
    """
    return onedeck_kernel_count(zs_generate, hands, previous, zs_rules_flags(rules), collapse_suits, repeat,
                                ZS_MULTI, 255, "Zheng Shangyou")
