"""The engine base of the four games' compiled card-play engines (see ``engine/base.pxd``).

A game's ``DealEngine`` derives from :class:`Engine` and supplies its rules as hooks
over its own C struct; everything built on the rules is here, once: clone, copy and
pickle, the Python surface shared by every game (``current``, ``hand``,
``legal_plays``, ``play``, ``pass_turn``, ...), one validation path for a play ("it
must equal a record the generator lists now"), playouts with the GIL released,
policy choice, Monte Carlo evaluation of candidates, and the batch runner behind each
game's ``playouts``.
"""
cimport cython

import numpy as np

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.object cimport PyTypeObject
from cpython.ref cimport Py_XDECREF, Py_XINCREF, PyObject
from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, memcpy

from chupai.core.records cimport (
    GEN_OOM,
    GameClasses,
    MAX_WILDS,
    N_FACES,
    NO_FACE,
    PlayList,
    mask_t,
    check_grown,
    multiset_size,
    new_playlist,
    play_object,
    playbuf_close,
    playbuf_free,
    playbuf_init,
    playbuf_open,
    policy_code,
    rng_below,
    rng_seed,
    seed64,
)

from chupai.core.cardset import Cards, face_name
from chupai.errors import IllegalActionError

__all__ = ["DEAL_OVER", "Engine", "GameSpec", "NotAPlayError", "POLICIES", "RowField"]


class NotAPlayError(IllegalActionError, TypeError):
    """A ``play()`` argument that is not a Play of the engine's game: a wrong type
    (``TypeError``) and, to a state machine, an illegal action (``IllegalActionError``)
    -- both, as numpy's ``AxisError`` is both a ``ValueError`` and an ``IndexError``."""

#: the policies of every game's C playouts (``policy=`` of playout, playouts, evaluate)
POLICIES = {"random": POLICY_RANDOM, "greedy": POLICY_GREEDY, "heuristic": POLICY_HEURISTIC}
#: the one message for any action on a deal that is over
DEAL_OVER = "the deal is over"


class RowField:
    """One field of an engine's batch row: ``name``, the numpy ``dtype`` of its array, and
    whether it takes a column per seat (an ``(n, players)`` array) or one column (an
    ``(n,)`` array).  A game's ``_engine`` lists its fields in ``ROW``, in the order its
    ``h_row`` writes them; :func:`chupai.engine.batch.split_rows` reads rows by them.

    >>> RowField("order", "int8", per_seat=True).width(4), RowField("result", "int8").width(4)
    (4, 1)
    """

    __slots__ = ("name", "dtype", "per_seat")

    def __init__(self, name, dtype, per_seat=False):
        self.name = name
        self.dtype = dtype
        self.per_seat = bool(per_seat)

    def width(self, players):
        """The columns this field takes in a deal of ``players``."""
        return players if self.per_seat else 1

    def __eq__(self, other):
        if not isinstance(other, RowField):
            return NotImplemented
        return (self.name, self.dtype, self.per_seat) == (other.name, other.dtype, other.per_seat)

    def __hash__(self):
        return hash((self.name, self.dtype, self.per_seat))

    def __repr__(self):
        return f"RowField({self.name!r}, {self.dtype!r}, per_seat={self.per_seat})"
cdef tuple _NO_ARGS = ()
cdef enum:
    SCRATCH_CAP = 64             # first capacity of the playouts' scratch buffers (they grow)


cdef class GameSpec:
    """What the engine of one game shares between its deals (see ``engine/base.pxd``)."""

    def __init__(self, GameClasses classes not None, Py_ssize_t state_size, Py_ssize_t buf_cap,
                 str context_name=None):
        self.name = classes.game
        self.classes = classes
        self.state_size = state_size
        self.buf_cap = buf_cap
        self.context_name = context_name

    @property
    def play_class(self):
        """The game's Play class."""
        return self.classes.play

    @property
    def rules_class(self):
        """The game's Rules class."""
        return self.classes.rules


