"""The compiled machinery the games' ``Play`` classes share (the rules stay in each game).

A game's ``Play`` is an immutable, hashable view of one ``play_t`` record of its
generator (``chupai.core.records``).  The record lives in the object as the C struct; a
``PlayList`` makes the objects through the class's compiled factory without a Python
call, and Python code makes them through the same factory,
``Play._from_record(lo, hi, type, key, length, cls, decl, context)``, which checks every
field (types, ranges, the type code a value of the game's ``PlayType``, the wild
declaration), so no record a kernel reads can be out of range.

* :class:`PlayBase`: no public constructor, ``type``, equality and hash by value (the
  record's cards, type, key and class field and the generator's context: the same play
  of ``docs/rules/cards.md`` in every game), ``repr``, pickling and copying.
* :class:`RecordPlay`: a :class:`PlayBase` with the views every shedding game has:
  ``key``, ``length``, ``cards``, ``wilds``, ``declared``.  A game names which of its cards
  stand in for others (``_wild_mask()``: the faces that play as wild cards here; the first
  ``len(wilds)`` copies of them in face order are the ones declared).
* :class:`BombPlay`: a :class:`RecordPlay` whose ``cls`` is the bomb class, with the
  views ``bomb_class`` and ``is_bomb``.
* :class:`RecordView`: a game's own read-only attribute (a rank's name, the words of
  ``str()``) computed from the record's values once and cached.

A subclass sets ``_TYPES`` (its ``PlayType``), optionally ``_ORIGIN`` (where plays come
from, for the constructor's error) and ``_NESTED_MASKS = False`` when its record's
``hi`` is not the two-deck "held twice" word, and declares ``__slots__ = ()``.
"""
cimport cython
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.object cimport PyObject, PyTypeObject

cdef extern from "Python.h":
    void PyObject_GC_UnTrack(void *op)
from libc.stdint cimport uint8_t
from libc.string cimport memset

from chupai.core.cardset cimport Cards, cards_new, cards_of_counts, name_of
from chupai.core.records cimport MAX_WILDS, N_FACES, NO_FACE, PlayMaker, lowest_bit, mask_t, play_t

import numpy as np

__all__ = ["BombPlay", "PlayBase", "RecordPlay", "RecordView"]

cdef enum:
    FIELD_MAX = 255              # the record's one-byte fields
    VIEW_SLOTS = 4096            # a RecordView's cache (a power of two)
    MAX_DECLARED = 4             # copies of a face in a declared view (chupai.core.cardset)

cdef tuple _FACE_NAMES = tuple([name_of(f) for f in range(N_FACES)])


cdef int _byte(object v, str name) except -1:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"record field {name} must be an int, not {v!r}")
    if not 0 <= v <= FIELD_MAX:
        raise ValueError(f"record field {name} = {v!r} out of range 0..{FIELD_MAX}")
    return v


cdef mask_t _mask(object v, str name) except? 0:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"record field {name} must be an int mask, not {v!r}")
    if v < 0 or v >> N_FACES:
        raise ValueError(f"record field {name} = {v!r} holds bits beyond the {N_FACES} faces")
    return <mask_t>v


