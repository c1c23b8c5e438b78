"""Guan Dan's hook of the shared determinization (:mod:`chupai._determinize`)."""
from chupai._determinize cimport dz_copy_of, dz_redeal
from chupai._engine_base cimport Engine, check_seat
from chupai.guandan._engine cimport GD_SEATS, gd_deal_t

__all__ = ["world"]


def world(Engine core not None, player, known, forbid, must, seed):
    """A copy of the engine ``core`` whose cards hidden from ``player`` are dealt again
    (:func:`chupai._determinize.deal`): every hand but its ``known`` cards (4 Cards),
    under the per-seat ``forbid`` / ``must`` face masks (``None``: none)."""
    cdef Engine other = dz_copy_of(core, "guandan")
    cdef gd_deal_t *d = <gd_deal_t *>other.h_state()
    cdef int p = check_seat(player, GD_SEATS, "player")
    dz_redeal(GD_SEATS, p, d.lo, d.hi, known, forbid, must, seed, NULL, 0)
    return other