cdef int check_seat(object seat, int n, str what) except -1:
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)):
        raise TypeError(f"{what} must be an int, not {seat!r}")
    if not 0 <= seat < n:
        raise ValueError(f"{what} must be a seat 0-{n - 1}, not {seat}")
    return seat


cdef int check_players(object players, int lo, int hi) except -1:
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)):
        raise TypeError(f"players must be an int, not {players!r}")
    if not lo <= players <= hi:
        raise ValueError(f"players must be {lo} to {hi}, not {players!r}")
    return players


cdef list checked_hands(object hands, int lo, int hi, int decks, list counted=None):
    _refuse = f"hands must be a sequence of hands (Cards or card strings), not {hands!r}"
    if isinstance(hands, (str, bytes, Cards)):
        raise TypeError(_refuse)
    try:
        n = len(hands)
    except TypeError:
        raise TypeError(_refuse) from None
    if not lo <= n <= hi:
        if lo == hi:
            raise ValueError(f"hands must be {lo} hands, one per player, not {n}")
        raise ValueError(f"hands must be one hand per player, {lo} to {hi} players, not {n}")
    total = [0] * N_FACES if counted is None else list(counted)
    out = []
    for s in range(n):
        hand = hands[s] if isinstance(hands[s], Cards) else Cards(hands[s], decks=decks)
        for f, c in enumerate(hand.counts()):
            total[f] += c
        out.append(hand)
    for f in range(N_FACES):
        if total[f] > decks:
            raise ValueError(f"card {face_name(f)} is dealt {total[f]} times, more than "
                             f"{'once (one deck)' if decks == 1 else 'twice (two decks)'}")
    return out


cdef inline bint same_record(const play_t *a, const play_t *b) noexcept nogil:
    """The same play: cards, captures, type, key, size, class and wild declaration."""
    return (a.lo == b.lo and a.hi == b.hi and a.taken == b.taken and a.type == b.type
            and a.key == b.key and a.length == b.length and a.cls == b.cls
            and a.nwild == b.nwild and memcmp(a.decl, b.decl, a.nwild) == 0)


def _restore(type cls, str game, int version, bytes state, object rules, object extra):
    """Rebuild a pickled engine, refusing bytes that do not make a valid state."""
    cdef Engine self
    if not issubclass(cls, Engine):
        raise TypeError(f"{cls.__name__} is not a compiled engine class")
    self = (<Engine>cls.__new__(cls))
    if game != self.h_spec().name:
        raise ValueError(f"the pickled state is a {game} deal, not a {self.h_spec().name} one")
    if version != STATE_VERSION:
        raise ValueError(f"the pickled state has layout version {version}; this build reads {STATE_VERSION}")
    if PyBytes_GET_SIZE(state) != self.h_spec().state_size:
        raise ValueError(f"the pickled state holds {PyBytes_GET_SIZE(state)} bytes, not {self.h_spec().state_size}")
    if not isinstance(rules, self.h_spec().classes.rules):
        raise TypeError(f"the pickled rules must be a {self.h_spec().name}.Rules, not {type(rules).__name__}")
    memcpy(self.h_state(), PyBytes_AS_STRING(state), self.h_spec().state_size)
    self.set_rules(rules)
    self.h_restore_extra(extra)
    self.c_check_valid()
    return self


