"""The Guan Dan trick engine and the playouts (``docs/rules/guandan.md``, "A deal").

A deal's card play is the C struct ``gd_deal_t``: hands, the trick (last play, who
made it, passes since), the finishing order and the result.  ``DealEngine`` wraps it for
Python (``chupai.guandan.game`` builds the full state machine on it); the playouts
run it to the end inside C with the GIL released.
"""
cimport cython

import numpy as np

from chupai.core.records import RANKS as _RANK_NAMES

from libc.stdint cimport uint8_t

from chupai.core.records cimport (
    target_set,
    N_FACES,
    RANK_A,
    GameClasses,
    multiset_add,
    multiset_remove,
    mask_t,
    multiset_valid,
    play_t,
    playbuf_t,
    rng_below,
    rng_seed,
    rng_shuffle,
    rng_t,
    seed64,
)
from chupai.engine.base cimport PASS_FOLLOWING, Engine, GameSpec, trick_start, trick_target, checked_hands, check_seat, trick_played
from chupai.guandan._kernel cimport (
    GD_BOMB,
    GD_LEVEL_VALUE,
    GD_PAIR,
    GD_SINGLE,
    GD_TRIPLE,
    GD_FLAG_JOKER_PAIR_IN_FH,
    GD_FLAG_SF_AS_STRAIGHT,
    gd_target,
    gd_generate,
)
from chupai.guandan._movegen cimport level_index

from chupai.guandan cimport _kernel as kg
from chupai.guandan._policies cimport choose_greedy, choose_heuristic
from chupai.engine.base import POLICIES, RowField
from chupai.core.cardset import Cards, face_name
from chupai.guandan._movegen import GAME_CLASSES as _BOUND

#: the fields of the batch row ``h_row`` writes, in order (chupai.engine.batch.split_rows)
ROW = (RowField("order", "int8", per_seat=True), RowField("result", "int8"))

#: ``DealEngine.result`` values: how the deal was won (index into ``Rules.promotion``)
RESULT_NONE = GD_RESULT_NONE
RESULT_12 = GD_RESULT_12
RESULT_13 = GD_RESULT_13
RESULT_14 = GD_RESULT_14
cdef int GD_FLAGS = GD_FLAG_SF_AS_STRAIGHT | GD_FLAG_JOKER_PAIR_IN_FH  # every option flag


# --- the rules of play ------------------------------------------------------------------
cdef inline int next_active(const gd_deal_t *d, int s) noexcept nogil:
    """The next seat after s, in turn order, that still holds cards (-1 if none)."""
    cdef int k, t
    for k in range(1, GD_SEATS):
        t = (s + k) % GD_SEATS
        if d.lo[t]:
            return t
    return -1


cdef void gd_start(gd_deal_t *d, int leader) noexcept nogil:
    """Start the card play with `leader` on lead (the hands and level already set)."""
    cdef int s
    trick_start(&d.t, GD_SEATS, PASS_FOLLOWING, leader)
    d.nout = 0
    for s in range(GD_SEATS):
        d.out[s] = -1
    d.result = GD_RESULT_NONE
    d.aces_out = 0


