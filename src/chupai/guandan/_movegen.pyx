"""The Guan Dan legal-play generator (``spec/guandan.md``).

Wild cards are handled as pure wilds: every play is a sub-multiset of the hand's
natural cards plus 0, 1 or 2 wild cards with a canonical declaration (a wild standing
for its own face is the same play as that card played naturally, so nothing is
counted twice).  Each rank's natural cards are a nibble pair; a precomputed table
lists every sub-multiset of every nibble pattern by size, so a combination is a
product of per-rank choices.  The suit-collapsed view keeps only the first choice of
each size, which is exactly one representative per group of ``spec/cards.md``.
"""
from libc.stdint cimport uint8_t, uint16_t
from libc.string cimport memset

from chupai._core cimport (
    BJ_BIT,
    MAX_WILDS,
    N_RANKS,
    N_SUITS,
    NIBBLE,
    NO_FACE,
    RANK_BITS,
    RJ_BIT,
    SUIT_H,
    PlayList,
    bit,
    face_of,
    mask_t,
    play_t,
    playbuf_init,
    playbuf_push,
    playbuf_t,
    popcount,
    rank_nibble,
)

from chupai.cards import Cards
from chupai.guandan.play import Play
from chupai.guandan.rules import PAGAT, Rules, parse_rank

# --- the sub-multiset table ------------------------------------------------------
# A rank's natural cards form the pattern lo4 | hi4 << 4 (hi4 a subset of lo4).
# SUB[SUB_OFF[pat][m] : SUB_OFF[pat][m + 1]] lists every sub-multiset of size m of
# that pattern, packed the same way, in a fixed order.
cdef enum:
    MAX_PER_RANK = 8             # two copies of four suits
    N_PATTERNS = 256
    N_SUBS = 1296                # sum over valid patterns of prod(count + 1) = 6**4
    N_COUNT_VECTORS = 81         # per-suit counts 0..2 for four suits
    N_STRAIGHT = 10              # window positions: A-2-3-4-5 .. T-J-Q-K-A
    N_TUBE = 12
    N_PLATE = 13
    MAX_BOMB = 10

cdef uint8_t SUB[N_SUBS]
cdef uint16_t SUB_OFF[N_PATTERNS][MAX_PER_RANK + 2]
# bomb class of n of a kind (chupai.guandan.play.BOMB_CLASS)
cdef uint8_t N_KIND_CLASS[MAX_BOMB + 1]


cdef void _build_tables() noexcept:
    cdef int pos = 0, pat, lo4, hi4, m, code, s, d, c, size, packed, ok
    for pat in range(N_PATTERNS):
        lo4 = pat & NIBBLE
        hi4 = pat >> RANK_BITS
        for m in range(MAX_PER_RANK + 1):
            SUB_OFF[pat][m] = pos
            if hi4 & ~lo4:
                continue
            for code in range(N_COUNT_VECTORS):
                c = code
                size = 0
                packed = 0
                ok = 1
                for s in range(N_SUITS):
                    d = c % 3
                    c //= 3
                    if d > ((lo4 >> s) & 1) + ((hi4 >> s) & 1):
                        ok = 0
                    size += d
                    if d >= 1:
                        packed |= 1 << s
                    if d == 2:
                        packed |= 1 << (s + RANK_BITS)
                if ok and size == m:
                    SUB[pos] = packed
                    pos += 1
        SUB_OFF[pat][MAX_PER_RANK + 1] = pos
    assert pos == N_SUBS
    for m in range(MAX_BOMB + 1):
        N_KIND_CLASS[m] = 0
    N_KIND_CLASS[4] = 1
    N_KIND_CLASS[5] = 2
    for m in range(6, MAX_BOMB + 1):
        N_KIND_CLASS[m] = m - 2


_build_tables()


# --- the kernel ------------------------------------------------------------------
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
    uint8_t lv[N_RANKS]  # level-order value of each rank
    int pat[N_RANKS]     # natural-card pattern of each rank

# one factor of a product: the table entries [begin, end) of a rank
ctypedef struct slot_t:
    int begin
    int end
    int shift


