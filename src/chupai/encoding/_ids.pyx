"""The action ids of play records, in C: the pattern lookup of
:class:`chupai.encoding.spaces.ActionSpace` over a ``PlayList``'s own records (an
``ActionList``'s ``plays``), with no numpy array of records and no Python object per
play.

A record's pattern code packs ``(type, key, length, cls)`` as
:func:`chupai.encoding.spaces.pattern_code` does; in the capture form (``capture_type``
given: Chinese Ten) the fields are ``(type, card, captured card, 0)``, the captured
card being the lowest face of ``taken`` for a record of type ``capture_type`` and 0
otherwise.  The id of a code is found by binary search in the space's sorted codes.
"""
cimport cython
from libc.stdint cimport int64_t

from chupai.core.records cimport PlayList, play_t

__all__ = ["PatternIds"]

cdef extern from *:
    int ctz64 "__builtin_ctzll"(unsigned long long x) nogil

# the field widths of chupai.encoding.spaces.pattern_code (each field is below its bound)
cdef enum:
    KEY_BOUND = 256
    LENGTH_BOUND = 64
    CLS_BOUND = 256


@cython.final
@cython.auto_pickle(False)
cdef class PatternIds:
    """Pattern code -> action id of one space: ``codes`` sorted ascending (int64),
    ``ids[i]`` the id of ``codes[i]``; ``capture_type`` the record type whose third
    field is its lowest captured face (``-1``: the ``(type, key, length, cls)`` form)."""

    cdef const int64_t[::1] codes
    cdef const int64_t[::1] ids
    cdef int capture_type

    def __init__(self, const int64_t[::1] codes not None, const int64_t[::1] ids not None, int capture_type=-1):
        if codes.shape[0] != ids.shape[0]:
            raise ValueError(f"codes and ids must have one length, not {codes.shape[0]} and {ids.shape[0]}")
        self.codes = codes
        self.ids = ids
        self.capture_type = capture_type

    cdef inline int64_t code(self, const play_t *p) noexcept nogil:
        cdef int64_t third = p.length, cls = p.cls
        if self.capture_type >= 0:
            cls = 0
            third = ctz64(p.taken) if p.type == self.capture_type and p.taken else 0
        return ((<int64_t>p.type * KEY_BOUND + p.key) * LENGTH_BOUND + third) * CLS_BOUND + cls

    cdef inline int64_t id_of(self, const play_t *p) noexcept nogil:
        """The id of record `p`, or -1 if its pattern is not in the space."""
        cdef int64_t c = self.code(p)
        cdef Py_ssize_t lo = 0, hi = self.codes.shape[0], mid
        while lo < hi:
            mid = (lo + hi) >> 1
            if self.codes[mid] < c:
                lo = mid + 1
            else:
                hi = mid
        if lo < self.codes.shape[0] and self.codes[lo] == c:
            return self.ids[lo]
        return -1

    def fill(self, PlayList plays not None, int64_t[::1] out not None):
        """Write the id of each record of ``plays`` to ``out[0 : len(plays)]``; returns -1,
        or the index of the first record whose pattern is not in the space."""
        cdef Py_ssize_t i, n = plays.buf.len
        if out.shape[0] < n:
            raise ValueError(f"out holds {out.shape[0]} ids, fewer than the {n} plays")
        for i in range(n):
            out[i] = self.id_of(&plays.buf.data[i])
            if out[i] < 0:
                return i
        return -1

    def mark(self, PlayList plays not None, signed char[::1] mask not None):
        """Set ``mask[id] = 1`` for the id of each record of ``plays``; returns -1, or the
        index of the first record whose pattern is not in the space."""
        cdef Py_ssize_t i, n = plays.buf.len
        cdef int64_t k
        for i in range(n):
            k = self.id_of(&plays.buf.data[i])
            if k < 0 or k >= mask.shape[0]:
                return i
            mask[k] = 1
        return -1
