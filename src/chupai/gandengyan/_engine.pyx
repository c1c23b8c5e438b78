"""The Gan Deng Yan deal engine and the playouts (``spec/gandengyan.md``, "Table and
deal", "Play, drawing, end and scoring").

A deal's card play is the C struct ``gdy_deal_t``: hands, the talon in drawing order,
the trick (last play, who made it, passes since), the bombs played and the winner.
``DealCore`` wraps it for Python (``chupai.gandengyan.game`` builds the state machine
on it); the playouts run it to the end inside C with the GIL released.

How the engine reads the spec where it is silent:

* Players without cards (possible only with ``min_talon_to_win``, between going out
  and the end of the trick) are skipped in turn; they cannot follow.
* A leader with no legal play (a lone joker with ``joker_lead_out=False``) passes the
  lead to the next player holding cards; if every player holding cards passes the
  lead in a row, the deal ends with no winner and nobody pays.
* With ``min_talon_to_win``, a player who has no cards after the draw at the end of a
  trick (the talon ran out before their turn to draw) wins at once; the first such
  player in drawing order if there are several.
"""
import numpy as np

from libc.stdint cimport int8_t, int16_t, uint8_t, uint64_t

from chupai._core cimport (
    BJ_BIT,
    JOKER_MASK,
    N_RANKS,
    RANK_A,
    RJ_BIT,
    PlayList,
    check_grown,
    checked_rules,
    mask_t,
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
    popcount,
    rank_count,
    rng_below,
    rng_seed,
    rng_shuffle,
    rng_t,
    seed64,
)
from chupai.gandengyan._movegen cimport (
    GDY_FLAG_JOKER_AS_TWO,
    GDY_FLAG_TRIPLES_ARE_BOMBS,
    GDY_FOUR_BOMB,
    GDY_THREE_BOMB,
    gdy_generate,
    gdy_target,
)

from chupai.cards import Cards, face_name, parse_face
from chupai.errors import IllegalActionError
from chupai.gandengyan.play import Play
from chupai.gandengyan.rules import PAGAT, Rules

POLICIES = {"random": GDY_POLICY_RANDOM, "greedy": GDY_POLICY_GREEDY}
cdef object _make_play = Play._from_record
#: the kinds of bombs counted in ``DealCore.bombs`` (indexes), for the general multiplier
BOMB_KINDS = ("three", "three_soft", "four", "four_soft", "jokers")
MIN_PLAYERS = GDY_MIN_PLAYERS
MAX_PLAYERS = GDY_MAX_PLAYERS

# scoring factors (chupai.gandengyan.scoring)
cdef enum:
    THREE_FACTOR = 2
    FOUR_FACTOR = 4
    JOKER_BOMB_FACTOR = 8
    SOFT_FACTOR = 2
    HARD_FACTOR = 4
    HELD_FACTOR = 2              # each joker (and ace, without ace_multiplier) left in hand
    MAX_BOMB = 4
    MIN_BOMB = 3
    MAX_NATURALS = 8             # natural cards of one rank with two decks
    MAX_HELD_JOKERS = 4          # jokers in one hand with two decks
    RANK_TWO = 0

# a greedy player spends a bomb only on a player holding at most this many cards
cdef int GREEDY_BOMB_THREAT = 3
cdef mask_t JOKERS = JOKER_MASK


# --- the rules of play ------------------------------------------------------------------
cdef inline int hand_size(const gdy_deal_t *d, int s) noexcept nogil:
    return multiset_size(d.lo[s], d.hi[s])


cdef inline void give(gdy_deal_t *d, int s, int face) noexcept nogil:
    multiset_add(&d.lo[s], &d.hi[s], face)


cdef void gdy_start(gdy_deal_t *d, int dealer) noexcept nogil:
    """Start the card play: the hands and talon are set, the dealer leads."""
    cdef int k
    d.dealer = dealer
    d.current = dealer
    d.last_player = -1
    d.npass = 0
    d.lead_passes = 0
    d.winner = -1
    d.tricks = 0
    for k in range(GDY_BOMB_KINDS):
        d.bombs[k] = 0