cdef inline void sub_range(const ctx_t *c, int rank, int m, bint full, slot_t *s) noexcept nogil:
    """The size-m sub-multisets of a rank (only the first when collapsing, unless full)."""
    s.shift = rank * RANK_BITS
    if m < 0 or m > MAX_PER_RANK:
        s.begin = 0
        s.end = 0
        return
    s.begin = SUB_OFF[c.pat[rank]][m]
    s.end = SUB_OFF[c.pat[rank]][m + 1]
    if c.collapse and not full and s.end > s.begin:
        s.end = s.begin + 1


cdef inline int heart(int rank) noexcept nogil:
    return face_of(rank, SUIT_H)


cdef inline void prep(const ctx_t *c, play_t *t, int type_, int key, int cls, int length,
                      int nw, int d0, int d1) noexcept nogil:
    """A template record: everything but the natural cards."""
    cdef int tmp
    t.lo = 0
    t.hi = 0
    if nw >= 1:
        t.lo = c.wbit
    if nw == 2:
        t.hi = c.wbit
        if d1 < d0:
            tmp = d0
            d0 = d1
            d1 = tmp
    t.type = type_
    t.key = key
    t.length = length
    t.cls = cls
    t.nwild = nw
    t.flags = 0
    memset(t.decl, NO_FACE, MAX_WILDS)
    if nw >= 1:
        t.decl[0] = d0
    if nw == 2:
        t.decl[1] = d1


cdef inline void emit(ctx_t *c, const play_t *t, mask_t lo, mask_t hi) noexcept nogil:
    cdef play_t *p = playbuf_push(c.out)
    if p == NULL:
        return
    p[0] = t[0]
    p.lo |= lo
    p.hi |= hi


cdef inline int ordinary_min(const ctx_t *c, int type_) noexcept nogil:
    """The key a play of this ordinary type must exceed, or -2 if the type is not wanted."""
    if c.lead:
        return -1
    if c.tg.cls == 0 and c.tg.type == type_:
        return c.tg.key
    return -2


cdef inline int bomb_min(const ctx_t *c, int cls) noexcept nogil:
    """The key a bomb of this class must exceed, or -2 if the class cannot beat the target."""
    if c.lead or c.tg.cls < cls:
        return -1
    if c.tg.cls == cls:
        return c.tg.key
    return -2


cdef int product(ctx_t *c, const slot_t *slots, int n, int i, mask_t lo, mask_t hi,
                 unsigned suits, const play_t *t, int limit) noexcept nogil:
    """Emit one play per choice of a sub-multiset in each slot; at most `limit` (0: all).

    `suits` is the set of suits common to every natural card so far (straights only).
    """
    cdef int k, e, done = 0
    cdef mask_t sh
    if i == n:
        if (t.type == GD_STRAIGHT and not (c.flags & GD_FLAG_SF_AS_STRAIGHT) and suits
                and (t.nwild == 0 or (suits & (1 << SUIT_H)))):
            return 0  # all one physical suit: only a straight flush
        emit(c, t, lo, hi)
        return 1
    sh = slots[i].shift
    for k in range(slots[i].begin, slots[i].end):
        e = SUB[k]
        done += product(c, slots, n, i + 1,
                        lo | (<mask_t>(e & NIBBLE) << sh),
                        hi | (<mask_t>(e >> RANK_BITS) << sh),
                        suits & e, t, limit - done if limit else 0)
        if limit and done >= limit:
            break
    return done


cdef void gen_same_rank(ctx_t *c, int type_, int n, int cls, int kmin) noexcept nogil:
    """n cards declared as one rank with at least one natural card (singles .. bombs)."""
    cdef int r, w, wmax
    cdef slot_t s
    cdef play_t t
    wmax = c.nw if c.nw < n - 1 else n - 1
    for r in range(N_RANKS):
        if c.lv[r] <= kmin:
            continue
        for w in range(wmax + 1):
            sub_range(c, r, n - w, False, &s)
            if s.begin == s.end:
                continue
            prep(c, &t, type_, c.lv[r], cls, n, w, heart(r), heart(r))
            product(c, &s, 1, 0, 0, 0, 0, &t, 0)


