"""The Zheng Shangyou trick engine and the playouts (``spec/zhengshangyou.md``, "Play").

A deal's card play is the C struct ``zs_deal_t``: hands, the trick (last play, who
made it, passes since) and the finishing order.  ``DealCore`` wraps it for Python
(``chupai.zhengshangyou.game`` builds the full state machine on it); the playouts run
it to the end inside C with the GIL released.
"""
import numpy as np

from libc.stdint cimport int8_t, uint8_t, uint64_t
from libc.string cimport memset

from chupai._core cimport (
    MAX_WILDS,
    NO_FACE,
    PlayList,
    bit,
    check_grown,
    mask_t,
    new_playlist,
    play_object,
    play_t,
    playbuf_close,
    playbuf_free,
    playbuf_init,
    playbuf_open,
    playbuf_t,
    policy_code,
    popcount,
    rng_below,
    rng_seed,
    rng_shuffle,
    rng_t,
    seed64,
)
from chupai.zhengshangyou._movegen cimport (
    ZS_FLAG_JOKER_PAIR,
    ZS_JOKER_PAIR_VALUE,
    ZS_SET,
    ZS_SUITED_KEY,
    ZS_TWO_VALUE,
    zs_generate,
    zs_rules_flags,
    zs_target,
)

from chupai.cards import Cards, face_name
from chupai.errors import IllegalActionError
from chupai.zhengshangyou.play import Play

POLICIES = {"random": ZS_POLICY_RANDOM, "greedy": ZS_POLICY_GREEDY}
cdef object _make_play = Play._from_record
MIN_PLAYERS = ZS_MIN_SEATS
MAX_PLAYERS = ZS_MAX_SEATS
#: points for the first and the second player out
FIRST_POINTS = ZS_FIRST_POINTS
SECOND_POINTS = ZS_SECOND_POINTS
# a greedy player spends wild cards, 2s and jokers only on a player holding at most this many cards
cdef int GREEDY_THREAT = 3


# --- the rules of play ------------------------------------------------------------------
cdef inline int next_active(const zs_deal_t *d, int s) noexcept nogil:
    """The next seat after s, in turn order, that still holds cards (-1 if none)."""
    cdef int k, t
    for k in range(1, d.n + 1):
        t = (s + k) % d.n
        if d.hand[t]:
            return t
    return -1


cdef inline int active_count(const zs_deal_t *d) noexcept nogil:
    cdef int s, k = 0
    for s in range(d.n):
        if d.hand[s]:
            k += 1
    return k


cdef void zs_start(zs_deal_t *d, int leader) noexcept nogil:
    """Start the card play with `leader` on lead (hands, n and flags already set)."""
    cdef int s
    d.current = leader
    d.last_player = -1
    d.npass = 0
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
    d.n = n
    d.flags = flags
    for i in range(ZS_MAX_SEATS):
        d.hand[i] = 0
    for i in range(ZS_DECK):
        d.hand[(dealer + i) % n] |= bit(deck[i])
    zs_start(d, dealer)


cdef int zs_legal(const zs_deal_t *d, int collapse, playbuf_t *out) noexcept nogil:
    """Append the current player's legal plays (passing, when allowed, is not listed)."""
    cdef zs_target tg
    cdef int s = d.current
    if s < 0:
        return 0
    tg.type = 0
    tg.length = 0
    tg.cls = 0
    tg.key = 0
    if d.last_player >= 0:
        tg.type = d.last.type
        tg.length = d.last.length
        tg.cls = d.last.cls
        tg.key = d.last.key
    return zs_generate(d.hand[s], d.flags, collapse, &tg, out)


cdef void zs_play(zs_deal_t *d, const play_t *p) noexcept nogil:
    """The current player plays `p` (which the caller has checked is legal)."""
    cdef int s = d.current
    d.hand[s] &= ~p.lo
    d.last = p[0]
    d.last_player = s
    d.npass = 0
    if not d.hand[s]:
        d.out[d.nout] = s
        d.nout += 1
        if active_count(d) <= 1:
            # the deal is over: the one player still holding cards is last
            t = next_active(d, s)
            if t >= 0:
                d.out[d.nout] = t
                d.nout += 1
            d.current = -1
            return
    d.current = next_active(d, s)


