"""Zheng Shangyou's hook of the shared determinization (:mod:`chupai._determinize`)."""
from libc.string cimport memset

from chupai._core cimport mask_t
from chupai._determinize cimport dz_copy_of, dz_redeal
from chupai._engine_base cimport Engine, check_seat
from chupai.zhengshangyou._engine cimport ZS_MAX_SEATS, zs_deal_t

__all__ = ["world"]


def world(Engine core not None, player, known, forbid, must, seed):
    """A copy of the engine ``core`` whose cards hidden from ``player`` are dealt again
    (:func:`chupai._determinize.deal`): every hand but its ``known`` cards (one-deck
    masks), under the per-seat ``forbid`` / ``must`` face masks (``None``: none)."""
    cdef Engine other = dz_copy_of(core, "zhengshangyou")
    cdef zs_deal_t *d = <zs_deal_t *>other.h_state()
    cdef int n = d.t.seats
    cdef int p = check_seat(player, n, "player")
    cdef mask_t hi[ZS_MAX_SEATS]
    memset(hi, 0, sizeof(hi))
    dz_redeal(n, p, d.hand, hi, known, forbid, must, seed, NULL, 0)
    return other