cdef void gdy_deal_random(gdy_deal_t *d, rng_t *rng, int dealer) noexcept nogil:
    """Shuffle the deck(s) and deal: starting with the dealer and going round, each player
    takes a card until the dealer has six and the others five; the rest is the talon.
    `d.n` and `d.o` are set; a negative `dealer` is drawn at random."""
    cdef uint8_t deck[GDY_MAX_CARDS]
    cdef int i, j, k, s, ncards = GDY_DECK * d.o.decks
    for i in range(ncards):
        deck[i] = i % GDY_DECK
    rng_shuffle(deck, ncards, rng)
    if dealer < 0:
        dealer = rng_below(rng, d.n)
    for s in range(d.n):
        d.lo[s] = 0
        d.hi[s] = 0
    k = 0
    for i in range(GDY_HAND_CARDS):
        for j in range(d.n):
            give(d, (dealer + j) % d.n, deck[k])
            k += 1
    give(d, dealer, deck[k])
    k += 1
    d.top = 0
    d.end = ncards - k
    for i in range(d.end):
        d.talon[i] = deck[k + i]
    gdy_start(d, dealer)


cdef int gdy_legal(const gdy_deal_t *d, int collapse, playbuf_t *out) noexcept nogil:
    """Append the current player's legal plays (passing, when allowed, is not listed)."""
    cdef gdy_target tg
    cdef int s = d.current
    if s < 0:
        return 0
    tg.type = 0
    if d.last_player >= 0:
        tg.type = d.last.type
        tg.key = d.last.key
        tg.length = d.last.length
        tg.cls = d.last.cls
    return gdy_generate(d.lo[s], d.hi[s], d.o.flags, d.o.max_ranks, collapse, &tg, out)


cdef void end_trick(gdy_deal_t *d) noexcept nogil:
    """Everyone else passed: from the last player round, each draws a card while the
    talon lasts; the last player leads (or a player left without cards wins)."""
    cdef int k = d.last_player, i, t
    d.tricks += 1
    for i in range(d.n):
        if d.top >= d.end:
            break
        give(d, (k + i) % d.n, d.talon[d.top])
        d.top += 1
    for i in range(d.n):
        t = (k + i) % d.n
        if not d.lo[t]:
            d.winner = t
            d.current = -1
            return
    d.current = k
    d.last_player = -1
    d.npass = 0


cdef void advance(gdy_deal_t *d, int s) noexcept nogil:
    """The turn passes from s to the next player holding cards; back at the last player
    the trick ends."""
    cdef int k, t
    for k in range(1, d.n + 1):
        t = (s + k) % d.n
        if t == d.last_player:
            end_trick(d)
            return
        if d.lo[t]:
            d.current = t
            return


cdef inline int bomb_kind(const play_t *p) noexcept nogil:
    cdef bint soft = (p.lo & JOKERS) != 0
    if p.type == GDY_THREE_BOMB:
        return GDY_BOMB_THREE_SOFT if soft else GDY_BOMB_THREE
    if p.type == GDY_FOUR_BOMB:
        return GDY_BOMB_FOUR_SOFT if soft else GDY_BOMB_FOUR
    return GDY_BOMB_JOKERS


cdef void gdy_play(gdy_deal_t *d, const play_t *p) noexcept nogil:
    """The current player plays `p` (which the caller has checked is legal)."""
    cdef int s = d.current
    # remove the play: a face held twice and played once stays held once
    multiset_remove(&d.lo[s], &d.hi[s], p.lo, p.hi)
    if p.cls:
        d.bombs[bomb_kind(p)] += 1
    d.last = p[0]
    d.last_player = s
    d.npass = 0
    d.lead_passes = 0
    if not d.lo[s] and (d.o.min_talon == GDY_NO_LIMIT or d.end - d.top <= d.o.min_talon):
        d.winner = s
        d.current = -1
        return
    advance(d, s)


