# The card core: the bit layout, written down once, and the play buffer.
#
# One card face is one bit of a uint64: bit = rank * 4 + suit, ranks 2..A -> 0..12,
# suits S H C D -> 0..3, the black joker is bit 52 and the red joker bit 53.
# A one-deck set is one word.  A two-deck multiset is two words: `lo` holds the
# faces held at least once, `hi` the faces held twice (hi is a subset of lo).
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memset

ctypedef uint64_t mask_t

cdef enum:
    N_RANKS = 13
    N_SUITS = 4
    N_FACES = 54
    SUIT_S = 0
    SUIT_H = 1
    SUIT_C = 2
    SUIT_D = 3
    RANK_2 = 0
    RANK_T = 8
    RANK_A = 12
    BJ_BIT = 52
    RJ_BIT = 53
    RANK_BITS = 4           # bits per rank nibble
    NIBBLE = 0xF
    NO_FACE = 0xFF          # an unused slot of play_t.decl
    MAX_WILDS = 10          # wild cards one play may declare

cdef extern from *:
    """
    #define CHUPAI_SUITED_MASK 0x000FFFFFFFFFFFFFULL
    #define CHUPAI_JOKER_MASK 0x0030000000000000ULL
    #define CHUPAI_SUIT_S_MASK 0x0001111111111111ULL
    """
    # the 52 suited faces; the two jokers; the spades (shift left by the suit)
    const mask_t SUITED_MASK "CHUPAI_SUITED_MASK"
    const mask_t JOKER_MASK "CHUPAI_JOKER_MASK"
    const mask_t SUIT_S_MASK "CHUPAI_SUIT_S_MASK"

# One play, as the generators write it: the physical cards (wilds as themselves; lo/hi
# a two-deck multiset as above), the cards it takes from the table (the captures of a
# fishing game; 0 in the shedding games), the type and comparison key (their meaning
# is the game's), and what each wild card stands for, in the order of the wild cards'
# faces.
ctypedef struct play_t:
    mask_t lo
    mask_t hi
    mask_t taken
    uint8_t type
    uint8_t key
    uint8_t length
    uint8_t cls
    uint8_t nwild
    uint8_t flags
    uint8_t decl[MAX_WILDS]

# The play a generator must beat, as the kernels read it: the fields of its record;
# type 0 when leading (nothing to beat).
ctypedef struct target_t:
    int type
    int key
    int length
    int cls

cdef inline void target_set(target_t *t, const play_t *p) noexcept nogil:
    """`t` is the play `p` to beat (`p` NULL: leading)."""
    if p == NULL:
        t.type = 0
        t.key = 0
        t.length = 0
        t.cls = 0
    else:
        t.type = p.type
        t.key = p.key
        t.length = p.length
        t.cls = p.cls

# A growable array of plays owned by whoever created it.  `oom` is set (and the
# play dropped) if the array could not grow; callers raise MemoryError on it.
ctypedef struct playbuf_t:
    play_t *data
    Py_ssize_t len
    Py_ssize_t cap
    int oom

cdef int playbuf_init(playbuf_t *buf, Py_ssize_t cap) noexcept nogil
cdef void playbuf_free(playbuf_t *buf) noexcept nogil
cdef int playbuf_grow(playbuf_t *buf) noexcept nogil
cdef void playbuf_trim(playbuf_t *buf, Py_ssize_t slack) noexcept nogil

cdef inline play_t *playbuf_push(playbuf_t *buf) noexcept nogil:
    """A fresh record at the end of the buffer, or NULL (and `oom`) if it cannot grow."""
    if buf.len == buf.cap and playbuf_grow(buf) != 0:
        return NULL
    buf.len += 1
    return &buf.data[buf.len - 1]

cdef inline play_t *playbuf_reserve(playbuf_t *buf, Py_ssize_t n) noexcept nogil:
    """Room for `n` more records: a pointer to the first, or NULL (and `oom`); the caller
    writes those it needs, then adds their number to the length."""
    while buf.cap - buf.len < n:
        if playbuf_grow(buf) != 0:
            return NULL
    return &buf.data[buf.len]

