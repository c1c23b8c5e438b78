"""The Guan Dan legal-play generator's Python entries (``docs/rules/guandan.md``):
``legal_plays`` and ``kernel_count`` over the kernel of ``chupai.guandan._kernel``, the
rank and level arguments read, the play to beat checked.
"""
from chupai.core.cardset cimport hand_masks
from chupai.core.play cimport PlayRecord
from chupai.core.wrappers cimport (bad_record, check_flag, check_generated, check_previous, check_repeat, check_run,
                                   count_plays, kernel_array, target_of_row)
from chupai.core.records import RANKS as _RANK_NAMES
from chupai.core.records cimport (
    target_set,
    RANK_A,
    PlayList,
    GameClasses,
    mask_t,
    multiset_valid,
    roomy_filled,
    roomy_playlist,
    playbuf_t,
)
from chupai.guandan._kernel cimport (
    GD_BOMB,
    GD_CLASS_FOUR_JOKERS,
    GD_CLASS_NONE,
    GD_CLASS_SF,
    GD_FLAG_JOKER_PAIR_IN_FH,
    GD_FLAG_SF_AS_STRAIGHT,
    GD_FOUR_JOKERS,
    GD_PLATE,
    GD_RJ_VALUE,
    GD_STRAIGHT,
    GD_STRAIGHT_FLUSH,
    GD_TUBE,
    gd_target,
    MAX_BOMB,
    N_PLATE,
    N_STRAIGHT,
    N_TUBE,
    gd_generate,
    n_kind_class,
)

#: the Python classes this generator makes and reads (Play, Rules), bound by
#: chupai.guandan.play when it is imported: this layer imports nothing above it
GAME_CLASSES = GameClasses("guandan")
cdef GameClasses CLASSES = GAME_CLASSES

#: the option flags of the generator (Rules._flags), from the C declarations
FLAG_SF_AS_STRAIGHT = GD_FLAG_SF_AS_STRAIGHT
FLAG_JOKER_PAIR_IN_FULL_HOUSE = GD_FLAG_JOKER_PAIR_IN_FH
cdef str _RANKS = _RANK_NAMES


def parse_rank(rank, what="rank"):
    """Rank index 0..12 (2..A) of a rank character, ``'10'``, or an int 2..14.

    ``TypeError`` if ``rank`` is neither a string nor an int, ``ValueError`` if it names
    no rank.
    """
    if isinstance(rank, bool) or not isinstance(rank, (str, int)):
        raise TypeError(f"{what} {rank!r} is not a rank; expected a string 2-9, T, J, Q, K, A or an int 2..14")
    if isinstance(rank, int):
        if 2 <= rank <= 14:
            return rank - 2
    else:
        r = rank.strip().upper()
        if r == "10":
            r = "T"
        if len(r) == 1 and r in _RANKS:
            return _RANKS.index(r)
    raise ValueError(f"{what} {rank!r} is not a rank; expected 2-9, T, J, Q, K, A")

# --- the Python entry point ---------------------------------------------------------
# LEVEL_OF[c]: the rank index of the level named by the one character c (a rank
# character in either case), -1 for a character that names none
cdef enum:
    N_ASCII = 128
cdef int LEVEL_OF[N_ASCII]
for _c in range(N_ASCII):
    LEVEL_OF[_c] = -1
for _r, _rank in enumerate(_RANKS):
    LEVEL_OF[ord(_rank)] = LEVEL_OF[ord(_rank.lower())] = _r

cdef int level_index(object level) except -1:
    """The rank index of a level (a rank character, ``'10'`` or an int 2..14);
    ``ValueError`` naming ``level`` otherwise."""
    cdef Py_UCS4 ch
    if type(level) is str and len(<str>level) == 1:
        ch = (<str>level)[0]
        if ch < N_ASCII and LEVEL_OF[ch] >= 0:
            return LEVEL_OF[ch]
    return parse_rank(level, "level")


# a PlayList's first room (records): a few 27-card hands have more plays (buffers grow);
# below 128 KiB (glibc's default mmap threshold), so it comes from the heap
cdef enum:
    ROOMY_LEAD = 3072
    ROOMY_COLLAPSED = 1024
    ROOMY_FOLLOW = 1024


cdef int check_record(PlayRecord p) except -1:
    """ValueError unless the record is a Guan Dan play: the key in its type's range and
    the bomb class of its type and number of cards."""
    cdef int t = p.rec.type, n = p.rec.length, top, cls = GD_CLASS_NONE
    if t == GD_STRAIGHT or t == GD_STRAIGHT_FLUSH:
        top = N_STRAIGHT - 1
    elif t == GD_TUBE:
        top = N_TUBE - 1
    elif t == GD_PLATE:
        top = N_PLATE - 1
    elif t == GD_FOUR_JOKERS:
        top = 0
    else:
        top = GD_RJ_VALUE
    if t == GD_BOMB:
        cls = n_kind_class(n) if 4 <= n <= MAX_BOMB else -1
    elif t == GD_STRAIGHT_FLUSH:
        cls = GD_CLASS_SF
    elif t == GD_FOUR_JOKERS:
        cls = GD_CLASS_FOUR_JOKERS
    if p.rec.key > top or p.rec.cls != cls or not multiset_valid(p.rec.lo, p.rec.hi):
        bad_record(p, "Guan Dan")
    check_run(p, "Guan Dan", 0, 0, 0, 0)  # a run's window is its key, checked above
    return 0