cdef void gd_deal_random(gd_deal_t *d, rng_t *rng, int flags) noexcept nogil:
    """Shuffle the 108 cards, deal 27 to each seat; the holder of a random card leads."""
    cdef uint8_t deck[GD_DECK]
    cdef int i, s
    for i in range(GD_DECK):
        deck[i] = i % N_FACES
    rng_shuffle(deck, GD_DECK, rng)
    for s in range(GD_SEATS):
        d.lo[s] = 0
        d.hi[s] = 0
        for i in range(s * GD_HAND, (s + 1) * GD_HAND):
            multiset_add(&d.lo[s], &d.hi[s], deck[i])
    d.flags = flags
    gd_start(d, rng_below(rng, GD_DECK) // GD_HAND)


cdef int deal_legal(const gd_deal_t *d, int collapse, playbuf_t *out) noexcept nogil:
    """Append the current player's legal plays (passing, when allowed, is not listed)."""
    cdef gd_target tg
    cdef int s = d.t.current
    if s < 0:
        return 0
    trick_target(&d.t, &tg)
    return gd_generate(d.lo[s], d.hi[s], d.level, d.flags, collapse, &tg, out)


cdef inline bint only_aces(const gd_deal_t *d, const play_t *p) noexcept nogil:
    """A single, pair, triple or bomb declared as aces (wild cards included)."""
    cdef int ace_value = GD_LEVEL_VALUE if d.level == RANK_A else RANK_A - 1
    return (p.type == GD_SINGLE or p.type == GD_PAIR or p.type == GD_TRIPLE
            or p.type == GD_BOMB) and p.key == ace_value


cdef void finish(gd_deal_t *d, int s) noexcept nogil:
    """Both players of s's team are out: the deal is over."""
    cdef int first = d.out[0], t
    if first % 2 == s % 2:
        d.result = GD_RESULT_12 if d.nout == 2 else GD_RESULT_13
    else:
        d.result = GD_RESULT_14
    if d.nout == 3:
        for t in range(GD_SEATS):
            if d.lo[t]:
                d.out[3] = t
        d.nout = 4
    d.t.current = -1


cdef void deal_play(gd_deal_t *d, const play_t *p) noexcept nogil:
    """The current player plays `p` (which the caller has checked is legal)."""
    cdef int s = d.t.current
    # remove the play: a face held twice and played once stays held once
    multiset_remove(&d.lo[s], &d.hi[s], p.lo, p.hi)
    trick_played(&d.t, p)
    if not d.lo[s]:
        d.out[d.nout] = s
        d.nout += 1
        if d.nout == 1:
            d.aces_out = only_aces(d, p)
        if not d.lo[(s + 2) % GD_SEATS]:
            finish(d, s)
            return
    d.t.current = next_active(d, s)


cdef void deal_pass(gd_deal_t *d) noexcept nogil:
    """The current player passes (only when following); the trick may end."""
    cdef int s = d.t.current, others = 0, t
    for t in range(GD_SEATS):
        if t != d.t.last_player and d.lo[t]:
            others += 1
    d.t.npass += 1
    if d.t.npass >= others:
        # everyone else has passed: the last player leads, or their partner if they are out
        t = d.t.last_player
        d.t.current = t if d.lo[t] else (t + 2) % GD_SEATS
        d.t.last_player = -1
        d.t.npass = 0
    else:
        d.t.current = next_active(d, s)


cdef int valid(const gd_deal_t *d) noexcept nogil:
    """0 if the fields are in range and the hands hold each card at most twice."""
    cdef int s, f, held
    if d.t.pass_rule != PASS_FOLLOWING:
        return 9
    if d.t.seats != GD_SEATS or not 0 <= d.level <= RANK_A or d.flags & ~GD_FLAGS:
        return 1
    if not (-1 <= d.t.current < GD_SEATS and -1 <= d.t.last_player < GD_SEATS
            and 0 <= d.t.npass < GD_SEATS and 0 <= d.nout <= GD_SEATS):
        return 2
    if (d.t.current < 0) != (d.result != GD_RESULT_NONE) or not 0 <= d.result <= GD_RESULT_14:
        return 3
    for s in range(GD_SEATS):
        if not multiset_valid(d.lo[s], d.hi[s]) or not -1 <= d.out[s] < GD_SEATS:
            return 4
    for f in range(N_FACES):
        held = 0
        for s in range(GD_SEATS):
            held += <int>((d.lo[s] >> f) & 1) + <int>((d.hi[s] >> f) & 1)
        if held > 2:
            return 5
    if d.t.current >= 0 and not d.lo[d.t.current]:
        return 6
    return 0


# --- the engine -------------------------------------------------------------------------
cdef GameClasses CLASSES = _BOUND  # the game's Play and Rules (chupai.guandan.play binds them)
cdef GameSpec SPEC = GameSpec(CLASSES, sizeof(gd_deal_t), 256, "level")

#: The C declarations behind the Python constants of chupai.guandan.play and .rules, by
#: their Python names (tests/test_engine_base.py checks every pair).
C_CONSTANTS = {
    "play.PlayType.SINGLE": kg.GD_SINGLE, "play.PlayType.PAIR": kg.GD_PAIR,
    "play.PlayType.TRIPLE": kg.GD_TRIPLE, "play.PlayType.FULL_HOUSE": kg.GD_FULL_HOUSE,
    "play.PlayType.STRAIGHT": kg.GD_STRAIGHT, "play.PlayType.TUBE": kg.GD_TUBE,
    "play.PlayType.PLATE": kg.GD_PLATE, "play.PlayType.BOMB": kg.GD_BOMB,
    "play.PlayType.STRAIGHT_FLUSH": kg.GD_STRAIGHT_FLUSH, "play.PlayType.FOUR_JOKERS": kg.GD_FOUR_JOKERS,
    "play.LEVEL_VALUE": kg.GD_LEVEL_VALUE, "play.JOKER_BLACK_VALUE": kg.GD_BJ_VALUE,
    "play.JOKER_RED_VALUE": kg.GD_RJ_VALUE,
    "play.BOMB_CLASS[STRAIGHT_FLUSH,5]": kg.GD_CLASS_SF, "play.BOMB_CLASS[FOUR_JOKERS,4]": kg.GD_CLASS_FOUR_JOKERS,
    "rules.FLAG_SF_AS_STRAIGHT": kg.GD_FLAG_SF_AS_STRAIGHT,
    "rules.FLAG_JOKER_PAIR_IN_FULL_HOUSE": kg.GD_FLAG_JOKER_PAIR_IN_FH,
}


cdef int _flags_of(object rules) except -1:
    return CLASSES.rules_of(rules)._flags


include "chupai/engine/deal_hooks.pxi"


@cython.no_gc  # no reference cycles (see Engine): no GC bookkeeping per clone
cdef class DealEngine(DealHooks):
    """One deal's card play (no tribute, no levels): hands, trick, finishing order.

    The building block of ``chupai.guandan.Deal``; also usable alone for analysis.
    Seats 0-3, partners opposite (0 and 2, 1 and 3), turn order ``s -> (s + 1) % 4``.
    The mechanisms (copies, pickling, play checks, playouts) are
    ``chupai.engine.base.Engine``'s; this class holds the Guan Dan rules.
    """

    cdef void *h_state(self) noexcept nogil:
        return &self.d

    cdef GameSpec h_spec(self):
        return SPEC

    @staticmethod
    def from_hands(hands, *, current=0, level="2", rules=None):
        """A deal in progress from four hands (``Cards`` or strings), ``current`` on lead."""
        cdef DealEngine self = DealEngine.__new__(DealEngine)
        cdef int s, leader = check_seat(current, GD_SEATS, "current")
        for s, hand in enumerate(checked_hands(hands, GD_SEATS, GD_SEATS, 2)):
            if not hand:
                raise ValueError(f"hand {s} is empty: every seat starts with cards")
            self.d.lo[s] = hand.lo
            self.d.hi[s] = hand.hi
        self.d.level = level_index(level)
        self.d.flags = _flags_of(rules)
        self.set_rules(CLASSES.rules_of(rules))
        gd_start(&self.d, leader)
        return self

    @staticmethod
    def random(seed, *, level="2", rules=None):
        """A fresh deal from a seed: the same seed gives the same deal as ``playouts``' first."""
        cdef DealEngine self = DealEngine.__new__(DealEngine)
        cdef rng_t rng
        rng_seed(&rng, seed64(seed), 0)
        self.d.level = level_index(level)
        self.set_rules(CLASSES.rules_of(rules))
        gd_deal_random(&self.d, &rng, _flags_of(rules))
        return self

    # -- hooks ------------------------------------------------------------------------
    cdef void h_hand(self, const void *st, int seat, mask_t *lo, mask_t *hi) noexcept nogil:
        lo[0] = (<const gd_deal_t *>st).lo[seat]
        hi[0] = (<const gd_deal_t *>st).hi[seat]

    cdef int h_plays_of(self, const void *st, const play_t *p, int lead, playbuf_t *out) noexcept nogil:
        cdef const gd_deal_t *d = <const gd_deal_t *>st
        cdef gd_target tg
        cdef int s = d.t.current
        target_set(&tg, NULL)
        if not multiset_valid(p.lo, p.hi):
            return 0
        if not lead:
            if s < 0 or (p.lo & ~d.lo[s]) or (p.hi & ~d.hi[s]):
                return 0
            trick_target(&d.t, &tg)
        return gd_generate(p.lo, p.hi, d.level, d.flags, 0, &tg, out)

    cdef int h_heuristic(self, const void *st, const playbuf_t *buf) noexcept nogil:
        return choose_heuristic(<const gd_deal_t *>st, buf)  # the heuristic block

    cdef void h_returns(self, const void *st, const double *weights, double *out) noexcept nogil:
        cdef const gd_deal_t *d = <const gd_deal_t *>st
        cdef int s
        for s in range(GD_SEATS):
            out[s] = 0.0
            if d.result != GD_RESULT_NONE:
                out[s] = weights[d.result] if s % 2 == d.out[0] % 2 else -weights[d.result]

    cdef int h_deal(self, void *st, rng_t *rng, int policy) noexcept nogil:
        gd_deal_random(<gd_deal_t *>st, rng, (<gd_deal_t *>st).flags)
        return 0

    cdef int h_row_width(self, const void *st) noexcept nogil:
        return GD_SEATS + 1

    cdef void h_row(self, const void *st, int dealt, double *row) noexcept nogil:
        cdef const gd_deal_t *d = <const gd_deal_t *>st
        cdef int s
        for s in range(GD_SEATS):
            row[s] = d.out[s]
        row[GD_SEATS] = d.result

    cdef int h_valid(self, const void *st) noexcept nogil:
        return valid(<const gd_deal_t *>st)

    cdef int h_weights(self, object values, double *w) except -1:
        """``values``: the levels won by a 1-2, a 1-3 and a 1-4 (``Rules.promotion``)."""
        cdef int i
        if values is None:
            values = (4, 2, 1)
        if isinstance(values, (str, bytes)) or len(values) != GD_RESULT_14:
            raise ValueError(f"values must be the three promotions (1-2, 1-3, 1-4), not {values!r}")
        w[GD_RESULT_NONE] = 0.0
        for i in range(GD_RESULT_14):
            w[i + 1] = float(values[i])
        return 0

    cdef object h_outcome(self):
        return self.finishing_order, self.d.result

    cdef object h_context(self):
        return self.d.level

    # -- Guan Dan state ---------------------------------------------------------------
    @property
    def level(self):
        """The level rank index 0..12 (2..A)."""
        return self.d.level

    @property
    def finishing_order(self):
        """Seats in the order they went out (-1 for places not decided after a 1-2)."""
        return tuple(self.d.out[i] for i in range(GD_SEATS) if i < self.d.nout or self.d.result)

    @property
    def result(self):
        """``RESULT_NONE`` while playing, else ``RESULT_12``, ``RESULT_13`` or ``RESULT_14``."""
        return self.d.result

    @property
    def first_out_with_aces(self):
        """The first finisher's last play was made only of aces."""
        return bool(self.d.aces_out)

    def __repr__(self):
        return (f"<DealEngine level {_RANK_NAMES[self.d.level]} current {self.d.t.current} "
                f"sizes {self.hand_sizes()} result {self.d.result}>")
