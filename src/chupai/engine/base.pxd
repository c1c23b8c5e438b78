# The engine base every game's compiled trick engine derives from (the way
# scikit-learn's tree builders share Splitter/Criterion): an abstract `cdef class`
# whose `noexcept nogil` hooks hold a game's rules, and whose methods, written once,
# hold every mechanism built on them (clone, playouts, batches, policy choice,
# evaluation, "is this play legal here", pickling, the Python surface).
#
# The C API (for compiled code driving any game without Python: a vector environment
# stepping N tables, a compiled determinize, ISMCTS):
#
#   * A game's state is one plain C struct (copyable with memcpy, no pointers inside)
#     that starts with the shared trick_t;
#     `Engine.h_state()` points at the engine object's own struct and
#     `h_spec().state_size` is its size.  Every hook takes a pointer to a struct of that game (`st`), so one engine
#     object (a prototype) can drive any number of scratch copies: allocate
#     `state_size` bytes, `memcpy(copy, engine.h_state(), state_size)`, then call the hooks
#     and the `c_*` methods on `copy`.  Hooks and `c_*` methods never touch Python
#     objects and may run on many threads at once on different structs.
#   * Return codes: generators and playouts return 0, GEN_OOM (the play buffer could
#     not grow) or GEN_TOO_MANY (chupai.core.records); choices return an index into the
#     buffer, CHOICE_PASS or CHOICE_OOM.
#   * Policies: POLICY_RANDOM (uniform over the suit-collapsed plays, and passing when
#     allowed), POLICY_GREEDY (the game's simple greedy rule) and POLICY_HEURISTIC (the
#     game's stronger heuristic, h_heuristic: it reads only what the player to act may
#     know -- their own hand, every seat's card count, the trick, the table, and the
#     cards not yet seen as a whole -- so a bot may call it on the true state).
#
# A typical step of compiled code:
#
#     k = eng.h_choose(st, &rng, POLICY_RANDOM, &buf)      # or pick from h_legal
#     if k == CHOICE_OOM: ...
#     elif k == CHOICE_PASS: eng.h_pass(st)
#     else: eng.h_play(st, &buf.data[k])
#
# (CHOICE_OVER once the deal is over), and a play from outside is first checked with `c_find` (it must equal a record the
# generator lists now), which also hands back the generator's own record to play.
from cpython.ref cimport PyObject
from libc.stdint cimport uint64_t

from chupai.core.records cimport (
    JOKER_MASK, SUITED_MASK, GameClasses, mask_t, multiset_remove, play_t, playbuf_t, rng_t, target_set, target_t,
)
from chupai.core.wrappers cimport onedeck_generate_t

cdef enum:
    CHOICE_PASS = -1             # h_choose: pass
    CHOICE_OOM = -2              # h_choose: memory ran out
    CHOICE_OVER = -3             # h_choose: the deal is over (nobody to act)
    POLICY_RANDOM = 0
    POLICY_GREEDY = 1
    POLICY_HEURISTIC = 2         # the game's strong heuristic (h_heuristic)
    POLICY_CALLER = -1           # h_deal: the decisions before the card play are the caller's
    PASS_NEVER = 0               # h_pass_rule: passing is never allowed
    PASS_FOLLOWING = 1           # only when following a play
    PASS_IF_STUCK = 2            # when following, or on lead without a legal play
    ENGINE_MAX_SEATS = 8         # the most seats of any game (per-seat arrays)
    ENGINE_MAX_WEIGHTS = 16      # outcome weights evaluate() may take
    STATE_VERSION = 1            # the layout version of pickled states


# The trick bookkeeping every game shares: the first member of each game's struct, so
# the base reads it through any game's state pointer.  A game without tricks (Chinese
# Ten) keeps last_player at -1.
ctypedef struct trick_t:
    int seats                    # players at the table
    int current                  # the seat to act; -1 once the deal is over
    int last_player              # who made the trick's last play; -1 when leading
    int npass                    # passes since the last play
    int pass_rule                # PASS_NEVER, PASS_FOLLOWING or PASS_IF_STUCK (the game's)
    play_t last                  # that play

cdef inline int seat_after(int s, int seats) noexcept nogil:
    """The seat after `s` in turn order at a table of `seats` (no division: on the
    playouts' hot path)."""
    return s + 1 if s + 1 < seats else 0

cdef inline void trick_start(trick_t *t, int seats, int pass_rule, int seat) noexcept nogil:
    """A deal's card play at a table of `seats` starts with `seat` on lead."""
    t.seats = seats
    t.pass_rule = pass_rule
    t.current = seat
    t.last_player = -1
    t.npass = 0

cdef inline void trick_lead(trick_t *t, int seat) noexcept nogil:
    """`seat` leads a new trick."""
    t.current = seat
    t.last_player = -1
    t.npass = 0

