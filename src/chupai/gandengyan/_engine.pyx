"""The Gan Deng Yan deal engine and the playouts (``docs/rules/gandengyan.md``, "Table and
deal", "Play, drawing, end and scoring").

A deal's card play is the C struct ``gdy_deal_t``: hands, the talon in drawing order,
the trick (last play, who made it, passes since), the bombs played and the winner.
``DealEngine`` wraps it for Python (``chupai.gandengyan.game`` builds the state machine
on it); the playouts run it to the end inside C with the GIL released.

How the engine reads the rules where they are silent:

* Players without cards (possible only with ``min_talon_to_win``, between going out
  and the end of the trick) are skipped in turn; they cannot follow.
* A leader with no legal play (a lone joker with ``joker_lead_out=False``) passes the
  lead to the next player holding cards; if every player holding cards passes the
  lead in a row, the deal ends with no winner and nobody pays.
* With ``min_talon_to_win``, a player who has no cards after the draw at the end of a
  trick (the talon ran out before their turn to draw) wins at once; the first such
  player in drawing order if there are several.
"""
cimport cython

import numpy as np

from libc.stdint cimport uint8_t

from chupai.core.records cimport (
    target_set,
    BJ_BIT,
    JOKER_MASK,
    N_FACES,
    N_RANKS,
    RANK_A,
    RJ_BIT,
    GameClasses,
    mask_t,
    multiset_add,
    multiset_remove,
    multiset_valid,
    play_t,
    playbuf_t,
    rank_count,
    rng_below,
    rng_seed,
    rng_shuffle,
    rng_t,
    seed64,
)
from chupai.engine.base cimport PASS_IF_STUCK, Engine, GameSpec, seat_after, trick_start, trick_target, checked_hands, check_players, check_seat, trick_played
from chupai.gandengyan._movegen cimport (
    GDY_FLAG_FOLLOW_SAME_RANK,
    GDY_FLAG_JOKER_AS_TWO,
    GDY_FLAG_JOKER_LEAD_OUT,
    GDY_FLAG_TRIPLE_SEQUENCES,
    GDY_FLAG_TRIPLES_ARE_BOMBS,
    GDY_FOUR_BOMB,
    GDY_THREE_BOMB,
    gdy_generate,
    gdy_target,
)

from chupai.gandengyan cimport _movegen as mg
from chupai.gandengyan._deal cimport hand_size
from chupai.gandengyan._policies cimport choose_greedy, choose_heuristic
from chupai.engine.base import POLICIES, RowField
from chupai.core.cardset import Cards, face_name, parse_face
from chupai.gandengyan._movegen import GAME_CLASSES as _BOUND
#: the kinds of bombs counted in ``DealEngine.bombs`` (indexes), for the general multiplier
BOMB_KINDS = ("three", "three_soft", "four", "four_soft", "jokers")
MIN_PLAYERS = GDY_MIN_PLAYERS
MAX_PLAYERS = GDY_MAX_PLAYERS

#: the fields of the batch row ``h_row`` writes, in order (chupai.engine.batch.split_rows)
ROW = (RowField("winner", "int8"), RowField("tricks", "int32"), RowField("returns", "float64", per_seat=True),
       RowField("cards", "int16", per_seat=True))

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

cdef mask_t JOKERS = JOKER_MASK


# --- the rules of play ------------------------------------------------------------------
cdef inline void give(gdy_deal_t *d, int s, int face) noexcept nogil:
    multiset_add(&d.lo[s], &d.hi[s], face)


cdef void gdy_start(gdy_deal_t *d, int dealer) noexcept nogil:
    """Start the card play: the hands and talon are set, the dealer leads."""
    cdef int k
    d.dealer = dealer
    trick_start(&d.t, d.t.seats, PASS_IF_STUCK, dealer)
    d.lead_passes = 0
    d.winner = -1
    d.tricks = 0
    for k in range(GDY_BOMB_KINDS):
        d.bombs[k] = 0


