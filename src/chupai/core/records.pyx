"""The card core: bit layout constants, the sub-multiset table, the buffer-backed play
list and the steps every game's Python wrappers share."""
from libc.stdlib cimport free, realloc
from libc.string cimport memcpy
from cpython.bytes cimport PyBytes_FromStringAndSize

cimport cython

import numpy as np

# The bit layout, exported once for Python code (see records.pxd).
RANKS = "23456789TJQKA"
SUITS = "SHCD"
NUM_RANKS = N_RANKS
NUM_SUITS = N_SUITS
NUM_FACES = N_FACES
BITS_PER_RANK = RANK_BITS
BLACK_JOKER_BIT = BJ_BIT
RED_JOKER_BIT = RJ_BIT
MAX_WILD_CARDS = MAX_WILDS

cdef play_t _PROBE


cdef Py_ssize_t _offset(const void *field) noexcept:
    return <Py_ssize_t>(<const char *>field - <const char *>&_PROBE)


#: numpy dtype of one play record, derived from the C struct ``play_t`` (each field at
#: its C offset, the C size as itemsize), so the two cannot disagree.
PLAY_DTYPE = np.dtype(
    {
        "names": ["lo", "hi", "taken", "type", "key", "length", "cls", "nwild", "flags", "decl"],
        "formats": ["<u8", "<u8", "<u8", "u1", "u1", "u1", "u1", "u1", "u1", ("u1", (MAX_WILDS,))],
        "offsets": [_offset(&_PROBE.lo), _offset(&_PROBE.hi), _offset(&_PROBE.taken),
                    _offset(&_PROBE.type), _offset(&_PROBE.key), _offset(&_PROBE.length),
                    _offset(&_PROBE.cls), _offset(&_PROBE.nwild), _offset(&_PROBE.flags),
                    _offset(&_PROBE.decl[0])],
        "itemsize": sizeof(play_t),
    }
)


cdef int playbuf_init(playbuf_t *buf, Py_ssize_t cap) noexcept nogil:
    buf.len = 0
    buf.oom = 0
    buf.cap = 0
    buf.data = <play_t *>realloc(NULL, cap * sizeof(play_t))
    if buf.data == NULL:
        buf.oom = 1
        return -1
    buf.cap = cap
    return 0


cdef void playbuf_free(playbuf_t *buf) noexcept nogil:
    free(buf.data)
    buf.data = NULL
    buf.len = 0
    buf.cap = 0


cdef int playbuf_grow(playbuf_t *buf) noexcept nogil:
    """Double the capacity; -1 (and `oom`) if memory ran out."""
    cdef Py_ssize_t cap = buf.cap * 2 if buf.cap > 0 else 64
    cdef play_t *data = <play_t *>realloc(buf.data, cap * sizeof(play_t))
    if data == NULL:
        buf.oom = 1
        return -1
    buf.data = data
    buf.cap = cap
    return 0


cdef void playbuf_trim(playbuf_t *buf, Py_ssize_t slack) noexcept nogil:
    """Give back the room of a buffer that has more than `slack` spare records (keeping
    its records): a generator can then start from a roomy buffer and never copy."""
    cdef Py_ssize_t cap = buf.len if buf.len > 0 else 1
    cdef play_t *data
    if buf.cap - buf.len <= slack:
        return
    data = <play_t *>realloc(buf.data, cap * sizeof(play_t))
    if data != NULL:  # else the buffer keeps its room
        buf.data = data
        buf.cap = cap


# --- the sub-multiset table (see records.pxd) ---------------------------------------------
cdef enum:
    N_COUNT_VECTORS = 81         # per-suit counts 0..2 for four suits

cdef subsets_t _SUBSETS


cdef void _build_subsets(subsets_t *t) noexcept:
    cdef int pos = 0, pat, lo4, hi4, m, code, s, d, c, size, packed, ok
    for pat in range(N_PATTERNS):
        lo4 = pat & NIBBLE
        hi4 = pat >> RANK_BITS
        t.count[pat] = popcount(lo4) + popcount(hi4)
        for m in range(MAX_PER_RANK + 1):
            t.off[pat][m] = pos
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
                    t.sub[pos] = packed
                    if pos == t.off[pat][m] or packed < t.sub[t.rep[pat][m]]:  # (packed: hi4 << 4 | lo4)
                        t.rep[pat][m] = pos
                    pos += 1
        t.off[pat][MAX_PER_RANK + 1] = pos
    assert pos == N_SUBS


_build_subsets(&_SUBSETS)