cdef inline void play_set(play_t *p, mask_t lo, mask_t hi, int type_, int key, int length,
                          int cls) noexcept nogil:
    """`p` is a play without wild cards (nwild and flags 0, no declaration)."""
    p.lo = lo
    p.hi = hi
    p.taken = 0
    p.type = type_
    p.key = key
    p.length = length
    p.cls = cls
    p.nwild = 0
    p.flags = 0
    memset(p.decl, NO_FACE, MAX_WILDS)

cdef inline play_t *play_push(playbuf_t *buf, mask_t lo, mask_t hi, int type_, int key,
                             int length, int cls) noexcept nogil:
    """Append a play without wild cards (see `play_set`); the record, for the caller to
    add wild cards to, or NULL (and `oom`) if the buffer cannot grow."""
    cdef play_t *p = playbuf_push(buf)
    if p == NULL:
        return NULL
    play_set(p, lo, hi, type_, key, length, cls)
    return p

cdef inline mask_t nibble_counts(mask_t m) noexcept nogil:
    """The number of bits set in each nibble of `m`, in that nibble (SWAR): the cards
    held of each rank of a one-deck set."""
    m = m - ((m >> 1) & 0x5555555555555555ULL)
    return (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL)

cdef inline int popcount(mask_t m) noexcept nogil:
    # SWAR popcount: portable and branch-free (the builtin is a library call without
    # -mpopcnt, which the default build does not assume)
    m = nibble_counts(m)
    m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0FULL
    return <int>((m * 0x0101010101010101ULL) >> 56)

cdef extern from *:
    """
    /* The index of the lowest set bit of a non-zero word: isolate it, multiply by a
       de Bruijn sequence, and look up the top six bits (portable, branch-free). */
    static inline int chupai_lowest_bit(unsigned long long m) {
        static const unsigned char index[64] = {
            0, 1, 2, 53, 3, 7, 54, 27, 4, 38, 41, 8, 34, 55, 48, 28, 62, 5, 39, 46, 44, 42,
            22, 9, 24, 35, 59, 56, 49, 18, 29, 11, 63, 52, 6, 26, 37, 40, 33, 47, 61, 45, 43,
            21, 23, 58, 17, 10, 51, 25, 36, 32, 60, 20, 57, 16, 50, 31, 19, 15, 30, 14, 13, 12};
        return index[((m & (~m + 1ULL)) * 0x022FDD63CC95386DULL) >> 58];
    }
    """
    # the index of the lowest set bit of m (m != 0): a face number, or a rank of a rank set
    int lowest_bit "chupai_lowest_bit"(mask_t m) noexcept nogil

cdef inline int face_of(int rank, int suit) noexcept nogil:
    return rank * RANK_BITS + suit

cdef inline mask_t bit(int face) noexcept nogil:
    return (<mask_t>1) << face

cdef inline unsigned suit_ranks(mask_t m, int suit) noexcept nogil:
    """The ranks (bit r for rank r) at which `m` holds the card of `suit`."""
    cdef mask_t x = (m >> suit) & SUIT_S_MASK
    x = (x | (x >> 3)) & 0x0303030303030303ULL
    x = (x | (x >> 6)) & 0x000F000F000F000FULL
    x = (x | (x >> 12)) & 0x000000FF000000FFULL
    x = (x | (x >> 24)) & 0xFFFFULL
    return <unsigned>x

cdef inline unsigned rank_nibble(mask_t m, int rank) noexcept nogil:
    return <unsigned>((m >> (rank * RANK_BITS)) & NIBBLE)


# --- two-deck multisets (lo, hi) ---------------------------------------------------------
cdef inline int rank_pattern(mask_t lo, mask_t hi, int rank) noexcept nogil:
    """The cards held of `rank` as one byte: the lo nibble, then the hi nibble."""
    return <int>(rank_nibble(lo, rank) | (rank_nibble(hi, rank) << RANK_BITS))

cdef inline int rank_count(mask_t lo, mask_t hi, int rank) noexcept nogil:
    """The number of cards held of `rank`."""
    return popcount(rank_nibble(lo, rank)) + popcount(rank_nibble(hi, rank))

cdef inline int multiset_size(mask_t lo, mask_t hi) noexcept nogil:
    return popcount(lo) + popcount(hi)

