"""Guan Dan's hook of the shared determinization (:mod:`chupai.engine.determinize`): the card
play's world (:func:`world`), the tribute phase's (:func:`tribute_hands`, whose draws
must also be hands the tribute so far could have come from) and the options of a world's
pending tribute decision (:func:`top_faces`, :func:`return_faces`, read from the world's
hands: they are the decider's own cards)."""
from chupai.core.cardset cimport Cards, cards_new
from chupai.core.records cimport (
    N_FACES,
    N_RANKS,
    RJ_BIT,
    SUIT_H,
    bit,
    face_of,
    lowest_bit,
    mask_t,
    popcount,
)
from chupai.engine.determinize cimport dz_copy_of, dz_read_known, dz_redeal, dz_top_faces
from chupai.engine.base cimport Engine, check_seat
from chupai.guandan._deal cimport GD_SEATS, gd_deal_t

__all__ = ["options", "return_faces", "top_faces", "tribute_hands", "world"]


def world(Engine engine not None, player, known, forbid, must, seed):
    """A copy of the engine ``engine`` whose cards hidden from ``player`` are dealt again
    (:func:`chupai.engine.determinize.deal`): every hand but its ``known`` cards (4 Cards),
    under the per-seat ``forbid`` / ``must`` face masks (``None``: none)."""
    cdef Engine other = dz_copy_of(engine, "guandan")
    cdef gd_deal_t *d = <gd_deal_t *>other.h_state()
    cdef int p = check_seat(player, GD_SEATS, "player")
    dz_redeal(GD_SEATS, p, d.lo, d.hi, known, forbid, must, seed, NULL, 0, NULL, NULL)
    return other


cdef int _level(object level) except -1:
    if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level < N_RANKS:
        raise ValueError(f"level must be a rank index 0..{N_RANKS - 1}, not {level!r}")
    return level


cdef inline mask_t _top(mask_t faces, int level) noexcept:
    """The faces of the highest card of ``faces`` but the wild card, in the level order."""
    return dz_top_faces(faces & ~bit(face_of(level, SUIT_H)), level)


def top_faces(Cards hand not None, level):
    """The mask of the faces ``hand`` may pay tribute with at level index ``level``: those
    of its highest card but the wild card (several only for tied suits; as
    :func:`chupai.guandan.tribute.top_faces` lists them)."""
    return _top(hand.w[0], _level(level))


def return_faces(Cards hand not None, received, low):
    """The mask of the faces a receiver holding ``hand`` may return (as
    ``Tribute._return_options`` lists them): any but the face ``received``, only those
    of the mask ``low`` (the faces at or below ``return_max_rank``) when it holds one;
    ``low`` ``None`` without the rule."""
    cdef mask_t m = hand.w[0], cap
    if isinstance(received, bool) or not isinstance(received, int) or not 0 <= received < N_FACES:
        raise ValueError(f"received must be a face 0..{N_FACES - 1}, not {received!r}")
    m &= ~bit(received)
    if low is not None:
        cap = low
        if m & cap:
            m &= cap
    return m


def options(mask, tuple table not None):
    """The items ``table[f]`` of the faces ``f`` of ``mask``, in face order (a decision's
    options from the mask of its faces)."""
    cdef mask_t m = mask
    cdef list out = []
    if m >> N_FACES:
        raise ValueError(f"mask must be a mask of the faces 0..{N_FACES - 1}, not {mask!r}")
    if len(table) < N_FACES:
        raise ValueError(f"table must hold an item per face ({N_FACES}), not {len(table)}")
    while m:
        out.append(table[lowest_bit(m)])
        m &= m - 1
    return tuple(out)


# what the tribute so far proves of the hands it started from (see tribute_hands)
ctypedef struct tribute_t:
    int level
    int payers                   # seat mask
    int unpaid                   # seat mask of the payers still to pay
    int reds                     # red jokers the payers paid, less those returned to them
    int tied                     # the payer deciding (hidden), or -1


cdef int _tribute_holds(const mask_t *lo, const mask_t *hi, const void *arg) noexcept:
    cdef const tribute_t *t = <const tribute_t *>arg
    cdef int s, reds = t.reds
    cdef mask_t wild = bit(face_of(t.level, SUIT_H))
    for s in range(GD_SEATS):
        if t.payers >> s & 1:
            reds += <int>((lo[s] >> RJ_BIT) & 1) + <int>((hi[s] >> RJ_BIT) & 1)
        if t.unpaid >> s & 1 and not lo[s] & ~wild:
            return 0                 # nothing but wild cards to pay with
    if reds >= 2:
        return 0                     # the payers would have resisted
    if t.tied >= 0 and popcount(_top(lo[t.tied], t.level)) < 2:
        return 0                     # the payment would have been forced
    return 1


cdef int _seat_mask(object m, str what) except -1:
    if isinstance(m, bool) or not isinstance(m, int):
        raise TypeError(f"{what} must be an int seat mask, not {m!r}")
    if not 0 <= m < 1 << GD_SEATS:
        raise ValueError(f"{what} must be a seat mask 0..{(1 << GD_SEATS) - 1}, not {m!r}")
    return m


def tribute_hands(hands, player, known, forbid, must, seed, level, payers, unpaid, reds, tied):
    """The tribute-phase ``hands`` (4 Cards) with the cards hidden from ``player`` dealt
    again (as :func:`chupai.engine.determinize.redeal_hands`), uniformly over the deals the
    tribute so far could have come from: every payer (seat mask ``payers``) held fewer
    than two red jokers between them (``reds``: those they paid, less those returned to
    them, plus those in their hands now), each payer still to pay (mask ``unpaid``)
    holds a card but the wild card of level index ``level``, and the payer ``tied`` (a
    seat, or -1) holds tied suits to choose its tribute from (it decides now, hidden
    from ``player``).  A list of 4 Cards."""
    cdef mask_t lo[GD_SEATS]
    cdef mask_t hi[GD_SEATS]
    cdef tribute_t t
    cdef int p = check_seat(player, GD_SEATS, "player"), s
    if not isinstance(hands, (tuple, list)) or len(hands) != GD_SEATS:
        raise TypeError(f"hands must be a tuple or list of {GD_SEATS} Cards, not {hands!r}")
    dz_read_known(hands, GD_SEATS, lo, hi, "hands")
    t.level = _level(level)
    t.payers = _seat_mask(payers, "payers")
    t.unpaid = _seat_mask(unpaid, "unpaid")
    if isinstance(reds, bool) or not isinstance(reds, int):
        raise TypeError(f"reds must be an int, not {reds!r}")
    if not -2 <= reds <= 2:
        raise ValueError(f"reds must be an int -2..2 (red jokers paid, less those returned), not {reds!r}")
    t.reds = reds
    t.tied = -1 if tied < 0 else check_seat(tied, GD_SEATS, "tied")
    dz_redeal(GD_SEATS, p, lo, hi, known, forbid, must, seed, NULL, 0, _tribute_holds, &t)
    return [cards_new(lo[s], hi[s]) for s in range(GD_SEATS)]
