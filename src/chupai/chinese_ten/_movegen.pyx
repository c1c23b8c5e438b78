"""The Chinese Ten capture generator (``docs/rules/chinese_ten.md``, "A turn").

For each card (in face order) of the hand, its targets are the layout cards of the
rank it captures (``_movegen.pxd``): no target gives one play, the card joining the
layout; otherwise one play per target, or one play taking the whole triple when the
card is the fourth of a rank that captures itself, plus the card joining the layout
when capture is not forced.  The suit-collapsed view keeps one card of each score
class, both among the cards played and among the targets.
"""
from chupai.core.records cimport (
    JOKER_MASK,
    PlayList,
    bit,
    GameClasses,
    lowest_bit,
    mask_t,
    roomy_filled,
    roomy_playlist,
    play_push,
    play_t,
    playbuf_close,
    playbuf_open,
    playbuf_t,
    popcount,
)

from chupai.core.wrappers cimport check_flag, check_generated, check_repeat, count_plays, kernel_array

from chupai.core.cardset import Cards, face_name, parse_face

#: the Python classes this generator makes and reads (Play, Rules), bound by
#: chupai.chinese_ten.play when it is imported: this layer imports nothing above it
GAME_CLASSES = GameClasses("chinese_ten")
cdef GameClasses CLASSES = GAME_CLASSES

#: the option flags of the compiled code (Rules._flags), from the C declarations
FLAG_FORCED_CAPTURE = CT_FLAG_FORCED
FLAG_RED_FIVE_BONUS = CT_FLAG_BONUS
FLAG_REDEAL = CT_FLAG_REDEAL
FLAG_REDEAL_CROWDED = CT_FLAG_REDEAL_CROWDED

cdef str _NO_JOKERS = "Chinese Ten uses the 52 cards without jokers"


def parse_card(card, what="card"):
    """The face number of one card token (no jokers); ``ValueError`` naming the token."""
    if isinstance(card, Cards):
        if len(card) != 1:
            raise ValueError(f"{what} must be one card, not {card}")
        card = str(card)
    face = parse_face(card)
    if bit(face) & JOKER_MASK:
        raise ValueError(f"{what} {card!r} is a joker; {_NO_JOKERS}")
    return face


def parse_cards(cards, what="cards"):
    """The mask of a set of cards (a ``Cards``, a card string or an iterable of tokens).

    ``TypeError`` for anything else; ``ValueError`` naming the bad token for an unknown
    card, a joker or a card given twice (Chinese Ten has one deck).
    """
    cdef mask_t mask = 0, b
    if isinstance(cards, Cards):
        if len(cards.layers) > 1:
            raise ValueError(f"{what}: card {face_name(cards.hi.bit_length() - 1)} appears twice; one deck")
        if cards.lo & JOKER_MASK:
            raise ValueError(f"{what}: card {face_name(cards.lo.bit_length() - 1)!r} is a joker; {_NO_JOKERS}")
        return cards.lo
    if isinstance(cards, str):
        tokens = cards.split()
    else:
        try:
            tokens = list(cards)
        except TypeError:
            raise TypeError(f"{what} must be a card string, an iterable of cards or Cards, not {cards!r}") from None
    for token in tokens:
        b = bit(parse_card(token, f"{what}: card"))
        if mask & b:
            raise ValueError(f"{what}: card {token!r} appears twice; Chinese Ten has one deck")
        mask |= b
    return mask



cdef inline int push(playbuf_t *out, int face, mask_t captured, int type) noexcept nogil:
    """A record: `lo` the card played, `taken` the layout cards it captures."""
    cdef play_t *p = play_push(out, bit(face), 0, type, face, popcount(captured), 0)
    if p == NULL:
        return -1
    p.taken = captured
    return 0


cdef int ct_generate(mask_t hand, mask_t layout, int flags, int collapse,
                     playbuf_t *out) noexcept nogil:
    """Append every play of a card of `hand` on `layout` (disjoint masks)."""
    cdef mask_t h = ct_class_reps(hand) if collapse else hand
    cdef mask_t t, u
    cdef int c, f, rc = 0
    while h:
        c = lowest_bit(h)
        h &= h - 1
        t = ct_targets(c, layout)
        if t == 0:
            rc |= push(out, c, 0, CT_DISCARD)
            continue
        if ct_takes_triple(c, t):
            rc |= push(out, c, t, CT_TRIPLE)
        else:
            u = ct_class_reps(t) if collapse else t
            while u:
                f = lowest_bit(u)
                u &= u - 1
                rc |= push(out, c, bit(f), CT_CAPTURE)
        if not (flags & CT_FLAG_FORCED):
            rc |= push(out, c, 0, CT_DISCARD)
    return -1 if (rc or out.oom) else 0