def legal_plays(hand, level, previous=None, *, rules=None, collapse_suits=False):
    """Every legal play of a Guan Dan hand (``docs/rules/guandan.md``).

    Args:
        hand: a ``Cards`` or a card string such as ``"7S 7S 2H BJ"``.
        level: the level rank being played, ``'2'`` .. ``'A'`` (``'10'`` or ``'T'``).
        previous: the ``Play`` to beat, or ``None`` when leading.
        rules: a ``Rules`` object (default ``Rules.pagat()``).
        collapse_suits: one representative per suit-collapsed group
            (``docs/rules/cards.md``) instead of every concrete play.

    Returns:
        A ``PlayList``: leading, every combination the hand can form; following, every
        play that beats ``previous`` (passing is always allowed then and is not listed).

    >>> plays = legal_plays("3D 4S 5C 6H 7S 7H", "7")   # 7H is wild at level 7
    >>> len(plays)
    19
    >>> str(plays[-1])
    'straight 4-8: 4S 5C 6H 7S 7H(=8H)'
    """
    cdef int lv = level_index(level)
    cdef int flags
    cdef mask_t lo, hi
    cdef gd_target tg
    cdef PlayList out
    hand_masks(hand, 2, "hand", &lo, &hi)
    if rules is None:
        flags = CLASSES.pagat_flags
    else:
        flags = CLASSES.rules_of(rules)._flags
    cdef bint collapse = check_flag(collapse_suits, "collapse_suits")
    cdef PlayRecord prev
    target_set(&tg, NULL)
    if previous is not None:
        prev = check_previous(previous, CLASSES.play)
        check_record(prev)
        if prev.context != lv:  # the level the play was formed at
            raise ValueError(
                f"previous play {previous} was formed at level {previous.level}, not {level!r}"
            )
        target_set(&tg, &prev.rec)
    # room for nearly every hand's plays (growing copies every record), the rest given
    # back when the next list is made while this one lives (roomy_playlist)
    out = roomy_playlist(CLASSES.factory, lv, ROOMY_FOLLOW if tg.type else (ROOMY_COLLAPSED if collapse else ROOMY_LEAD))
    # a few microseconds of work: releasing the GIL would cost more than it frees
    check_generated(gd_generate(lo, hi, lv, flags, collapse, &tg, &out.buf))
    roomy_filled(out)
    return out


ctypedef struct gd_batch_t:      # a kernel_count batch: the hands' masks, levels, options
    const unsigned long long *lo
    const unsigned long long *hi
    const unsigned char *levels
    const unsigned char *rows    # the plays to beat, n rows (type, length, cls, key), or NULL
    int flags
    int collapse


cdef int gd_count_one(const void *batch, Py_ssize_t i, playbuf_t *out) noexcept nogil:
    cdef const gd_batch_t *b = <const gd_batch_t *>batch
    cdef gd_target tg
    tg.type = 0
    if b.rows != NULL:
        target_of_row(&b.rows[4 * i], &tg)
    return gd_generate(b.lo[i], b.hi[i], b.levels[i], b.flags, b.collapse, &tg, out)


def kernel_count(los, his, levels, previous=None, *, rules=None, collapse_suits=False, repeat=1):
    """Run the bare kernel on many hands, reusing one buffer; the total number of plays.

    For throughput measurements (``bench/``): no Python object is created per hand or
    per play.  ``los``/``his`` are the hands' masks, ``levels`` rank indexes 0..12;
    ``previous``, if given, holds one row ``(type, length, cls, key)`` per hand, the play
    to beat formed at that hand's level (type 0: leading).
    """
    cdef const unsigned long long[::1] lo = kernel_array(los, "los", "uint64", 1)
    cdef const unsigned long long[::1] hi = kernel_array(his, "his", "uint64", 1)
    cdef const unsigned char[::1] lv = kernel_array(levels, "levels", "uint8", 1)
    cdef const unsigned char[:, ::1] rows = None if previous is None else kernel_array(previous, "previous", "uint8", 2)
    cdef bint collapse = check_flag(collapse_suits, "collapse_suits")
    cdef int times = check_repeat(repeat)
    cdef Py_ssize_t i, n = lo.shape[0]
    cdef gd_batch_t b
    cdef bint follow = previous is not None
    if hi.shape[0] != n or lv.shape[0] != n:
        raise ValueError("los, his and levels must have the same length")
    if follow and (rows.shape[0] != n or rows.shape[1] != 4):
        raise ValueError("previous must have one row (type, length, cls, key) per hand")
    for i in range(n):
        if lv[i] > RANK_A or not multiset_valid(lo[i], hi[i]):
            raise ValueError(f"hand {i} is not a valid two-deck hand at a valid level")
        if follow and (rows[i, 0] > GD_FOUR_JOKERS or rows[i, 2] > GD_CLASS_FOUR_JOKERS):
            raise ValueError(f"previous row {i} is not a Guan Dan play's (type, length, cls, key)")
    if n == 0:
        return 0
    b.lo, b.hi, b.levels = &lo[0], &hi[0], &lv[0]
    b.rows = &rows[0, 0] if follow else NULL
    b.flags, b.collapse = CLASSES.rules_of(rules)._flags, collapse
    return count_plays(gd_count_one, &b, n, times, 4096)
