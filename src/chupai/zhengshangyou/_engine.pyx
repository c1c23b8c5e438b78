"""The Zheng Shangyou trick engine and the playouts (``docs/rules/zhengshangyou.md``, "Play").

A deal's card play is the C struct ``zs_deal_t``: hands, the trick (last play, who
made it, passes since) and the finishing order.  ``DealEngine`` wraps it for Python
(``chupai.zhengshangyou.game`` builds the full state machine on it); the playouts run
it to the end inside C with the GIL released.
"""
cimport cython

import numpy as np

from libc.stdint cimport uint8_t

from chupai.core.records cimport (
    GameClasses,
    JOKER_MASK,
    SUITED_MASK,
    bit,
    mask_t,
    play_t,
    playbuf_t,
    rng_below,
    rng_seed,
    rng_shuffle,
    rng_t,
    seed64,
)
from chupai.engine.base cimport (
    PASS_FOLLOWING, Engine, GameSpec, check_players, check_seat, checked_hands, onedeck_plays_of, seat_after, trick_played,
    trick_start,
    trick_target,
)
from chupai.zhengshangyou._movegen cimport (
    ZS_FLAG_JOKER_PAIR,
    zs_generate,
    zs_rules_flags,
    zs_target,
)

from chupai.zhengshangyou cimport _movegen as mg
from chupai.zhengshangyou._policies cimport choose_greedy, choose_heuristic
from chupai.engine.base import POLICIES, RowField
from chupai.core.cardset import Cards, face_name
from chupai.zhengshangyou._movegen import GAME_CLASSES as _BOUND
MIN_PLAYERS = ZS_MIN_SEATS
MAX_PLAYERS = ZS_MAX_SEATS
#: points for the first and the second player out
PLACE_POINTS = (ZS_FIRST_POINTS, ZS_SECOND_POINTS)

#: the fields of the batch row ``h_row`` writes, in order (chupai.engine.batch.split_rows)
ROW = (RowField("order", "int8", per_seat=True), RowField("points", "int8", per_seat=True))


# --- the rules of play ------------------------------------------------------------------
cdef inline int next_active(const zs_deal_t *d, int s) noexcept nogil:
    """The next seat after s, in turn order, that still holds cards (-1 if none)."""
    cdef int k, t = s
    for k in range(d.t.seats):
        t = seat_after(t, d.t.seats)
        if d.hand[t]:
            return t
    return -1


cdef inline int active_count(const zs_deal_t *d) noexcept nogil:
    cdef int s, k = 0
    for s in range(d.t.seats):
        if d.hand[s]:
            k += 1
    return k


cdef void zs_start(zs_deal_t *d, int leader) noexcept nogil:
    """Start the card play with `leader` on lead (hands, n and flags already set)."""
    cdef int s
    trick_start(&d.t, d.t.seats, PASS_FOLLOWING, leader)
    d.nout = 0
    for s in range(ZS_MAX_SEATS):
        d.out[s] = -1


cdef void zs_deal_random(zs_deal_t *d, rng_t *rng, int n, int dealer, int flags) noexcept nogil:
    """Shuffle the 54 cards and deal them one at a time from `dealer`, who leads."""
    cdef uint8_t deck[ZS_DECK]
    cdef int i
    for i in range(ZS_DECK):
        deck[i] = i
    rng_shuffle(deck, ZS_DECK, rng)
    d.t.seats = n
    d.flags = flags
    for i in range(ZS_MAX_SEATS):
        d.hand[i] = 0
    for i in range(ZS_DECK):
        d.hand[(dealer + i) % n] |= bit(deck[i])
    zs_start(d, dealer)


cdef int deal_legal(const zs_deal_t *d, int collapse, playbuf_t *out) noexcept nogil:
    """Append the current player's legal plays (passing, when allowed, is not listed)."""
    cdef zs_target tg
    cdef int s = d.t.current
    if s < 0:
        return 0
    trick_target(&d.t, &tg)
    return zs_generate(d.hand[s], d.flags, collapse, &tg, out)


cdef void deal_play(zs_deal_t *d, const play_t *p) noexcept nogil:
    """The current player plays `p` (which the caller has checked is legal)."""
    cdef int s = d.t.current
    d.hand[s] &= ~p.lo
    trick_played(&d.t, p)
    if not d.hand[s]:
        d.out[d.nout] = s
        d.nout += 1
        if active_count(d) <= 1:
            # the deal is over: the one player still holding cards is last
            t = next_active(d, s)
            if t >= 0:
                d.out[d.nout] = t
                d.nout += 1
            d.t.current = -1
            return
    d.t.current = next_active(d, s)