cdef class RecordMaker(PlayMaker):
    """The factory of one game's Play class (``Play._from_record``)."""

    def __init__(self, cls):
        if not isinstance(cls, type) or not issubclass(cls, PlayRecord):
            raise TypeError(f"expected a Play class, not {cls!r}")
        self.cls = cls
        self.new = (<PyTypeObject *>cls).tp_new
        types = getattr(cls, "_TYPES", None)
        table = [None] * (FIELD_MAX + 1)
        if types is not None:
            for member in types:
                table[int(member)] = member
        self.types = tuple(table)
        self.nested = getattr(cls, "_NESTED_MASKS", True)

    cdef object make(self, const play_t *p, object context):
        # the record copied before the object is made: an allocation may run the collector
        # and let another thread move the buffer `p` points into (roomy_playlist's trim)
        cdef play_t rec = p[0]
        # the class's own tp_new (PlayRecord's: the Python subclasses define no __new__),
        # called directly: no method lookup, no argument tuple
        cdef PlayRecord obj = <PlayRecord>self.new(self.cls, NULL, NULL)
        obj.rec = rec
        obj.context = context
        obj.kind = self
        if context is None or type(context) is int:
            # nothing it holds can lead back to it (as CPython does for tuples of atoms):
            # the cycle collector need not scan it
            PyObject_GC_UnTrack(<PyObject *>obj)
        return obj

    def __call__(self, lo, hi, type_, key, length, cls_, decl, context, taken=0):
        """The Play of a record given field by field, every field checked (``taken``:
        the layout cards a Chinese Ten capture takes; 0 in the other games)."""
        cdef play_t r
        cdef Py_ssize_t i, n
        r.lo = _mask(lo, "lo")
        r.hi = _mask(hi, "hi")
        r.taken = _mask(taken, "taken")
        if self.nested and (r.hi & ~r.lo):
            raise ValueError(f"record fields lo = {lo:#x}, hi = {hi:#x}: hi must be a subset of lo")
        r.type = _byte(type_, "type")
        if self.types[r.type] is None:
            raise ValueError(f"record field type = {type_!r} is not a {self.cls.__module__}.PlayType value")
        r.key = _byte(key, "key")
        r.length = _byte(length, "length")
        r.cls = _byte(cls_, "cls")
        if not isinstance(decl, bytes):
            raise TypeError(f"record field decl must be bytes (one face per wild card), not {decl!r}")
        n = len(decl)
        if n > MAX_WILDS:
            raise ValueError(f"record field decl declares {n} wild cards; at most {MAX_WILDS}")
        r.nwild = n
        r.flags = 0
        memset(r.decl, NO_FACE, MAX_WILDS)
        for i in range(n):
            if decl[i] >= N_FACES:
                raise ValueError(f"record field decl holds {decl[i]}, not a face 0..{N_FACES - 1}")
            r.decl[i] = decl[i]
        return self.make(&r, context)

    def __reduce__(self):
        return (getattr, (self.cls, "_from_record"))

    def __repr__(self):
        return f"<record factory of {self.cls.__module__}.{self.cls.__qualname__}>"


cdef inline Py_hash_t _mix(mask_t h) noexcept:
    h ^= h >> 31
    h *= <mask_t>0x9E3779B97F4A7C15ULL
    return <Py_hash_t>(h ^ (h >> 29))


cdef class PlayRecord:
    """One generator record (see the module doc); subclassed by the games' ``Play``."""

    def __init__(self, *args, **kwargs):
        raise TypeError(f"Play objects come from {getattr(type(self), '_ORIGIN', 'legal_plays() or classify()')}")

    @property
    def type(self):
        """The combination type (the game's ``PlayType``)."""
        return self.kind.types[self.rec.type]

    # -- the record's fields, for the compiled engines and the game modules -----------
    @property
    def _lo(self):
        return self.rec.lo

    @property
    def _hi(self):
        return self.rec.hi

    @property
    def _taken(self):
        return self.rec.taken

    @property
    def _type(self):
        return self.rec.type

    @property
    def _key(self):
        return self.rec.key

    @property
    def _length(self):
        return self.rec.length

    @property
    def _cls(self):
        return self.rec.cls

    @property
    def _decl(self):
        return PyBytes_FromStringAndSize(<const char *>self.rec.decl, self.rec.nwild)

    @property
    def _context(self):
        return self.context

    def _record(self):
        """The record's fields, in the order of ``_from_record``."""
        return (self.rec.lo, self.rec.hi, self.rec.type, self.rec.key, self.rec.length, self.rec.cls,
                self._decl, self.context, self.rec.taken)

    # -- identity ------------------------------------------------------------------------
    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        cdef PlayRecord o = <PlayRecord>other
        return (self.rec.lo == o.rec.lo and self.rec.hi == o.rec.hi and self.rec.taken == o.rec.taken
                and self.rec.type == o.rec.type and self.rec.key == o.rec.key and self.rec.cls == o.rec.cls
                and self.context == o.context)

    def __ne__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return not self == other

    def __hash__(self):
        cdef mask_t h = self.rec.lo * <mask_t>0xC2B2AE3D27D4EB4FULL
        h ^= self.rec.hi * <mask_t>0x165667B19E3779F9ULL
        h ^= self.rec.taken * <mask_t>0x27D4EB2F165667C5ULL
        h ^= (<mask_t>self.rec.type << 16) | (<mask_t>self.rec.key << 8) | self.rec.cls
        h ^= <mask_t>hash(self.context)
        cdef Py_hash_t out = _mix(h)
        return -2 if out == -1 else out

    def __repr__(self):
        return f"<Play {self}>"

    def __reduce__(self):
        return (type(self)._from_record, self._record())

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    # -- the cards ---------------------------------------------------------------------
    def _wild_mask(self):
        """The faces that play as wild cards in this play (the game's rule; none here)."""
        return 0

    cdef list _faces(self):
        """Face numbers of the cards (lo, hi) in canonical order, one per copy."""
        cdef mask_t m = self.rec.lo
        cdef int f
        out = []
        while m:
            f = lowest_bit(m)
            m &= m - 1
            out.append(f)
            if (self.rec.hi >> f) & 1:
                out.append(f)
        return out

    cdef int _standing(self, int *out) except -1:
        """The faces of the copies that stand in for other cards, in the order of the
        declaration (the first nwild copies of the wild faces); their number."""
        cdef int n = 0, f
        cdef mask_t wild, m
        if self.rec.nwild == 0:
            return 0
        wild = <mask_t>self._wild_mask()
        m = self.rec.lo & wild
        while m and n < self.rec.nwild:
            f = lowest_bit(m)
            m &= m - 1
            out[n] = f
            n += 1
            if (self.rec.hi >> f) & 1 and n < self.rec.nwild:
                out[n] = f
                n += 1
        return n