cdef inline bint multiset_valid(mask_t lo, mask_t hi) noexcept nogil:
    """Faces below N_FACES only, and `hi` a subset of `lo`."""
    return (lo >> N_FACES) == 0 and (hi & ~lo) == 0

cdef inline void multiset_add(mask_t *lo, mask_t *hi, int face) noexcept nogil:
    """Add one copy of `face` (held at most once before)."""
    cdef mask_t b = bit(face)
    if lo[0] & b:
        hi[0] |= b
    else:
        lo[0] |= b

cdef inline void multiset_remove(mask_t *lo, mask_t *hi, mask_t plo, mask_t phi) noexcept nogil:
    """Remove the cards (plo, phi), which are held: a face held twice and removed once
    stays held once."""
    lo[0] = (lo[0] & ~plo) | (hi[0] & ~phi)
    hi[0] = hi[0] & ~plo


# --- the sub-multiset table -------------------------------------------------------------
# A rank's cards form the pattern lo4 | hi4 << 4 (rank_pattern; hi4 a subset of lo4).
# sub[off[pat][m] : off[pat][m + 1]] lists every sub-multiset of size m of that pattern,
# packed the same way, in a fixed order; sub[rep[pat][m]] is the one a suit-collapsed view
# keeps, the smallest by (hi4, lo4) (its play then the group's smallest by (hi, lo)), and
# count[pat] is the pattern's number of cards.  One table, built once by records: a
# module keeps the pointer `rank_subsets()` returns at import.
cdef enum:
    MAX_PER_RANK = 8             # two copies of four suits
    N_PATTERNS = 256
    N_SUBS = 1296                # sum over valid patterns of prod(count + 1) = 6**4

ctypedef struct subsets_t:
    uint8_t sub[N_SUBS]
    uint16_t off[N_PATTERNS][MAX_PER_RANK + 2]
    uint16_t rep[N_PATTERNS][MAX_PER_RANK + 1]
    uint8_t count[N_PATTERNS]

# one factor of a product of per-rank choices: the table entries [begin, end) of a rank
ctypedef struct slot_t:
    const uint8_t *sub
    int begin
    int end
    int shift

cdef const subsets_t *rank_subsets() noexcept nogil

cdef inline void subset_slot(const subsets_t *t, int pat, int rank, int m, bint first_only,
                             slot_t *s) noexcept nogil:
    """The size-m sub-multisets of the cards `pat` of `rank` (only the suit-collapsed
    view's if `first_only`); none when m is out of range."""
    s.sub = &t.sub[0]
    s.shift = rank * RANK_BITS
    if m < 0 or m > MAX_PER_RANK:
        s.begin = 0
        s.end = 0
        return
    s.begin = t.off[pat][m]
    s.end = t.off[pat][m + 1]
    if first_only and s.end > s.begin:
        s.begin = t.rep[pat][m]
        s.end = s.begin + 1

cdef inline mask_t slot_lo(const slot_t *s, int k) noexcept nogil:
    """The lo mask of entry k of a slot, at its rank."""
    return <mask_t>(s.sub[k] & NIBBLE) << s.shift

cdef inline mask_t slot_hi(const slot_t *s, int k) noexcept nogil:
    return <mask_t>(s.sub[k] >> RANK_BITS) << s.shift


cimport cython


cdef class PlayMaker:
    """Makes the Play object of a record without a Python call (a game's compiled
    factory, see chupai.core.play); a PlayList whose factory is one uses it directly."""
    cdef object make(self, const play_t *p, object context)


cdef class GameClasses:
    """The Python classes of one game that its compiled modules use (its Play class, its
    Rules class and their default), bound once from the Python side by the game's
    ``play`` module: a compiled layer imports nothing above it (docs/design.md, "Layers")."""
    cdef readonly str game               # the game's package name, e.g. "guandan"
    cdef readonly type play              # the game's Play class (None until bound)
    cdef readonly type rules             # its Rules class
    cdef readonly object pagat           # Rules(): what rules=None means
    cdef readonly object factory         # Play._from_record
    cdef readonly int pagat_flags        # pagat._flags
    # `pagat` for None, `rules` if it is one of the game's Rules; TypeError otherwise
    cdef object rules_of(self, object rules)