cdef void gdy_deal_random(gdy_deal_t *d, rng_t *rng, int dealer) noexcept nogil:
    """Shuffle the deck(s) and deal: starting with the dealer and going round, each player
    takes a card until the dealer has six and the others five; the rest is the talon.
    `d.t.seats` and `d.o` are set; a negative `dealer` is drawn at random."""
    cdef uint8_t deck[GDY_MAX_CARDS]
    cdef int i, j, k, s, ncards = GDY_DECK * d.o.decks
    for i in range(ncards):
        deck[i] = i % GDY_DECK
    rng_shuffle(deck, ncards, rng)
    if dealer < 0:
        dealer = rng_below(rng, d.t.seats)
    for s in range(d.t.seats):
        d.lo[s] = 0
        d.hi[s] = 0
    k = 0
    for i in range(GDY_HAND_CARDS):
        for j in range(d.t.seats):
            give(d, (dealer + j) % d.t.seats, deck[k])
            k += 1
    give(d, dealer, deck[k])
    k += 1
    d.top = 0
    d.end = ncards - k
    for i in range(d.end):
        d.talon[i] = deck[k + i]
    gdy_start(d, dealer)


cdef int deal_legal(const gdy_deal_t *d, int collapse, playbuf_t *out) noexcept nogil:
    """Append the current player's legal plays (passing, when allowed, is not listed)."""
    cdef gdy_target tg
    cdef int s = d.t.current
    if s < 0:
        return 0
    trick_target(&d.t, &tg)
    return gdy_generate(d.lo[s], d.hi[s], d.o.flags, d.o.max_ranks, collapse, &tg, out)


cdef void end_trick(gdy_deal_t *d) noexcept nogil:
    """Everyone else passed: from the last player round, each draws a card while the
    talon lasts; the last player leads (or a player left without cards wins)."""
    cdef int k = d.t.last_player, i, t
    d.tricks += 1
    t = k
    for i in range(d.t.seats):
        if d.top >= d.end:
            break
        give(d, t, d.talon[d.top])
        d.top += 1
        t = seat_after(t, d.t.seats)
    t = k
    for i in range(d.t.seats):
        if not d.lo[t]:
            d.winner = t
            d.t.current = -1
            return
        t = seat_after(t, d.t.seats)
    d.t.current = k
    d.t.last_player = -1
    d.t.npass = 0


cdef void advance(gdy_deal_t *d, int s) noexcept nogil:
    """The turn passes from s to the next player holding cards; back at the last player
    the trick ends."""
    cdef int k, t = s
    for k in range(d.t.seats):
        t = seat_after(t, d.t.seats)
        if t == d.t.last_player:
            end_trick(d)
            return
        if d.lo[t]:
            d.t.current = t
            return


cdef inline int bomb_kind(const play_t *p) noexcept nogil:
    cdef bint soft = (p.lo & JOKERS) != 0
    if p.type == GDY_THREE_BOMB:
        return GDY_BOMB_THREE_SOFT if soft else GDY_BOMB_THREE
    if p.type == GDY_FOUR_BOMB:
        return GDY_BOMB_FOUR_SOFT if soft else GDY_BOMB_FOUR
    return GDY_BOMB_JOKERS


cdef void deal_play(gdy_deal_t *d, const play_t *p) noexcept nogil:
    """The current player plays `p` (which the caller has checked is legal)."""
    cdef int s = d.t.current
    # remove the play: a face held twice and played once stays held once
    multiset_remove(&d.lo[s], &d.hi[s], p.lo, p.hi)
    if p.cls:
        d.bombs[bomb_kind(p)] += 1
    trick_played(&d.t, p)
    d.lead_passes = 0
    if not d.lo[s] and (d.o.min_talon == GDY_NO_LIMIT or d.end - d.top <= d.o.min_talon):
        d.winner = s
        d.t.current = -1
        return
    advance(d, s)


cdef void deal_pass(gdy_deal_t *d) noexcept nogil:
    """The current player passes: following, or on lead without a legal play."""
    cdef int s = d.t.current, k, t, holders = 0
    if d.t.last_player >= 0:
        d.t.npass += 1
        advance(d, s)
        return
    # the lead passes to the next player holding cards
    for t in range(d.t.seats):
        if d.lo[t]:
            holders += 1
    d.lead_passes += 1
    if d.lead_passes >= holders:
        d.t.current = -1  # nobody can lead: the deal ends without a winner
        return
    t = s
    for k in range(d.t.seats):
        t = seat_after(t, d.t.seats)
        if d.lo[t]:
            d.t.current = t
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