cdef void gen_singles_pairs_triples(ctx_t *c) noexcept nogil:
    cdef int kmin, jv
    cdef play_t t
    kmin = ordinary_min(c, GD_SINGLE)
    if kmin > -2:
        gen_same_rank(c, GD_SINGLE, 1, 0, kmin)
        if c.nw >= 1 and GD_LEVEL_VALUE > kmin:
            prep(c, &t, GD_SINGLE, GD_LEVEL_VALUE, 0, 1, 1, c.wface, c.wface)
            emit(c, &t, 0, 0)
        for jv in range(2):
            if (c.jlo >> (BJ_BIT + jv)) & 1 and GD_BJ_VALUE + jv > kmin:
                prep(c, &t, GD_SINGLE, GD_BJ_VALUE + jv, 0, 1, 0, 0, 0)
                emit(c, &t, bit(BJ_BIT + jv), 0)
    kmin = ordinary_min(c, GD_PAIR)
    if kmin > -2:
        gen_same_rank(c, GD_PAIR, 2, 0, kmin)
        if c.nw == 2 and GD_LEVEL_VALUE > kmin:
            prep(c, &t, GD_PAIR, GD_LEVEL_VALUE, 0, 2, 2, c.wface, c.wface)
            emit(c, &t, 0, 0)
        for jv in range(2):
            if (c.jhi >> (BJ_BIT + jv)) & 1 and GD_BJ_VALUE + jv > kmin:
                prep(c, &t, GD_PAIR, GD_BJ_VALUE + jv, 0, 2, 0, 0, 0)
                emit(c, &t, bit(BJ_BIT + jv), bit(BJ_BIT + jv))
    kmin = ordinary_min(c, GD_TRIPLE)
    if kmin > -2:
        gen_same_rank(c, GD_TRIPLE, 3, 0, kmin)


cdef void gen_full_houses(ctx_t *c) noexcept nogil:
    cdef int kmin, T, P, wt, jv, k, pcanon
    cdef slot_t st, sp
    cdef slot_t slots[2]
    cdef play_t t
    cdef mask_t jb
    kmin = ordinary_min(c, GD_FULL_HOUSE)
    if kmin == -2:
        return
    for T in range(N_RANKS):
        if c.lv[T] <= kmin:
            continue
        for wt in range((c.nw if c.nw < 2 else 2) + 1):
            sub_range(c, T, 3 - wt, False, &st)
            if st.begin == st.end:
                continue
            slots[0] = st
            for P in range(N_RANKS):
                if P == T:
                    continue
                # the pair: two naturals, or one natural and a wild
                sub_range(c, P, 2, False, &slots[1])
                prep(c, &t, GD_FULL_HOUSE, c.lv[T], 0, 5, wt, heart(T), heart(T))
                product(c, slots, 2, 0, 0, 0, 0, &t, 0)
                if c.nw - wt >= 1:
                    sub_range(c, P, 1, False, &slots[1])
                    prep(c, &t, GD_FULL_HOUSE, c.lv[T], 0, 5, wt + 1, heart(T), heart(P))
                    product(c, slots, 2, 0, 0, 0, 0, &t, 0)
            if c.flags & GD_FLAG_JOKER_PAIR_IN_FH:
                for jv in range(2):
                    if (c.jhi >> (BJ_BIT + jv)) & 1:
                        jb = bit(BJ_BIT + jv)
                        prep(c, &t, GD_FULL_HOUSE, c.lv[T], 0, 5, wt, heart(T), heart(T))
                        product(c, &st, 1, 0, jb, jb, 0, &t, 0)
            if c.nw - wt == 2:
                # both wilds as the pair: one play whatever rank they declare
                pcanon = c.level if T != c.level else (0 if T != 0 else 1)
                prep(c, &t, GD_FULL_HOUSE, c.lv[T], 0, 5, 2, heart(pcanon), heart(pcanon))
                product(c, &st, 1, 0, 0, 0, 0, &t, 0)