@cython.no_gc
cdef class PlayList:
    """A sequence of plays backed by a C buffer (see the game modules)."""
    cdef playbuf_t buf
    cdef object factory
    cdef PlayMaker maker         # the factory if it is a PlayMaker, else None
    cdef object context
    cdef object __weakref__
    cdef object _get(self, Py_ssize_t i)


# --- the Python wrappers' shared steps ------------------------------------------------
# (inline where the wrappers are on the hot path of an API call)
# The return codes of generators and playouts: 0, or one of these.
cdef enum:
    GEN_OOM = -1                 # the play buffer could not grow
    GEN_TOO_MANY = -2            # a concrete list past the game's play limit

cdef int raise_generated(int rc) except -1

cdef inline int check_grown(int rc) except -1:
    """MemoryError if `rc` (a generator's or playout's return code) is not 0: the play
    buffer could not grow, or (GEN_TOO_MANY) a concrete list past the play limit."""
    if rc != 0:
        return raise_generated(rc)
    return 0

cdef inline int playbuf_open(playbuf_t *buf, Py_ssize_t cap) except -1:
    """A scratch buffer of `cap` records, or MemoryError."""
    if playbuf_init(buf, cap) != 0:
        raise MemoryError("cannot allocate the play buffer")
    return 0

cdef inline int playbuf_close(playbuf_t *buf, int rc) except -1:
    """Free a scratch buffer, then check_grown(rc)."""
    playbuf_free(buf)
    return check_grown(rc)

cdef inline PlayList empty_playlist(object factory, object context):
    """An empty PlayList of the game's `factory` and `context`, holding no buffer."""
    cdef PlayList out = PlayList.__new__(PlayList)
    out.factory = factory
    out.maker = factory if isinstance(factory, PlayMaker) else None
    out.context = context
    return out

cdef inline PlayList new_playlist(object factory, object context, Py_ssize_t cap):
    """An empty PlayList of the game's `factory` and `context`, room for `cap` records."""
    cdef PlayList out = empty_playlist(factory, context)
    playbuf_open(&out.buf, cap)
    return out

# A generator's Python entry (the GIL held from start to end) starts its list in a roomy
# buffer, room for nearly every position's plays, and leaves the spare room to the list
# until it is needed: the next roomy list gives the room of the one before back if that
# list still lives, and a list that dies leaves its buffer (up to SPARE_MAX records) to
# the next roomy list.  So a list made and dropped before the next costs no allocation,
# at most one list holds spare room, and at most one buffer waits.  (No C code holds a
# pointer into a list's records while Python code runs; a list's records never move while
# it lives except when its spare room is given back.)
cdef PlayList roomy_playlist(object factory, object context, Py_ssize_t cap)
# After the generator filled `out` (from roomy_playlist): it keeps its spare room until
# the next roomy list if it has much (more than a few dozen records).
cdef void roomy_filled(PlayList out) noexcept

# The Play object of a record, made by the game's factory (directly if a PlayMaker).
cdef object play_object(object factory, const play_t *p, object context)
# A seed (int or numpy integer, not bool) in [0, 2**64) as 64 bits; TypeError for another
# type, ValueError out of range (chupai.core.validate.check_seed's rule).
cdef uint64_t seed64(object seed) except? 0
# policies[policy]; TypeError for a non-str, ValueError for an unknown name.
cdef int policy_code(dict policies, object policy) except -1
# `default` for None, `rules` if it is a `cls`; TypeError naming `name` otherwise.
cdef object checked_rules(object rules, type cls, object default, str name)


# --- the random number generator -------------------------------------------------------
# xoshiro256** seeded through splitmix64: the same seed gives the same stream on every
# machine.  Each playout or deal derives its own stream from (seed, index), so results
# do not depend on how work is split between threads.
ctypedef struct rng_t:
    uint64_t s[4]

cdef inline uint64_t splitmix64(uint64_t *x) noexcept nogil:
    x[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)