cdef void gdy_pass(gdy_deal_t *d) noexcept nogil:
    """The current player passes: following, or on lead without a legal play."""
    cdef int s = d.current, k, t, holders = 0
    if d.last_player >= 0:
        d.npass += 1
        advance(d, s)
        return
    # the lead passes to the next player holding cards
    for t in range(d.n):
        if d.lo[t]:
            holders += 1
    d.lead_passes += 1
    if d.lead_passes >= holders:
        d.current = -1  # nobody can lead: the deal ends without a winner
        return
    for k in range(1, d.n + 1):
        t = (s + k) % d.n
        if d.lo[t]:
            d.current = t
            return


# --- scoring ------------------------------------------------------------------------------
cdef inline double bomb_factor(const gdy_opts_t *o, int kind) noexcept nogil:
    if not o.multipliers:
        return 1.0
    if kind == GDY_BOMB_JOKERS:
        return JOKER_BOMB_FACTOR
    if o.soft_bombs:
        return SOFT_FACTOR if kind == GDY_BOMB_THREE_SOFT or kind == GDY_BOMB_FOUR_SOFT else HARD_FACTOR
    return THREE_FACTOR if kind == GDY_BOMB_THREE or kind == GDY_BOMB_THREE_SOFT else FOUR_FACTOR


cdef inline double power(double x, int k) noexcept nogil:
    cdef double out = 1.0
    while k > 0:
        out *= x
        k -= 1
    return out


cdef inline double held_factor(const gdy_opts_t *o, int size, bint soft) noexcept nogil:
    """The factor of a bomb of `size` cards left in hand (scoring._held_factor)."""
    if size == MIN_BOMB and not o.flags & GDY_FLAG_TRIPLES_ARE_BOMBS:
        return 1.0
    if o.soft_bombs:
        return SOFT_FACTOR if soft else HARD_FACTOR
    return THREE_FACTOR if size == MIN_BOMB else FOUR_FACTOR


cdef double rank_bombs_factor(const gdy_opts_t *o, int naturals, int jokers) noexcept nogil:
    """The largest product of bomb factors from `naturals` cards of one rank and at most
    `jokers` jokers, each bomb 3 or 4 cards with a natural (scoring._rank_bombs_factor);
    the recursion is at most MAX_NATURALS / MIN_BOMB + 1 deep."""
    cdef double best = 1.0, f
    cdef int size, wild
    for size in range(MIN_BOMB, MAX_BOMB + 1):
        for wild in range(min(jokers, size - 1) + 1):
            if size - wild <= naturals:
                f = held_factor(o, size, wild > 0) * rank_bombs_factor(o, naturals - size + wild, jokers - wild)
                if f > best:
                    best = f
    return best


cdef double own_multiplier(const gdy_opts_t *o, mask_t lo, mask_t hi) noexcept nogil:
    """A loser's own multiplier (chupai.gandengyan.scoring.own_multiplier)."""
    cdef double out = 1.0, f
    cdef double best[MAX_HELD_JOKERS + 1]
    cdef double nxt[MAX_HELD_JOKERS + 1]
    cdef int r, c, j, k, usable, pairs
    cdef int aces = rank_count(lo, hi, RANK_A)
    cdef mask_t bj = (<mask_t>1) << BJ_BIT, rj = (<mask_t>1) << RJ_BIT
    cdef int black = ((lo & bj) != 0) + ((hi & bj) != 0), red = ((lo & rj) != 0) + ((hi & rj) != 0)
    cdef int jokers = black + red if o.joker_bombs_held else 0
    if o.ace_multiplier:
        out *= power(o.ace_multiplier, aces)
    elif o.multipliers:
        out *= power(HELD_FACTOR, aces)
    if not o.multipliers:
        return out
    out *= power(HELD_FACTOR, black + red)
    # best[j]: the largest product over the ranks seen with at most j jokers standing in
    for j in range(jokers + 1):
        best[j] = 1.0
    for r in range(N_RANKS):
        c = rank_count(lo, hi, r)
        if c == 0:
            continue
        usable = jokers if r != RANK_TWO or o.flags & GDY_FLAG_JOKER_AS_TWO else 0
        for j in range(jokers + 1):
            nxt[j] = 0.0
            for k in range(min(j, usable) + 1):
                f = best[j - k] * rank_bombs_factor(o, c, k)
                if f > nxt[j]:
                    nxt[j] = f
        for j in range(jokers + 1):
            best[j] = nxt[j]
    f = best[jokers]
    if o.joker_bombs_held:
        for pairs in range(1, min(black, red) + 1):
            f = max(f, power(bomb_factor(o, GDY_BOMB_JOKERS), pairs) * best[jokers - 2 * pairs])
    return out * f