cdef void zs_pass(zs_deal_t *d) noexcept nogil:
    """The current player passes (only when following); the trick may end."""
    cdef int s = d.current, others = active_count(d), t
    if d.hand[d.last_player]:
        others -= 1
    d.npass += 1
    if d.npass >= others:
        # everyone else has passed: the last player leads, or the next one holding cards
        t = d.last_player
        d.current = t if d.hand[t] else next_active(d, t)
        d.last_player = -1
        d.npass = 0
    else:
        d.current = next_active(d, s)


cdef inline int place_points(int place) noexcept nogil:
    return ZS_FIRST_POINTS if place == 0 else (ZS_SECOND_POINTS if place == 1 else 0)


# --- playout policies -------------------------------------------------------------------
cdef inline int play_value(const play_t *p) noexcept nogil:
    return (p.key % ZS_SUITED_KEY) >> 1


cdef inline int low_value(const play_t *p) noexcept nogil:
    """The value of the lowest rank of the play (the bottom of a sequence)."""
    return play_value(p) - p.length // p.cls + 1


cdef inline bint lead_less(const play_t *a, const play_t *b) noexcept nogil:
    """Greedy lead preference: fewer wild cards, lower bottom rank, then more cards."""
    if a.nwild != b.nwild:
        return a.nwild < b.nwild
    if low_value(a) != low_value(b):
        return low_value(a) < low_value(b)
    return a.length > b.length


cdef inline bint follow_less(const play_t *a, const play_t *b) noexcept nogil:
    """Greedy follow preference: fewer wild cards, then the lower key."""
    if a.nwild != b.nwild:
        return a.nwild < b.nwild
    return a.key < b.key


cdef int choose_greedy(const zs_deal_t *d, const playbuf_t *buf) noexcept nogil:
    """The smallest play; when following, wild cards, 2s and jokers only against a player
    about to go out (or to go out oneself); -1 = pass."""
    cdef Py_ssize_t i
    cdef int best = -1
    cdef const play_t *p
    if d.last_player < 0:
        for i in range(buf.len):
            if best < 0 or lead_less(&buf.data[i], &buf.data[best]):
                best = i
        return best
    for i in range(buf.len):
        if best < 0 or follow_less(&buf.data[i], &buf.data[best]):
            best = i
    if best < 0:
        return -1
    p = &buf.data[best]
    if ((p.nwild or play_value(p) >= ZS_TWO_VALUE) and p.lo != d.hand[d.current]
            and popcount(d.hand[d.last_player]) > GREEDY_THREAT):
        return -1
    return best


cdef int choose(const zs_deal_t *d, rng_t *rng, int policy, playbuf_t *buf) noexcept nogil:
    """The policy's choice among the current player's suit-collapsed plays, which it
    leaves in `buf`: an index into `buf`, -1 to pass, -2 if memory ran out."""
    cdef int k, n
    buf.len = 0
    if zs_legal(d, 1, buf) != 0:
        return -2
    n = <int>buf.len
    if policy == ZS_POLICY_GREEDY:
        return choose_greedy(d, buf)
    # uniform over the suit-collapsed plays, and passing when following
    k = rng_below(rng, n + (1 if d.last_player >= 0 else 0))
    return -1 if k == n else k


cdef int zs_playout(zs_deal_t *d, rng_t *rng, int policy, playbuf_t *buf) noexcept nogil:
    """Play to the end of the deal; 0, or -1 if memory ran out."""
    cdef int k
    while d.current >= 0:
        k = choose(d, rng, policy, buf)
        if k == -2:
            return -1
        if k < 0:
            zs_pass(d)
        else:
            zs_play(d, &buf.data[k])
    return 0


