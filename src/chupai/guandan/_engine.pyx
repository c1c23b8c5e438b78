"""The Guan Dan trick engine and the playouts (``spec/guandan.md``, "A deal").

A deal's card play is the C struct ``gd_deal_t``: hands, the trick (last play, who
made it, passes since), the finishing order and the result.  ``DealCore`` wraps it for
Python (``chupai.guandan.game`` builds the full state machine on it); the playouts
run it to the end inside C with the GIL released.
"""
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from libc.stdint cimport int8_t, uint8_t, uint64_t

from chupai._core cimport (
    N_FACES,
    RANK_A,
    PlayList,
    check_grown,
    checked_rules,
    multiset_add,
    multiset_remove,
    multiset_size,
    new_playlist,
    play_object,
    play_t,
    playbuf_close,
    playbuf_free,
    playbuf_init,
    playbuf_open,
    playbuf_t,
    policy_code,
    rng_below,
    rng_seed,
    rng_shuffle,
    rng_t,
    seed64,
)
from chupai.guandan._movegen cimport (
    GD_BOMB,
    GD_LEVEL_VALUE,
    GD_PAIR,
    GD_SINGLE,
    GD_TRIPLE,
    gd_generate,
    gd_target,
)

from chupai.cards import Cards, face_name
from chupai.errors import IllegalActionError
from chupai.guandan.play import Play
from chupai.guandan.rules import PAGAT, Rules, parse_rank

#: ``DealCore.result`` values: how the deal was won (index into ``Rules.promotion``)
RESULT_NONE = GD_RESULT_NONE
RESULT_12 = GD_RESULT_12
RESULT_13 = GD_RESULT_13
RESULT_14 = GD_RESULT_14
POLICIES = {"random": GD_POLICY_RANDOM, "greedy": GD_POLICY_GREEDY}
cdef object _make_play = Play._from_record
# a greedy player spends a bomb only on an opponent holding at most this many cards
cdef int GREEDY_BOMB_THREAT = 6


# --- the rules of play ------------------------------------------------------------------
cdef inline int hand_size(const gd_deal_t *d, int s) noexcept nogil:
    return multiset_size(d.lo[s], d.hi[s])


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
    d.current = leader
    d.last_player = -1
    d.npass = 0
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


cdef int gd_legal(const gd_deal_t *d, int collapse, playbuf_t *out) noexcept nogil:
    """Append the current player's legal plays (passing, when allowed, is not listed)."""
    cdef gd_target tg
    cdef int s = d.current
    if s < 0:
        return 0
    tg.type = 0
    tg.key = 0
    tg.cls = 0
    if d.last_player >= 0:
        tg.type = d.last.type
        tg.key = d.last.key
        tg.cls = d.last.cls
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
    d.current = -1


cdef void gd_play(gd_deal_t *d, const play_t *p) noexcept nogil:
    """The current player plays `p` (which the caller has checked is legal)."""
    cdef int s = d.current
    # remove the play: a face held twice and played once stays held once
    multiset_remove(&d.lo[s], &d.hi[s], p.lo, p.hi)
    d.last = p[0]
    d.last_player = s
    d.npass = 0
    if not d.lo[s]:
        d.out[d.nout] = s
        d.nout += 1
        if d.nout == 1:
            d.aces_out = only_aces(d, p)
        if not d.lo[(s + 2) % GD_SEATS]:
            finish(d, s)
            return
    d.current = next_active(d, s)


cdef void gd_pass(gd_deal_t *d) noexcept nogil:
    """The current player passes (only when following); the trick may end."""
    cdef int s = d.current, others = 0, t
    for t in range(GD_SEATS):
        if t != d.last_player and d.lo[t]:
            others += 1
    d.npass += 1
    if d.npass >= others:
        # everyone else has passed: the last player leads, or their partner if they are out
        t = d.last_player
        d.current = t if d.lo[t] else (t + 2) % GD_SEATS
        d.last_player = -1
        d.npass = 0
    else:
        d.current = next_active(d, s)


# --- playout policies -------------------------------------------------------------------
cdef inline bint less(const play_t *a, const play_t *b) noexcept nogil:
    """Greedy preference: lower class, fewer wild cards, lower key, then more cards."""
    if a.cls != b.cls:
        return a.cls < b.cls
    if a.nwild != b.nwild:
        return a.nwild < b.nwild
    if a.key != b.key:
        return a.key < b.key
    return a.length > b.length


