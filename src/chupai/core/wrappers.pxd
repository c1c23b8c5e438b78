# The steps every game's generator wrapper (<game>/_movegen.pyx) shares: argument
# checks and the one bound on a concrete list.
#
# A hand of most of a deck has more concrete plays than memory holds (Gan Deng Yan's or
# Zheng Shangyou's 54 cards: tens of millions of sequences); the suit-collapsed view of
# the same hand stays small.  A kernel stops at PLAY_LIMIT plays and returns
# GEN_TOO_MANY (chupai.core.records); the wrapper turns that into one MemoryError naming the way out.
# (Guan Dan's kernel never gets there: all 108 cards make 135,070 plays; nor does
# Chinese Ten's, a card and what it captures.)
from chupai.core.records cimport (
    GEN_TOO_MANY, check_grown, mask_t, multiset_size, multiset_valid, playbuf_free, playbuf_open, playbuf_t,
    target_t,
)
from chupai.core.play cimport PlayRecord

cdef enum:
    PLAY_LIMIT = 20000000        # plays in one list

cdef inline int check_generated(int rc) except -1:
    """MemoryError past PLAY_LIMIT plays (rc GEN_TOO_MANY) or if the play buffer could
    not grow (any other non-zero rc)."""
    if rc == GEN_TOO_MANY:
        raise MemoryError(
            f"more than {PLAY_LIMIT:,} plays in one list: use collapse_suits=True for so large a hand"
        )
    return check_grown(rc)


cdef inline bint check_flag(object value, str name) except -1:
    """A bool argument (or numpy bool); TypeError naming the argument otherwise."""
    if value is True or value is False:
        return value
    if getattr(getattr(value, "dtype", None), "kind", None) == "b" and getattr(value, "ndim", 1) == 0:
        return bool(value)  # a numpy bool
    raise TypeError(f"{name} must be True or False, not {value!r}")


cdef inline object kernel_array(object value, str name, str dtype, int ndim):
    """``value`` itself when a kernel_count can read it in place: a C-contiguous numpy
    array of ``dtype`` (``"uint64"``, ``"uint8"``) with ``ndim`` dimensions; TypeError
    naming the argument and what it must be otherwise (nothing is cast or copied)."""
    import numpy as np
    if (isinstance(value, np.ndarray) and value.dtype == np.dtype(dtype) and value.ndim == ndim
            and value.flags.c_contiguous):
        return value
    if isinstance(value, np.ndarray):
        got = f"a {value.ndim}-D {'' if value.flags.c_contiguous else 'non-contiguous '}array of {value.dtype}"
    else:
        got = type(value).__name__
    raise TypeError(f"{name} must be a C-contiguous {ndim}-D numpy array of {dtype}, not {got}")


cdef inline int check_repeat(object value) except -1:
    """kernel_count's ``repeat``: an int from 1 to 2**31 - 1, by the library's one int check."""
    from chupai.core.validate import check_int
    return check_int(value, "repeat", 1, 2147483647)


cdef inline PlayRecord check_previous(object previous, type cls) :
    """``previous`` as the record of a Play of the game whose class is ``cls``; TypeError
    naming the game and the class expected otherwise."""
    if isinstance(previous, cls):
        return <PlayRecord>previous
    raise TypeError(f"previous must be a {play_class_name(cls)} or None, not {described(previous)}")


cdef inline str play_class_name(type cls):
    """``chupai.guandan.Play`` for the class defined in ``chupai.guandan.play``."""
    cdef str module = cls.__module__
    if module.endswith(".play"):
        module = module[: -len(".play")]
    return f"{module}.{cls.__qualname__}"


cdef inline str described(object value):
    if isinstance(value, PlayRecord):
        return f"a {play_class_name(type(value))} ({value!r})"
    return f"{value!r} ({type(value).__name__})"


cdef inline int bad_record(PlayRecord previous, str game) except -1:
    # (the fields only: the play's own str() may not make sense of them)
    raise ValueError(
        f"previous: the record (type {previous.rec.type}, key {previous.rec.key}, "
        f"length {previous.rec.length}, class {previous.rec.cls}) is not a {game} play"
    )


