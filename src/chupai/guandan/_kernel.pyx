"""The Guan Dan generator's kernel (``docs/rules/guandan.md``): every legal play of a hand
as records, in C (its Python entries are ``chupai.guandan._movegen``'s).

Wild cards are handled as pure wilds: every play is a sub-multiset of the hand's
natural cards plus 0, 1 or 2 wild cards with a canonical declaration (a wild standing
for its own face is the same play as that card played naturally, so nothing is
counted twice).  Each rank's natural cards are a nibble pair; a precomputed table
lists every sub-multiset of every nibble pattern by size, so a combination is a
product of per-rank choices.  The suit-collapsed view keeps only the first choice of
each size, which is exactly one representative per group of ``docs/rules/cards.md``.
"""
from libc.stdint cimport uint8_t, uint16_t, uint64_t
from libc.string cimport memcpy

from chupai.guandan._writer cimport RECORD_WORDS, head_of, put, tail_of, wilds_of
from chupai.core.records cimport (
    BJ_BIT,
    MAX_WILDS,
    N_RANKS,
    N_SUITS,
    NIBBLE,
    NO_FACE,
    RANK_A,
    RANK_BITS,
    RJ_BIT,
    SUIT_H,
    bit,
    face_of,
    lowest_bit,
    mask_t,
    nibble_counts,
    play_t,
    playbuf_reserve,
    playbuf_t,
    popcount,
    rank_pattern,
    rank_subsets,
    slot_hi,
    slot_lo,
    slot_t,
    subset_slot,
    subsets_t,
    suit_ranks,
)

# the sub-multiset table of chupai.core.records (every choice of a rank's natural cards, by size)
cdef const subsets_t *SUBS = rank_subsets()

# --- the kernel ------------------------------------------------------------------
cdef enum:
    LV_ROW = 16                  # a row of LEVEL_VALUES, N_RANKS values padded for one copy

# LEVEL_VALUES[level][r]: the level-order value of rank r when `level` is the level rank
# (the level rank GD_LEVEL_VALUE, the ranks above it one lower)
cdef uint8_t LEVEL_VALUES[N_RANKS][LV_ROW]
for _l in range(N_RANKS):
    for _r in range(LV_ROW):
        LEVEL_VALUES[_l][_r] = 0
    for _r in range(N_RANKS):
        LEVEL_VALUES[_l][_r] = GD_LEVEL_VALUE if _r == _l else (_r if _r < _l else _r - 1)

# ABOVE[level][k]: bit r when rank r's value at that level is at least k (k = 0..N_RANKS;
# no rank's value reaches N_RANKS)
cdef uint16_t ABOVE[N_RANKS][N_RANKS + 1]
for _l in range(N_RANKS):
    for _k in range(N_RANKS + 1):
        ABOVE[_l][_k] = sum(1 << _r for _r in range(N_RANKS) if LEVEL_VALUES[_l][_r] >= _k)

# a word with every nibble 1 (adding m of it adds m to every rank's nibble)
cdef mask_t EACH_NIBBLE = 0x1111111111111111ULL

ctypedef struct ctx_t:
    playbuf_t *out
    mask_t wbit          # the wild face's bit
    mask_t jlo           # jokers held at least once / twice
    mask_t jhi
    int wface
    int nw               # wild cards held (0..2)
    int flags
    int collapse
    int level
    int lead
    gd_target tg
    uint8_t lv[LV_ROW]   # level-order value of each rank (LEVEL_VALUES[level])
    int pat[N_RANKS]     # natural-card pattern of each rank
    int cnt[N_RANKS]     # natural cards of each rank
    unsigned atleast[5]  # bit r: rank r has at least m natural cards (m = 0..4)
    uint16_t above_of[N_RANKS + 1]  # bit r: rank r's value is above k - 1 (ABOVE[level][k])

# the pair of a full house: natural cards (and a wild standing for `rank`)
ctypedef struct pair_part_t:
    mask_t lo
    mask_t hi
    int rank             # -1 for a joker pair

# WINDOW_RANK[i]: the rank at step i of the natural order with the ace low and high
# (A 2 3 .. K A); a window at position p covers WINDOW_RANK[p : p + n].
cdef int WINDOW_RANK[N_RANKS + 1]
WINDOW_RANK[0] = RANK_A
for _i in range(N_RANKS):
    WINDOW_RANK[_i + 1] = _i

# GAPSET[:N_GAPSETS[w]]: the subsets of a five-rank window with at most w ranks, the
# ranks a straight's (or straight flush's) w wild cards may fill.
cdef uint8_t GAPSET[16]
cdef uint8_t N_GAPSETS[3]
_n = 0
for _w in range(3):
    for _g in range(32):
        if bin(_g).count("1") == _w:
            GAPSET[_n] = _g
            _n += 1
    N_GAPSETS[_w] = _n

# COVERING[m][w]: the indexes i < N_GAPSETS[w] (bit i) of the gap sets GAPSET[i] that
# hold every rank of the missing set m (the ranks the wild cards must fill)
cdef uint16_t COVERING[32][3]
for _m in range(32):
    for _w in range(3):
        COVERING[_m][_w] = sum(1 << _i for _i in range(N_GAPSETS[_w]) if GAPSET[_i] & _m == _m)

