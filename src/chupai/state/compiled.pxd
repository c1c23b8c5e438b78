# The compiled part of every game's Deal (chupai.state.base): the lazy list of legal actions,
# the checked-once apply of its items and the compact public history.
from cpython.ref cimport PyObject

from chupai.core.records cimport PlayList, play_t
from chupai.engine.base cimport Engine

cdef enum:
    EV_EVENT = 0                 # the entry holds a whole Event (a forced or decision step)
    EV_ACTION = 1                # a card-play action object (a Play or PASS), phase `phase`
    EV_RECORD = 2                # a play known by its record (apply_index), context in `obj`
    EV_AUTO = 3                  # an automatic step the engine reported (h_auto), by its record
    WATCH_SEATS = 0xFF           # _watch bits 0-7: seats whose actions call _after_action
    WATCH_BOMBS = 0x100          # plays whose record has cls > 0 call it
    WATCH_LEAD_PASS = 0x200      # a pass on lead calls it


# One entry of the history (16 bytes: a clone copies the array): a strong reference in
# obj (the Event, the action, or an EV_RECORD's context), the phase as an index into the
# state's `phases`; an EV_RECORD's or EV_AUTO's play record is the next one of the
# state's `recs`.
ctypedef struct entry_t:
    PyObject *obj
    int seat
    unsigned short kind
    unsigned short phase


cdef class ActionList:
    """The current player's legal actions (see compiled.pyx)."""
    cdef PlayList pl             # the plays (None in a decision phase)
    cdef Engine eng              # the engine that listed them (h_record of an action to find)
    cdef Py_ssize_t nplays
    cdef bint passing            # PASS follows the plays
    cdef tuple options           # a decision phase's options (plays None)
    cdef unsigned long long stamp
    cdef PyObject **made         # the items made so far (strong references), NULL until one is
    cdef object _item(self, Py_ssize_t i)
    cdef Py_ssize_t find(self, object action, Py_ssize_t lo, Py_ssize_t hi) except -2


cdef class CompiledState:
    cdef Engine eng              # the card-play engine (`_engine`), None before the card play
    cdef ActionList view         # the cached legal actions (`_legal`)
    cdef public object _phase
    cdef public Py_ssize_t _trick_start
    cdef public unsigned int _watch
    cdef public tuple _engine_phases  # see CompiledState's doc (None: `_phase` is the game's)
    cdef entry_t *entries
    cdef Py_ssize_t nentries
    cdef Py_ssize_t capentries
    cdef play_t *recs            # the records of the EV_RECORD and EV_AUTO entries, in order
    cdef Py_ssize_t nrecs
    cdef Py_ssize_t caprecs
    cdef Py_ssize_t recs_read    # records of the entries made into events so far
    cdef tuple phases            # the phase objects the entries name
    cdef tuple events            # the Events of entries[0 : len(events)], made when read
    cdef int reserve(self, Py_ssize_t entries, Py_ssize_t recs) except -1
    cdef int push(self, int seat, int kind, object obj, object phase, const play_t *rec) except -1
    cdef ActionList listed(self)
    cdef int act(self, const play_t *rec, object action) except -1
    cdef void _clear(self)
    cdef int copy_from(self, CompiledState other) except -1