cdef inline int place_of(const zs_deal_t *d, int seat) noexcept nogil:
    cdef int i
    for i in range(d.nout):
        if d.out[i] == seat:
            return i
    return d.n - 1


cdef int evaluate(const zs_deal_t *d, const playbuf_t *cands, int include_pass, int n,
                  rng_t *rng, int policy, const double *value, double *sums,
                  playbuf_t *buf) noexcept nogil:
    """For each candidate (and passing), add up the current player's value[place] over
    `n` playouts after it."""
    cdef zs_deal_t x
    cdef int c, k, me = d.current
    cdef Py_ssize_t ncand = cands.len
    for c in range(ncand + include_pass):
        for k in range(n):
            x = d[0]
            if c < ncand:
                zs_play(&x, &cands.data[c])
            else:
                zs_pass(&x)
            if zs_playout(&x, rng, policy, buf) < 0:
                return -1
            sums[c] += value[place_of(&x, me)]
    return 0


# --- Python surface ---------------------------------------------------------------------
cdef int _players_of(object players) except -1:
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or not (
            ZS_MIN_SEATS <= players <= ZS_MAX_SEATS):
        raise ValueError(f"players must be an int from {ZS_MIN_SEATS} to {ZS_MAX_SEATS}, not {players!r}")
    return players