# SUIT_CHOICE[b][:SUIT_COUNT[b]]: the suits of the nibble b (a rank's cards), one bit each,
# ascending
cdef uint8_t SUIT_CHOICE[16][N_SUITS]
cdef uint8_t SUIT_COUNT[16]
for _b in range(16):
    _bits = [1 << _s for _s in range(N_SUITS) if (_b >> _s) & 1]
    SUIT_COUNT[_b] = len(_bits)
    for _s in range(N_SUITS):
        SUIT_CHOICE[_b][_s] = _bits[_s] if _s < len(_bits) else 0

cdef enum:
    SUIT_LANE = 16               # a suit's window bits in gen_straight_flushes' one word

# NATURAL_IN[p][g]: the spade cards of window p's ranks outside the gap set g (a straight
# flush's natural cards, shifted to its suit); GAP_COUNT[g]: g's ranks
cdef mask_t NATURAL_IN[N_STRAIGHT][32]
cdef uint8_t GAP_COUNT[32]
for _g in range(32):
    GAP_COUNT[_g] = bin(_g).count("1")
    for _p in range(N_STRAIGHT):
        NATURAL_IN[_p][_g] = sum(bit(WINDOW_RANK[_p + _j] * RANK_BITS) for _j in range(5) if not (_g >> _j) & 1)


cdef uint64_t run_tail(int type_, int cls, int suit, int p, unsigned g) noexcept:
    """The tail word of a five-card run at window p whose wilds fill the gap set g,
    standing for the cards of `suit` at g's ranks."""
    cdef int d[2]
    cdef int j, nd = 0
    d[0] = d[1] = 0
    for j in range(5):
        if (g >> j) & 1:
            d[nd] = face_of(WINDOW_RANK[p + j], suit)
            nd += 1
    if nd == 2 and d[1] < d[0]:
        d[0], d[1] = d[1], d[0]
    return tail_of(type_, p, 5, cls, nd, d[0], d[1])


# SF_TAIL[s][p][g]: the tail word of the straight flush of suit s at window p whose wilds
# fill the gap set g; STRAIGHT_TAIL[p][g] a straight's, its wilds standing for hearts (g
# one of GAPSET's, at most two ranks)
cdef uint64_t SF_TAIL[N_SUITS][N_STRAIGHT][32]
cdef uint64_t STRAIGHT_TAIL[N_STRAIGHT][32]
for _p in range(N_STRAIGHT):
    for _i in range(N_GAPSETS[2]):
        _g = GAPSET[_i]
        STRAIGHT_TAIL[_p][_g] = run_tail(GD_STRAIGHT, 0, SUIT_H, _p, _g)
        for _s in range(N_SUITS):
            SF_TAIL[_s][_p][_g] = run_tail(GD_STRAIGHT_FLUSH, GD_CLASS_SF, _s, _p, _g)

cdef enum:
    MAX_PAIR_PARTS = 132         # 13 ranks x 10 pairs + 2 joker pairs


cdef inline void sub_range(const ctx_t *c, int rank, int m, slot_t *s) noexcept nogil:
    """The size-m sub-multisets of a rank's natural cards (only the first when collapsing)."""
    subset_slot(SUBS, c.pat[rank], rank, m, c.collapse, s)


cdef inline int heart(int rank) noexcept nogil:
    return face_of(rank, SUIT_H)


cdef inline mask_t wild_lo(const ctx_t *c, int nw) noexcept nogil:
    """The wild cards of a play with `nw` of them: their lo bits, then (wild_hi) hi bits."""
    return c.wbit if nw >= 1 else 0


cdef inline mask_t wild_hi(const ctx_t *c, int nw) noexcept nogil:
    return c.wbit if nw == 2 else 0


cdef inline void emit(ctx_t *c, mask_t lo, mask_t hi, int type_, int key, int cls,
                      int length, int nw, int d0, int d1) noexcept nogil:
    """Append a play: natural cards lo/hi plus `nw` wilds standing for d0 (and d1)."""
    cdef play_t *p = playbuf_reserve(c.out, 1)
    if p == NULL:
        return
    if nw == 2 and d1 < d0:
        d0, d1 = d1, d0
    put(p, lo | wild_lo(c, nw), hi | wild_hi(c, nw), tail_of(type_, key, length, cls, nw, d0, d1))
    c.out.len += 1


cdef inline int put_slot(ctx_t *c, const slot_t *s, mask_t wl, mask_t wh,
                         uint64_t tail) noexcept nogil:
    """Append every entry of a slot (plus the wild bits wl/wh) with one tail; -1 on oom."""
    cdef int k, n = s.end - s.begin
    cdef play_t *p = playbuf_reserve(c.out, n)
    if p == NULL:
        return -1
    for k in range(s.begin, s.end):
        put(p, slot_lo(s, k) | wl, slot_hi(s, k) | wh, tail)
        p += 1
    c.out.len += n
    return 0


