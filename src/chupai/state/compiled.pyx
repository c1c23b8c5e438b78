"""The compiled part of every game's ``Deal``: the legal actions as a lazy sequence, the
apply of one of its items checked in O(1), and the public history kept compactly.

:class:`ActionList` is what ``legal_actions()`` returns: an immutable sequence over the
generator's C list of plays, then ``PASS`` when passing is allowed (or, in a decision
phase such as a tribute or an exchange, over that step's options).  ``len()``,
indexing and iteration make no Python object but the items asked for.  Every list has
a stamp of its own (never reused) and every Play it hands out carries the stamp and its
index, so ``apply()`` of such a Play, while the list is the state's current one, plays
the generator's own record without searching; any other action goes to the game's
fully validated path.  ``apply_index(i)`` plays item ``i`` without making any object.

:class:`CompiledState` is the base of :class:`chupai.state.base.StateBase`: the engine
(``_engine``), the cached list (``_legal``), the phase, the trick's start and the history.
The history is a C array of entries (the seat, the action object or the play's record,
the phase); the :class:`~chupai.contract.Event` tuples are made when ``_history`` is
read, each once.
"""
cimport cython
from cpython.object cimport PyTypeObject
from cpython.ref cimport Py_DECREF, Py_INCREF, Py_XDECREF, Py_XINCREF, PyObject
from cpython.tuple cimport PyTuple_SET_ITEM

cdef extern from "Python.h":
    PyObject *PyType_GenericAlloc(PyTypeObject *type, Py_ssize_t nitems)
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy

from chupai.core.records cimport (
    GEN_OOM,
    PlayList,
    mask_t,
    check_grown,
    new_playlist,
    play_object,
    play_t,
    playbuf_close,
    playbuf_open,
    playbuf_t,
    policy_code,
    rng_seed,
    rng_t,
    seed64,
)
from chupai.engine.base cimport CHOICE_OOM, CHOICE_PASS, ENGINE_MAX_SEATS, Engine, GameSpec
from chupai.core.play cimport PlayRecord

import numpy as np
from collections.abc import Sequence

from chupai.core.cardset import Cards
from chupai.engine.base import POLICIES
from chupai.actions import PASS
from chupai.contract import Event
from chupai.errors import IllegalActionError

__all__ = ["ActionList", "CompiledState", "WATCH_BOMB_PLAYS", "WATCH_PASSES_ON_LEAD"]

cdef object _PASS = PASS
cdef tuple _NO_ARGS = ()
cdef object _EVENT = Event
cdef unsigned long long _last_stamp = 0
cdef enum:
    FIRST_ENTRIES = 64           # first capacity of a history's array (it doubles)


cdef object _event(int seat, object action, object phase, bint automatic=False):
    """``Event(seat, action, phase, automatic)``, made as ``tuple.__new__`` makes a tuple
    subclass's instance (the type's allocator, the items set), without a Python call."""
    cdef PyObject *raw = PyType_GenericAlloc(<PyTypeObject *>_EVENT, 4)
    if raw == NULL:
        raise MemoryError("cannot allocate an Event")
    cdef object ev = <object>raw
    Py_DECREF(ev)  # the cast took a reference of its own
    cdef object s = seat
    Py_INCREF(s)
    PyTuple_SET_ITEM(ev, 0, s)
    Py_INCREF(action)
    PyTuple_SET_ITEM(ev, 1, action)
    Py_INCREF(phase)
    PyTuple_SET_ITEM(ev, 2, phase)
    cdef object auto = True if automatic else False
    Py_INCREF(auto)
    PyTuple_SET_ITEM(ev, 3, auto)
    return ev


cdef int _grow(void **array, Py_ssize_t *cap, size_t item) except -1:
    """Double the capacity of a history array (its first: FIRST_ENTRIES items);
    MemoryError with the array unchanged if there is no memory."""
    cdef Py_ssize_t new_cap = cap[0] * 2 if cap[0] else FIRST_ENTRIES
    cdef void *grown = realloc(array[0], new_cap * item)
    if grown == NULL:
        raise MemoryError("cannot grow the history")
    array[0] = grown
    cap[0] = new_cap
    return 0


cdef inline unsigned long long _new_stamp() noexcept:
    global _last_stamp
    _last_stamp += 1
    return _last_stamp