# The deal seed of deal `episode` of table `table` of tables seeded with `seed` (a
# VectorEnv's, chupai.core.seeds.table_deal): a splitmix64 hash of the three, below 2**63;
# the salt ("chupai.d") keeps the deal seeds apart from the policies' streams
# (rng_seed(seed, table)).
cdef inline uint64_t table_deal_hash(uint64_t seed, uint64_t table, uint64_t episode) noexcept nogil:
    cdef uint64_t x = episode ^ 0x6368757061692E64ULL
    x = table ^ splitmix64(&x)
    x = seed ^ splitmix64(&x)
    return splitmix64(&x) & 0x7FFFFFFFFFFFFFFFULL

# numpy's SeedSequence([seed, index]).generate_state(1, uint64) below 2**63: the seed of
# deal `index` of a match seeded with `seed` (chupai.core.seeds.match_deal).  The entropy
# is each int's 32-bit words from the low end (one word for 0), mixed into a pool of four
# words (numpy.random.bit_generator: hashmix, mix), from which two words are drawn.
cdef inline uint32_t _ss_hashmix(uint32_t value, uint32_t *hash_const) noexcept nogil:
    value ^= hash_const[0]
    hash_const[0] *= 0x931E8875U
    value *= hash_const[0]
    return value ^ (value >> 16)

cdef inline uint32_t _ss_mix(uint32_t x, uint32_t y) noexcept nogil:
    cdef uint32_t r = 0xCA01F9DDU * x - 0x4973F715U * y
    return r ^ (r >> 16)

cdef inline uint64_t match_deal_hash(uint64_t seed, uint64_t index) noexcept nogil:
    cdef uint32_t entropy[4]
    cdef uint32_t pool[4]
    cdef uint32_t hash_const = 0x43B0D7E5U
    cdef uint32_t out[2]
    cdef uint32_t v
    cdef int n = 0, i, j
    entropy[n] = <uint32_t>seed
    n += 1
    if seed >> 32:
        entropy[n] = <uint32_t>(seed >> 32)
        n += 1
    entropy[n] = <uint32_t>index
    n += 1
    if index >> 32:
        entropy[n] = <uint32_t>(index >> 32)
        n += 1
    for i in range(4):
        pool[i] = _ss_hashmix(entropy[i] if i < n else 0, &hash_const)
    for i in range(4):
        for j in range(4):
            if i != j:
                pool[j] = _ss_mix(pool[j], _ss_hashmix(pool[i], &hash_const))
    hash_const = 0x8B51F9DDU
    for i in range(2):
        v = pool[i] ^ hash_const
        hash_const *= 0x58F38DEDU
        v *= hash_const
        out[i] = v ^ (v >> 16)
    return ((<uint64_t>out[1] << 32) | out[0]) & 0x7FFFFFFFFFFFFFFFULL

cdef inline void rng_seed(rng_t *r, uint64_t seed, uint64_t stream) noexcept nogil:
    cdef uint64_t x = seed ^ splitmix64(&stream)
    r.s[0] = splitmix64(&x)
    r.s[1] = splitmix64(&x)
    r.s[2] = splitmix64(&x)
    r.s[3] = splitmix64(&x)

cdef inline uint64_t _rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))

cdef inline uint64_t rng_next(rng_t *r) noexcept nogil:
    cdef uint64_t result = _rotl(r.s[1] * 5, 7) * 9
    cdef uint64_t t = r.s[1] << 17
    r.s[2] ^= r.s[0]
    r.s[3] ^= r.s[1]
    r.s[1] ^= r.s[2]
    r.s[0] ^= r.s[3]
    r.s[2] ^= t
    r.s[3] = _rotl(r.s[3], 45)
    return result

cdef inline uint32_t rng_below(rng_t *r, uint32_t n) noexcept nogil:
    """Uniform in [0, n), n >= 1 (Lemire's multiply-shift with rejection)."""
    cdef uint64_t m = (rng_next(r) >> 32) * n
    cdef uint32_t low = <uint32_t>m, threshold
    if low < n:
        threshold = (<uint32_t>(-n)) % n
        while low < threshold:
            m = (rng_next(r) >> 32) * n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef inline void rng_shuffle(uint8_t *a, int n, rng_t *r) noexcept nogil:
    """Shuffle a[0 .. n - 1] uniformly (Fisher-Yates, from the top)."""
    cdef int i, j
    cdef uint8_t t
    for i in range(n - 1, 0, -1):
        j = rng_below(r, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t