# the record writer's assumption about play_t, checked once
cdef play_t _PROBE
put(&_PROBE, 1, 2, tail_of(3, 4, 5, 6, 2, 7, 8))
if sizeof(play_t) != RECORD_WORDS * sizeof(uint64_t) or (_PROBE.lo, _PROBE.hi, _PROBE.taken, _PROBE.type, _PROBE.key, _PROBE.length, _PROBE.cls,
        _PROBE.nwild, _PROBE.flags, [_PROBE.decl[_i] for _i in range(MAX_WILDS)]) != (1, 2, 0, 3, 4, 5, 6, 2, 0, [7, 8] + [NO_FACE] * 8):
    raise ImportError("chupai.core.records.play_t's layout is not the one the Guan Dan record writer assumes")


cdef enum:
    NOT_WANTED = -2              # a *_min answer: no play of this kind can beat the target


cdef inline int ordinary_min(const ctx_t *c, int type_) noexcept nogil:
    """The key a play of this ordinary type must exceed, or NOT_WANTED if the type is not wanted."""
    if c.lead:
        return -1
    if c.tg.cls == 0 and c.tg.type == type_:
        return c.tg.key
    return NOT_WANTED


cdef inline int bomb_min(const ctx_t *c, int cls) noexcept nogil:
    """The key a bomb of this class must exceed, or NOT_WANTED if the class cannot beat the target."""
    if c.lead or c.tg.cls < cls:
        return -1
    if c.tg.cls == cls:
        return c.tg.key
    return NOT_WANTED


cdef inline unsigned ranks_above(const ctx_t *c, int kmin) noexcept nogil:
    """Bit r: rank r's key is above kmin."""
    if kmin < 0:
        return c.above_of[0]
    if kmin >= N_RANKS:
        return 0
    return c.above_of[kmin + 1]


cdef void gen_same_rank(ctx_t *c, int type_, int n, int cls, int kmin) noexcept nogil:
    """n (1..3) cards declared as one rank with at least one natural card (singles,
    pairs, triples)."""
    cdef int r, w, wmax, m, k, nr, total
    cdef unsigned above = ranks_above(c, kmin), ranks
    cdef slot_t sl[N_RANKS]
    cdef int rk[N_RANKS]
    cdef uint64_t head = head_of(type_, 0, n, cls), tail
    cdef mask_t wl, wh
    cdef play_t *out
    cdef play_t *q
    wmax = c.nw if c.nw < n - 1 else n - 1
    for w in range(wmax + 1):
        m = n - w
        # the ranks' choices, then all of them under one reserve
        nr = 0
        total = 0
        ranks = c.atleast[m] & above
        while ranks:
            r = lowest_bit(ranks)
            ranks &= ranks - 1
            sub_range(c, r, m, &sl[nr])
            rk[nr] = r
            total += sl[nr].end - sl[nr].begin
            nr += 1
        if total == 0:
            continue
        out = playbuf_reserve(c.out, total)
        if out == NULL:
            return
        q = out
        wl = wild_lo(c, w)
        wh = wild_hi(c, w)
        for r in range(nr):
            tail = head | head_of(0, c.lv[rk[r]], 0, 0) | wilds_of(w, heart(rk[r]), heart(rk[r]))
            for k in range(sl[r].begin, sl[r].end):
                put(q, slot_lo(&sl[r], k) | wl, slot_hi(&sl[r], k) | wh, tail)
                q += 1
        c.out.len += total


cdef void gen_singles_pairs_triples(ctx_t *c) noexcept nogil:
    cdef int kmin, jv
    cdef mask_t jb
    kmin = ordinary_min(c, GD_SINGLE)
    if kmin > NOT_WANTED:
        gen_same_rank(c, GD_SINGLE, 1, 0, kmin)
        if c.nw >= 1 and GD_LEVEL_VALUE > kmin:
            emit(c, 0, 0, GD_SINGLE, GD_LEVEL_VALUE, 0, 1, 1, c.wface, c.wface)
        for jv in range(2):
            jb = bit(BJ_BIT + jv)
            if (c.jlo & jb) and GD_BJ_VALUE + jv > kmin:
                emit(c, jb, 0, GD_SINGLE, GD_BJ_VALUE + jv, 0, 1, 0, 0, 0)
    kmin = ordinary_min(c, GD_PAIR)
    if kmin > NOT_WANTED:
        gen_same_rank(c, GD_PAIR, 2, 0, kmin)
        if c.nw == 2 and GD_LEVEL_VALUE > kmin:
            emit(c, 0, 0, GD_PAIR, GD_LEVEL_VALUE, 0, 2, 2, c.wface, c.wface)
        for jv in range(2):
            jb = bit(BJ_BIT + jv)
            if (c.jhi & jb) and GD_BJ_VALUE + jv > kmin:
                emit(c, jb, jb, GD_PAIR, GD_BJ_VALUE + jv, 0, 2, 0, 0, 0)
    kmin = ordinary_min(c, GD_TRIPLE)
    if kmin > NOT_WANTED:
        gen_same_rank(c, GD_TRIPLE, 3, 0, kmin)


cdef inline play_t *put_pairs(play_t *q, mask_t lo, mask_t hi, const pair_part_t *parts,
                              int begin, int end, uint64_t tail) noexcept nogil:
    """Write the triple lo/hi (wild bits included) with each of parts[begin:end], one tail
    for all, from `q` on; the record after the last."""
    cdef int j
    for j in range(begin, end):
        put(q, lo | parts[j].lo, hi | parts[j].hi, tail)
        q += 1
    return q