cdef inline bint same_play(const play_t *a, const play_t *b) noexcept nogil:
    """The fields a Play's ``==`` compares (its context aside): equal records make
    equal plays."""
    return (a.lo == b.lo and a.hi == b.hi and a.taken == b.taken and a.type == b.type
            and a.key == b.key and a.cls == b.cls)


cdef Py_ssize_t _index(object i, Py_ssize_t n) except -1:
    """``i`` (an int, numpy ints too, not a bool) as an index into ``n`` items: 0 to
    n - 1 (no index from the end: -1 is the padding of action ids, and a padding value
    passed by mistake must not play the last action)."""
    if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
        raise TypeError(f"index must be an int, not {i!r}")
    if not 0 <= i < n:
        raise IllegalActionError(f"index {i} out of range: the current player has {n} legal actions (0 to {n - 1})")
    return i


@cython.final
@cython.no_gc  # it refers to its plays, engine, options and items: none can refer back to a list
@cython.freelist(8)  # one list per action made: reuse the memory of the last ones
@cython.auto_pickle(False)
cdef class ActionList:
    """The legal actions of one state at one moment: an immutable sequence (plays in the
    generator's order, then ``PASS`` when allowed; or a decision's options).

    Its items are made when asked for; applying one of them to the state that listed it
    costs no search.  Equal to any sequence of the same actions (``== list(...)``).
    """

    def __init__(self, *args, **kwargs):
        raise TypeError("ActionList objects come from a state's legal_actions()")

    def __len__(self):
        return self.nplays + self.passing if self.options is None else len(self.options)

    def __dealloc__(self):
        cdef Py_ssize_t i
        if self.made != NULL:
            for i in range(self.nplays):
                Py_XDECREF(self.made[i])
            free(self.made)

    cdef object _item(self, Py_ssize_t i):
        cdef object obj
        if self.options is not None:
            return self.options[i]
        if i == self.nplays:
            return _PASS
        if self.made == NULL:
            # every item is made once: the same object each time it is read
            self.made = <PyObject **>calloc(self.nplays, sizeof(PyObject *))
            if self.made == NULL:
                raise MemoryError("cannot allocate the action list")
        if self.made[i] != NULL:
            return <object>self.made[i]
        if self.pl.maker is None:
            obj = play_object(self.pl.factory, &self.pl.buf.data[i], self.pl.context)
        else:
            obj = self.pl.maker.make(&self.pl.buf.data[i], self.pl.context)
            (<PlayRecord>obj).stamp = self.stamp
            (<PlayRecord>obj).index = i
        Py_XINCREF(<PyObject *>obj)
        self.made[i] = <PyObject *>obj
        return obj

    def __getitem__(self, index):
        cdef Py_ssize_t i, n = len(self)
        if isinstance(index, slice):
            return [self._item(j) for j in range(*index.indices(n))]
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
            raise TypeError(f"ActionList indices must be ints or slices, not {type(index).__name__}")
        i = index
        if i < 0:
            i += n
        if i < 0 or i >= n:
            raise IndexError(f"action index {index} out of range for {n} actions")
        return self._item(i)

    def __iter__(self):
        cdef _ActionIter it = _ActionIter.__new__(_ActionIter)
        it.actions = self
        it.n = len(self)
        return it

    def __reversed__(self):
        return iter([self._item(i) for i in range(len(self) - 1, -1, -1)])

    def __bool__(self):
        return len(self) > 0

    cdef Py_ssize_t find(self, object action, Py_ssize_t lo, Py_ssize_t hi) except -2:
        """The index of the item equal to ``action`` in ``[lo, hi)``, or -1: an item of
        this list by its stamp, a play by its record (the engine's ``h_record``) searched
        among the generator's records, no Play made; a decision among the options."""
        cdef play_t rec
        cdef Py_ssize_t i
        cdef PlayRecord p
        if self.options is not None:
            for i in range(lo, hi):
                if self.options[i] == action:
                    return i
            return -1
        if action is _PASS:
            return self.nplays if self.passing and lo <= self.nplays < hi else -1
        if isinstance(action, PlayRecord):
            p = <PlayRecord>action
            if p.stamp == self.stamp and p.index < self.nplays:
                return p.index if lo <= p.index < hi else -1
        if self.eng is None or type(action) is not self.eng.h_spec().classes.play:
            return -1
        try:
            self.eng.h_record(action, &rec)
        except IllegalActionError:  # formed in another context (level): equal to none
            return -1
        for i in range(lo, min(hi, self.nplays)):
            if same_play(&self.pl.buf.data[i], &rec):
                return i
        return -1

    def __contains__(self, action):
        return self.find(action, 0, len(self)) >= 0

    def index(self, action, start=0, stop=None, /):
        """The index of the first item equal to ``action`` in ``[start, stop)``
        (``ValueError`` if none), found as ``in`` finds it."""
        cdef Py_ssize_t lo, hi, step
        lo, hi, step = slice(start, stop).indices(len(self))
        cdef Py_ssize_t i = self.find(action, lo, hi)
        if i < 0:
            raise ValueError(f"{action!r} is not among the legal actions")
        return i

    def count(self, action):
        if self.options is not None:
            return self.options.count(action)
        return int(self.find(action, 0, len(self)) >= 0)  # the plays are distinct

    def __eq__(self, other):
        if not isinstance(other, (ActionList, list, tuple)):
            return NotImplemented
        if len(other) != len(self):
            return False
        return all(a == b for a, b in zip(self, other))

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    __hash__ = None

    def __add__(self, other):
        return list(self) + list(other)

    def __radd__(self, other):
        return list(other) + list(self)

    @property
    def plays(self):
        """The plays (a ``PlayList``, PASS not in it), ``None`` in a decision phase."""
        return self.pl

    @property
    def can_pass(self):
        """Whether the last item is ``PASS``."""
        return bool(self.passing)

    def __repr__(self):
        # as the list it stands for (doctests and printouts read the same)
        return repr(list(self))