cdef void gdy_returns(const gdy_deal_t *d, double *out) noexcept nogil:
    """Each seat's score for the deal (all 0 while it goes on or without a winner)."""
    cdef double general = 1.0, pay, total = 0.0
    cdef int s, k
    for s in range(d.n):
        out[s] = 0.0
    if d.winner < 0:
        return
    for k in range(GDY_BOMB_KINDS):
        general *= power(bomb_factor(&d.o, k), d.bombs[k])
    for s in range(d.n):
        if s == d.winner:
            continue
        pay = hand_size(d, s) * general * own_multiplier(&d.o, d.lo[s], d.hi[s])
        if d.o.max_payment > 0 and pay > d.o.max_payment:
            pay = d.o.max_payment
        total += pay
        out[s] = 0.0 if d.o.positive_only else -pay
    out[d.winner] = total


# --- playout policies -------------------------------------------------------------------
cdef inline bint cheaper(const play_t *a, const play_t *b) noexcept nogil:
    """Greedy preference among plays of one kind: fewer jokers, then the lower key."""
    if a.nwild != b.nwild:
        return a.nwild < b.nwild
    return a.key < b.key


cdef int choose_greedy(const gdy_deal_t *d, const playbuf_t *buf) noexcept nogil:
    """Go out if a play empties the hand; lead the longest ordinary play; follow with the
    cheapest ordinary play; a bomb only on a player about to go out (or when nothing
    else can be led).  -1 = pass."""
    cdef Py_ssize_t i
    cdef int best = -1, bomb = -1, size = hand_size(d, d.current)
    cdef const play_t *p
    for i in range(buf.len):
        p = &buf.data[i]
        if p.length == size:
            return <int>i
        if p.cls:
            if bomb < 0 or p.cls < buf.data[bomb].cls or (p.cls == buf.data[bomb].cls and cheaper(p, &buf.data[bomb])):
                bomb = <int>i
        elif best < 0:
            best = <int>i
        elif d.last_player < 0 and p.length != buf.data[best].length:
            if p.length > buf.data[best].length:
                best = <int>i
        elif cheaper(p, &buf.data[best]):
            best = <int>i
    if d.last_player < 0:
        return best if best >= 0 else bomb
    if best >= 0:
        return best
    if bomb >= 0 and hand_size(d, d.last_player) <= GREEDY_BOMB_THREAT:
        return bomb
    return -1


cdef int choose(const gdy_deal_t *d, rng_t *rng, int policy, playbuf_t *buf) noexcept nogil:
    """The policy's choice among the current player's suit-collapsed plays, which it
    leaves in `buf`: an index into `buf`, -1 to pass, -2 if memory ran out."""
    cdef int k, n
    buf.len = 0
    if gdy_legal(d, 1, buf) != 0:
        return -2
    n = <int>buf.len
    if n == 0:
        return -1
    if policy == GDY_POLICY_GREEDY:
        return choose_greedy(d, buf)
    # uniform over the suit-collapsed plays, and passing when following
    k = rng_below(rng, n + (1 if d.last_player >= 0 else 0))
    return -1 if k == n else k