cdef inline play_t *put_wild_pairs(play_t *q, mask_t lo, mask_t hi, const pair_part_t *parts,
                                   int begin, int end, uint64_t head, int wt, int dt) noexcept nogil:
    """Write the triple lo/hi (wild bits included; `wt` of its wilds standing for dt) with
    each of parts[begin:end], a pair of one natural card and a wild, from `q` on; the
    record after the last."""
    cdef int j, dp
    for j in range(begin, end):
        dp = heart(parts[j].rank)
        if wt == 0:
            put(q, lo | parts[j].lo, hi | parts[j].hi, head | wilds_of(1, dp, dp))
        elif dp < dt:
            put(q, lo | parts[j].lo, hi | parts[j].hi, head | wilds_of(2, dp, dt))
        else:
            put(q, lo | parts[j].lo, hi | parts[j].hi, head | wilds_of(2, dt, dp))
        q += 1
    return q


cdef void gen_full_houses(ctx_t *c) noexcept nogil:
    cdef int kmin, T, P, P_k, wt, jv, k, j, pcanon, dt
    cdef uint64_t head, tail
    cdef slot_t st, sp
    # every possible pair, once, grouped by the wilds it uses and ordered by rank:
    # parts[w][first[w][P] : first[w][P + 1]] are the pairs of rank P with w wilds
    # (two naturals, or one natural and a wild); joker pairs come after rank K-A.
    cdef pair_part_t parts[2][MAX_PAIR_PARTS]
    cdef int first[2][N_RANKS + 2]
    cdef mask_t jb, tlo, thi, wlo, whi
    cdef play_t *out
    cdef play_t *q
    cdef unsigned triples        # bit T: a triple of rank T can be made and is high enough
    cdef unsigned held
    kmin = ordinary_min(c, GD_FULL_HOUSE)
    if kmin == NOT_WANTED:
        return
    triples = c.atleast[3 - c.nw] & ranks_above(c, kmin)
    if not triples:
        return  # no triple to build on
    for j in range(2):
        k = 0
        # only the ranks with 2 - j natural cards add pairs; the others' runs are empty
        held = c.atleast[2 - j] if j <= c.nw else 0
        for P in range(N_RANKS):
            first[j][P] = k
            if not (held >> P) & 1:
                continue
            sub_range(c, P, 2 - j, &sp)
            for P_k in range(sp.begin, sp.end):
                parts[j][k].lo = slot_lo(&sp, P_k)
                parts[j][k].hi = slot_hi(&sp, P_k)
                parts[j][k].rank = P
                k += 1
        first[j][N_RANKS] = k
        if j == 0 and c.flags & GD_FLAG_JOKER_PAIR_IN_FH:
            for jv in range(2):
                jb = bit(BJ_BIT + jv)
                if c.jhi & jb:
                    parts[0][k].lo = jb
                    parts[0][k].hi = jb
                    parts[0][k].rank = -1
                    k += 1
        first[j][N_RANKS + 1] = k
    while triples:
        T = lowest_bit(triples)
        triples &= triples - 1
        # both wilds as the pair: one play whatever rank they declare
        pcanon = c.level if T != c.level else (0 if T != 0 else 1)
        dt = heart(T)
        head = head_of(GD_FULL_HOUSE, c.lv[T], 5, 0)
        for wt in range((c.nw if c.nw < 2 else 2) + 1):
            sub_range(c, T, 3 - wt, &st)
            for k in range(st.begin, st.end):
                tlo = slot_lo(&st, k) | wild_lo(c, wt)
                thi = slot_hi(&st, k) | wild_hi(c, wt)
                # the pairs of every rank but T: natural, then (a wild to spare) with one
                q = playbuf_reserve(c.out, first[0][N_RANKS + 1] + first[1][N_RANKS + 1])
                if q == NULL:
                    return
                out = q
                tail = head | wilds_of(wt, dt, dt)
                q = put_pairs(q, tlo, thi, parts[0], first[0][0], first[0][T], tail)
                q = put_pairs(q, tlo, thi, parts[0], first[0][T + 1], first[0][N_RANKS + 1], tail)
                if c.nw - wt >= 1:
                    wlo = tlo | wild_lo(c, wt + 1)
                    whi = thi | wild_hi(c, wt + 1)
                    q = put_wild_pairs(q, wlo, whi, parts[1], first[1][0], first[1][T], head, wt, dt)
                    q = put_wild_pairs(q, wlo, whi, parts[1], first[1][T + 1], first[1][N_RANKS + 1],
                                       head, wt, dt)
                c.out.len += q - out
                if c.nw - wt == 2:
                    emit(c, slot_lo(&st, k), slot_hi(&st, k), GD_FULL_HOUSE, c.lv[T], 0, 5, 2, heart(pcanon), heart(pcanon))


# a window of consecutive ranks being filled (tubes, plates)
ctypedef struct window_t:
    int type
    int key
    int per_rank         # cards per rank: 2 or 3
    int n                # ranks in the window
    int ranks[5]
    int need[6]          # wilds needed by ranks j.. for lack of natural cards
    uint64_t head        # the plays' tail word without the wilds (head_of)