cdef const subsets_t *rank_subsets() noexcept nogil:
    """The sub-multiset table, built when chupai.core.records is imported."""
    return &_SUBSETS


cdef class PlayMaker:
    """The compiled factory of a game's Play objects (subclassed in ``chupai.core.play``)."""

    cdef object make(self, const play_t *p, object context):
        raise NotImplementedError


# The roomy lists (see roomy_playlist in records.pxd): the one list that still holds spare
# room (a borrowed reference, cleared when it dies), and the buffer a dead list left for
# the next roomy list.
cdef enum:
    SPARE_MAX = 8192             # the most records of a buffer kept for the next roomy list (320 KiB)
    ROOMY_SLACK = 64             # the spare records a filled roomy list may keep until it dies
cdef void *_roomy = NULL
cdef playbuf_t _spare


cdef PlayList roomy_playlist(object factory, object context, Py_ssize_t cap):
    global _roomy, _spare
    cdef PlayList out = empty_playlist(factory, context)
    if _roomy != NULL:
        playbuf_trim(&(<PlayList>_roomy).buf, 0)
        _roomy = NULL
    if _spare.cap >= cap:
        out.buf = _spare
        out.buf.len = 0
        out.buf.oom = 0
        _spare.data = NULL
        _spare.cap = 0
    else:
        playbuf_open(&out.buf, cap)
    return out


cdef void roomy_filled(PlayList out) noexcept:
    global _roomy
    if out.buf.cap - out.buf.len > ROOMY_SLACK:
        _roomy = <void *>out


@cython.no_gc
@cython.freelist(8)
cdef class PlayList:
    """An immutable sequence of plays backed by a C array of records.

    ``len()`` and ``to_numpy()`` never create Python objects per play; indexing and
    iteration create each ``Play`` lazily through the game's factory.
    """

    def __cinit__(self):
        self.buf.data = NULL
        self.buf.len = 0
        self.buf.cap = 0
        self.buf.oom = 0

    def __dealloc__(self):
        global _roomy, _spare
        if <void *>self == _roomy:
            _roomy = NULL
        if _spare.cap < self.buf.cap <= SPARE_MAX:
            playbuf_free(&_spare)
            _spare = self.buf
            self.buf.data = NULL
            return
        playbuf_free(&self.buf)

    def __len__(self):
        return self.buf.len

    cdef object _get(self, Py_ssize_t i):
        if self.maker is not None:
            return self.maker.make(&self.buf.data[i], self.context)
        return play_object(self.factory, &self.buf.data[i], self.context)

    def __getitem__(self, index):
        cdef Py_ssize_t i
        if isinstance(index, slice):
            return [self._get(j) for j in range(*index.indices(self.buf.len))]
        i = index
        if i < 0:
            i += self.buf.len
        if i < 0 or i >= self.buf.len:
            raise IndexError(f"play index {index} out of range for {self.buf.len} plays")
        return self._get(i)

    def __iter__(self):
        cdef _PlayListIter it = _PlayListIter.__new__(_PlayListIter)
        it.plays = self
        return it

    def __bool__(self):
        return self.buf.len > 0

    def __repr__(self):
        return f"<PlayList of {self.buf.len} plays>"

    def take(self, indices):
        """A new PlayList of the plays at ``indices`` (ints, in the order given)."""
        cdef Py_ssize_t i, k, n = len(indices)
        cdef PlayList out = new_playlist(self.factory, self.context, n if n > 0 else 1)
        for k in range(n):
            i = indices[k]
            if i < 0:
                i += self.buf.len
            if i < 0 or i >= self.buf.len:
                raise IndexError(f"play index {indices[k]} out of range for {self.buf.len} plays")
            out.buf.data[k] = self.buf.data[i]
            out.buf.len = k + 1
        return out

    def to_numpy(self):
        """A structured numpy array (dtype ``PLAY_DTYPE``) holding a copy of every record."""
        out = np.empty(self.buf.len, dtype=PLAY_DTYPE)
        cdef unsigned char[::1] view
        if self.buf.len:
            view = out.view(np.uint8)
            memcpy(&view[0], self.buf.data, self.buf.len * sizeof(play_t))
        return out

    def to_protocol(self):
        """Every play in the game's interchange form (see the game's ``Play.to_protocol``)."""
        return [p.to_protocol() for p in self]