cdef void gen_windows(ctx_t *c, int type_, int nranks, int npos, int per_rank) noexcept nogil:
    """Straights (per_rank 1), tubes (2) and plates (3): consecutive ranks, ace low or high.

    Each rank takes `per_rank` cards, `w` of them wild (0..per_rank, at most the wilds held).
    """
    cdef int kmin, p, j, r, code, w, nwu, limit, wj, nd
    cdef int d[2]
    cdef int ranks[5]
    cdef int wr[5]
    cdef slot_t slots[5]
    cdef play_t t
    cdef bint full, empty
    kmin = ordinary_min(c, type_)
    if kmin == -2:
        return
    # a collapsed straight without the flag must search for a choice that is not all one suit
    full = type_ == GD_STRAIGHT and not (c.flags & GD_FLAG_SF_AS_STRAIGHT)
    limit = 1 if c.collapse and full else 0
    for p in range(kmin + 1, npos):
        for j in range(nranks):
            ranks[j] = (p + N_RANKS - 1 + j) % N_RANKS
        # every split of the wilds over the ranks: a base-(per_rank + 1) counter
        for code in range(_ipow(per_rank + 1, nranks)):
            w = code
            nwu = 0
            nd = 0
            empty = False
            for j in range(nranks):
                wr[j] = w % (per_rank + 1)
                w //= per_rank + 1
                nwu += wr[j]
            if nwu > c.nw:
                continue
            for j in range(nranks):
                for wj in range(wr[j]):
                    d[nd] = heart(ranks[j])
                    nd += 1
                sub_range(c, ranks[j], per_rank - wr[j], full, &slots[j])
                if slots[j].begin == slots[j].end:
                    empty = True
                    break
            if empty:
                continue
            prep(c, &t, type_, p, 0, nranks * per_rank, nwu, d[0], d[1])
            product(c, slots, nranks, 0, 0, 0, 0xF, &t, limit)


cdef inline int _ipow(int b, int e) noexcept nogil:
    cdef int r = 1
    while e > 0:
        r *= b
        e -= 1
    return r


cdef void gen_straight_flushes(ctx_t *c, mask_t nlo) noexcept nogil:
    cdef int kmin, s, p, j, g, nd, present, missing
    cdef int d[2]
    cdef int ranks[5]
    cdef mask_t lo
    cdef play_t t
    kmin = bomb_min(c, GD_CLASS_SF)
    if kmin == -2:
        return
    for p in range(kmin + 1, N_STRAIGHT):
        for j in range(5):
            ranks[j] = (p + N_RANKS - 1 + j) % N_RANKS
        for s in range(N_SUITS):
            present = 0
            for j in range(5):
                if (nlo >> face_of(ranks[j], s)) & 1:
                    present |= 1 << j
            missing = ~present & 0x1F
            if popcount(missing) > c.nw:
                continue
            # wilds fill every missing rank, and may stand in for present ones too
            for g in range(32):
                if (g & missing) != missing or popcount(g) > c.nw:
                    continue
                lo = 0
                nd = 0
                for j in range(5):
                    if (g >> j) & 1:
                        d[nd] = face_of(ranks[j], s)
                        nd += 1
                    else:
                        lo |= bit(face_of(ranks[j], s))
                prep(c, &t, GD_STRAIGHT_FLUSH, p, GD_CLASS_SF, 5, nd, d[0], d[1])
                emit(c, &t, lo, 0)


cdef void gen_bombs(ctx_t *c) noexcept nogil:
    cdef int n, kmin
    cdef play_t t
    for n in range(4, MAX_BOMB + 1):
        kmin = bomb_min(c, N_KIND_CLASS[n])
        if kmin > -2:
            gen_same_rank(c, GD_BOMB, n, N_KIND_CLASS[n], kmin)
    if (c.jhi >> BJ_BIT) & 1 and (c.jhi >> RJ_BIT) & 1 and bomb_min(c, GD_CLASS_FOUR_JOKERS) > -2:
        prep(c, &t, GD_FOUR_JOKERS, 0, GD_CLASS_FOUR_JOKERS, 4, 0, 0, 0)
        emit(c, &t, c.jlo, c.jhi)