cdef class RecordViews(PlayRecord):
    """The views of a shedding game's record (see :class:`RecordPlay`)."""

    @property
    def key(self):
        """The comparison key: within one type, higher beats lower (encoding in the game's
        ``play`` module doc)."""
        return self.rec.key

    @property
    def length(self):
        """The number of cards."""
        return self.rec.length

    @property
    def cards(self):
        """The physical cards, wild cards as themselves."""
        return cards_new(self.rec.lo, self.rec.hi)

    @property
    def wilds(self):
        """What each wild card stands for, as card names."""
        return tuple([_FACE_NAMES[self.rec.decl[i]] for i in range(self.rec.nwild)])

    @property
    def declared(self):
        """The cards with each wild card replaced by the card it stands for (a face may
        appear up to four times here: two copies and two wild cards standing in)."""
        cdef uint8_t counts[N_FACES]
        cdef int standing[MAX_WILDS]
        cdef int n = self._standing(standing), i, f
        for f in range(N_FACES):
            counts[f] = ((self.rec.lo >> f) & 1) + ((self.rec.hi >> f) & 1)
        for i in range(n):
            counts[standing[i]] -= 1
            f = self.rec.decl[i]
            if counts[f] >= MAX_DECLARED:
                raise ValueError(f"the declaration of {self!r} holds {name_of(f)} more than {MAX_DECLARED} times")
            counts[f] += 1
        return cards_of_counts(counts)

    def _standing_faces(self):
        """The faces of the cards that stand in for others, in the order of ``wilds``."""
        cdef int standing[MAX_WILDS]
        cdef int n = self._standing(standing)
        return [standing[i] for i in range(n)]

    def _card_names(self, tuple names):
        """``names[f]`` for each card's face ``f``, in canonical order (one per copy)."""
        if len(names) != N_FACES:
            raise ValueError(f"expected {N_FACES} names, one per face")
        return [names[f] for f in self._faces()]

    def _cards_text(self, tuple declared_names=None):
        """The card names, each wild card followed by ``(=what it stands for)``
        (``declared_names[f]``: how to name a declared face; default the card name)."""
        cdef int standing[MAX_WILDS]
        cdef int n = self._standing(standing), i = 0
        cdef tuple dn = _FACE_NAMES if declared_names is None else declared_names
        if len(dn) != N_FACES:
            raise ValueError(f"expected {N_FACES} names, one per face")
        parts = []
        for f in self._faces():
            if i < n and f == standing[i]:
                parts.append(f"{_FACE_NAMES[f]}(={dn[self.rec.decl[i]]})")
                i += 1
            else:
                parts.append(_FACE_NAMES[f])
        return " ".join(parts)