cdef void window_dfs(ctx_t *c, const window_t *w, int j, mask_t lo, mask_t hi, int nwu,
                     int d0, int d1) noexcept nogil:
    """Fill rank j of the window and the ones after it, every way; emit each full choice.

    `nwu` wilds are used so far, standing for d0 (and d1).
    """
    cdef int r, wj, wmax, k, nd0, nd1, nt
    cdef slot_t sl
    r = w.ranks[j]
    wj = w.per_rank - c.cnt[r]
    if wj < 0:
        wj = 0
    wmax = c.nw - nwu - w.need[j + 1]
    if wmax > w.per_rank:
        wmax = w.per_rank
    while wj <= wmax:
        nd0 = d0
        nd1 = d1
        if wj >= 1:
            if nwu == 0:
                nd0 = heart(r)
                nd1 = heart(r)
            else:
                nd1 = heart(r)
        sub_range(c, r, w.per_rank - wj, &sl)
        if j + 1 == w.n:
            # the last rank: every choice of it completes a play with the same tail
            nt = nwu + wj
            if nt == 2 and nd1 < nd0:
                nd0, nd1 = nd1, nd0
            if put_slot(c, &sl, lo | wild_lo(c, nt), hi | wild_hi(c, nt),
                        w.head | wilds_of(nt, nd0, nd1)) != 0:
                return
        else:
            for k in range(sl.begin, sl.end):
                window_dfs(c, w, j + 1, lo | slot_lo(&sl, k), hi | slot_hi(&sl, k),
                           nwu + wj, nd0, nd1)
        wj += 1


cdef void gen_windows_natural(ctx_t *c, int type_, int per_rank, int nranks, int npos,
                              int kmin) noexcept nogil:
    """Tubes and plates of a hand without wild cards: the windows whose every rank has
    `per_rank` natural cards (found as runs of bits), each choice of the first ranks
    written with every choice of the last."""
    cdef unsigned full, starts
    cdef int p, j, k0, k1, total
    cdef slot_t sl[3]
    cdef mask_t lo, hi
    cdef uint64_t tail
    cdef play_t *q
    full = low_ace(c.atleast[per_rank])   # bit i: the rank at window step i
    starts = full & (full >> 1)
    if nranks == 3:
        starts &= full >> 2
    starts &= ((1u << npos) - 1) & ~((1u << (kmin + 1)) - 1)
    while starts:
        p = lowest_bit(starts)
        starts &= starts - 1
        total = 1
        for j in range(nranks):
            sub_range(c, WINDOW_RANK[p + j], per_rank, &sl[j])
            total *= sl[j].end - sl[j].begin
        q = playbuf_reserve(c.out, total)
        if q == NULL:
            return
        c.out.len += total
        tail = tail_of(type_, p, nranks * per_rank, 0, 0, 0, 0)
        for k0 in range(sl[0].begin, sl[0].end):
            if nranks == 2:
                for k1 in range(sl[1].begin, sl[1].end):
                    put(q, slot_lo(&sl[0], k0) | slot_lo(&sl[1], k1), slot_hi(&sl[0], k0) | slot_hi(&sl[1], k1), tail)
                    q += 1
                continue
            for k1 in range(sl[1].begin, sl[1].end):
                lo = slot_lo(&sl[0], k0) | slot_lo(&sl[1], k1)
                hi = slot_hi(&sl[0], k0) | slot_hi(&sl[1], k1)
                for j in range(sl[2].begin, sl[2].end):
                    put(q, lo | slot_lo(&sl[2], j), hi | slot_hi(&sl[2], j), tail)
                    q += 1


cdef void gen_windows(ctx_t *c, int type_, int per_rank, int nranks, int npos) noexcept nogil:
    """Tubes (per_rank 2) and plates (3): consecutive ranks, ace low or high."""
    cdef int kmin, p, j, deficit
    cdef window_t w
    kmin = ordinary_min(c, type_)
    if kmin == NOT_WANTED:
        return
    if c.nw == 0:
        gen_windows_natural(c, type_, per_rank, nranks, npos, kmin)
        return
    w.type = type_
    w.per_rank = per_rank
    w.n = nranks
    for p in range(kmin + 1, npos):
        w.key = p
        w.head = head_of(type_, p, nranks * per_rank, 0)
        w.need[nranks] = 0
        for j in range(nranks - 1, -1, -1):
            w.ranks[j] = WINDOW_RANK[p + j]
            deficit = per_rank - c.cnt[w.ranks[j]]
            w.need[j] = w.need[j + 1] + (deficit if deficit > 0 else 0)
        if w.need[0] <= c.nw:
            window_dfs(c, &w, 0, 0, 0, 0, 0, 0)


cdef inline uint64_t full_windows(uint64_t ext, int nw) noexcept nogil:
    """Bit p: at most `nw` of the five bits ext >> p .. ext >> p + 4 are clear (counted
    bit-sliced, every position of the word at once)."""
    cdef uint64_t c0 = 0, c1 = 0, c2 = 0, x, t
    cdef int k
    for k in range(5):
        x = ext >> k
        t = c0 & x
        c0 ^= x
        c2 |= c1 & t
        c1 ^= t
    if nw == 0:
        return c2 & c0        # five present
    if nw == 1:
        return c2             # at least four
    return c2 | (c1 & c0)     # at least three