cdef class DealCore:
    """One deal's card play (no exchange, no points table): hands, trick, finishing order.

    The building block of ``chupai.zhengshangyou.Deal``; also usable alone for analysis.
    Seats ``0 .. n-1``, turn order ``s -> (s + 1) % n``.
    """
    cdef zs_deal_t d

    @staticmethod
    def from_hands(hands, int leader, rules=None):
        """A deal in progress from 2..8 one-deck hands (``Cards`` or strings), ``leader`` on lead."""
        cdef DealCore self = DealCore.__new__(DealCore)
        cdef int s, n
        cdef mask_t seen = 0, m
        n = _players_of(len(hands))
        if not 0 <= leader < n:
            raise ValueError(f"leader must be a seat 0-{n - 1}, not {leader}")
        for s in range(ZS_MAX_SEATS):
            self.d.hand[s] = 0
        for s in range(n):
            hand = hands[s] if isinstance(hands[s], Cards) else Cards(hands[s], decks=1)
            if len(hand.layers) > 1:
                raise ValueError(f"hand {s} holds a card twice; Zheng Shangyou uses one deck")
            m = hand.lo
            if m & seen:
                raise ValueError(f"card {face_name((m & seen).bit_length() - 1)} is dealt twice")
            seen |= m
            self.d.hand[s] = m
        if not self.d.hand[leader]:
            raise ValueError(f"the leader, seat {leader}, holds no cards")
        if sum(1 for s in range(n) if self.d.hand[s]) < 2:
            raise ValueError("at least two players must hold cards")
        self.d.n = n
        self.d.flags = zs_rules_flags(rules)
        zs_start(&self.d, leader)
        return self

    @staticmethod
    def random(seed, players=4, dealer=None, rules=None):
        """A fresh deal from a seed, dealt from ``dealer`` (``None``: drawn from the seed),
        who leads; the same seed gives the same deal as ``playouts``' first."""
        cdef DealCore self = DealCore.__new__(DealCore)
        cdef rng_t rng
        cdef int n = _players_of(players), dl
        rng_seed(&rng, seed64(seed), 0)
        dl = rng_below(&rng, n)
        if dealer is not None:
            if isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)) or not 0 <= dealer < n:
                raise ValueError(f"dealer must be a seat 0-{n - 1}, not {dealer!r}")
            dl = dealer
        zs_deal_random(&self.d, &rng, n, dl, zs_rules_flags(rules))
        return self

    def clone(self):
        """An independent copy."""
        cdef DealCore other = DealCore.__new__(DealCore)
        other.d = self.d
        return other

    # -- state ----------------------------------------------------------------------
    @property
    def players(self):
        return self.d.n

    @property
    def current(self):
        """The seat to act, or -1 once the deal is over."""
        return self.d.current

    @property
    def last_player(self):
        """The seat that made the trick's last play, or -1 when the current player leads."""
        return self.d.last_player

    @property
    def last_play(self):
        """The play to beat, or None when leading."""
        if self.d.last_player < 0:
            return None
        return play_object(_make_play, &self.d.last, None)

    @property
    def passes(self):
        """Passes since the last play."""
        return self.d.npass

    @property
    def finishing_order(self):
        """Seats in the order they ran out; once over, every seat (the last holder last)."""
        return tuple(self.d.out[i] for i in range(self.d.nout))

    def is_over(self):
        return self.d.current < 0

    def points(self):
        """Points of each seat in this deal: 2 for the first out, 1 for the second."""
        pts = [0] * self.d.n
        for i in range(min(self.d.nout, 2)):
            if i < self.d.n - 1:
                pts[self.d.out[i]] = place_points(i)
        return tuple(pts)

    def hand(self, int seat):
        """The cards seat ``seat`` holds."""
        if not 0 <= seat < self.d.n:
            raise ValueError(f"seat must be 0-{self.d.n - 1}, not {seat}")
        return Cards.from_masks(self.d.hand[seat])

    def hand_sizes(self):
        return tuple(popcount(self.d.hand[s]) for s in range(self.d.n))

    # -- actions --------------------------------------------------------------------
    def legal_plays(self, *, collapse_suits=False):
        """The current player's legal plays (a ``PlayList``; passing is allowed when following)."""
        cdef PlayList out = new_playlist(_make_play, None, 256)
        if self.d.current >= 0:
            check_grown(zs_legal(&self.d, 1 if collapse_suits else 0, &out.buf))
        return out

    def can_pass(self):
        """True when the current player follows (and so may pass)."""
        return self.d.current >= 0 and self.d.last_player >= 0

    def play(self, play):
        """The current player makes ``play``; ``IllegalActionError`` (state unchanged) if illegal."""
        cdef play_t p
        cdef int s = self.d.current
        if s < 0:
            raise IllegalActionError("the deal is over")
        if not isinstance(play, Play):
            raise IllegalActionError(f"{play!r} is not a Play")
        p.lo = play._lo
        p.hi = 0
        if p.lo & ~self.d.hand[s]:
            raise IllegalActionError(f"seat {s} does not hold the cards of {play}")
        if (not (self.d.flags & ZS_FLAG_JOKER_PAIR) and play._type == ZS_SET
                and play._key >> 1 == ZS_JOKER_PAIR_VALUE):
            raise IllegalActionError(f"{play} is not a play under these rules (joker_pair=False)")
        if self.d.last_player >= 0 and not play.beats(self.last_play):
            raise IllegalActionError(f"{play} does not beat {self.last_play}")
        p.type = play._type
        p.key = play._key
        p.cls = play._cls
        p.length = play._length
        if len(play._decl) > MAX_WILDS:
            raise IllegalActionError(f"{play!r} declares more wild cards than a play can hold")
        p.nwild = len(play._decl)
        p.flags = 0
        memset(p.decl, NO_FACE, MAX_WILDS)
        for i in range(p.nwild):
            p.decl[i] = play._decl[i]
        zs_play(&self.d, &p)

    def pass_turn(self):
        """The current player passes; ``IllegalActionError`` when leading."""
        if self.d.current < 0:
            raise IllegalActionError("the deal is over")
        if self.d.last_player < 0:
            raise IllegalActionError(f"seat {self.d.current} is on lead and may not pass")
        zs_pass(&self.d)

    def playout(self, seed, policy="random"):
        """Play this deal (a copy; ``self`` is unchanged) to the end: (finishing order, points)."""
        cdef DealCore c = self.clone()
        cdef rng_t rng
        cdef playbuf_t buf
        cdef int pol = policy_code(POLICIES, policy), rc
        rng_seed(&rng, seed64(seed), 0)
        playbuf_open(&buf, 256)
        with nogil:
            rc = zs_playout(&c.d, &rng, pol, &buf)
        playbuf_close(&buf, rc)
        return c.finishing_order, c.points()

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
        play = play_object(_make_play, &buf.data[k], None) if k >= 0 else None
        playbuf_close(&buf, k == -2)
        return play

    def evaluate(self, PlayList candidates, bint include_pass, int n, seed, policy="random",
                 values=None):
        """Total outcome for the current player of ``n`` playouts after each candidate.

        ``candidates`` must be plays the current player may make (e.g. from
        ``legal_plays``); with ``include_pass`` the last entry is for passing.  A playout
        counts ``values[place]`` for the current player's finishing place (default: the
        deal's points, 2 for the first out, 1 for the second, 0 for the others).  Returns
        a float64 array of sums (divide by ``n`` for means).
        """
        cdef rng_t rng
        cdef playbuf_t buf
        cdef double value[ZS_MAX_SEATS]
        cdef int rc, pol = policy_code(POLICIES, policy)
        cdef Py_ssize_t i
        cdef play_t c
        if self.d.current < 0:
            raise IllegalActionError("the deal is over")
        if include_pass and self.d.last_player < 0:
            raise IllegalActionError("the current player leads and may not pass")
        if n < 1:
            raise ValueError(f"n must be positive, not {n}")
        if candidates.factory != _make_play:
            raise IllegalActionError("the candidates are not Zheng Shangyou plays")
        for i in range(candidates.buf.len):
            c = candidates.buf.data[i]
            if c.lo & ~self.d.hand[self.d.current]:
                raise IllegalActionError(f"candidate {i} is not a play of the current player")
        if values is None:
            values = [place_points(i) if i < self.d.n - 1 else 0 for i in range(self.d.n)]
        if len(values) != self.d.n:
            raise ValueError(f"values must have one entry per place ({self.d.n}), not {values!r}")
        for i in range(self.d.n):
            value[i] = float(values[i])
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
        return (f"<zhengshangyou.DealCore current {self.d.current} last {self.d.last_player} "
                f"sizes {self.hand_sizes()} out {self.finishing_order}>")