cdef void deal_pass(zs_deal_t *d) noexcept nogil:
    """The current player passes (only when following); the trick may end."""
    cdef int s = d.t.current, others = active_count(d), t
    if d.hand[d.t.last_player]:
        others -= 1
    d.t.npass += 1
    if d.t.npass >= others:
        # everyone else has passed: the last player leads, or the next one holding cards
        t = d.t.last_player
        d.t.current = t if d.hand[t] else next_active(d, t)
        d.t.last_player = -1
        d.t.npass = 0
    else:
        d.t.current = next_active(d, s)


cdef inline int place_points(int place) noexcept nogil:
    return ZS_FIRST_POINTS if place == 0 else (ZS_SECOND_POINTS if place == 1 else 0)


cdef inline int place_of(const zs_deal_t *d, int seat) noexcept nogil:
    cdef int i
    for i in range(d.nout):
        if d.out[i] == seat:
            return i
    return d.t.seats - 1


cdef int valid(const zs_deal_t *d) noexcept nogil:
    """0 if the fields are in range and no card is in two hands."""
    cdef int s
    cdef mask_t seen = 0
    if d.t.pass_rule != PASS_FOLLOWING:
        return 9
    if not ZS_MIN_SEATS <= d.t.seats <= ZS_MAX_SEATS or d.flags & ~ZS_FLAG_JOKER_PAIR:
        return 1
    if not (-1 <= d.t.current < d.t.seats and -1 <= d.t.last_player < d.t.seats and 0 <= d.t.npass < d.t.seats
            and 0 <= d.nout <= d.t.seats):
        return 2
    for s in range(ZS_MAX_SEATS):
        if d.hand[s] & ~(SUITED_MASK | JOKER_MASK) or d.hand[s] & seen or (s >= d.t.seats and d.hand[s]):
            return 3
        seen |= d.hand[s]
        if not -1 <= d.out[s] < d.t.seats:
            return 4
    if d.t.current >= 0 and not d.hand[d.t.current]:
        return 5
    return 0


# --- the engine -------------------------------------------------------------------------
cdef GameClasses CLASSES = _BOUND  # the game's Play and Rules (chupai.zhengshangyou.play binds them)
cdef GameSpec SPEC = GameSpec(CLASSES, sizeof(zs_deal_t), 256)

#: The C declarations behind the Python constants of chupai.zhengshangyou.play and
#: .rules, by their Python names (tests/test_engine_base.py checks every pair).
C_CONSTANTS = {
    "play.PlayType.SINGLE": mg.ZS_SINGLE, "play.PlayType.SET": mg.ZS_SET,
    "play.PlayType.SEQUENCE": mg.ZS_SEQUENCE, "play.PlayType.MULTI_SEQUENCE": mg.ZS_MULTI,
    "play.TWO_VALUE": mg.ZS_TWO_VALUE, "play.BLACK_JOKER_VALUE": mg.ZS_BJ_VALUE,
    "play.RED_JOKER_VALUE": mg.ZS_RJ_VALUE, "play.JOKER_PAIR_VALUE": mg.ZS_JOKER_PAIR_VALUE,
    "play.SUITED_KEY": mg.ZS_SUITED_KEY, "rules.FLAG_JOKER_PAIR": mg.ZS_FLAG_JOKER_PAIR,
}


include "chupai/engine/deal_hooks.pxi"


