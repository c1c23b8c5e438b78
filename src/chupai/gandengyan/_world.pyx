"""Gan Deng Yan's hook of the shared determinization (:mod:`chupai.engine.determinize`)."""
from chupai.engine.determinize cimport dz_copy_of, dz_redeal
from chupai.engine.base cimport Engine, check_seat
from chupai.gandengyan._deal cimport GDY_MAX_CARDS, gdy_deal_t

__all__ = ["world"]


def world(Engine engine not None, player, known, seed):
    """A copy of the engine ``engine`` whose cards hidden from ``player`` (the other
    hands but their ``known`` cards, and the talon) are dealt again, each hand keeping
    its size, the talon in a uniformly random order."""
    cdef Engine other = dz_copy_of(engine, "gandengyan")
    cdef gdy_deal_t *d = <gdy_deal_t *>other.h_state()
    cdef int n = d.t.seats
    cdef int p = check_seat(player, n, "player")
    cdef int top = d.top, end = d.end
    if not 0 <= top <= end <= GDY_MAX_CARDS:
        raise ValueError(f"the engine's talon bounds {top}..{end} are out of range")
    dz_redeal(n, p, d.lo, d.hi, known, None, None, seed, &d.talon[top], end - top, NULL, NULL)
    return other