# --- batch playouts ---------------------------------------------------------------------
cdef int _run(uint64_t seed, Py_ssize_t start, Py_ssize_t stop, int n, int flags, int policy,
              int8_t[:, ::1] order, int8_t[:, ::1] points) noexcept nogil:
    cdef zs_deal_t d
    cdef rng_t rng
    cdef playbuf_t buf
    cdef Py_ssize_t i
    cdef int s
    if playbuf_init(&buf, 256) != 0:
        return -1
    for i in range(start, stop):
        rng_seed(&rng, seed, <uint64_t>i)
        zs_deal_random(&d, &rng, n, rng_below(&rng, n), flags)
        if zs_playout(&d, &rng, policy, &buf) < 0:
            playbuf_free(&buf)
            return -1
        for s in range(n):
            order[i, s] = d.out[s]
            points[i, s] = 0
        points[i, d.out[0]] = ZS_FIRST_POINTS
        if n > 2:
            points[i, d.out[1]] = ZS_SECOND_POINTS
    playbuf_free(&buf)
    return 0


def _run_chunk(uint64_t seed, Py_ssize_t start, Py_ssize_t stop, int players, int flags, int policy,
               int8_t[:, ::1] order, int8_t[:, ::1] points):
    """Deals ``start .. stop - 1`` of a batch (see ``playouts``), written into the arrays."""
    cdef int rc
    if not ZS_MIN_SEATS <= players <= ZS_MAX_SEATS:
        raise ValueError(f"players must be {ZS_MIN_SEATS}-{ZS_MAX_SEATS}")
    if (order.shape[1] != players or points.shape[1] != players or stop > order.shape[0]
            or stop > points.shape[0] or start < 0 or start > stop):
        raise ValueError("the result arrays do not fit the batch")
    with nogil:
        rc = _run(seed, start, stop, players, flags, policy, order, points)
    check_grown(rc)