@cython.final
cdef class _PlayListIter:
    """Iteration over a PlayList (a C iterator: no generator frame per play)."""
    cdef PlayList plays
    cdef Py_ssize_t i

    def __iter__(self):
        return self

    def __next__(self):
        if self.i >= self.plays.buf.len:
            raise StopIteration
        self.i += 1
        return self.plays._get(self.i - 1)

    def __length_hint__(self):
        return self.plays.buf.len - self.i


# --- the Python wrappers' shared steps (see records.pxd) -----------------------------------
cdef object play_object(object factory, const play_t *p, object context):
    cdef play_t rec
    if isinstance(factory, PlayMaker):
        return (<PlayMaker>factory).make(p, context)
    # copied first: making the arguments allocates (see RecordMaker.make)
    rec = p[0]
    return factory(rec.lo, rec.hi, rec.type, rec.key, rec.length, rec.cls,
                   PyBytes_FromStringAndSize(<const char *>rec.decl, rec.nwild), context, rec.taken)


cdef int raise_generated(int rc) except -1:
    if rc == GEN_TOO_MANY:
        raise MemoryError("too many plays for a concrete list: use collapse_suits=True for so large a hand")
    raise MemoryError("the play buffer could not grow")


cdef uint64_t seed64(object seed) except? 0:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int, not {seed!r}")
    if not 0 <= seed <= 0xFFFFFFFFFFFFFFFF:
        # the rule of chupai.core.validate.check_seed: nothing wraps modulo 2**64
        raise ValueError(f"seed must be an int in [0, 2**64), not {seed!r}")
    return <uint64_t>int(seed)


def table_deal_seed(seed, table, episode):
    """The seed of deal ``episode`` (0, 1, ...) of table ``table`` of tables seeded with
    ``seed`` (each an int in ``[0, 2**64)``): a splitmix64 hash of the three, below
    ``2**63``, computed in C (``table_deal_hash``) as the compiled tables do per deal."""
    return table_deal_hash(seed64(seed), seed64(table), seed64(episode))


def match_deal_seed(seed, index):
    """The seed of deal ``index`` (0, 1, ...) of a match seeded with ``seed`` (each an int
    in ``[0, 2**64)``): numpy's ``SeedSequence([seed, index]).generate_state(1, uint64)``
    below ``2**63``, computed in C (``match_deal_hash``) as the compiled tables do when a
    deal is dealt again."""
    return match_deal_hash(seed64(seed), seed64(index))


cdef int policy_code(dict policies, object policy) except -1:
    if not isinstance(policy, str):
        raise TypeError(f"policy must be a str, one of {sorted(policies)}, not {policy!r}")
    cdef object code = policies.get(policy)
    if code is None:
        raise ValueError(f"unknown policy {policy!r}; expected one of {sorted(policies)}")
    return code


cdef class GameClasses:
    """The Python classes a game's compiled modules use, bound by ``GameClasses.bind``
    (see ``records.pxd``)."""

    def __init__(self, str game):
        self.game = game

    @property
    def bound(self):
        """True once :meth:`bind` has run."""
        return self.play is not None

    def bind(self, play, rules, pagat):
        """Give the compiled modules the game's ``Play`` class, ``Rules`` class and default
        rules (once; the game's ``play`` module does it when it is imported)."""
        if self.play is not None:
            raise RuntimeError(f"the {self.game} classes are bound already")
        if not isinstance(play, type) or not isinstance(getattr(play, "_from_record", None), PlayMaker):
            raise TypeError(f"play must be a Play class with a compiled _from_record, not {play!r}")
        if not isinstance(rules, type):
            raise TypeError(f"rules must be a Rules class, not {rules!r}")
        if not isinstance(pagat, rules) or not isinstance(getattr(pagat, "_flags", None), int):
            raise TypeError(f"pagat must be a {rules.__name__} with its generator flags, not {pagat!r}")
        self.factory = play._from_record
        self.pagat_flags = pagat._flags
        self.rules = rules
        self.pagat = pagat
        self.play = play

    cdef object rules_of(self, object rules):
        if rules is None:
            if self.play is None:
                raise RuntimeError(f"the {self.game} classes are not bound: import chupai.{self.game}")
            return self.pagat
        if self.rules is None or not isinstance(rules, self.rules):
            raise TypeError(f"rules must be a {self.game}.Rules, not {type(rules).__name__}")
        return rules

    def __repr__(self):
        return f"<GameClasses of {self.game}{'' if self.play is not None else ' (not bound)'}>"


cdef object checked_rules(object rules, type cls, object default, str name):
    if rules is None:
        return default
    if not isinstance(rules, cls):
        raise TypeError(f"rules must be a {name}, not {type(rules).__name__}")
    return rules