cdef int gdy_playout(gdy_deal_t *d, rng_t *rng, int policy, playbuf_t *buf) noexcept nogil:
    """Play to the end of the deal; 0, or -1 if memory ran out."""
    cdef int k
    while d.current >= 0:
        k = choose(d, rng, policy, buf)
        if k == -2:
            return -1
        if k < 0:
            gdy_pass(d)
        else:
            gdy_play(d, &buf.data[k])
    return 0


cdef int evaluate(const gdy_deal_t *d, const playbuf_t *cands, int include_pass, int n,
                  rng_t *rng, int policy, double *sums, playbuf_t *buf) noexcept nogil:
    """For each candidate (and passing), add up the current player's score over `n`
    playouts after it."""
    cdef gdy_deal_t x
    cdef double ret[GDY_MAX_PLAYERS]
    cdef int c, k, me = d.current
    cdef Py_ssize_t ncand = cands.len
    for c in range(ncand + include_pass):
        for k in range(n):
            x = d[0]
            if c < ncand:
                gdy_play(&x, &cands.data[c])
            else:
                gdy_pass(&x)
            if gdy_playout(&x, rng, policy, buf) < 0:
                return -1
            gdy_returns(&x, ret)
            sums[c] += ret[me]
    return 0


# --- Python surface ---------------------------------------------------------------------
cdef int _opts_of(object rules, gdy_opts_t *o) except -1:
    rules = checked_rules(rules, Rules, PAGAT, "gandengyan.Rules")
    o.flags = rules._flags
    o.max_ranks = rules._max_ranks
    o.decks = rules.decks
    o.min_talon = GDY_NO_LIMIT if rules.min_talon_to_win is None else rules.min_talon_to_win
    o.multipliers = rules.multipliers
    o.soft_bombs = rules.soft_bombs
    o.ace_multiplier = 0 if rules.ace_multiplier is None else rules.ace_multiplier
    o.positive_only = rules.positive_only
    o.joker_bombs_held = rules.joker_bombs_in_hand
    o.max_payment = 0.0 if rules.max_payment is None else rules.max_payment
    return 0


cdef int _players_of(object players) except -1:
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or not (
        GDY_MIN_PLAYERS <= players <= GDY_MAX_PLAYERS
    ):
        raise ValueError(f"players must be an int {GDY_MIN_PLAYERS}..{GDY_MAX_PLAYERS}, not {players!r}")
    return players