@cython.no_gc  # no reference cycles (see Engine): no GC bookkeeping per clone
cdef class DealEngine(DealHooks):
    """One deal's card play (no exchange, no points table): hands, trick, finishing order.

    The building block of ``chupai.zhengshangyou.Deal``; also usable alone for analysis.
    Seats ``0 .. n-1``, turn order ``s -> (s + 1) % n``.  The mechanisms are
    ``chupai.engine.base.Engine``'s; this class holds the Zheng Shangyou rules.
    """

    cdef void *h_state(self) noexcept nogil:
        return &self.d

    cdef GameSpec h_spec(self):
        return SPEC

    @staticmethod
    def from_hands(hands, *, current=0, rules=None):
        """A deal in progress from 2..8 one-deck hands (``Cards`` or strings), ``current`` on lead."""
        cdef DealEngine self = DealEngine.__new__(DealEngine)
        cdef int s, n, leader
        parsed = checked_hands(hands, ZS_MIN_SEATS, ZS_MAX_SEATS, 1)
        n = len(parsed)
        leader = check_seat(current, n, "current")
        for s in range(ZS_MAX_SEATS):
            self.d.hand[s] = parsed[s].lo if s < n else 0
        if not self.d.hand[leader]:
            raise ValueError(f"the leader, seat {leader}, holds no cards")
        if sum(1 for s in range(n) if self.d.hand[s]) < 2:
            raise ValueError("at least two players must hold cards")
        self.d.t.seats = n
        self.d.flags = zs_rules_flags(rules)
        self.set_rules(CLASSES.rules_of(rules))
        zs_start(&self.d, leader)
        return self

    @staticmethod
    def random(seed, *, players=4, dealer=None, rules=None):
        """A fresh deal from a seed, dealt from ``dealer`` (``None``: drawn from the seed),
        who leads; the same seed gives the same deal as ``playouts``' first."""
        cdef DealEngine self = DealEngine.__new__(DealEngine)
        cdef rng_t rng
        cdef int n = check_players(players, ZS_MIN_SEATS, ZS_MAX_SEATS), dl
        cdef int flags = zs_rules_flags(rules)
        rng_seed(&rng, seed64(seed), 0)
        dl = rng_below(&rng, n)
        if dealer is not None:
            dl = check_seat(dealer, n, "dealer")
        self.set_rules(CLASSES.rules_of(rules))
        zs_deal_random(&self.d, &rng, n, dl, flags)
        return self

    # -- hooks ------------------------------------------------------------------------
    cdef void h_hand(self, const void *st, int seat, mask_t *lo, mask_t *hi) noexcept nogil:
        lo[0] = (<const zs_deal_t *>st).hand[seat]
        hi[0] = 0

    cdef int h_plays_of(self, const void *st, const play_t *p, int lead, playbuf_t *out) noexcept nogil:
        cdef const zs_deal_t *d = <const zs_deal_t *>st
        return onedeck_plays_of(zs_generate, &d.t, d.hand[d.t.current] if d.t.current >= 0 else 0, d.flags, p, lead, out)

    cdef int h_heuristic(self, const void *st, const playbuf_t *buf) noexcept nogil:
        return choose_heuristic(<const zs_deal_t *>st, buf)  # the heuristic block

    cdef void h_returns(self, const void *st, const double *weights, double *out) noexcept nogil:
        """weights[place]: the value of each finishing place; 0 for all while on."""
        cdef const zs_deal_t *d = <const zs_deal_t *>st
        cdef int s
        for s in range(d.t.seats):
            out[s] = weights[place_of(d, s)] if d.t.current < 0 else 0.0

    cdef int h_deal(self, void *st, rng_t *rng, int policy) noexcept nogil:
        cdef zs_deal_t *d = <zs_deal_t *>st
        zs_deal_random(d, rng, d.t.seats, rng_below(rng, d.t.seats), d.flags)
        return 0

    cdef int h_row_width(self, const void *st) noexcept nogil:
        return 2 * (<const zs_deal_t *>st).t.seats

    cdef void h_row(self, const void *st, int dealt, double *row) noexcept nogil:
        """The finishing order, then each seat's points."""
        cdef const zs_deal_t *d = <const zs_deal_t *>st
        cdef int s
        for s in range(d.t.seats):
            row[s] = d.out[s]
            row[d.t.seats + s] = 0
        row[d.t.seats + d.out[0]] = ZS_FIRST_POINTS
        if d.t.seats > 2:
            row[d.t.seats + d.out[1]] = ZS_SECOND_POINTS

    cdef int h_valid(self, const void *st) noexcept nogil:
        return valid(<const zs_deal_t *>st)

    cdef int h_weights(self, object values, double *w) except -1:
        """``values``: the value of each finishing place (default: the points)."""
        cdef int i
        if values is None:
            values = [place_points(i) if i < self.d.t.seats - 1 else 0 for i in range(self.d.t.seats)]
        if isinstance(values, (str, bytes)) or len(values) != self.d.t.seats:
            raise ValueError(f"values must have one entry per place ({self.d.t.seats}), not {values!r}")
        for i in range(self.d.t.seats):
            w[i] = float(values[i])
        return 0

    cdef object h_outcome(self):
        return self.finishing_order, self.points()

    # -- Zheng Shangyou state ---------------------------------------------------------
    @property
    def finishing_order(self):
        """Seats in the order they ran out; once over, every seat (the last holder last)."""
        return tuple(self.d.out[i] for i in range(self.d.nout))

    def points(self):
        """Points of each seat in this deal: 2 for the first out, 1 for the second."""
        pts = [0] * self.d.t.seats
        for i in range(min(self.d.nout, 2)):
            if i < self.d.t.seats - 1:
                pts[self.d.out[i]] = place_points(i)
        return tuple(pts)
