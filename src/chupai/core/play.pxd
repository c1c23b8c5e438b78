# The compiled base of every game's Play: one generator record, immutable.
from cpython.object cimport newfunc

from chupai.core.records cimport PlayMaker, play_t


cdef class PlayRecord


# The factory of one game's Play class: a PlayList calls make() for each record; Python
# calls it as Play._from_record(lo, hi, type, key, length, cls, decl, context), validated.
cdef class RecordMaker(PlayMaker):
    cdef type cls
    cdef newfunc new             # cls's tp_new
    cdef tuple types             # the PlayType member of each type code (None: no type)
    cdef bint nested             # lo/hi are a two-deck multiset (hi a subset of lo)
    cdef object make(self, const play_t *p, object context)


cdef class PlayRecord:
    cdef play_t rec
    cdef object context          # the generator's context (Guan Dan: the level index)
    cdef RecordMaker kind
    # set by the action list that handed this object out (chupai.state.compiled): the list's
    # stamp (0: none) and the play's index in it, so applying it checks in O(1)
    cdef unsigned long long stamp
    cdef Py_ssize_t index
    cdef list _faces(self)
    cdef int _standing(self, int *out) except -1


cdef class RecordViews(PlayRecord):
    pass


cdef class BombViews(RecordViews):
    pass