cdef double gdy_general_multiplier(const gdy_deal_t *d) noexcept nogil:
    """The product of the factors of the bombs played (chupai.gandengyan.scoring.general_multiplier)."""
    cdef double general = 1.0
    cdef int k
    for k in range(GDY_BOMB_KINDS):
        general *= power(bomb_factor(&d.o, k), d.bombs[k])
    return general


cdef void gdy_returns(const gdy_deal_t *d, double *out) noexcept nogil:
    """Each seat's score for the deal (all 0 while it goes on or without a winner)."""
    cdef double general, pay, total = 0.0
    cdef int s, k
    for s in range(d.t.seats):
        out[s] = 0.0
    if d.winner < 0:
        return
    general = gdy_general_multiplier(d)
    for s in range(d.t.seats):
        if s == d.winner:
            continue
        pay = hand_size(d, s) * general * own_multiplier(&d.o, d.lo[s], d.hi[s])
        if d.o.max_payment > 0 and pay > d.o.max_payment:
            pay = d.o.max_payment
        total += pay
        out[s] = 0.0 if d.o.positive_only else -pay
    out[d.winner] = total


cdef int GDY_FLAGS = (GDY_FLAG_TRIPLES_ARE_BOMBS | GDY_FLAG_TRIPLE_SEQUENCES | GDY_FLAG_JOKER_AS_TWO
                      | GDY_FLAG_JOKER_LEAD_OUT | GDY_FLAG_FOLLOW_SAME_RANK)


cdef int valid(const gdy_deal_t *d) noexcept nogil:
    """0 if the fields are in range and no card is dealt more often than the decks hold it."""
    cdef int s, f, k, held
    if d.t.pass_rule != PASS_IF_STUCK:
        return 9
    if not (GDY_MIN_PLAYERS <= d.t.seats <= GDY_MAX_PLAYERS and 1 <= d.o.decks <= 2
            and not d.o.flags & ~GDY_FLAGS and 0 <= d.o.joker_bombs_held <= 1 and d.o.max_payment >= 0):
        return 1
    if not (0 <= d.top <= d.end <= GDY_MAX_CARDS and -1 <= d.t.current < d.t.seats and -1 <= d.t.last_player < d.t.seats
            and 0 <= d.dealer < d.t.seats and -1 <= d.winner < d.t.seats and 0 <= d.t.npass <= d.t.seats
            and 0 <= d.lead_passes <= d.t.seats and d.tricks >= 0):
        return 2
    for k in range(GDY_BOMB_KINDS):
        if d.bombs[k] < 0:
            return 3
    for s in range(d.t.seats):
        if not multiset_valid(d.lo[s], d.hi[s]) or (d.hi[s] and d.o.decks < 2):
            return 4
    for f in range(d.top, d.end):
        if d.talon[f] >= GDY_DECK:
            return 5
    for f in range(N_FACES):
        held = 0
        for s in range(d.t.seats):
            held += <int>((d.lo[s] >> f) & 1) + <int>((d.hi[s] >> f) & 1)
        for k in range(d.top, d.end):
            held += d.talon[k] == f
        if held > d.o.decks:
            return 6
    if d.t.current >= 0 and not d.lo[d.t.current]:
        return 7
    return 0

# --- the engine -------------------------------------------------------------------------
cdef GameClasses CLASSES = _BOUND  # the game's Play and Rules (chupai.gandengyan.play binds them)
cdef GameSpec SPEC = GameSpec(CLASSES, sizeof(gdy_deal_t), 64)