cdef inline unsigned windows_above(int kmin) noexcept nogil:
    """The window positions p in (kmin, N_STRAIGHT)."""
    return ((1u << N_STRAIGHT) - 1) & ~((1u << (kmin + 1)) - 1)


cdef inline unsigned windows_of(unsigned ext, int nw, int kmin) noexcept nogil:
    """The window positions p in (kmin, N_STRAIGHT) at which at most `nw` of the five
    ranks ext >> p .. ext >> p + 4 are missing (bit p)."""
    return <unsigned>full_windows(ext, nw) & windows_above(kmin)


cdef inline unsigned low_ace(unsigned ranks) noexcept nogil:
    """Rank bits as window bits: bit r + 1 for rank r, the ace copied to bit 0 (A-2-3-4-5)."""
    return (ranks << 1) | ((ranks >> RANK_A) & 1)


ctypedef struct window_gaps_t:   # the (window, gap set) pairs of a straight's search
    unsigned ext                 # the ranks held, as window bits (low_ace)
    unsigned wins                # the windows not yet started (windows_of)
    unsigned choices             # the current window's gap sets not yet given (COVERING)
    int nw                       # the wild cards
    int p                        # the current window


cdef inline void window_gaps_from(window_gaps_t *it, unsigned ext, unsigned wins, int nw) noexcept nogil:
    """Start at the windows `wins` (windows_of's, or a subset) of the ranks `ext`."""
    it.ext, it.wins, it.choices, it.nw, it.p = ext, wins, 0, nw, -1


cdef inline void window_gaps_start(window_gaps_t *it, unsigned ext, int nw, int kmin) noexcept nogil:
    window_gaps_from(it, ext, windows_of(ext, nw, kmin), nw)


cdef inline bint window_gaps_next(window_gaps_t *it, unsigned *g) noexcept nogil:
    """The next gap set ``g`` (``it.p``: its window) that fills every missing rank of a
    window with at most ``it.nw`` wild cards, windows ascending, then gap sets in GAPSET
    order; False when there is none left."""
    while not it.choices:
        if not it.wins:
            return False
        it.p = lowest_bit(it.wins)
        it.wins &= it.wins - 1
        it.choices = COVERING[~(it.ext >> it.p) & 0x1F][it.nw]
    g[0] = GAPSET[lowest_bit(it.choices)]
    it.choices &= it.choices - 1
    return True


cdef inline unsigned bad_suits(const ctx_t *c, int nd) noexcept nogil:
    """The suits whose natural cards alone make a straight a straight flush (not listed as
    a straight unless the rules count it as one): any suit without wilds, hearts (the
    wilds' suit) with `nd` >= 1."""
    if c.flags & GD_FLAG_SF_AS_STRAIGHT:
        return 0
    return (1u << SUIT_H) if nd else 0xFu


cdef inline play_t *put_crossed(play_t *q, const mask_t **op, const int *on, mask_t lo, mask_t hi,
                                uint64_t tail) noexcept nogil:
    """Write lo with one choice of each of the five ranks (op[j][:on[j]]) or'ed in, the
    first rank's varying slowest, hi and one tail for all, from `q` on; the record after
    the last."""
    cdef int i0, i1, i2, i3, n4 = on[4]
    cdef mask_t m0, m1, m2, m3
    # the last rank's choices, held in registers
    cdef mask_t l0 = op[4][0]
    cdef mask_t l1 = op[4][1] if n4 > 1 else 0
    cdef mask_t l2 = op[4][2] if n4 > 2 else 0
    cdef mask_t l3 = op[4][3] if n4 > 3 else 0
    for i0 in range(on[0]):
        m0 = lo | op[0][i0]
        for i1 in range(on[1]):
            m1 = m0 | op[1][i1]
            for i2 in range(on[2]):
                m2 = m1 | op[2][i2]
                for i3 in range(on[3]):
                    m3 = m2 | op[3][i3]
                    put(q, m3 | l0, hi, tail)
                    if n4 > 1:
                        put(q + 1, m3 | l1, hi, tail)
                        if n4 > 2:
                            put(q + 2, m3 | l2, hi, tail)
                            if n4 > 3:
                                put(q + 3, m3 | l3, hi, tail)
                    q += n4
    return q


cdef play_t *put_crossed_except(play_t *q, const mask_t **op, const int *on, mask_t lo, mask_t hi,
                                uint64_t tail, const mask_t *excl, int nex) noexcept nogil:
    """put_crossed, leaving out the records whose lo is one of excl[:nex] (a loop of its
    own: the check inside put_crossed's costs the common case, none to leave out, its
    values in registers; dropping them after writing copies the records behind them)."""
    cdef int i0, i1, i2, i3, i4, k
    cdef mask_t m, m0, m1, m2, m3
    for i0 in range(on[0]):
        m0 = lo | op[0][i0]
        for i1 in range(on[1]):
            m1 = m0 | op[1][i1]
            for i2 in range(on[2]):
                m2 = m1 | op[2][i2]
                for i3 in range(on[3]):
                    m3 = m2 | op[3][i3]
                    for i4 in range(on[4]):
                        m = m3 | op[4][i4]
                        for k in range(nex):
                            if m == excl[k]:
                                break
                        else:
                            put(q, m, hi, tail)
                            q += 1
    return q