@cython.no_gc
cdef class Engine:
    """The base of every game's ``DealEngine``: one deal's card play in C.

    Seats ``0 .. players - 1``; ``current`` is the seat to act (-1 once the deal is
    over).  Subclasses hold the game's struct and rules; this class holds every
    mechanism written on them.  Not instantiated directly.
    """

    def __init__(self, *args, **kwargs):
        raise TypeError(f"{type(self).__name__} objects come from its random() or from_hands()")

    def __dealloc__(self):
        Py_XDECREF(self._rules)

    cdef void set_rules(self, object rules):
        Py_XINCREF(<PyObject *>rules)
        Py_XDECREF(self._rules)
        self._rules = <PyObject *>rules

    @property
    def rules(self):
        """The game's Rules this deal is played under."""
        return <object>self._rules if self._rules != NULL else None

    # --- default hooks (a game overrides those it needs) --------------------------------
    cdef void *h_state(self) noexcept nogil:
        return NULL

    cdef GameSpec h_spec(self):
        raise TypeError("Engine is abstract: use a game's DealEngine")

    cdef int h_seats(self, const void *st) noexcept nogil:
        return (<const trick_t *>st).seats

    cdef int h_current(self, const void *st) noexcept nogil:
        return (<const trick_t *>st).current

    cdef int h_last_player(self, const void *st) noexcept nogil:
        return (<const trick_t *>st).last_player

    cdef const play_t *h_last(self, const void *st) noexcept nogil:
        return &(<const trick_t *>st).last

    cdef int h_passes(self, const void *st) noexcept nogil:
        return (<const trick_t *>st).npass

    cdef int h_pass_rule(self, const void *st) noexcept nogil:
        return (<const trick_t *>st).pass_rule

    cdef void h_hand(self, const void *st, int seat, mask_t *lo, mask_t *hi) noexcept nogil:
        lo[0] = 0
        hi[0] = 0

    cdef int h_legal(self, const void *st, int collapse, playbuf_t *out) noexcept nogil:
        return 0

    cdef int h_plays_of(self, const void *st, const play_t *p, int lead, playbuf_t *out) noexcept nogil:
        return 0

    cdef void h_play(self, void *st, const play_t *p) noexcept nogil:
        pass

    cdef void h_pass(self, void *st) noexcept nogil:
        pass

    cdef int h_choose(self, const void *st, rng_t *rng, int policy, playbuf_t *buf) noexcept nogil:
        """The policy's choice among the current player's suit-collapsed plays, which it
        leaves in `buf`.  POLICY_RANDOM: uniform over the plays, and passing when
        following; a player who must pass (PASS_IF_STUCK, no play) or has one choice
        and may not pass (PASS_NEVER) draws nothing.  POLICY_GREEDY: h_greedy;
        POLICY_HEURISTIC: h_heuristic."""
        cdef const trick_t *t = <const trick_t *>st
        cdef int n, k, rule
        if t.current < 0:
            return CHOICE_OVER
        buf.len = 0
        if self.h_legal(st, 1, buf) != 0:
            return CHOICE_OOM
        n = <int>buf.len
        rule = t.pass_rule
        if rule == PASS_IF_STUCK and n == 0:
            return CHOICE_PASS
        if rule == PASS_NEVER and n == 1:
            return 0
        if policy == POLICY_GREEDY:
            return self.h_greedy(st, buf)
        if policy == POLICY_HEURISTIC:
            return self.h_heuristic(st, buf)
        k = rng_below(rng, n + (1 if rule != PASS_NEVER and t.last_player >= 0 else 0))
        return CHOICE_PASS if k == n else k

    cdef int h_greedy(self, const void *st, const playbuf_t *buf) noexcept nogil:
        return 0 if buf.len else CHOICE_PASS

    cdef int h_heuristic(self, const void *st, const playbuf_t *buf) noexcept nogil:
        return self.h_greedy(st, buf)

    cdef void h_returns(self, const void *st, const double *weights, double *out) noexcept nogil:
        cdef int s
        for s in range(self.h_seats(st)):
            out[s] = 0.0

    cdef int h_deal(self, void *st, rng_t *rng, int policy) noexcept nogil:
        return 0

    cdef int h_row_width(self, const void *st) noexcept nogil:
        return 0

    cdef void h_row(self, const void *st, int dealt, double *row) noexcept nogil:
        pass

    cdef int h_valid(self, const void *st) noexcept nogil:
        return 1

    cdef int h_weights(self, object values, double *w) except -1:
        if values is not None:
            raise ValueError(f"{self.h_spec().name} evaluates by each seat's returns: values must be None, "
                             f"not {values!r}")
        return 0

    cdef object h_outcome(self):
        return tuple(self.returns())

    cdef object h_context(self):
        return None

    cdef int h_record(self, object play, play_t *p) except -1:
        """The record of a play of the shared record form (chupai.core.play.RecordPlay)."""
        cdef bytes decl = play._decl
        cdef Py_ssize_t i, nw = len(decl)
        if nw > MAX_WILDS:
            raise IllegalActionError(f"{play!r} declares more wild cards than a play can hold")
        if play._context != self.h_context():
            raise IllegalActionError(f"{play} was formed at {self.h_spec().context_name} {play._context!r}, "
                                     f"not at this deal's {self.h_context()!r}")
        p.lo = play._lo
        p.hi = play._hi
        p.taken = 0
        p.type = play._type
        p.key = play._key
        p.length = play._length
        p.cls = play._cls
        p.nwild = nw
        p.flags = 0
        for i in range(MAX_WILDS):
            p.decl[i] = decl[i] if i < nw else NO_FACE
        return 0

    cdef str h_refusal(self, object play, const play_t *p):
        cdef mask_t lo, hi
        cdef int s = self.h_current(self.h_state())
        self.h_hand(self.h_state(), s, &lo, &hi)
        if (p.lo & ~lo) or (p.hi & ~hi):
            return f"seat {s} does not hold the cards of {play}"
        if self.h_last_player(self.h_state()) >= 0:
            return f"{play} does not beat {self.last_play}, so it may not follow it"
        return f"{play} is not legal here under these rules"

    cdef int h_phase(self, const void *st) noexcept nogil:
        return 0

    cdef long long h_mark(self, const void *st) noexcept nogil:
        return 0

    cdef int h_auto(self, const void *st, long long mark, play_t *out) noexcept nogil:
        return -1

    cdef object h_extra(self):
        return None

    cdef void h_copy_extra(self, Engine other):
        pass

    cdef int h_restore_extra(self, object extra) except -1:
        if extra is not None:
            raise ValueError(f"unexpected extra state {extra!r} for a {self.h_spec().name} deal")
        return 0

    # --- the mechanisms, written once ---------------------------------------------------
    cdef int c_playout(self, void *st, rng_t *rng, int policy, playbuf_t *buf) noexcept nogil:
        """Play `st` to the end of the deal with `policy`; 0, or GEN_OOM."""
        cdef int k
        while True:
            k = self.h_choose(st, rng, policy, buf)
            if k >= 0:
                self.h_play(st, &buf.data[k])
            elif k == CHOICE_PASS:
                self.h_pass(st)
            elif k == CHOICE_OVER:
                return 0
            else:
                return GEN_OOM

    cdef int c_find(self, const void *st, const play_t *p, int lead, play_t *found,
                    playbuf_t *buf) noexcept nogil:
        """Whether `p` equals a record the generator lists now (lead: one anyone could
        lead): 1 (and the generator's record in `found`), 0, or GEN_OOM."""
        cdef Py_ssize_t i
        buf.len = 0
        if self.h_plays_of(st, p, lead, buf) != 0:
            return GEN_OOM
        for i in range(buf.len):
            if same_record(&buf.data[i], p):
                found[0] = buf.data[i]
                return 1
        return 0

    cdef bint c_can_pass(self, const void *st) noexcept nogil:
        cdef int rule = self.h_pass_rule(st)
        cdef playbuf_t buf
        cdef bint stuck
        if self.h_current(st) < 0 or rule == PASS_NEVER:
            return False
        if self.h_last_player(st) >= 0:
            return True
        if rule != PASS_IF_STUCK or playbuf_init(&buf, SCRATCH_CAP) != 0:
            return False
        stuck = self.h_legal(st, 1, &buf) == 0 and buf.len == 0
        playbuf_free(&buf)
        return stuck

    cdef int c_evaluate(self, const void *st, Py_ssize_t size, const playbuf_t *cands, int include_pass,
                        int n, rng_t *rng, int policy, const double *weights, double *sums) noexcept nogil:
        """For each candidate (and passing), add up the current player's outcome over `n`
        playouts after it (`size`: the struct's); 0, or GEN_OOM."""
        cdef Py_ssize_t c
        cdef int k, me = self.h_current(st), rc = 0
        cdef double ret[ENGINE_MAX_SEATS]
        cdef playbuf_t buf
        cdef void *x = malloc(size)
        if x == NULL or playbuf_init(&buf, SCRATCH_CAP) != 0:
            free(x)
            return GEN_OOM
        for c in range(cands.len + include_pass):
            for k in range(n):
                memcpy(x, st, size)
                if c < cands.len:
                    self.h_play(x, &cands.data[c])
                else:
                    self.h_pass(x)
                rc = self.c_playout(x, rng, policy, &buf)
                if rc != 0:
                    break
                self.h_returns(x, weights, ret)
                sums[c] += ret[me]
            if rc != 0:
                break
        playbuf_free(&buf)
        free(x)
        return rc

    cdef int c_run(self, Py_ssize_t size, uint64_t seed, Py_ssize_t start, Py_ssize_t stop, int policy,
                   double *out, Py_ssize_t width) noexcept nogil:
        """Deals start .. stop - 1 of a batch dealt from this prototype (`size`: its
        struct's), each from its own stream (seed, index), played out; deal i into row
        i - start of `out` (width doubles a row)."""
        cdef Py_ssize_t i
        cdef int dealt, rc = 0
        cdef rng_t rng
        cdef playbuf_t buf
        cdef void *x = malloc(size)
        if x == NULL or playbuf_init(&buf, SCRATCH_CAP) != 0:
            free(x)
            return GEN_OOM
        for i in range(start, stop):
            memcpy(x, self.h_state(), size)
            rng_seed(&rng, seed, <uint64_t>i)
            dealt = self.h_deal(x, &rng, policy)
            rc = self.c_playout(x, &rng, policy, &buf)
            if rc != 0:
                break
            self.h_row(x, dealt, &out[(i - start) * width])
        playbuf_free(&buf)
        free(x)
        return rc

    cdef Engine c_new(self):
        """A new engine object of this one's class (its struct not yet set)."""
        cdef type cls = type(self)
        cdef Engine other = <Engine>(<PyTypeObject *>cls).tp_new(cls, <PyObject *>_NO_ARGS, NULL)
        Py_XINCREF(self._rules)
        other._rules = self._rules
        return other

    cdef int check_live(self) except -1:
        if self.h_current(self.h_state()) < 0:
            raise IllegalActionError(DEAL_OVER)
        return 0

    cdef int checked_record(self, object play, play_t *p) except -1:
        """The generator's record of `play` if it is legal now, else IllegalActionError
        (TypeError for anything but this game's Play)."""
        cdef play_t rec
        cdef playbuf_t buf
        cdef int found
        self.check_live()
        if type(play) is not self.h_spec().classes.play:
            raise NotAPlayError(f"{_described(play)} is not a Play of this game: play must be a "
                                f"{self.h_spec().name}.Play")
        self.h_record(play, &rec)
        playbuf_open(&buf, 16)
        found = self.c_find(self.h_state(), &rec, 0, p, &buf)
        playbuf_close(&buf, found if found < 0 else 0)
        if not found:
            raise IllegalActionError(self.h_refusal(play, &rec))
        return 0

    cdef int c_check_valid(self) except -1:
        """ValueError unless the struct is a valid state of the game (pickled bytes)."""
        cdef int code = self.h_valid(self.h_state()), s = self.h_current(self.h_state()), lp, rc
        cdef play_t last
        cdef playbuf_t buf
        if code == 0 and not -1 <= s < self.h_seats(self.h_state()):
            code = 100
        lp = self.h_last_player(self.h_state()) if code == 0 else -1
        if code == 0 and lp >= self.h_seats(self.h_state()):
            code = 101
        if code == 0 and lp >= 0:
            # the trick's last play must be a play of the generator
            playbuf_open(&buf, 16)
            rc = self.c_find(self.h_state(), self.h_last(self.h_state()), 1, &last, &buf)
            playbuf_close(&buf, rc if rc < 0 else 0)
            if rc == 0:
                code = 102
        if code:
            raise ValueError(f"the bytes are not a valid {self.h_spec().name} deal (check {code})")
        return 0

    # --- copies and pickling --------------------------------------------------------------
    def clone(self):
        """An independent copy."""
        cdef Engine other = self.c_new()
        memcpy(other.h_state(), self.h_state(), self.h_spec().state_size)
        self.h_copy_extra(other)
        return other

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def __reduce__(self):
        """Pickle as the struct's bytes with the game's name and the layout version,
        checked when loaded (see ``_restore``)."""
        return (_restore, (type(self), self.h_spec().name, STATE_VERSION,
                           PyBytes_FromStringAndSize(<const char *>self.h_state(), self.h_spec().state_size),
                           self.rules, self.h_extra()))

    # --- state --------------------------------------------------------------------------
    @property
    def players(self):
        """The number of seats."""
        return self.h_seats(self.h_state())

    @property
    def current(self):
        """The seat to act, or -1 once the deal is over."""
        return self.h_current(self.h_state())

    @property
    def over(self):
        """Whether the deal is over."""
        return self.h_current(self.h_state()) < 0

    @property
    def last_player(self):
        """The seat that made the trick's last play, or -1 when the current player leads."""
        return self.h_last_player(self.h_state())

    @property
    def last_play(self):
        """The play to beat, or None when leading."""
        if self.h_last_player(self.h_state()) < 0:
            return None
        return play_object(self.h_spec().classes.factory, self.h_last(self.h_state()), self.h_context())

    @property
    def passes(self):
        """Passes since the last play."""
        return self.h_passes(self.h_state())

    cdef int c_seat(self, object seat) except -1:
        return check_seat(seat, self.h_seats(self.h_state()), "seat")

    def hand(self, seat):
        """The cards seat ``seat`` holds."""
        cdef mask_t lo, hi
        self.h_hand(self.h_state(), self.c_seat(seat), &lo, &hi)
        return Cards.from_masks(lo, hi)

    def hand_sizes(self):
        """The number of cards each seat holds."""
        cdef mask_t lo, hi
        cdef int s
        out = []
        for s in range(self.h_seats(self.h_state())):
            self.h_hand(self.h_state(), s, &lo, &hi)
            out.append(multiset_size(lo, hi))
        return tuple(out)

    def returns(self):
        """Each seat's outcome as it stands (the game's default weights; 0 while on)."""
        cdef double w[ENGINE_MAX_WEIGHTS]
        cdef double out[ENGINE_MAX_SEATS]
        self.h_weights(None, w)
        self.h_returns(self.h_state(), w, out)
        return [out[s] for s in range(self.h_seats(self.h_state()))]

    # --- actions --------------------------------------------------------------------------
    def legal_plays(self, *, collapse_suits=False):
        """The current player's legal plays (a ``PlayList``; passing, when allowed, is
        not listed: see ``can_pass``).  ``MemoryError`` for a concrete list past the
        game's play limit (use ``collapse_suits=True``)."""
        if not isinstance(collapse_suits, bool):
            raise TypeError(f"collapse_suits must be a bool, not {collapse_suits!r}")
        cdef PlayList out = new_playlist(self.h_spec().classes.factory, self.h_context(), self.h_spec().buf_cap)
        if self.h_current(self.h_state()) >= 0:
            check_grown(self.h_legal(self.h_state(), 1 if collapse_suits else 0, &out.buf))
        return out

    def can_pass(self):
        """Whether the current player may pass now."""
        return self.c_can_pass(self.h_state())

    def is_legal(self, play):
        """Whether ``play`` (a Play of this game) is legal for the current player now."""
        cdef play_t p
        try:
            self.checked_record(play, &p)
        except IllegalActionError:
            return False
        return True

    def play(self, play):
        """The current player makes ``play``; ``IllegalActionError`` (state unchanged) if it
        is not one of the plays the generator lists now, ``TypeError`` if it is not a
        Play of this game."""
        cdef play_t p
        self.checked_record(play, &p)
        self.h_play(self.h_state(), &p)

    def pass_turn(self):
        """The current player passes; ``IllegalActionError`` when passing is not allowed."""
        self.check_live()
        if not self.c_can_pass(self.h_state()):
            raise IllegalActionError(f"seat {self.h_current(self.h_state())} may not pass now")
        self.h_pass(self.h_state())

    def playout(self, seed, policy="random"):
        """Play a copy of this deal (``self`` is unchanged) to the end with the C policy
        (GIL released); the game's outcome tuple."""
        cdef Engine c = self.clone()
        cdef rng_t rng
        cdef playbuf_t buf
        cdef int pol = policy_code(POLICIES, policy), rc
        rng_seed(&rng, seed64(seed), 0)
        playbuf_open(&buf, self.h_spec().buf_cap)
        with nogil:
            rc = self.c_playout(c.h_state(), &rng, pol, &buf)
        playbuf_close(&buf, rc)
        return c.h_outcome()

    def policy_choice(self, policy="random", seed=0):
        """The play the C policy would make now, or None to pass."""
        cdef rng_t rng
        cdef playbuf_t buf
        cdef int k, pol = policy_code(POLICIES, policy)
        self.check_live()
        rng_seed(&rng, seed64(seed), 0)
        playbuf_open(&buf, self.h_spec().buf_cap)
        k = self.h_choose(self.h_state(), &rng, pol, &buf)
        play = play_object(self.h_spec().classes.factory, &buf.data[k], self.h_context()) if k >= 0 else None
        playbuf_close(&buf, GEN_OOM if k == CHOICE_OOM else 0)
        return play

    def policy_misses(self, actions, checked, policy="heuristic", seed=0):
        """Replay ``actions`` (this game's Plays, ``None`` for a pass) from here on a copy
        (``self`` is unchanged), and count those at the positions ``checked`` marks (a
        sequence of bools as long) that the C policy (``policy_choice(policy, seed)``
        there) would not have made: another type, key or number of cards, or a play
        where the action passed, or a pass where it played.  ``IllegalActionError`` if an
        action is not legal where it comes."""
        cdef Engine c = self.clone()
        cdef int pol = policy_code(POLICIES, policy), k = CHOICE_PASS, misses = 0
        cdef rng_t rng
        cdef playbuf_t buf
        cdef play_t p
        cdef Py_ssize_t i, n = len(actions)
        if len(checked) != n:
            raise ValueError(f"checked must be as long as actions ({n}), not {len(checked)}")
        rng_seed(&rng, seed64(seed), 0)
        playbuf_open(&buf, self.h_spec().buf_cap)
        try:
            for i in range(n):
                action = actions[i]
                if checked[i]:
                    k = c.h_choose(c.h_state(), &rng, pol, &buf)
                    if k == CHOICE_OOM:
                        raise MemoryError("cannot allocate the play buffer")
                if action is None:
                    if checked[i] and k != CHOICE_PASS:
                        misses += 1
                    c.pass_turn()
                    continue
                c.checked_record(action, &p)
                if checked[i] and (k < 0 or buf.data[k].type != p.type or buf.data[k].key != p.key
                                   or buf.data[k].length != p.length):
                    misses += 1
                c.h_play(c.h_state(), &p)
        finally:
            playbuf_free(&buf)
        return misses

    def evaluate(self, PlayList candidates, include_pass, n, seed, policy="random", values=None):
        """The current player's total outcome over ``n`` playouts after each candidate.

        ``candidates`` must be plays the current player may make now (e.g. from
        ``legal_plays``): each is checked as ``play`` checks it.  With ``include_pass``
        the last entry is for passing.  ``values``: the game's outcome weights (Guan
        Dan: the levels won by a 1-2, 1-3 and 1-4, default ``(4, 2, 1)``; Zheng
        Shangyou: the value of each finishing place, default the points; the other
        games: None, each seat's returns).  Returns a float64 array of sums (divide by
        ``n`` for means).
        """
        cdef rng_t rng
        cdef double w[ENGINE_MAX_WEIGHTS]
        cdef int rc, found, pol = policy_code(POLICIES, policy), npl, passing
        cdef Py_ssize_t size
        cdef Py_ssize_t i
        cdef playbuf_t scratch
        cdef PlayList checked
        self.check_live()
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
            raise TypeError(f"n must be an int, not {n!r}")
        if n < 1:
            raise ValueError(f"n must be positive, not {n}")
        if not isinstance(include_pass, bool):
            raise TypeError(f"include_pass must be a bool, not {include_pass!r}")
        if include_pass and not self.c_can_pass(self.h_state()):
            raise IllegalActionError(f"seat {self.h_current(self.h_state())} may not pass now, so passing "
                                     "is no candidate")
        if candidates.factory != self.h_spec().classes.factory:
            raise NotAPlayError(f"candidates must be {self.h_spec().name} plays (a PlayList of this game)")
        self.h_weights(values, w)
        # the generator's own record of each candidate, each checked legal now
        checked = new_playlist(self.h_spec().classes.factory, self.h_context(), candidates.buf.len or 1)
        playbuf_open(&scratch, 16)
        for i in range(candidates.buf.len):
            found = self.c_find(self.h_state(), &candidates.buf.data[i], 0, &checked.buf.data[i], &scratch)
            if found != 1:
                playbuf_close(&scratch, found if found < 0 else 0)
                raise IllegalActionError(f"candidate {i} ({candidates[i]}) is not a legal play of the "
                                         "current player now")
            checked.buf.len = i + 1
        playbuf_free(&scratch)
        sums = np.zeros(checked.buf.len + (1 if include_pass else 0), dtype=np.float64)
        cdef double[::1] view = sums
        rng_seed(&rng, seed64(seed), 0)
        npl = n
        passing = include_pass
        size = self.h_spec().state_size
        with nogil:
            rc = self.c_evaluate(self.h_state(), size, &checked.buf, passing, npl, &rng, pol, w,
                                 &view[0] if view.shape[0] else NULL)
        check_grown(rc)
        return sums

    # --- batches (the game's playouts) ---------------------------------------------------
    @property
    def batch_width(self):
        """The number of values ``_run_chunk`` writes per deal (see the game's playouts)."""
        return self.h_row_width(self.h_state())

    def _run_chunk(self, seed, Py_ssize_t start, Py_ssize_t stop, policy, double[:, ::1] out,
                   Py_ssize_t first=0):
        """Deals ``start .. stop - 1`` of a batch, dealt with this deal's options (a
        prototype: its own cards do not matter), each from its own stream of ``seed`` and
        played out with the GIL released; deal ``i`` into row ``i - first`` of ``out``
        (``first``: the deal of row 0, so a worker fills an array of its chunk alone)."""
        cdef uint64_t s = seed64(seed)
        cdef int pol = policy_code(POLICIES, policy), rc
        cdef Py_ssize_t width = self.h_row_width(self.h_state()), size = self.h_spec().state_size
        if out.shape[1] != width:
            raise ValueError(f"out must have {width} columns for this deal, not {out.shape[1]}")
        if not 0 <= first <= start <= stop <= first + out.shape[0]:
            raise ValueError(f"start and stop must satisfy {first} <= start <= stop <= {first + out.shape[0]} "
                             f"(first and the rows of out), not {start} and {stop}")
        if start == stop:
            return
        with nogil:
            rc = self.c_run(size, s, start, stop, pol, &out[start - first, 0], width)
        check_grown(rc)

    def __repr__(self):
        return (f"<{self.h_spec().name}.DealEngine current {self.current} last {self.last_player} "
                f"sizes {self.hand_sizes()}>")


cdef str _described(object x):
    """A value's type for an error message, with its module (e.g. zhengshangyou.Play)."""
    cdef str module = type(x).__module__ or ""
    if module.startswith("chupai."):
        return f"{module.split('.')[1]}.{type(x).__name__}"
    return f"{type(x).__name__} {x!r}"
