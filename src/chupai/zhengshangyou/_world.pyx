"""Zheng Shangyou's hook of the shared determinization (:mod:`chupai.engine.determinize`): the
card play's world (:func:`world`) and the exchange's (:func:`exchange_hands`, whose draws
must also be hands the exchange so far could have come from)."""
from libc.string cimport memset

from chupai.core.records cimport RANK_2, mask_t, popcount
from chupai.engine.determinize cimport dz_accept_t, dz_copy_of, dz_read_known, dz_redeal, dz_top_faces
from chupai.engine.base cimport Engine, check_seat
from chupai.zhengshangyou._deal cimport ZS_MAX_SEATS, zs_deal_t

__all__ = ["exchange_hands", "world"]


def world(Engine engine not None, player, known, forbid, must, seed):
    """A copy of the engine ``engine`` whose cards hidden from ``player`` are dealt again
    (:func:`chupai.engine.determinize.deal`): every hand but its ``known`` cards (one-deck
    masks), under the per-seat ``forbid`` / ``must`` face masks (``None``: none)."""
    cdef Engine other = dz_copy_of(engine, "zhengshangyou")
    cdef zs_deal_t *d = <zs_deal_t *>other.h_state()
    cdef int n = d.t.seats
    cdef int p = check_seat(player, n, "player")
    cdef mask_t hi[ZS_MAX_SEATS]
    memset(hi, 0, sizeof(hi))
    dz_redeal(n, p, d.hand, hi, known, forbid, must, seed, NULL, 0, NULL, NULL)
    return other


cdef int _ties(const mask_t *lo, const mask_t *hi, const void *arg) noexcept:
    """The payer deciding (`arg`: its seat) holds tied suits at its highest card (the 2s
    rank above the aces, the jokers above all)."""
    cdef int seat = (<const int *>arg)[0]
    return popcount(dz_top_faces(lo[seat], RANK_2)) >= 2


def exchange_hands(hands, player, known, forbid, must, seed, tied):
    """The exchange's ``hands`` (one-deck int masks or Cards, one per seat) with the cards
    hidden from ``player`` dealt again (as :func:`chupai.engine.determinize.redeal_hands`),
    uniformly over the deals in which the payer ``tied`` (a seat deciding its payment,
    hidden from ``player``; -1 for none) holds tied suits to choose from.  A list of
    int masks."""
    cdef mask_t lo[ZS_MAX_SEATS]
    cdef mask_t hi[ZS_MAX_SEATS]
    cdef int n, p, s, seat
    if not isinstance(hands, (tuple, list)) or not 1 <= len(hands) <= ZS_MAX_SEATS:
        raise TypeError(f"hands must be a tuple or list of 1 to {ZS_MAX_SEATS} hands, not {hands!r}")
    n = len(hands)
    p = check_seat(player, n, "player")
    seat = -1 if tied < 0 else check_seat(tied, n, "tied")
    dz_read_known(hands, n, lo, hi, "hands")
    for s in range(n):
        if hi[s]:
            raise ValueError(f"hands[{s}] must be a one-deck hand, not {hands[s]!r}")
    dz_redeal(n, p, lo, hi, known, forbid, must, seed, NULL, 0, _ties if seat >= 0 else <dz_accept_t>NULL, &seat)
    return [lo[s] for s in range(n)]