cdef void gen_straights_concrete(ctx_t *c, int kmin, unsigned ext, unsigned bad_wild,
                                 unsigned bad_natural) noexcept nogil:
    """Every straight: at each window, every gap set G the wilds fill, every choice of
    one suit per natural rank, in order: the first rank's choice varying slowest, each
    rank's suits in order (`ext` as in gen_straights)."""
    cdef int p = -1, j, r, k, nd, nex, total
    cdef unsigned g, b, common
    cdef window_gaps_t it
    cdef mask_t rb[N_RANKS][N_SUITS]   # each rank's natural cards, one mask each
    cdef unsigned made = 0             # bit r: rb[r] made
    cdef mask_t none[1]
    cdef const mask_t *wop[5]          # the window's choices at each rank, their number,
    cdef int wn[5]                     # its natural suits and its place in a mask
    cdef unsigned wnib[5]
    cdef int wsh[5]
    cdef const mask_t *op[5]           # the same with the gap ranks' one empty choice
    cdef int on[5]
    cdef mask_t excl[4]
    cdef mask_t wl, wh
    cdef uint64_t tail
    cdef play_t *out
    cdef play_t *q
    none[0] = 0
    window_gaps_start(&it, ext, c.nw, kmin)
    while window_gaps_next(&it, &g):
        if it.p != p:  # a new window: its ranks' choices (each rank's made once)
            p = it.p
            for j in range(5):
                r = WINDOW_RANK[p + j]
                b = <unsigned>c.pat[r] & NIBBLE
                wsh[j] = r * RANK_BITS
                if not (made >> r) & 1:
                    made |= 1u << r
                    for k in range(N_SUITS):
                        rb[r][k] = <mask_t>SUIT_CHOICE[b][k] << wsh[j]
                wop[j] = &rb[r][0]
                wn[j] = SUIT_COUNT[b]
                wnib[j] = b
        total = 1
        common = bad_wild if g else bad_natural
        for j in range(5):
            if (g >> j) & 1:
                on[j] = 1
                op[j] = &none[0]
            else:
                on[j] = wn[j]
                op[j] = wop[j]
                total *= wn[j]
                common &= wnib[j]
        nd = GAP_COUNT[g]
        tail = STRAIGHT_TAIL[p][g]
        wl = wild_lo(c, nd)
        wh = wild_hi(c, nd)
        # the one-suit choices, straight flushes, that are not straights
        nex = 0
        while common:
            k = lowest_bit(common)
            common &= common - 1
            excl[nex] = wl
            for j in range(5):
                if not (g >> j) & 1:
                    excl[nex] |= (<mask_t>1 << k) << wsh[j]
            nex += 1
        out = playbuf_reserve(c.out, total)
        if out == NULL:
            return
        if nex == 0:
            q = put_crossed(out, op, on, wl, wh, tail)
        else:
            q = put_crossed_except(out, op, on, wl, wh, tail, excl, nex)
        c.out.len += q - out


cdef void gen_straights(ctx_t *c, mask_t nlo) noexcept nogil:
    """Five consecutive ranks, one card each, wild cards filling the gap set G (concrete:
    gen_straights_concrete)."""
    cdef int kmin, p, j, n, r, nd, lowest
    cdef int d[2]
    cdef unsigned ext, g, b, bad
    cdef window_gaps_t it
    cdef unsigned nib[5]
    cdef unsigned su
    cdef int sh[5]
    cdef mask_t acc
    kmin = ordinary_min(c, GD_STRAIGHT)
    if kmin == NOT_WANTED:
        return
    # ranks holding a natural card, the ace copied below the 2
    ext = low_ace(suit_ranks(nlo, 0) | suit_ranks(nlo, 1) | suit_ranks(nlo, 2) | suit_ranks(nlo, 3))
    if not c.collapse:
        gen_straights_concrete(c, kmin, ext, bad_suits(c, 1), bad_suits(c, 0))
        return
    window_gaps_start(&it, ext, c.nw, kmin)
    while window_gaps_next(&it, &g):
        p = it.p
        n = 0
        nd = d[0] = d[1] = 0
        for j in range(5):
            r = WINDOW_RANK[p + j]
            if (g >> j) & 1:
                d[nd] = heart(r)
                nd += 1
            else:
                nib[n] = <unsigned>c.pat[r] & NIBBLE
                sh[n] = r * RANK_BITS
                n += 1
        bad = bad_suits(c, nd)
        # one representative, the group's smallest: the lowest suit of each rank, or, if all
        # one forbidden suit, the next at the lowest rank by bits (A-5's ace the highest)
        acc = 0
        su = 0xF
        for j in range(n):
            b = nib[j] & (~nib[j] + 1)
            acc |= <mask_t>b << sh[j]
            su &= b
        if su & bad:
            lowest = -1
            for j in range(n):
                if nib[j] & ~su and (lowest < 0 or sh[j] < sh[lowest]):
                    lowest = j
            if lowest < 0:
                continue
            b = nib[lowest] & ~su
            acc = (acc & ~(<mask_t>su << sh[lowest])) | (<mask_t>(b & (~b + 1)) << sh[lowest])
        emit(c, acc, 0, GD_STRAIGHT, p, 0, 5, nd, d[0], d[1])


