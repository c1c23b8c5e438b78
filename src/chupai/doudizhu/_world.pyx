"""Dou Dizhu's hook of the shared determinization (:mod:`chupai.engine.determinize`): the
card play's world."""
from chupai.core.records cimport mask_t
from chupai.doudizhu._deal cimport DDZ_SEATS, ddz_deal_t
from chupai.engine.base cimport Engine, check_seat
from chupai.engine.determinize cimport dz_copy_of, dz_redeal

__all__ = ["world"]


def world(Engine engine not None, player, known, seed):
    """A copy of the engine ``engine`` whose cards hidden from ``player`` (the other
    hands but their ``known`` cards: the kitty's cards the landlord still holds) are dealt
    again uniformly, each hand keeping its size."""
    cdef Engine other = dz_copy_of(engine, "doudizhu")
    cdef ddz_deal_t *d = <ddz_deal_t *>other.h_state()
    cdef int p = check_seat(player, DDZ_SEATS, "player")
    cdef mask_t hi[DDZ_SEATS]
    cdef int s
    for s in range(DDZ_SEATS):
        hi[s] = 0
    dz_redeal(DDZ_SEATS, p, d.hand, hi, known, None, None, seed, NULL, 0, NULL, NULL)
    return other