cdef int choose_greedy(const gd_deal_t *d, const playbuf_t *buf) noexcept nogil:
    """The smallest play (bombs last, and only against a near-finished opponent); -1 = pass."""
    cdef Py_ssize_t i
    cdef int best = -1, bomb = -1, lp = d.last_player
    for i in range(buf.len):
        if buf.data[i].cls:
            if bomb < 0 or less(&buf.data[i], &buf.data[bomb]):
                bomb = i
        elif best < 0 or less(&buf.data[i], &buf.data[best]):
            best = i
    if lp < 0:
        return best if best >= 0 else bomb
    if lp % 2 == d.current % 2:
        return -1  # never beat the partner
    if best >= 0:
        return best
    if bomb >= 0 and hand_size(d, lp) <= GREEDY_BOMB_THREAT:
        return bomb
    return -1


cdef int choose(const gd_deal_t *d, rng_t *rng, int policy, playbuf_t *buf) noexcept nogil:
    """The policy's choice among the current player's suit-collapsed plays, which it
    leaves in `buf`: an index into `buf`, -1 to pass, -2 if memory ran out."""
    cdef int k, n
    buf.len = 0
    if gd_legal(d, 1, buf) != 0:
        return -2
    n = <int>buf.len
    if policy == GD_POLICY_GREEDY:
        return choose_greedy(d, buf)
    # uniform over the suit-collapsed plays, and passing when following
    k = rng_below(rng, n + (1 if d.last_player >= 0 else 0))
    return -1 if k == n else k


cdef int gd_playout(gd_deal_t *d, rng_t *rng, int policy, playbuf_t *buf) noexcept nogil:
    """Play to the end of the deal; the result, or -1 if memory ran out."""
    cdef int k
    while d.result == GD_RESULT_NONE:
        k = choose(d, rng, policy, buf)
        if k == -2:
            return -1
        if k < 0:
            gd_pass(d)
        else:
            gd_play(d, &buf.data[k])
    return d.result


cdef int evaluate(const gd_deal_t *d, const playbuf_t *cands, int include_pass, int n,
                  rng_t *rng, int policy, const double *value, double *sums,
                  playbuf_t *buf) noexcept nogil:
    """For each candidate (and passing), add up the current player's team's outcome over
    `n` playouts after it: +value[result] for a win, -value[result] for a loss."""
    cdef gd_deal_t x
    cdef int c, k, team = d.current % 2, r
    cdef Py_ssize_t ncand = cands.len
    for c in range(ncand + include_pass):
        for k in range(n):
            x = d[0]
            if c < ncand:
                gd_play(&x, &cands.data[c])
            else:
                gd_pass(&x)
            r = gd_playout(&x, rng, policy, buf)
            if r < 0:
                return -1
            sums[c] += value[r] if x.out[0] % 2 == team else -value[r]
    return 0


# --- Python surface ---------------------------------------------------------------------
cdef int _flags_of(object rules) except -1:
    return checked_rules(rules, Rules, PAGAT, "guandan.Rules")._flags