Sequence.register(ActionList)


@cython.final
cdef class _ActionIter:
    cdef ActionList actions
    cdef Py_ssize_t i
    cdef Py_ssize_t n

    def __iter__(self):
        return self

    def __next__(self):
        if self.i >= self.n:
            raise StopIteration
        self.i += 1
        return self.actions._item(self.i - 1)

    def __length_hint__(self):
        return self.n - self.i


cdef ActionList _options_list(tuple options):
    cdef ActionList v = ActionList.__new__(ActionList)
    v.options = options
    v.stamp = _new_stamp()
    return v


@cython.auto_pickle(False)
cdef class CompiledState:
    """The compiled base of every state (see the module doc).

    A game's ``Deal`` sets ``_engine`` when its card play starts, keeps ``_phase`` for its
    decision phases, and supplies in Python: ``_apply_checked(action)`` (any action not
    known legal: validate it fully, ``IllegalActionError`` with the state unchanged, then
    make it, a card-play action through ``_commit``), ``_options()`` (a decision
    phase's options), ``_ended()`` (called once when the card play ends) and
    ``_after_action(seat, action, leading)`` (called after the card-play actions that
    ``_watch`` selects: bits 0-7 a seat's, WATCH_BOMBS, WATCH_LEAD_PASS).

    A game whose engine has card-play phases of its own sets ``_engine_phases``, its
    ``Phase`` members by the engine's phase index (``Engine.h_phase``): ``_phase`` then
    follows the engine after every card-play action, and every automatic step the
    engine reports (``Engine.h_auto``) enters the history as an automatic event, in C.
    """

    def __cinit__(self):
        self.phases = ()
        self.events = ()

    def __dealloc__(self):
        self._clear()
        free(self.entries)
        free(self.recs)

    cdef void _clear(self):
        cdef Py_ssize_t i
        for i in range(self.nentries):
            Py_XDECREF(self.entries[i].obj)
        self.nentries = 0
        self.nrecs = 0
        self.recs_read = 0
        self.events = ()

    cdef int reserve(self, Py_ssize_t entries, Py_ssize_t recs) except -1:
        """Room for `entries` more entries and `recs` more records (MemoryError, nothing
        changed, if there is none)."""
        if self.nentries + entries > self.capentries:
            _grow(<void **>&self.entries, &self.capentries, sizeof(entry_t))
        if self.nrecs + recs > self.caprecs:
            _grow(<void **>&self.recs, &self.caprecs, sizeof(play_t))
        return 0

    cdef int push(self, int seat, int kind, object obj, object phase, const play_t *rec) except -1:
        cdef Py_ssize_t k
        cdef entry_t *e
        cdef bint has_rec = kind == EV_RECORD or kind == EV_AUTO
        self.reserve(1, has_rec)
        if has_rec:
            self.recs[self.nrecs] = rec[0]
            self.nrecs += 1
        e = &self.entries[self.nentries]
        e.seat = seat
        e.kind = kind
        e.phase = 0
        if kind != EV_EVENT:
            for k in range(len(self.phases)):
                if self.phases[k] is phase:
                    break
            else:
                k = len(self.phases)
                self.phases = self.phases + (phase,)
            e.phase = <unsigned short>k
        e.obj = <PyObject *>obj
        Py_XINCREF(e.obj)
        self.nentries += 1
        return 0

    # -- the engine and the cached list ---------------------------------------------------
    @property
    def _engine(self):
        """The compiled card-play engine (``None`` before the card play)."""
        return self.eng

    @_engine.setter
    def _engine(self, Engine core):
        self.eng = core
        self.view = None

    @property
    def _legal(self):
        """The cached legal actions (``None`` until listed); set to ``None`` to drop them."""
        return self.view

    @_legal.setter
    def _legal(self, value):
        if value is not None:
            raise ValueError("_legal can only be reset (to None)")
        self.view = None

    @property
    def _last_play(self):
        """The trick's last play (``None`` when leading or outside the card play)."""
        return None if self.eng is None else self.eng.last_play

    # -- the history ------------------------------------------------------------------------
    @property
    def _history(self):
        """The public events so far: a tuple of :class:`~chupai.contract.Event`, made
        when read and kept until the next action (clones share it)."""
        cdef Py_ssize_t i, done = len(self.events)
        cdef entry_t *e
        cdef object action
        cdef list new
        if done == self.nentries:
            return self.events
        new = []
        for i in range(done, self.nentries):
            e = &self.entries[i]
            if e.kind == EV_EVENT:
                new.append(<object>e.obj)
                continue
            if e.kind == EV_ACTION:
                action = <object>e.obj
            else:
                action = play_object(self.eng.h_spec().classes.factory, &self.recs[self.recs_read], <object>e.obj)
                self.recs_read += 1
            new.append(_event(e.seat, action, self.phases[e.phase], e.kind == EV_AUTO))
        self.events = self.events + tuple(new)
        return self.events

    @_history.setter
    def _history(self, events):
        self._clear()
        for ev in events:
            self._record_event(ev)

    @property
    def _history_len(self):
        """``len(self._history)``, without making the events."""
        return self.nentries

    def _played_cards(self, Py_ssize_t players):
        """Per seat ``0 .. players - 1``, the cards of every ``Play`` it made in the
        history (a ``Cards`` each), read from the compact entries without making the
        events: the play records kept, the actions and the recorded events that are
        this game's plays."""
        cdef mask_t lo[ENGINE_MAX_SEATS]
        cdef mask_t hi[ENGINE_MAX_SEATS]
        cdef Py_ssize_t i, r = 0
        cdef entry_t *e
        cdef const play_t *rec
        cdef object action
        if not 0 < players <= ENGINE_MAX_SEATS:
            raise ValueError(f"players must be 1..{ENGINE_MAX_SEATS}, not {players}")
        for i in range(players):
            lo[i] = hi[i] = 0
        for i in range(self.nentries):
            e = &self.entries[i]
            if e.kind == EV_RECORD or e.kind == EV_AUTO:
                rec = &self.recs[r]
                r += 1
            else:
                action = <object>e.obj if e.kind == EV_ACTION else (<object>e.obj)[1]
                if not isinstance(action, PlayRecord):
                    continue
                rec = &(<PlayRecord>action).rec
            if e.seat < 0 or e.seat >= players:
                continue
            # two-deck masks: a face played once more moves from lo alone to hi as well
            hi[e.seat] |= rec.hi | (lo[e.seat] & rec.lo)
            lo[e.seat] |= rec.lo
        return tuple([Cards.from_masks(lo[i], hi[i]) for i in range(players)])

    def _record_event(self, event):
        """Add ``event`` (an :class:`~chupai.contract.Event`) to the history."""
        if type(event) is not _EVENT:
            raise TypeError(f"event must be a chupai.contract.Event, not {event!r}")
        self.push(event[0], EV_EVENT, event, None, NULL)

    def _clone_engine(self):
        """A new state of this one's class whose compiled part is a copy of this one's
        (the engine copied, the history copied, the cached list shared: it is the same
        position); its Python slots are not set (``chupai.state.base.shallow_clone``)."""
        cdef type cls = type(self)
        cdef CompiledState other = <CompiledState>(<PyTypeObject *>cls).tp_new(cls, <PyObject *>_NO_ARGS, NULL)
        other.copy_from(self)
        return other

    cdef int copy_from(self, CompiledState other) except -1:
        cdef Py_ssize_t i, n = other.nentries
        cdef Engine e
        if self.nentries:
            self._clear()
        if other.eng is None:
            self.eng = None
        else:
            e = other.eng.c_new()
            memcpy(e.h_state(), other.eng.h_state(), other.eng.h_spec().state_size)
            other.eng.h_copy_extra(e)
            self.eng = e
        self.view = other.view  # the same position: the same list (it is immutable)
        self._phase = other._phase
        self._trick_start = other._trick_start
        self._watch = other._watch
        self._engine_phases = other._engine_phases
        self.phases = other.phases
        if n > self.capentries:
            free(self.entries)
            self.entries = <entry_t *>malloc(n * sizeof(entry_t))
            self.capentries = n if self.entries != NULL else 0
            if self.entries == NULL:
                raise MemoryError("cannot copy the history")
        if other.nrecs > self.caprecs:
            free(self.recs)
            self.recs = <play_t *>malloc(other.nrecs * sizeof(play_t))
            self.caprecs = other.nrecs if self.recs != NULL else 0
            if self.recs == NULL:
                raise MemoryError("cannot copy the history")
        if n:
            memcpy(self.entries, other.entries, n * sizeof(entry_t))
            for i in range(n):
                Py_XINCREF(self.entries[i].obj)
        if other.nrecs:
            memcpy(self.recs, other.recs, other.nrecs * sizeof(play_t))
        self.nentries = n
        self.nrecs = other.nrecs
        self.recs_read = other.recs_read
        self.events = other.events
        return 0

    # -- the contract's hot path ---------------------------------------------------------
    def is_terminal(self):
        """Whether the deal is over."""
        return self.eng is not None and self.eng.h_current(self.eng.h_state()) < 0

    cdef ActionList listed(self):
        cdef ActionList v
        cdef Engine eng = self.eng
        cdef GameSpec spec
        cdef const void *st
        if self.view is not None:
            return self.view
        if eng is None:
            v = _options_list(tuple(self._options()))
        else:
            v = ActionList.__new__(ActionList)
            v.stamp = _new_stamp()
            spec = eng.h_spec()
            st = eng.h_state()
            v.eng = eng
            v.pl = new_playlist(spec.classes.factory, eng.h_context(), spec.buf_cap)
            if eng.h_current(st) >= 0:
                check_grown(eng.h_legal(st, 0, &v.pl.buf))
                v.passing = eng.c_can_pass(st)
            v.nplays = v.pl.buf.len
        self.view = v
        return v

    def legal_actions(self):
        """The current player's legal actions (an :class:`ActionList`; empty once over)."""
        return self.listed()

    cdef int act(self, const play_t *rec, object action) except -1:
        """The current player makes the play `rec` (a record of the generator, legal now)
        or passes (`rec` NULL); `action` is the object applied (None: made from `rec`
        when the history is read)."""
        cdef Engine eng = self.eng
        cdef void *st = eng.h_state()
        cdef int seat = eng.h_current(st)
        cdef bint leading = eng.h_last_player(st) < 0
        cdef unsigned int watch = self._watch
        cdef tuple phases = self._engine_phases
        cdef long long mark = 0
        cdef int auto
        cdef play_t step
        if phases is not None:
            mark = eng.h_mark(st)
            self.reserve(2, 2)  # the action and an automatic step it may set off
        # recorded first: the one step that can fail (memory) fails with the engine unchanged
        if rec == NULL:
            self.push(seat, EV_ACTION, _PASS, self._phase, NULL)
            eng.h_pass(st)
        elif action is None:
            self.push(seat, EV_RECORD, eng.h_context(), self._phase, rec)
            eng.h_play(st, rec)
        else:
            self.push(seat, EV_ACTION, action, self._phase, rec)
            eng.h_play(st, rec)
        self.view = None
        if phases is not None:
            auto = eng.h_auto(st, mark, &step)
            if auto >= 0:
                self.push(seat, EV_AUTO, eng.h_context(), phases[auto], &step)
            self._phase = phases[eng.h_phase(st)]
        if eng.h_last_player(st) < 0:
            self._trick_start = self.nentries
        if watch and ((watch >> seat) & 1
                      or (rec != NULL and rec.cls and (watch & WATCH_BOMBS))
                      or (rec == NULL and leading and (watch & WATCH_LEAD_PASS))):
            if rec != NULL and action is None:
                action = play_object(eng.h_spec().classes.factory, rec, eng.h_context())
            self._after_action(seat, _PASS if rec == NULL else action, leading)
        if eng.h_current(st) < 0:
            self._ended()
        return 0

    def apply(self, action):
        """Make ``action`` for the current player; ``IllegalActionError`` (state unchanged)
        if it is not legal now.  An item of the current ``legal_actions()`` is applied
        without a search; anything else is validated in full."""
        cdef ActionList v = self.view
        cdef PlayRecord p
        if v is not None and v.pl is not None:
            if action is _PASS:
                if v.passing:
                    self.act(NULL, None)
                    return
            elif isinstance(action, PlayRecord):
                p = <PlayRecord>action
                if p.stamp == v.stamp and p.index < v.nplays:
                    self.act(&v.pl.buf.data[p.index], action)
                    return
        self._apply_checked(action)

    def policy_action(self, policy="random", seed=0):
        """The item of ``legal_actions()`` the compiled playout policy ``policy``
        (``"random"``, ``"greedy"``, ``"heuristic"``) chooses now: the engine's
        ``policy_choice(policy, seed)``, the same draw, as the list's own item (so
        ``apply()`` takes it without a search).  ``None`` outside the card play
        (a decision phase) and once the deal is over."""
        cdef Engine eng = self.eng
        cdef ActionList v
        cdef rng_t rng
        cdef playbuf_t buf
        cdef int k, pol = policy_code(POLICIES, policy)
        cdef Py_ssize_t i = -1, j
        cdef const void *st
        if eng is None or eng.h_current(eng.h_state()) < 0:
            return None
        v = self.listed()
        st = eng.h_state()
        rng_seed(&rng, seed64(seed), 0)
        playbuf_open(&buf, eng.h_spec().buf_cap)
        k = eng.h_choose(st, &rng, pol, &buf)
        if k == CHOICE_PASS:
            i = v.nplays if v.passing else -1
        elif k >= 0:
            for j in range(v.nplays):
                if same_play(&v.pl.buf.data[j], &buf.data[k]):
                    i = j
                    break
        playbuf_close(&buf, GEN_OOM if k == CHOICE_OOM else 0)
        if i < 0:
            raise RuntimeError(f"the {policy} policy chose an action the generator does not list")
        return v._item(i)

    def apply_index(self, i):
        """Make item ``i`` of ``legal_actions()`` (an int from 0), without making its
        object: the search code's fast path.  ``TypeError`` for a non-int,
        ``IllegalActionError`` (state unchanged) outside 0 .. len - 1 (a negative index
        too: no index from the end)."""
        cdef ActionList v = self.listed()
        cdef Py_ssize_t k = _index(i, len(v))
        if v.options is not None:
            self._apply_checked(v.options[k])
        elif k == v.nplays:
            self.act(NULL, None)
        else:
            self.act(&v.pl.buf.data[k], None)

    def _commit(self, action):
        """Make a card-play action already validated by the game (a Play of this game or
        PASS): the engine checks it once more (``IllegalActionError``, nothing changed)."""
        cdef play_t rec
        if self.eng is None:
            raise IllegalActionError(f"{action!r}: the card play has not started")
        if action is _PASS:
            self.eng.check_live()
            if not self.eng.c_can_pass(self.eng.h_state()):
                raise IllegalActionError(f"PASS: seat {self.eng.h_current(self.eng.h_state())} may not pass now")
            self.act(NULL, None)
        else:
            self.eng.checked_record(action, &rec)
            self.act(&rec, action)

    # -- what a game supplies (see the class doc) ----------------------------------------
    def _apply_checked(self, action):
        raise NotImplementedError

    def _options(self):
        return ()

    def _ended(self):
        pass

    def _after_action(self, seat, action, leading):
        pass


#: ``_watch`` bits: bit ``s`` (0-7) for seat ``s``'s actions, and these
WATCH_BOMB_PLAYS = WATCH_BOMBS
WATCH_PASSES_ON_LEAD = WATCH_LEAD_PASS