cdef int gd_generate(mask_t lo, mask_t hi, int level, int flags, int collapse,
                     const gd_target *target, playbuf_t *out) noexcept nogil:
    """Append every legal play of the hand (lo, hi) to `out`; -1 if memory ran out."""
    cdef ctx_t c
    cdef int r, nw
    cdef mask_t nlo, nhi
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
    for r in range(N_RANKS):
        c.lv[r] = GD_LEVEL_VALUE if r == level else (r if r < level else r - 1)
        c.pat[r] = <int>(rank_nibble(nlo, r) | (rank_nibble(nhi, r) << RANK_BITS))
    c.lead = target == NULL or target.type == 0
    if not c.lead:
        c.tg = target[0]
    gen_singles_pairs_triples(&c)
    gen_full_houses(&c)
    gen_windows(&c, GD_STRAIGHT, 5, N_STRAIGHT, 1)
    gen_windows(&c, GD_TUBE, 3, N_TUBE, 2)
    gen_windows(&c, GD_PLATE, 2, N_PLATE, 3)
    gen_bombs(&c)
    gen_straight_flushes(&c, nlo)
    return -1 if out.oom else 0


# --- the Python entry point ---------------------------------------------------------
cdef dict _LEVELS = {}
for _r, _ch in enumerate("23456789TJQKA"):
    _LEVELS[_ch] = _r
    _LEVELS[_ch.lower()] = _r
_LEVELS["10"] = 8

cdef object _make_play = Play._from_record


cdef inline int _level_index(object level) except -1:
    cdef object r = _LEVELS.get(level) if isinstance(level, str) else None
    if r is None:
        return parse_rank(level, "level")
    return r


cdef tuple _hand_masks(object hand):
    cdef tuple layers
    if not isinstance(hand, Cards):
        hand = Cards(hand)
    layers = (<object>hand)._layers
    if len(layers) > 2:
        raise ValueError(f"hand {hand} holds a card more than twice; Guan Dan has two decks")
    return (layers[0] if len(layers) > 0 else 0, layers[1] if len(layers) > 1 else 0)


def legal_plays(hand, level, previous=None, *, rules=None, collapse_suits=False):
    """Every legal play of a Guan Dan hand (``spec/guandan.md``).

    Args:
        hand: a ``Cards`` or a card string such as ``"7S 7S 2H BJ"``.
        level: the level rank being played, ``'2'`` .. ``'A'`` (``'10'`` or ``'T'``).
        previous: the ``Play`` to beat, or ``None`` when leading.
        rules: a ``Rules`` object (default ``Rules.pagat()``).
        collapse_suits: one representative per suit-collapsed group
            (``spec/cards.md``) instead of every concrete play.

    Returns:
        A ``PlayList``: leading, every combination the hand can form; following, every
        play that beats ``previous`` (passing is always allowed then and is not listed).

    >>> plays = legal_plays("3D 4S 5C 6H 7S 7H", "7")
    >>> len(plays)
    18
    """
    cdef int lv = _level_index(level)
    cdef int flags
    cdef mask_t lo, hi
    cdef gd_target tg
    cdef PlayList out
    cdef int rc
    lo, hi = _hand_masks(hand)
    if rules is None:
        flags = PAGAT._flags
    elif isinstance(rules, Rules):
        flags = rules._flags
    else:
        raise ValueError(f"rules must be a guandan.Rules, not {type(rules).__name__}")
    tg.type = 0
    tg.key = 0
    tg.cls = 0
    if previous is not None:
        if not isinstance(previous, Play):
            raise ValueError(f"previous must be a Play or None, not {previous!r}")
        if (<object>previous)._level != lv:
            raise ValueError(
                f"previous play {previous} was formed at level {previous.level}, not {level!r}"
            )
        tg.type = (<object>previous)._type
        tg.key = (<object>previous)._key
        tg.cls = (<object>previous)._cls
    out = PlayList.__new__(PlayList)
    out.factory = _make_play
    out.context = lv
    if playbuf_init(&out.buf, 64 if tg.type else 512) != 0:
        raise MemoryError("cannot allocate the play buffer")
    cdef int collapse = 1 if collapse_suits else 0
    with nogil:
        rc = gd_generate(lo, hi, lv, flags, collapse, &tg, &out.buf)
    if rc != 0:
        raise MemoryError("the play buffer could not grow")
    return out