cdef void gen_straight_flushes(ctx_t *c, mask_t nlo) noexcept nogil:
    cdef int kmin, s, nd
    cdef play_t *out
    cdef play_t *q
    cdef unsigned g, above, suit_wins
    cdef uint64_t ext = 0, wins
    cdef window_gaps_t it
    kmin = bomb_min(c, GD_CLASS_SF)
    if kmin == NOT_WANTED:
        return
    # each suit's ranks as window bits in a lane of its own: one count for the four suits
    for s in range(N_SUITS):
        ext |= <uint64_t>low_ace(suit_ranks(nlo, s)) << (SUIT_LANE * s)
    wins = full_windows(ext, c.nw)
    above = windows_above(kmin)
    for s in range(N_SUITS):
        # wilds fill every missing rank, and may stand in for present ones too
        suit_wins = <unsigned>(wins >> (SUIT_LANE * s)) & above
        if not suit_wins:
            continue
        # room for every gap set of every window: at most N_GAPSETS[nw] a window
        q = playbuf_reserve(c.out, popcount(suit_wins) * N_GAPSETS[c.nw])
        if q == NULL:
            return
        out = q
        window_gaps_from(&it, <unsigned>(ext >> (SUIT_LANE * s)), suit_wins, c.nw)
        while window_gaps_next(&it, &g):
            nd = GAP_COUNT[g]
            put(q, (NATURAL_IN[it.p][g] << s) | wild_lo(c, nd), wild_hi(c, nd), SF_TAIL[s][it.p][g])
            q += 1
        c.out.len += q - out


cdef void gen_bombs(ctx_t *c) noexcept nogil:
    cdef int n, w, r, kmin, cls
    cdef unsigned ranks = c.atleast[4 - c.nw]   # the ranks of four or more cards, wilds added
    cdef slot_t sl
    while ranks:
        r = lowest_bit(ranks)
        ranks &= ranks - 1
        for n in range(4, c.cnt[r] + c.nw + 1):
            cls = n_kind_class(n)
            kmin = bomb_min(c, cls)
            if kmin == NOT_WANTED or c.lv[r] <= kmin:
                continue
            # n - w natural cards (all but w of the n, at most those held) and w wilds
            for w in range(n - c.cnt[r] if n > c.cnt[r] else 0, c.nw + 1):
                sub_range(c, r, n - w, &sl)
                if put_slot(c, &sl, wild_lo(c, w), wild_hi(c, w),
                            tail_of(GD_BOMB, c.lv[r], n, cls, w, heart(r), heart(r))) != 0:
                    return
    if (c.jhi >> BJ_BIT) & 1 and (c.jhi >> RJ_BIT) & 1 and bomb_min(c, GD_CLASS_FOUR_JOKERS) > NOT_WANTED:
        emit(c, c.jlo, c.jhi, GD_FOUR_JOKERS, 0, GD_CLASS_FOUR_JOKERS, 4, 0, 0, 0)


cdef int gd_generate(mask_t lo, mask_t hi, int level, int flags, int collapse,
                     const gd_target *target, playbuf_t *out) noexcept nogil:
    """Append every legal play of the hand (lo, hi) to `out`; -1 if memory ran out."""
    cdef ctx_t c
    cdef int r, m
    cdef mask_t nlo, nhi, counts
    c.out = out
    c.level = level
    c.flags = flags
    c.collapse = collapse
    c.wface = heart(level)
    c.wbit = bit(c.wface)
    c.nw = <int>((lo >> c.wface) & 1) + <int>((hi >> c.wface) & 1)
    c.jlo = lo & (bit(BJ_BIT) | bit(RJ_BIT))
    c.jhi = hi & (bit(BJ_BIT) | bit(RJ_BIT))
    nlo = lo & ~c.wbit
    nhi = hi & ~c.wbit
    memcpy(c.lv, LEVEL_VALUES[level], LV_ROW)
    memcpy(c.above_of, ABOVE[level], sizeof(c.above_of))
    # each rank's count of natural cards in its nibble (at most 8: no carry); then bit 4r
    # of (count + 8 - m) >> 3 says rank r holds at least m
    counts = nibble_counts(nlo) + nibble_counts(nhi)
    for m in range(5):
        c.atleast[m] = suit_ranks((counts + <mask_t>(8 - m) * EACH_NIBBLE) >> 3, 0)
    for r in range(N_RANKS):
        c.pat[r] = rank_pattern(nlo, nhi, r)
        c.cnt[r] = <int>((counts >> (r * RANK_BITS)) & NIBBLE)
    c.lead = target == NULL or target.type == 0
    if not c.lead:
        c.tg = target[0]
    gen_singles_pairs_triples(&c)
    gen_full_houses(&c)
    gen_straights(&c, nlo)
    gen_windows(&c, GD_TUBE, 2, 3, N_TUBE)
    gen_windows(&c, GD_PLATE, 3, 2, N_PLATE)
    gen_bombs(&c)
    gen_straight_flushes(&c, nlo)
    return -1 if out.oom else 0