# --- the Python entry points ----------------------------------------------------------
cdef int flags_of(object rules) except -1:
    if rules is None:
        return CLASSES.pagat_flags
    return CLASSES.rules_of(rules)._flags


# a list's first room (records): nearly every position's plays (the buffer grows past it)
cdef enum:
    ROOMY_PLAYS = 32


cdef PlayList generate(mask_t hand, mask_t layout, int flags, bint collapse):
    cdef PlayList out = roomy_playlist(CLASSES.factory, None, ROOMY_PLAYS)
    check_generated(ct_generate(hand, layout, flags, collapse, &out.buf))
    roomy_filled(out)
    return out


cdef mask_t layout_of(object layout, mask_t held, str what) except? 0:
    cdef mask_t lay = parse_cards(layout, "layout")
    cdef mask_t both = lay & held
    if both:
        raise ValueError(f"card {face_name(lowest_bit(both))} is both in the {what} and in the layout")
    return lay


def legal_plays(hand, layout, *, rules=None, collapse_suits=False):
    """Every legal play of the play step: a card of ``hand`` and what it captures.

    Args:
        hand: the player's cards (``Cards``, a card string or card tokens; no jokers).
        layout: the face-up cards on the table.
        rules: a ``Rules`` (default pagat); only ``forced_capture`` matters here.
        collapse_suits: one play per suit-collapsed group (cards grouped by
            ``play.score_class``) instead of every concrete play.

    Returns:
        A ``PlayList`` in the order of the cards played, then of the captured cards;
        a card joining the layout is listed after its captures.

    >>> [str(p) for p in legal_plays("7D AH", "QD 3S 3H 6C")]   # an ace takes nothing
    ['7D takes 3S', '7D takes 3H', 'AH to the layout']
    >>> [str(p) for p in legal_plays("QS", "QD QH QC")]          # the opening triple
    ['QS takes QH QC QD']
    """
    cdef mask_t h = parse_cards(hand, "hand")
    cdef mask_t lay = layout_of(layout, h, "hand")
    return generate(h, lay, flags_of(rules), check_flag(collapse_suits, "collapse_suits"))


def captures(card, layout, *, rules=None, collapse_suits=False):
    """Every choice of the turn step for the card turned from the stock.

    The same capture rule as :func:`legal_plays`; a card that captures nothing joins
    the layout (a single play).

    >>> [str(p) for p in captures("3D", "7S 7H 2C")]
    ['3D takes 7S', '3D takes 7H']
    >>> [str(p) for p in captures("3D", "7S 7C", collapse_suits=True)]   # 7S and 7C score alike
    ['3D takes 7S']
    """
    cdef int face = parse_card(card, "turned card")
    cdef mask_t lay = layout_of(layout, bit(face), "turned card")
    return generate(bit(face), lay, flags_of(rules), check_flag(collapse_suits, "collapse_suits"))


ctypedef struct ct_batch_t:      # a kernel_count batch
    const unsigned long long *hands
    const unsigned long long *layouts
    int flags
    int collapse


cdef int ct_count_one(const void *batch, Py_ssize_t i, playbuf_t *out) noexcept nogil:
    cdef const ct_batch_t *b = <const ct_batch_t *>batch
    return ct_generate(b.hands[i], b.layouts[i], b.flags, b.collapse, out)


def kernel_count(hands, layouts, *, rules=None, collapse_suits=False, repeat=1):
    """Run the bare kernel on many positions, reusing one buffer; the total number of plays.

    For throughput measurements (``bench/``): no Python object is created per position
    or per play.  ``hands``/``layouts`` are disjoint masks of the 52 cards.
    """
    cdef const unsigned long long[::1] hand = kernel_array(hands, "hands", "uint64", 1)
    cdef const unsigned long long[::1] layout = kernel_array(layouts, "layouts", "uint64", 1)
    cdef bint collapse = check_flag(collapse_suits, "collapse_suits")
    cdef int times = check_repeat(repeat)
    cdef Py_ssize_t i, n = hand.shape[0]
    cdef ct_batch_t b
    if layout.shape[0] != n:
        raise ValueError("hands and layouts must have the same length")
    for i in range(n):
        if (hand[i] >> CT_DECK) or (layout[i] >> CT_DECK) or (hand[i] & layout[i]):
            raise ValueError(f"position {i}: hand and layout must be disjoint sets of the 52 cards")
    if n == 0:
        return 0
    b.hands, b.layouts = &hand[0], &layout[0]
    b.flags, b.collapse = flags_of(rules), collapse
    return count_plays(ct_count_one, &b, n, times, 64)