#: The C declarations behind the Python constants of chupai.gandengyan.play and .rules,
#: by their Python names (tests/test_engine_base.py checks every pair).
C_CONSTANTS = {
    "play.PlayType.SINGLE": mg.GDY_SINGLE, "play.PlayType.PAIR": mg.GDY_PAIR,
    "play.PlayType.SEQUENCE": mg.GDY_SEQUENCE, "play.PlayType.DOUBLE_SEQUENCE": mg.GDY_DOUBLE_SEQUENCE,
    "play.PlayType.TRIPLE": mg.GDY_TRIPLE, "play.PlayType.TRIPLE_SEQUENCE": mg.GDY_TRIPLE_SEQUENCE,
    "play.PlayType.THREE_BOMB": mg.GDY_THREE_BOMB, "play.PlayType.FOUR_BOMB": mg.GDY_FOUR_BOMB,
    "play.PlayType.JOKER_BOMB": mg.GDY_JOKER_BOMB,
    "play.BOMB_CLASS[THREE_BOMB]": mg.GDY_CLS_THREE, "play.BOMB_CLASS[FOUR_BOMB]": mg.GDY_CLS_FOUR,
    "play.BOMB_CLASS[JOKER_BOMB]": mg.GDY_CLS_JOKER,
    "play.ACE_VALUE": mg.GDY_ACE_VALUE, "play.TWO_VALUE": mg.GDY_TWO_VALUE, "play.JOKER_VALUE": mg.GDY_JOKER_VALUE,
    "rules.FLAG_TRIPLES_ARE_BOMBS": mg.GDY_FLAG_TRIPLES_ARE_BOMBS,
    "rules.FLAG_TRIPLE_SEQUENCES": mg.GDY_FLAG_TRIPLE_SEQUENCES,
    "rules.FLAG_JOKER_AS_TWO": mg.GDY_FLAG_JOKER_AS_TWO, "rules.FLAG_JOKER_LEAD_OUT": mg.GDY_FLAG_JOKER_LEAD_OUT,
    "rules.FLAG_FOLLOW_SAME_RANK": mg.GDY_FLAG_FOLLOW_SAME_RANK,
}


cdef int _opts_of(object rules, gdy_opts_t *o) except -1:
    rules = CLASSES.rules_of(rules)
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


include "chupai/engine/deal_hooks.pxi"