cdef class DealCore:
    """One deal's card play (no tribute, no levels): hands, trick, finishing order.

    The building block of ``chupai.guandan.Deal``; also usable alone for analysis.
    Seats 0-3, partners opposite (0 and 2, 1 and 3), turn order ``s -> (s + 1) % 4``.
    """
    cdef gd_deal_t d

    @staticmethod
    def from_hands(hands, level, int leader, rules=None):
        """A deal in progress from four hands (``Cards`` or strings), ``leader`` on lead."""
        cdef DealCore self = DealCore.__new__(DealCore)
        cdef int s
        if len(hands) != GD_SEATS:
            raise ValueError(f"expected {GD_SEATS} hands, not {len(hands)}")
        if not 0 <= leader < GD_SEATS:
            raise ValueError(f"leader must be a seat 0-3, not {leader}")
        total = [0] * 54
        for s in range(GD_SEATS):
            hand = hands[s] if isinstance(hands[s], Cards) else Cards(hands[s])
            if len(hand.layers) > 2:
                raise ValueError(f"hand {s} holds a card more than twice")
            if not hand:
                raise ValueError(f"hand {s} is empty: every seat starts with cards")
            for f, c in enumerate(hand.counts()):
                total[f] += c
                if total[f] > 2:
                    raise ValueError(f"card {face_name(f)} is dealt more than twice")
            self.d.lo[s] = hand.lo
            self.d.hi[s] = hand.hi
        self.d.level = _level_index(level)
        self.d.flags = _flags_of(rules)
        gd_start(&self.d, leader)
        return self

    @staticmethod
    def random(seed, level="2", rules=None):
        """A fresh deal from a seed: the same seed gives the same deal as ``playouts``' first."""
        cdef DealCore self = DealCore.__new__(DealCore)
        cdef rng_t rng
        rng_seed(&rng, seed64(seed), 0)
        self.d.level = _level_index(level)
        gd_deal_random(&self.d, &rng, _flags_of(rules))
        return self

    def clone(self):
        """An independent copy."""
        cdef DealCore other = DealCore.__new__(DealCore)
        other.d = self.d
        return other

    # -- state ----------------------------------------------------------------------
    @property
    def current(self):
        """The seat to act, or -1 once the deal is over."""
        return self.d.current

    @property
    def level(self):
        """The level rank index 0..12 (2..A)."""
        return self.d.level

    @property
    def last_player(self):
        """The seat that made the trick's last play, or -1 when the current player leads."""
        return self.d.last_player

    @property
    def last_play(self):
        """The play to beat, or None when leading."""
        if self.d.last_player < 0:
            return None
        return play_object(_make_play, &self.d.last, self.d.level)

    @property
    def passes(self):
        """Passes since the last play."""
        return self.d.npass

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

    def hand(self, int seat):
        """The cards seat ``seat`` holds."""
        if not 0 <= seat < GD_SEATS:
            raise ValueError(f"seat must be 0-3, not {seat}")
        return Cards.from_masks(self.d.lo[seat], self.d.hi[seat])

    def hand_sizes(self):
        return tuple(hand_size(&self.d, s) for s in range(GD_SEATS))

    # -- actions --------------------------------------------------------------------
    def legal_plays(self, *, collapse_suits=False):
        """The current player's legal plays (a ``PlayList``; passing is allowed when following)."""
        cdef PlayList out = new_playlist(_make_play, self.d.level, 256)
        if self.d.current >= 0:
            check_grown(gd_legal(&self.d, 1 if collapse_suits else 0, &out.buf))
        return out

    def can_pass(self):
        """True when the current player follows (and so may pass)."""
        return self.d.current >= 0 and self.d.last_player >= 0

    def play(self, play):
        """The current player makes ``play``; ``IllegalActionError`` (state unchanged) if
        it is not one of the current legal plays under this deal's rules."""
        cdef play_t p
        cdef int s = self.d.current
        cdef Py_ssize_t i
        cdef playbuf_t buf
        cdef bint found = False
        cdef int rc
        if s < 0:
            raise IllegalActionError("the deal is over")
        if not isinstance(play, Play):
            raise IllegalActionError(f"{play!r} is not a Play")
        if play._level != self.d.level:
            raise IllegalActionError(f"{play} was formed at level {play.level}, not this deal's level")
        p.lo = play._lo
        p.hi = play._hi
        if (p.lo & ~self.d.lo[s]) or (p.hi & ~self.d.hi[s]):
            raise IllegalActionError(f"seat {s} does not hold the cards of {play}")
        if self.d.last_player >= 0 and not play.beats(self.last_play):
            raise IllegalActionError(f"{play} does not beat {self.last_play}")
        # the play must be one the generator lists under these rules (options included)
        playbuf_open(&buf, 256)
        rc = gd_legal(&self.d, 0, &buf)
        for i in range(buf.len if rc == 0 else 0):
            if (buf.data[i].lo == p.lo and buf.data[i].hi == p.hi
                    and buf.data[i].type == play._type and buf.data[i].key == play._key):
                p = buf.data[i]
                found = True
                break
        playbuf_close(&buf, rc)
        if not found:
            raise IllegalActionError(f"{play} is not a legal play under this deal's rules")
        gd_play(&self.d, &p)

    def pass_turn(self):
        """The current player passes; ``IllegalActionError`` when leading."""
        if self.d.current < 0:
            raise IllegalActionError("the deal is over")
        if self.d.last_player < 0:
            raise IllegalActionError(f"seat {self.d.current} is on lead and may not pass")
        gd_pass(&self.d)

    def playout(self, seed, policy="random"):
        """Play this deal (a copy; ``self`` is unchanged) to the end: (finishing order, result)."""
        cdef DealCore c = self.clone()
        cdef rng_t rng
        cdef playbuf_t buf
        cdef int pol = policy_code(POLICIES, policy), rc
        rng_seed(&rng, seed64(seed), 0)
        playbuf_open(&buf, 256)
        with nogil:
            rc = gd_playout(&c.d, &rng, pol, &buf)
        playbuf_close(&buf, rc < 0)
        return c.finishing_order, c.d.result

    def policy_choice(self, policy="random", seed=0):
        """The play the C policy would make now, or None to pass (see ``playouts``)."""
        cdef rng_t rng
        cdef playbuf_t buf
        cdef int k
        if self.d.current < 0:
            raise IllegalActionError("the deal is over")
        rng_seed(&rng, seed64(seed), 0)
        playbuf_open(&buf, 256)
        k = choose(&self.d, &rng, policy_code(POLICIES, policy), &buf)
        play = play_object(_make_play, &buf.data[k], self.d.level) if k >= 0 else None
        playbuf_close(&buf, k == -2)
        return play

    def evaluate(self, PlayList candidates, bint include_pass, int n, seed, policy="random",
                 promotion=(4, 2, 1)):
        """Total outcome for the current player's team of ``n`` playouts after each candidate.

        ``candidates`` must be plays the current player may make (e.g. from
        ``legal_plays``); with ``include_pass`` the last entry is for passing.  A won
        deal counts ``+promotion[k]`` and a lost one ``-promotion[k]`` (k: 1-2, 1-3, 1-4).
        Returns a float64 array of sums (divide by ``n`` for means).
        """
        cdef rng_t rng
        cdef playbuf_t buf
        cdef double value[4]
        cdef int rc, pol = policy_code(POLICIES, policy)
        cdef Py_ssize_t i
        cdef play_t c
        if self.d.current < 0:
            raise IllegalActionError("the deal is over")
        if include_pass and self.d.last_player < 0:
            raise IllegalActionError("the current player leads and may not pass")
        if n < 1:
            raise ValueError(f"n must be positive, not {n}")
        for i in range(candidates.buf.len):
            c = candidates.buf.data[i]
            if ((c.lo & ~self.d.lo[self.d.current]) or (c.hi & ~self.d.hi[self.d.current])
                    or candidates.context != self.d.level):
                raise IllegalActionError(f"candidate {i} is not a play of the current player")
        if len(promotion) != 3:
            raise ValueError(f"promotion must have three entries, not {promotion!r}")
        value[0] = 0.0
        for i in range(3):
            value[i + 1] = float(promotion[i])
        sums = np.zeros(candidates.buf.len + (1 if include_pass else 0), dtype=np.float64)
        cdef double[::1] view = sums
        rng_seed(&rng, seed64(seed), 0)
        playbuf_open(&buf, 256)
        with nogil:
            rc = evaluate(&self.d, &candidates.buf, include_pass, n, &rng, pol, value,
                          &view[0] if view.shape[0] else NULL, &buf)
        playbuf_close(&buf, rc)
        return sums

    def __repr__(self):
        return (f"<DealCore level {'23456789TJQKA'[self.d.level]} current {self.d.current} "
                f"sizes {self.hand_sizes()} result {self.d.result}>")


cdef int _level_index(object level) except -1:
    return parse_rank(level, "level")


# --- batch playouts ---------------------------------------------------------------------
cdef int _run(uint64_t seed, Py_ssize_t start, Py_ssize_t stop, int level, int flags, int policy,
              int8_t[:, ::1] order, int8_t[::1] result) noexcept nogil:
    cdef gd_deal_t d
    cdef rng_t rng
    cdef playbuf_t buf
    cdef Py_ssize_t i
    cdef int s
    if playbuf_init(&buf, 256) != 0:
        return -1
    for i in range(start, stop):
        rng_seed(&rng, seed, <uint64_t>i)
        d.level = level
        gd_deal_random(&d, &rng, flags)
        if gd_playout(&d, &rng, policy, &buf) < 0:
            playbuf_free(&buf)
            return -1
        for s in range(GD_SEATS):
            order[i, s] = d.out[s]
        result[i] = d.result
    playbuf_free(&buf)
    return 0


def _run_chunk(uint64_t seed, Py_ssize_t start, Py_ssize_t stop, int level, int flags, int policy,
               int8_t[:, ::1] order, int8_t[::1] result):
    cdef int rc
    with nogil:
        rc = _run(seed, start, stop, level, flags, policy, order, result)
    check_grown(rc)