cdef inline void trick_played(trick_t *t, const play_t *p) noexcept nogil:
    """The current player made `p`: it is the play to beat."""
    t.last = p[0]
    t.last_player = t.current
    t.npass = 0

cdef inline void trick_target(const trick_t *t, target_t *tg) noexcept nogil:
    """The play the current player must beat: the trick's last play (none when leading)."""
    target_set(tg, &t.last if t.last_player >= 0 else NULL)

cdef inline int onedeck_plays_of(onedeck_generate_t generate, const trick_t *t, mask_t hand, int flags,
                                 const play_t *p, int lead, playbuf_t *out) noexcept nogil:
    """h_plays_of of a game of one deck whose hands are masks: the
    plays `generate` makes of only the cards of `p` that the current player, holding
    `hand`, may make now (lead=0), or that anyone could lead (lead=1)."""
    cdef target_t tg
    target_set(&tg, NULL)
    if p.hi or p.lo & ~(SUITED_MASK | JOKER_MASK):
        return 0
    if not lead:
        if t.current < 0 or p.lo & ~hand:
            return 0
        trick_target(t, &tg)
    return generate(p.lo, flags, 0, &tg, out)

# Helpers the shedding games' heuristic policies (h_heuristic) share.
cdef inline int going_out(const playbuf_t *buf, int size) noexcept nogil:
    """The first play in `buf` that empties a hand of `size` cards, or -1."""
    cdef Py_ssize_t i
    for i in range(buf.len):
        if buf.data[i].length == size:
            return <int>i
    return -1

cdef inline void hand_after(mask_t lo, mask_t hi, const play_t *p, mask_t *out_lo, mask_t *out_hi) noexcept nogil:
    """The hand (lo, hi) without the cards of the play `p`, which it holds (two-deck
    masks: a face held twice and played once stays held once)."""
    out_lo[0] = lo
    out_hi[0] = hi
    multiset_remove(out_lo, out_hi, p.lo, p.hi)

# Python-level checks every engine's constructors share: an int (numpy ints too, not a
# bool) for a seat of `n` seats / a number of players in [lo, hi]; TypeError for another
# type, ValueError out of range, naming `what`.
cdef int check_seat(object seat, int n, str what) except -1
cdef int check_players(object players, int lo, int hi) except -1
# The hands a from_hands() is given, as Cards: a sequence of lo..hi hands (Cards or card
# strings) in which no card is dealt more than `decks` times, counting `counted` (the
# copies of each face dealt elsewhere, e.g. a talon) too; TypeError for anything but a
# sequence of hands, ValueError naming the card dealt too often.
cdef list checked_hands(object hands, int lo, int hi, int decks, list counted=*)


cdef class GameSpec:
    """What a game's engine class shares between its instances (one per game)."""
    cdef readonly str name               # the game's package name, e.g. "guandan"
    cdef readonly GameClasses classes    # its Play and Rules classes (bound from Python)
    cdef readonly str context_name       # what a PlayList's context is ("level"), or None
    cdef Py_ssize_t state_size           # sizeof the game's struct
    cdef Py_ssize_t buf_cap              # first capacity of a scratch play buffer