cdef inline int check_run(PlayRecord previous, str game, int width, int top, int lowest,
                          int highest) except -1:
    """ValueError unless the record's length is its number of cards and, for a run of
    ``width`` cards per rank (0: not a run) whose highest rank value is ``top``, its
    ranks ``top - length/width + 1 .. top`` lie in ``lowest .. highest``: what the
    generators and ``str()`` read of a run."""
    cdef int n
    if multiset_size(previous.rec.lo, previous.rec.hi) != previous.rec.length:
        bad_record(previous, game)
    if width:
        n = previous.rec.length // width
        if previous.rec.length % width or n < 2 or top > highest or top - n + 1 < lowest:
            bad_record(previous, game)
    return 0


# --- kernel_count: the bare generator over many positions (the benchmarks' kernel figures)
# One position of a batch: a game's generator run on position i of the arrays behind
# `batch` (the game's own struct), its plays written into `out`; 0 or its return code.
ctypedef int (*count_one_t)(const void *batch, Py_ssize_t i, playbuf_t *out) noexcept nogil


cdef inline void target_of_row(const unsigned char *row, target_t *tg) noexcept nogil:
    """The play to beat of a kernel_count row ``(type, length, cls, key)`` (type 0: leading)."""
    tg.type = row[0]
    tg.length = row[1]
    tg.cls = row[2]
    tg.key = row[3]


cdef inline long long count_plays(count_one_t one, const void *batch, Py_ssize_t n, int repeat,
                                  Py_ssize_t room) except -1:
    """The plays `one` lists over positions 0..n-1, `repeat` times over, in one scratch
    buffer of `room` records with the GIL released: every game's kernel_count loop (no
    Python object per position or play).  MemoryError as check_generated."""
    cdef long long total = 0
    cdef int rc = 0, r, rep
    cdef Py_ssize_t i
    cdef playbuf_t buf
    playbuf_open(&buf, room)
    with nogil:
        for rep in range(repeat):
            for i in range(n):
                buf.len = 0
                r = one(batch, i, &buf)
                if r != 0 and rc == 0:
                    rc = r
                total += buf.len
    playbuf_free(&buf)
    check_generated(rc)
    return total


# A one-deck game's generator over a hand's mask, and the kernel_count batch over it.
ctypedef int (*onedeck_generate_t)(mask_t hand, int flags, int collapse, const target_t *target,
                                    playbuf_t *out) noexcept nogil

ctypedef struct onedeck_batch_t:
    onedeck_generate_t generate
    const unsigned long long *hands
    const unsigned char *rows    # the plays to beat, n rows (type, length, cls, key), or NULL
    int flags
    int collapse


cdef inline int onedeck_count_one(const void *batch, Py_ssize_t i, playbuf_t *out) noexcept nogil:
    cdef const onedeck_batch_t *b = <const onedeck_batch_t *>batch
    cdef target_t tg
    tg.type = 0
    if b.rows != NULL:
        target_of_row(&b.rows[4 * i], &tg)
    return b.generate(b.hands[i], b.flags, b.collapse, &tg, out)


cdef inline long long onedeck_kernel_count(onedeck_generate_t generate, object hands_given, object previous_given,
                                           int flags, object collapse_suits, object repeat, int max_type,
                                           int max_cls, str game) except -1:
    """A one-deck game's kernel_count: ``hands`` (one-deck masks) and ``previous`` (None,
    or one row ``(type, length, cls, key)`` per hand, type 0 to lead; a type above
    ``max_type`` or a cls above ``max_cls`` is no play of ``game``) checked, then
    count_plays over them."""
    cdef const unsigned long long[::1] hands = kernel_array(hands_given, "hands", "uint64", 1)
    cdef const unsigned char[:, ::1] previous = (
        None if previous_given is None else kernel_array(previous_given, "previous", "uint8", 2))
    cdef bint collapse = check_flag(collapse_suits, "collapse_suits")
    cdef int times = check_repeat(repeat)
    cdef Py_ssize_t i, n = hands.shape[0]
    cdef onedeck_batch_t b
    cdef bint follow = previous is not None
    if follow and (previous.shape[0] != n or previous.shape[1] != 4):
        raise ValueError("previous must have one row (type, length, cls, key) per hand")
    for i in range(n):
        if not multiset_valid(hands[i], 0):
            raise ValueError(f"hand {i} has bits beyond the 54 faces")
        if follow and (previous[i, 0] > max_type or previous[i, 2] > max_cls):
            raise ValueError(f"previous row {i} is not a {game} play's (type, length, cls, key)")
    if n == 0:
        return 0
    b.generate = generate
    b.hands = &hands[0]
    b.rows = &previous[0, 0] if follow else NULL
    b.flags = flags
    b.collapse = collapse
    return count_plays(onedeck_count_one, &b, n, times, 4096)