cdef class BombViews(RecordViews):
    """The bomb views of a record whose ``cls`` is the bomb class (see :class:`BombPlay`)."""

    @property
    def bomb_class(self):
        """0 for ordinary combinations, else the bomb class (the game's ``BOMB_CLASS``): a
        bomb of a higher class beats any bomb of a lower one."""
        return self.rec.cls

    @property
    def is_bomb(self):
        return self.rec.cls > 0


@cython.auto_pickle(False)
cdef class RecordView:
    """A read-only attribute of a game's Play computed from the record's values by a
    Python function ``fn(type, key, length, cls, context)``, once per distinct value.

    ``rank = RecordView(_rank_name, "The rank that names the play.")`` in a Play class
    reads like a compiled property: a cached value is one look-up in a C table of
    VIEW_SLOTS entries (a collision only recomputes).  Records whose context is neither
    None nor a small int are not cached.
    """

    cdef object fn
    cdef list values
    cdef unsigned long long codes[VIEW_SLOTS]
    cdef str doc

    def __init__(self, fn, doc=None):
        if not callable(fn):
            raise TypeError(f"fn must be callable, not {fn!r}")
        self.fn = fn
        self.values = [None] * VIEW_SLOTS
        memset(self.codes, 0, sizeof(self.codes))  # code 0 is never a valid record's
        self.doc = doc if doc is not None else getattr(fn, "__doc__", None)

    @property
    def __doc__(self):
        return self.doc

    def __get__(self, obj, objtype):
        if obj is None:
            return self
        cdef PlayRecord p = <PlayRecord?>obj
        cdef unsigned long long code = ((<unsigned long long>p.rec.type << 24) | (<unsigned long long>p.rec.key << 16)
                                        | (<unsigned long long>p.rec.length << 8) | p.rec.cls)
        cdef Py_ssize_t slot
        if p.context is None:
            code |= <unsigned long long>0x100 << 32
        elif type(p.context) is int and 0 <= p.context <= 0xFF:
            code |= <unsigned long long>(<int>p.context) << 32
        else:
            return self.fn(p.rec.type, p.rec.key, p.rec.length, p.rec.cls, p.context)
        code |= <unsigned long long>1 << 48  # never 0
        slot = <Py_ssize_t>(((code * <unsigned long long>0x9E3779B97F4A7C15ULL) >> 52) & (VIEW_SLOTS - 1))
        if self.codes[slot] == code:
            return self.values[slot]
        value = self.fn(p.rec.type, p.rec.key, p.rec.length, p.rec.cls, p.context)
        self.values[slot] = value
        self.codes[slot] = code
        return value

    def __set__(self, obj, value):
        raise AttributeError("Play objects are immutable")

    def __delete__(self, obj):
        raise AttributeError("Play objects are immutable")


class _Registered:
    """Gives every Play class its compiled factory, ``_from_record``."""

    __slots__ = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if issubclass(cls, PlayRecord):
            cls._from_record = RecordMaker(cls)


class PlayBase(_Registered, PlayRecord):
    """Identity, hash, ``type`` and ``repr`` of a game's ``Play`` (see the module doc)."""

    __slots__ = ()
    _ORIGIN = "legal_plays() or classify()"


class RecordPlay(PlayBase, RecordViews):
    """A play that keeps its whole generator record, with the shedding games' views.

    Equal plays are the same play in the sense of ``docs/rules/cards.md``: the same cards,
    type, key and class field (and the same generator context, e.g. the level in Guan
    Dan).
    """

    __slots__ = ()
    _ORIGIN = "legal_plays() or classify()"


class BombPlay(RecordPlay, BombViews):
    """A :class:`RecordPlay` whose record's ``cls`` is the bomb class (0: no bomb)."""

    __slots__ = ()
    _ORIGIN = "legal_plays() or classify()"