cdef class Engine:
    # the game's Rules this deal is played under (a frozen value), held as a counted
    # reference of its own so the engines need no garbage-collector bookkeeping (an
    # object field would make every clone a tracked object)
    cdef PyObject *_rules
    cdef void set_rules(self, object rules)

    # the engine's own struct, and its game's spec (no per-object fields: a clone costs
    # one allocation and one memcpy)
    cdef void *h_state(self) noexcept nogil
    cdef GameSpec h_spec(self)

    # --- the trick (read from the trick_t every game's struct starts with) ------------
    # players at the table
    cdef int h_seats(self, const void *st) noexcept nogil
    # the seat to act, or -1 once the deal is over
    cdef int h_current(self, const void *st) noexcept nogil
    # the seat that made the trick's last play, or -1 when the current player leads
    cdef int h_last_player(self, const void *st) noexcept nogil
    # that play (only read when h_last_player >= 0)
    cdef const play_t *h_last(self, const void *st) noexcept nogil
    # passes since the last play
    cdef int h_passes(self, const void *st) noexcept nogil

    # --- hooks: each game implements these (nogil, on any struct of the game) ---------
    # PASS_NEVER, PASS_FOLLOWING or PASS_IF_STUCK (trick_t.pass_rule)
    cdef int h_pass_rule(self, const void *st) noexcept nogil
    # the cards `seat` holds (two-deck masks; hi 0 for one deck)
    cdef void h_hand(self, const void *st, int seat, mask_t *lo, mask_t *hi) noexcept nogil
    # append the current player's legal plays (concrete or suit-collapsed)
    cdef int h_legal(self, const void *st, int collapse, playbuf_t *out) noexcept nogil
    # append the plays made only of the cards of `p` that the current player may make
    # now (lead=0; none if they are not the current player's to play), or that could
    # be led by anyone (lead=1; to check a trick's last play): what c_find searches
    cdef int h_plays_of(self, const void *st, const play_t *p, int lead, playbuf_t *out) noexcept nogil
    # the current player makes `p`, a record of the generator (checked legal)
    cdef void h_play(self, void *st, const play_t *p) noexcept nogil
    # the current player passes (checked allowed)
    cdef void h_pass(self, void *st) noexcept nogil
    # the policy's choice among the suit-collapsed plays it leaves in `buf` (an index,
    # CHOICE_PASS, CHOICE_OOM, or CHOICE_OVER once the deal is over: the playout loop
    # then needs no other hook call to know it is done); written once in the base
    # (the random policy and the pass rules), with the game's greedy heuristic:
    cdef int h_choose(self, const void *st, rng_t *rng, int policy, playbuf_t *buf) noexcept nogil
    # the greedy policy's choice among the suit-collapsed plays in `buf` (CHOICE_PASS to pass)
    cdef int h_greedy(self, const void *st, const playbuf_t *buf) noexcept nogil
    # the heuristic policy's choice among the suit-collapsed plays in `buf` (CHOICE_PASS
    # to pass, only where passing is allowed); the default is h_greedy's
    cdef int h_heuristic(self, const void *st, const playbuf_t *buf) noexcept nogil
    # each seat's outcome as it stands, given the game's outcome weights (h_weights)
    cdef void h_returns(self, const void *st, const double *weights, double *out) noexcept nogil
    # deal a fresh deal into `st` (which holds the options of the deal to make: a copy
    # of a prototype), drawing from `rng` as the game's batch playouts do; a game whose
    # deal opens with decisions before the card play (Dou Dizhu's auction) makes them
    # with `policy` from `rng`, or leaves them open (POLICY_CALLER: the compiled tables'
    # players make them); a count the batch row reports (redeals), else 0
    cdef int h_deal(self, void *st, rng_t *rng, int policy) noexcept nogil
    # the batch output of a finished deal: h_row_width doubles per deal
    cdef int h_row_width(self, const void *st) noexcept nogil
    cdef void h_row(self, const void *st, int dealt, double *row) noexcept nogil
    # 0 if `st` is a state the game can reach as far as its own fields go (indexes in
    # range, masks disjoint and inside the deck); else a positive code
    cdef int h_valid(self, const void *st) noexcept nogil
    # the engine's phase index of `st` (0 for a game with one card-play phase); the
    # state surface names it through its `_engine_phases`
    cdef int h_phase(self, const void *st) noexcept nogil
    # a snapshot of `st` taken before an action, for h_auto to compare with (0 by default)
    cdef long long h_mark(self, const void *st) noexcept nogil
    # the automatic step the action made since `mark` set off by itself (a forced step
    # with a single outcome, such as a stock card resolved): its record in `out` and its
    # phase index; -1 for none (the default)
    cdef int h_auto(self, const void *st, long long mark, play_t *out) noexcept nogil

    # --- hooks with the GIL (Python values) ---------------------------------------
    # the outcome weights of evaluate(values=...) into w (None: the game's default)
    cdef int h_weights(self, object values, double *w) except -1
    # what playout() returns for a finished copy
    cdef object h_outcome(self)
    # the PlayList context of this deal's plays (None, or e.g. the level)
    cdef object h_context(self)
    # the record of `play` (one of this game's Play objects)
    cdef int h_record(self, object play, play_t *p) except -1
    # why `play` (record `p`, checked not legal) is refused
    cdef str h_refusal(self, object play, const play_t *p)
    # Python attributes that go with the struct when pickled (see h_restore_extra)
    cdef object h_extra(self)
    cdef int h_restore_extra(self, object extra) except -1
    # copy those attributes to a clone
    cdef void h_copy_extra(self, Engine other)

    # --- written once -----------------------------------------------------------------
    cdef int c_playout(self, void *st, rng_t *rng, int policy, playbuf_t *buf) noexcept nogil
    cdef int c_find(self, const void *st, const play_t *p, int lead, play_t *found,
                    playbuf_t *buf) noexcept nogil
    cdef int c_evaluate(self, const void *st, Py_ssize_t size, const playbuf_t *cands, int include_pass,
                        int n, rng_t *rng, int policy, const double *weights, double *sums) noexcept nogil
    # deals start .. stop - 1 into rows 0 .. stop - start - 1 of out
    cdef int c_run(self, Py_ssize_t size, uint64_t seed, Py_ssize_t start, Py_ssize_t stop, int policy,
                   double *out, Py_ssize_t width) noexcept nogil
    cdef bint c_can_pass(self, const void *st) noexcept nogil
    cdef Engine c_new(self)
    cdef int check_live(self) except -1
    cdef int c_seat(self, object seat) except -1
    cdef int checked_record(self, object play, play_t *p) except -1
    cdef int c_check_valid(self) except -1