@cython.no_gc  # no reference cycles (see Engine): no GC bookkeeping per clone
cdef class DealEngine(DealHooks):
    """One deal's card play: hands, talon, trick, bombs played, winner.

    The building block of ``chupai.gandengyan.Deal``; also usable alone for analysis.
    Seats ``0 .. players - 1``, turn order ``s -> (s + 1) % players``.  The mechanisms
    are ``chupai.engine.base.Engine``'s; this class holds the Gan Deng Yan rules.
    """

    cdef void *h_state(self) noexcept nogil:
        return &self.d

    cdef GameSpec h_spec(self):
        return SPEC

    @staticmethod
    def from_hands(hands, *, current=0, talon=(), rules=None):
        """A deal from explicit hands (``Cards`` or strings; 2-6 of them, any sizes) and a
        talon (card tokens in drawing order, or a string); ``current`` deals and leads."""
        cdef DealEngine self = DealEngine.__new__(DealEngine)
        cdef int s, n, dealer
        _opts_of(rules, &self.d.o)
        self.set_rules(CLASSES.rules_of(rules))
        faces = [parse_face(t) for t in (talon.split() if isinstance(talon, str) else talon)]
        total = [0] * GDY_DECK
        for f in faces:
            total[f] += 1
        parsed = checked_hands(hands, GDY_MIN_PLAYERS, GDY_MAX_PLAYERS, self.d.o.decks, total)
        n = len(parsed)
        dealer = check_seat(current, n, "current")
        for s in range(n):
            if not parsed[s]:
                raise ValueError(f"hand {s} is empty; every seat needs cards")
        self.d.t.seats = n
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
    def random(seed, *, players=4, dealer=None, rules=None):
        """A fresh deal from a seed (the same seed gives the same deal as ``playouts``'
        first); ``dealer`` ``None`` draws the dealer at random."""
        cdef DealEngine self = DealEngine.__new__(DealEngine)
        cdef rng_t rng
        cdef int dl = -1
        self.d.t.seats = check_players(players, GDY_MIN_PLAYERS, GDY_MAX_PLAYERS)
        _opts_of(rules, &self.d.o)
        self.set_rules(CLASSES.rules_of(rules))
        if dealer is not None:
            dl = check_seat(dealer, self.d.t.seats, "dealer")
        rng_seed(&rng, seed64(seed), 0)
        gdy_deal_random(&self.d, &rng, dl)
        return self

    def with_cards(self, hands, talon):
        """A copy holding other cards: ``hands`` (one ``Cards`` per seat, each of the
        size held now) and ``talon`` (face numbers in drawing order, as many as now);
        the trick, turn and bombs are kept.  The cards must be those of this deal
        (the same multiset, hands and talon together)."""
        cdef DealEngine other = self.clone()
        cdef int s, i
        if len(hands) != self.d.t.seats or len(talon) != self.d.end - self.d.top:
            raise ValueError(f"expected {self.d.t.seats} hands and {self.d.end - self.d.top} talon cards")
        before = [0] * GDY_DECK
        after = [0] * GDY_DECK
        for s in range(self.d.t.seats):
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
        for s in range(self.d.t.seats):
            other.d.lo[s] = hands[s].lo
            other.d.hi[s] = hands[s].hi
        for i, f in enumerate(talon):
            other.d.talon[self.d.top + i] = f
        return other

    # -- hooks ------------------------------------------------------------------------
    cdef void h_hand(self, const void *st, int seat, mask_t *lo, mask_t *hi) noexcept nogil:
        lo[0] = (<const gdy_deal_t *>st).lo[seat]
        hi[0] = (<const gdy_deal_t *>st).hi[seat]

    cdef int h_plays_of(self, const void *st, const play_t *p, int lead, playbuf_t *out) noexcept nogil:
        cdef const gdy_deal_t *d = <const gdy_deal_t *>st
        cdef gdy_target tg
        cdef int s = d.t.current, flags = d.o.flags
        target_set(&tg, NULL)
        if not multiset_valid(p.lo, p.hi):
            return 0
        if not lead:
            if s < 0 or (p.lo & ~d.lo[s]) or (p.hi & ~d.hi[s]):
                return 0
            # jokers alone lead out as a special single only as the hand's last cards
            if not (p.lo & ~JOKERS) and d.lo[s] & ~JOKERS:
                flags &= ~GDY_FLAG_JOKER_LEAD_OUT
            trick_target(&d.t, &tg)
        return gdy_generate(p.lo, p.hi, flags, d.o.max_ranks, 0, &tg, out)

    cdef int h_heuristic(self, const void *st, const playbuf_t *buf) noexcept nogil:
        return choose_heuristic(<const gdy_deal_t *>st, buf)  # the heuristic block

    cdef void h_returns(self, const void *st, const double *weights, double *out) noexcept nogil:
        gdy_returns(<const gdy_deal_t *>st, out)

    cdef int h_deal(self, void *st, rng_t *rng, int policy) noexcept nogil:
        gdy_deal_random(<gdy_deal_t *>st, rng, -1)
        return 0

    cdef int h_row_width(self, const void *st) noexcept nogil:
        return 2 + 2 * (<const gdy_deal_t *>st).t.seats

    cdef void h_row(self, const void *st, int dealt, double *row) noexcept nogil:
        """The winner, the tricks, each seat's returns, then each seat's cards left."""
        cdef const gdy_deal_t *d = <const gdy_deal_t *>st
        cdef int s
        row[0] = d.winner
        row[1] = d.tricks
        gdy_returns(d, &row[2])
        for s in range(d.t.seats):
            row[2 + d.t.seats + s] = hand_size(d, s)

    cdef int h_valid(self, const void *st) noexcept nogil:
        return valid(<const gdy_deal_t *>st)

    cdef object h_outcome(self):
        return self.d.winner, tuple(self.returns()), self.hand_sizes()

    # -- Gan Deng Yan state -----------------------------------------------------------
    @property
    def dealer(self):
        return self.d.dealer

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
    def tricks(self):
        """Tricks completed."""
        return self.d.tricks

    @property
    def bombs(self):
        """Bombs played so far by kind (see ``BOMB_KINDS``)."""
        return tuple(self.d.bombs[k] for k in range(GDY_BOMB_KINDS))