cdef class DealCore:
    """One deal's card play: hands, talon, trick, bombs played, winner.

    The building block of ``chupai.gandengyan.Deal``; also usable alone for analysis.
    Seats ``0 .. players - 1``, turn order ``s -> (s + 1) % players``.
    """
    cdef gdy_deal_t d

    @staticmethod
    def from_hands(hands, talon=(), int dealer=0, rules=None):
        """A deal from explicit hands (``Cards`` or strings; 2-6 of them, any sizes) and a
        talon (card tokens in drawing order, or a string), ``dealer`` on lead."""
        cdef DealCore self = DealCore.__new__(DealCore)
        cdef int s, n
        _opts_of(rules, &self.d.o)
        if isinstance(hands, (str, Cards)):
            raise ValueError(f"hands must be a sequence of hands, not {hands!r}")
        n = _players_of(len(hands))
        if not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat 0..{n - 1}, not {dealer}")
        faces = [parse_face(t) for t in (talon.split() if isinstance(talon, str) else talon)]
        total = [0] * GDY_DECK
        for f in faces:
            total[f] += 1
        parsed = []
        for s in range(n):
            hand = hands[s] if isinstance(hands[s], Cards) else Cards(hands[s], decks=self.d.o.decks)
            for f, c in enumerate(hand.counts()):
                total[f] += c
            parsed.append(hand)
        for f, c in enumerate(total):
            if c > self.d.o.decks:
                raise ValueError(f"card {face_name(f)} is dealt {c} times; {self.d.o.decks} deck(s) hold it "
                                 f"{self.d.o.decks} time(s)")
        for s in range(n):
            if not parsed[s]:
                raise ValueError(f"hand {s} is empty; every seat needs cards")
        self.d.n = n
        for s in range(n):
            self.d.lo[s] = parsed[s].lo
            self.d.hi[s] = parsed[s].hi
        self.d.top = 0
        self.d.end = len(faces)
        for s in range(len(faces)):
            self.d.talon[s] = faces[s]
        gdy_start(&self.d, dealer)
        return self

    @staticmethod
    def random(seed, players=4, rules=None, dealer=None):
        """A fresh deal from a seed (the same seed gives the same deal as ``playouts``'
        first); ``dealer`` ``None`` draws the dealer at random."""
        cdef DealCore self = DealCore.__new__(DealCore)
        cdef rng_t rng
        cdef int dl = -1
        self.d.n = _players_of(players)
        _opts_of(rules, &self.d.o)
        if dealer is not None:
            if isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)) or not 0 <= dealer < self.d.n:
                raise ValueError(f"dealer must be a seat 0..{self.d.n - 1} or None, not {dealer!r}")
            dl = dealer
        rng_seed(&rng, seed64(seed), 0)
        gdy_deal_random(&self.d, &rng, dl)
        return self

    def clone(self):
        """An independent copy."""
        cdef DealCore other = DealCore.__new__(DealCore)
        other.d = self.d
        return other

    def with_cards(self, hands, talon):
        """A copy holding other cards: ``hands`` (one ``Cards`` per seat, each of the
        size held now) and ``talon`` (face numbers in drawing order, as many as now);
        the trick, turn and bombs are kept.  The cards must be those of this deal
        (the same multiset, hands and talon together)."""
        cdef DealCore other = self.clone()
        cdef int s, i
        if len(hands) != self.d.n or len(talon) != self.d.end - self.d.top:
            raise ValueError(f"expected {self.d.n} hands and {self.d.end - self.d.top} talon cards")
        before = [0] * GDY_DECK
        after = [0] * GDY_DECK
        for s in range(self.d.n):
            if not isinstance(hands[s], Cards) or len(hands[s]) != hand_size(&self.d, s):
                raise ValueError(f"hand {s} must be Cards of {hand_size(&self.d, s)} cards")
            for f, c in enumerate(self.hand(s).counts()):
                before[f] += c
            for f, c in enumerate(hands[s].counts()):
                after[f] += c
        for i in range(self.d.top, self.d.end):
            before[self.d.talon[i]] += 1
        for f in talon:
            if not 0 <= f < GDY_DECK:
                raise ValueError(f"talon face {f!r} out of range")
            after[f] += 1
        if before != after:
            raise ValueError("the new hands and talon are not the cards of this deal")
        for s in range(self.d.n):
            other.d.lo[s] = hands[s].lo
            other.d.hi[s] = hands[s].hi
        for i, f in enumerate(talon):
            other.d.talon[self.d.top + i] = f
        return other

    # -- state ----------------------------------------------------------------------
    @property
    def players(self):
        return self.d.n

    @property
    def dealer(self):
        return self.d.dealer

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
        """The play to follow, or None when leading."""
        if self.d.last_player < 0:
            return None
        return play_object(_make_play, &self.d.last, None)

    @property
    def passes(self):
        """Passes since the last play."""
        return self.d.npass

    @property
    def lead_passes(self):
        """Leaders in a row who could not lead (``joker_lead_out=False``)."""
        return self.d.lead_passes

    @property
    def talon_size(self):
        return self.d.end - self.d.top

    @property
    def talon(self):
        """The talon's cards in drawing order (full information)."""
        return [face_name(self.d.talon[i]) for i in range(self.d.top, self.d.end)]

    @property
    def winner(self):
        """The seat that went out, or -1 (deal on, or ended without a winner)."""
        return self.d.winner

    @property
    def over(self):
        return self.d.current < 0

    @property
    def tricks(self):
        """Tricks completed."""
        return self.d.tricks

    @property
    def bombs(self):
        """Bombs played so far by kind (see ``BOMB_KINDS``)."""
        return tuple(self.d.bombs[k] for k in range(GDY_BOMB_KINDS))

    def hand(self, int seat):
        """The cards seat ``seat`` holds."""
        if not 0 <= seat < self.d.n:
            raise ValueError(f"seat must be 0..{self.d.n - 1}, not {seat}")
        return Cards.from_masks(self.d.lo[seat], self.d.hi[seat])

    def hand_sizes(self):
        return tuple(hand_size(&self.d, s) for s in range(self.d.n))

    def returns(self):
        """Each seat's score (``chupai.gandengyan.scoring``, as floats); zeros until a win."""
        cdef double out[GDY_MAX_PLAYERS]
        gdy_returns(&self.d, out)
        return tuple(out[s] for s in range(self.d.n))

    # -- actions --------------------------------------------------------------------
    def legal_plays(self, *, collapse_suits=False):
        """The current player's legal plays (a ``PlayList``; see ``can_pass``)."""
        cdef PlayList out = new_playlist(_make_play, None, 64)
        if self.d.current >= 0:
            check_grown(gdy_legal(&self.d, 1 if collapse_suits else 0, &out.buf))
        return out

    def can_pass(self):
        """True when the current player follows, or leads without a legal play."""
        if self.d.current < 0:
            return False
        return self.d.last_player >= 0 or len(self.legal_plays(collapse_suits=True)) == 0

    def play(self, play):
        """The current player makes ``play``; ``IllegalActionError`` (state unchanged) if illegal."""
        cdef play_t p
        cdef PlayList legal
        cdef Py_ssize_t i
        cdef int s = self.d.current
        if s < 0:
            raise IllegalActionError("the deal is over")
        if not isinstance(play, Play):
            raise IllegalActionError(f"{play!r} is not a Play")
        if (play._lo & ~self.d.lo[s]) or (play._hi & ~self.d.hi[s]):
            raise IllegalActionError(f"seat {s} does not hold the cards of {play}")
        legal = self.legal_plays()
        for i in range(legal.buf.len):
            p = legal.buf.data[i]
            if p.lo == play._lo and p.hi == play._hi and p.type == play._type and p.key == play._key:
                gdy_play(&self.d, &p)
                return
        if self.d.last_player >= 0:
            raise IllegalActionError(f"{play} may not follow {self.last_play}")
        raise IllegalActionError(f"{play} may not be led from this hand under these rules")

    def pass_turn(self):
        """The current player passes; ``IllegalActionError`` on lead with a legal play."""
        if self.d.current < 0:
            raise IllegalActionError("the deal is over")
        if not self.can_pass():
            raise IllegalActionError(f"seat {self.d.current} is on lead and may not pass")
        gdy_pass(&self.d)

    def playout(self, seed, policy="random"):
        """Play a copy of this deal to the end (``self`` is unchanged): (winner, returns, hand sizes)."""
        cdef DealCore c = self.clone()
        cdef rng_t rng
        cdef playbuf_t buf
        cdef int pol = policy_code(POLICIES, policy), rc
        rng_seed(&rng, seed64(seed), 0)
        playbuf_open(&buf, 64)
        with nogil:
            rc = gdy_playout(&c.d, &rng, pol, &buf)
        playbuf_close(&buf, rc < 0)
        return c.d.winner, c.returns(), c.hand_sizes()

    def policy_choice(self, policy="random", seed=0):
        """The play the C policy would make now, or None to pass (see ``playouts``)."""
        cdef rng_t rng
        cdef playbuf_t buf
        cdef int k
        if self.d.current < 0:
            raise IllegalActionError("the deal is over")
        rng_seed(&rng, seed64(seed), 0)
        playbuf_open(&buf, 64)
        k = choose(&self.d, &rng, policy_code(POLICIES, policy), &buf)
        play = play_object(_make_play, &buf.data[k], None) if k >= 0 else None
        playbuf_close(&buf, k == -2)
        return play

    def evaluate(self, PlayList candidates, bint include_pass, int n, seed, policy="random"):
        """The current player's total score over ``n`` playouts after each candidate.

        ``candidates`` must be plays the current player may make (e.g. from
        ``legal_plays``); with ``include_pass`` the last entry is for passing.  Returns a
        float64 array of sums (divide by ``n`` for means).
        """
        cdef rng_t rng
        cdef playbuf_t buf
        cdef int rc, pol = policy_code(POLICIES, policy)
        cdef Py_ssize_t i
        cdef play_t c
        cdef PlayList legal
        if self.d.current < 0:
            raise IllegalActionError("the deal is over")
        if include_pass and not self.can_pass():
            raise IllegalActionError("the current player leads and may not pass")
        if n < 1:
            raise ValueError(f"n must be positive, not {n}")
        legal = self.legal_plays()
        allowed = {(legal.buf.data[i].lo, legal.buf.data[i].hi, legal.buf.data[i].type, legal.buf.data[i].key)
                   for i in range(legal.buf.len)}
        for i in range(candidates.buf.len):
            c = candidates.buf.data[i]
            if (c.lo, c.hi, c.type, c.key) not in allowed:
                raise IllegalActionError(f"candidate {i} is not a legal play of the current player")
        sums = np.zeros(candidates.buf.len + (1 if include_pass else 0), dtype=np.float64)
        cdef double[::1] view = sums
        rng_seed(&rng, seed64(seed), 0)
        playbuf_open(&buf, 64)
        with nogil:
            rc = evaluate(&self.d, &candidates.buf, include_pass, n, &rng, pol,
                          &view[0] if view.shape[0] else NULL, &buf)
        playbuf_close(&buf, rc)
        return sums

    def __repr__(self):
        return (f"<gandengyan.DealCore {self.d.n} players current {self.d.current} "
                f"sizes {self.hand_sizes()} talon {self.d.end - self.d.top} winner {self.d.winner}>")


# --- batch playouts ---------------------------------------------------------------------
cdef int _run(uint64_t seed, Py_ssize_t start, Py_ssize_t stop, int players, const gdy_opts_t *o,
              int policy, int8_t[::1] winner, double[:, ::1] returns, int16_t[:, ::1] cards,
              int[::1] tricks) noexcept nogil:
    cdef gdy_deal_t d
    cdef rng_t rng
    cdef playbuf_t buf
    cdef double ret[GDY_MAX_PLAYERS]
    cdef Py_ssize_t i
    cdef int s
    if playbuf_init(&buf, 64) != 0:
        return -1
    d.n = players
    d.o = o[0]
    for i in range(start, stop):
        rng_seed(&rng, seed, <uint64_t>i)
        gdy_deal_random(&d, &rng, -1)
        if gdy_playout(&d, &rng, policy, &buf) < 0:
            playbuf_free(&buf)
            return -1
        gdy_returns(&d, ret)
        winner[i] = d.winner
        tricks[i] = d.tricks
        for s in range(players):
            returns[i, s] = ret[s]
            cards[i, s] = hand_size(&d, s)
    playbuf_free(&buf)
    return 0


def _run_chunk(uint64_t seed, Py_ssize_t start, Py_ssize_t stop, int players, rules, int policy,
               int8_t[::1] winner, double[:, ::1] returns, int16_t[:, ::1] cards, int[::1] tricks):
    """Deals ``start .. stop - 1`` of a batch into the output arrays (GIL released)."""
    cdef gdy_opts_t o
    cdef int rc
    _opts_of(rules, &o)
    _players_of(players)
    if not (0 <= start <= stop <= winner.shape[0] and returns.shape[0] == cards.shape[0] == tricks.shape[0]
            == winner.shape[0] and returns.shape[1] == cards.shape[1] == players):
        raise ValueError("output arrays do not match the batch")
    with nogil:
        rc = _run(seed, start, stop, players, &o, policy, winner, returns, cards, tricks)
    check_grown(rc)
