"""The Chinese Ten deal engine and the playouts (``docs/rules/chinese_ten.md``).

A deal is the C struct ``ct_deal_t``: hands, layout, stock, each player's captured
pile, whose turn it is and which step (playing a card from the hand, or choosing the
capture of the turned stock card when it has a choice).  Turning the stock card is
part of the play step: when the turned card has a single possible outcome (no target,
or one target under forced capture, or a triple) it is resolved at once; otherwise the
same player decides.  ``DealEngine`` wraps the struct for Python
(``chupai.chinese_ten.game`` builds the state machines on it); the playouts run it to
the end inside C with the GIL released.
"""
cimport cython

import numpy as np

from libc.stdint cimport uint8_t
from libc.string cimport memset

from chupai.core.records cimport (
    MAX_WILDS,
    NO_FACE,
    N_RANKS,
    bit,
    GameClasses,
    lowest_bit,
    mask_t,
    play_object,
    play_t,
    playbuf_t,
    popcount,
    rng_seed,
    rng_shuffle,
    rng_t,
    seed64,
)
from chupai.engine.base cimport PASS_NEVER, Engine, GameSpec, seat_after, trick_start, checked_hands, check_seat
from chupai.chinese_ten._movegen cimport (
    CT_CAPTURE,
    CT_DECK,
    CT_DISCARD,
    CT_FLAG_BONUS,
    CT_FLAG_FORCED,
    CT_FLAG_REDEAL,
    CT_FLAG_REDEAL_CROWDED,
    CT_RANK_SIZE,
    CT_TRIPLE,
    CT_TRIPLE_SIZE,
    ct_generate,
    ct_partner,
    ct_rank_mask,
    ct_red_fives,
    ct_takes_triple,
    ct_targets,
)

from chupai.chinese_ten cimport _movegen as mg
from chupai.chinese_ten._policies cimport choose_greedy, choose_heuristic
from chupai.engine.base import POLICIES, RowField
from chupai.core.cardset import Cards, face_name
from chupai.chinese_ten._movegen import GAME_CLASSES as _BOUND, parse_card, parse_cards

#: the fields of the batch row ``h_row`` writes, in order (chupai.engine.batch.split_rows)
ROW = (RowField("scores", "int16", per_seat=True), RowField("bonus", "int8"), RowField("redeals", "int16"))

cdef enum:
    CT_REDEAL_GROUP = 5          # main_merah: this many cards of one capture group
    MARK_PHASES = 4              # h_mark: nstock * MARK_PHASES + phase (CT_PHASE_* < 4)

#: the red five bonus each other player pays (``chupai.chinese_ten.rules.RED_FIVE_BONUS``)
RED_FIVE_BONUS = CT_BONUS_POINTS
#: the phase names by the engine's phase index (CT_PHASE_*)
PHASES = ("play", "turn", "over")


# --- the rules of play ------------------------------------------------------------------------
cdef bint layout_redealt(mask_t layout, bint crowded) noexcept nogil:
    """main_merah: three or four of a rank that captures itself, or (with `crowded`)
    five or more cards of one capture group (A/9, 2/8, 3/7, 4/6)."""
    cdef int r, p, n
    for r in range(N_RANKS):
        p = ct_partner(r)
        n = popcount(layout & ct_rank_mask(r))
        if p == r:
            if n >= CT_TRIPLE_SIZE:
                return True
        elif crowded and n + popcount(layout & ct_rank_mask(p)) >= CT_REDEAL_GROUP:
            return True
    return False


cdef void open_layout(ct_deal_t *d) noexcept nogil:
    """Four of a kind of a rank that captures itself: the dealer takes all four."""
    cdef int r
    cdef mask_t m
    for r in range(N_RANKS):
        if ct_partner(r) == r:
            m = d.layout & ct_rank_mask(r)
            if popcount(m) == CT_RANK_SIZE:
                d.pile[d.dealer] |= m
                d.layout &= ~m


cdef void start(ct_deal_t *d, int first) noexcept nogil:
    trick_start(&d.t, d.t.seats, PASS_NEVER, first)
    d.phase = CT_PHASE_PLAY
    d.turned = CT_NO_CARD
    d.last_turned = CT_NO_CARD
    d.last_captured = 0
    d.bonus = CT_NOBODY


cdef int ct_deal_random(ct_deal_t *d, rng_t *rng, int hand_size, int layout_size,
                        int first) noexcept nogil:
    """Shuffle and deal (players, flags, dealer and points already set); the dealer's
    opening capture; the number of redeals (main_merah)."""
    cdef uint8_t deck[CT_DECK]
    cdef int i, s, at, redeals = -1
    for i in range(CT_DECK):
        deck[i] = i
    while True:
        redeals += 1
        rng_shuffle(deck, CT_DECK, rng)
        at = 0
        for s in range(CT_MAX_PLAYERS):
            d.hand[s] = 0
            d.pile[s] = 0
        for s in range(d.t.seats):
            for i in range(hand_size):
                d.hand[s] |= bit(deck[at])
                at += 1
        d.layout = 0
        for i in range(layout_size):
            d.layout |= bit(deck[at])
            at += 1
        d.nstock = CT_DECK - at
        for i in range(d.nstock):
            d.stock[i] = deck[at + i]
        if not (d.flags & CT_FLAG_REDEAL) or not layout_redealt(d.layout, d.flags & CT_FLAG_REDEAL_CROWDED):
            break
    open_layout(d)
    start(d, first)
    return redeals


cdef int ct_legal(const ct_deal_t *d, int collapse, playbuf_t *out) noexcept nogil:
    """Append the current player's choices in the current step."""
    if d.phase == CT_PHASE_PLAY:
        return ct_generate(d.hand[d.t.current], d.layout, d.flags, collapse, out)
    if d.phase == CT_PHASE_TURN:
        return ct_generate(bit(d.turned), d.layout, d.flags, collapse, out)
    return 0


cdef inline void take(ct_deal_t *d, int s, int card, mask_t captured) noexcept nogil:
    """`card` captures `captured` for player s, or joins the layout."""
    cdef mask_t c = bit(card), fives = ct_red_fives()
    if not captured:
        d.layout |= c
        return
    d.layout &= ~captured
    d.pile[s] |= c | captured
    if (c & fives) and ((c | captured) & fives) == fives:
        d.bonus = s


cdef inline void end_turn(ct_deal_t *d) noexcept nogil:
    cdef int nxt = seat_after(d.t.current, d.t.seats)
    d.phase = CT_PHASE_PLAY
    d.turned = CT_NO_CARD
    if d.hand[nxt]:
        d.t.current = nxt
    else:
        d.t.current = CT_NOBODY
        d.phase = CT_PHASE_OVER


cdef inline void resolve_turn(ct_deal_t *d, int card, mask_t captured) noexcept nogil:
    take(d, d.t.current, card, captured)
    d.last_turned = card
    d.last_captured = captured
    end_turn(d)


cdef void turn_stock(ct_deal_t *d) noexcept nogil:
    """Turn the top stock card: resolve it if it has one outcome, else wait for a choice."""
    cdef int c
    cdef mask_t t
    if d.nstock == 0:
        end_turn(d)
        return
    d.nstock -= 1
    c = d.stock[d.nstock]
    t = ct_targets(c, d.layout)
    if t == 0 or ((d.flags & CT_FLAG_FORCED) and (popcount(t) == 1 or ct_takes_triple(c, t))):
        resolve_turn(d, c, t)
    else:
        d.phase = CT_PHASE_TURN
        d.turned = c


cdef void ct_apply(ct_deal_t *d, const play_t *p) noexcept nogil:
    """The current player's choice `p` (which the caller has checked is legal)."""
    if d.phase == CT_PHASE_PLAY:
        d.hand[d.t.current] &= ~p.lo
        take(d, d.t.current, p.key, p.taken)
        turn_stock(d)
    elif d.phase == CT_PHASE_TURN:
        resolve_turn(d, d.turned, p.taken)


cdef int ct_score(const ct_deal_t *d, int seat) noexcept nogil:
    """The points of a player's captured cards."""
    cdef mask_t m = d.pile[seat]
    cdef int total = 0
    while m:
        total += d.points[lowest_bit(m)]
        m &= m - 1
    return total


cdef double ct_return(const ct_deal_t *d, int seat) noexcept nogil:
    """A player's result: score - par (par = all points / players), plus the red five bonus."""
    cdef int f, total = 0
    cdef double r
    for f in range(CT_DECK):
        total += d.points[f]
    r = ct_score(d, seat) - <double>total / d.t.seats
    if (d.flags & CT_FLAG_BONUS) and d.bonus != CT_NOBODY:
        r += CT_BONUS_POINTS * (d.t.seats - 1) if d.bonus == seat else -CT_BONUS_POINTS
    return r


cdef int valid(const ct_deal_t *d) noexcept nogil:
    """0 if the fields are in range and every card is in one place at most."""
    cdef int s, i
    cdef mask_t seen = d.layout, all_cards = (<mask_t>1 << CT_DECK) - 1
    if d.t.pass_rule != PASS_NEVER:
        return 9
    if not (2 <= d.t.seats <= CT_MAX_PLAYERS and 0 <= d.dealer < d.t.seats and d.t.last_player == -1
            and not d.flags & ~(CT_FLAG_FORCED | CT_FLAG_BONUS | CT_FLAG_REDEAL | CT_FLAG_REDEAL_CROWDED)):
        return 1
    if not (CT_NOBODY <= d.t.current < d.t.seats and CT_PHASE_PLAY <= d.phase <= CT_PHASE_OVER
            and (d.phase == CT_PHASE_OVER) == (d.t.current == CT_NOBODY)
            and CT_NOBODY <= d.bonus < d.t.seats and 0 <= d.nstock <= CT_DECK
            and 0 <= d.first < d.t.seats and d.hand_size >= 0 and d.layout_size >= 0
            and d.t.seats * d.hand_size + d.layout_size <= CT_DECK):
        return 2
    if not (CT_NO_CARD <= d.turned < CT_DECK and CT_NO_CARD <= d.last_turned < CT_DECK
            and (d.turned != CT_NO_CARD) == (d.phase == CT_PHASE_TURN)):
        return 3
    if d.layout & ~all_cards or d.last_captured & ~all_cards:
        return 4
    for s in range(CT_MAX_PLAYERS):
        if (d.hand[s] | d.pile[s]) & ~all_cards or (s >= d.t.seats and (d.hand[s] | d.pile[s])):
            return 4
        if (d.hand[s] & seen) or (d.pile[s] & (seen | d.hand[s])):
            return 5
        seen |= d.hand[s] | d.pile[s]
    for i in range(d.nstock):
        if d.stock[i] >= CT_DECK or (seen >> d.stock[i]) & 1:
            return 6
        seen |= bit(d.stock[i])
    if d.turned != CT_NO_CARD and (seen >> d.turned) & 1:
        return 7
    if d.phase == CT_PHASE_PLAY and not d.hand[d.t.current]:
        return 8
    return 0


# --- Python surface ---------------------------------------------------------------------------
cdef object rules_of(object rules):
    return CLASSES.rules_of(rules)


def redeal_needed(layout, crowded_groups=True):
    """main_merah: whether an opening layout is thrown in (three or four of K/Q/J/T/5, or,
    with ``crowded_groups``, five or more cards of one capture group A/9, 2/8, 3/7, 4/6)."""
    if not isinstance(crowded_groups, bool):
        raise TypeError(f"crowded_groups must be True or False, not {crowded_groups!r}")
    return bool(layout_redealt(parse_cards(layout, "layout"), crowded_groups))


def first_player(rules, players, dealer):
    """The player who starts a deal: the dealer or the next seat (``Rules.order``)."""
    rules = rules_of(rules)
    players = rules.check_players(players)
    dealer = check_seat(dealer, players, "dealer")
    return dealer if rules.order == "dealer_first" else (dealer + 1) % players


cdef void setup(ct_deal_t *d, object rules, int players, int dealer) except *:
    memset(d, 0, sizeof(ct_deal_t))
    d.t.seats = players
    d.flags = rules._flags
    d.dealer = dealer
    d.hand_size, d.layout_size, _ = rules.deal_sizes(players)
    d.first = first_player(rules, players, dealer)
    for f, v in enumerate(rules.points(players)):
        d.points[f] = v


cdef mask_t claim(mask_t *seen, object cards, str what) except? 0:
    """The mask of `cards`, which must not be among the cards `seen` so far (added to them)."""
    cdef mask_t m = parse_cards(cards, what)
    cdef mask_t both = m & seen[0]
    if both:
        raise ValueError(f"card {face_name(lowest_bit(both))} is dealt twice ({what})")
    seen[0] |= m
    return m


# --- the engine ---------------------------------------------------------------------------
cdef GameClasses CLASSES = _BOUND  # the game's Play and Rules (chupai.chinese_ten.play binds them)
cdef GameSpec SPEC = GameSpec(CLASSES, sizeof(ct_deal_t), 32)

#: The C declarations behind the Python constants of chupai.chinese_ten.play and .rules,
#: by their Python names (tests/test_engine_base.py checks every pair).
C_CONSTANTS = {
    "play.PlayType.CAPTURE": mg.CT_CAPTURE, "play.PlayType.TRIPLE": mg.CT_TRIPLE,
    "play.PlayType.DISCARD": mg.CT_DISCARD, "rules.FLAG_FORCED_CAPTURE": mg.CT_FLAG_FORCED,
    "rules.FLAG_RED_FIVE_BONUS": mg.CT_FLAG_BONUS, "rules.FLAG_REDEAL": mg.CT_FLAG_REDEAL,
    "rules.RED_FIVE_BONUS": CT_BONUS_POINTS, "rules.DECK_SIZE": mg.CT_DECK,
}


cdef inline void last_turn_record(const ct_deal_t *d, play_t *p) noexcept nogil:
    """The record of the last resolved stock card with what it captured (every byte
    written: the record is kept in the history)."""
    memset(p, 0, sizeof(play_t))
    p.lo = bit(d.last_turned)
    p.hi = 0
    p.taken = d.last_captured
    p.key = d.last_turned
    p.length = popcount(p.taken)
    p.type = CT_DISCARD if not p.taken else (CT_TRIPLE if p.length == CT_TRIPLE_SIZE else CT_CAPTURE)
    p.cls = 0
    p.nwild = 0


@cython.no_gc  # no reference cycles (see Engine): no GC bookkeeping per clone
cdef class DealEngine(Engine):
    """One Chinese Ten deal in C: hands, layout, stock, piles, the turn and its step.

    The building block of ``chupai.chinese_ten.Deal``; also usable alone for analysis.
    Seats ``0 .. players - 1`` play in seat order.  ``current`` acts in the ``phase``
    ``"play"`` (a card from the hand: :meth:`legal_plays`) or ``"turn"`` (the turned
    stock card's capture: :meth:`legal_plays` lists its choices); ``"over"`` at the end.
    Nobody passes.  The mechanisms are ``chupai.engine.base.Engine``'s; this class
    holds the Chinese Ten rules.
    """

    cdef void *h_state(self) noexcept nogil:
        return &self.d

    cdef GameSpec h_spec(self):
        return SPEC

    @staticmethod
    def random(seed, *, players=4, dealer=0, rules=None):
        """A fresh shuffled deal; the same seed gives the same deal as ``playouts``' first
        (dealer 0).  ``redeals`` counts the layouts thrown in (main_merah)."""
        cdef DealEngine self = DealEngine.__new__(DealEngine)
        cdef rng_t rng
        rules = rules_of(rules)
        players = rules.check_players(players)
        setup(&self.d, rules, players, check_seat(dealer, players, "dealer"))
        self.set_rules(rules)
        rng_seed(&rng, seed64(seed), 0)
        self.redeals = ct_deal_random(&self.d, &rng, self.d.hand_size, self.d.layout_size, self.d.first)
        return self

    @staticmethod
    def from_hands(hands, *, current=0, layout, stock, rules=None, dealer=0, piles=None,
                   turned=None, bonus=None, opening=False):
        """A deal from explicit cards (``Cards`` or card strings, no jokers).

        Args:
            hands: one hand per player (2-4 players, as the rules allow).
            layout: the face-up cards.
            stock: the stock, in the order it will be turned (first card on top).
            current: the player to act.
            dealer: the dealer (who takes an opening four of a kind).
            piles: the cards each player has captured so far (default none).
            turned: a turned stock card whose capture ``current`` must choose (phase
                ``"turn"``); it must have a choice.  ``None``: phase ``"play"``.
            bonus: who has captured a red 5 with the other red 5, if anyone.
            opening: apply the opening rule (the dealer takes four of a kind on the
                layout) as at the start of a deal.

        The turn structure must let hands and stock run out together: as many stock
        cards as hand cards, and from the next player to play a card, hand sizes in
        seat order that never grow and differ by at most one.  Cards appear at most once.
        """
        cdef DealEngine self = DealEngine.__new__(DealEngine)
        cdef int players, s, cur, start_seat, t = CT_NO_CARD
        cdef mask_t seen = 0, m
        rules = rules_of(rules)
        # the shared checks (a sequence, one deck); the variant says how many players
        hands = checked_hands(hands, 1, CT_MAX_PLAYERS, 1)
        players = rules.check_players(len(hands))
        dealer = check_seat(dealer, players, "dealer")
        cur = check_seat(current, players, "current")
        setup(&self.d, rules, players, dealer)
        self.set_rules(rules)
        for s in range(players):
            self.d.hand[s] = claim(&seen, hands[s], f"hand {s}")
        self.d.layout = claim(&seen, layout, "layout")
        if piles is not None:
            if isinstance(piles, (str, Cards)) or len(piles) != players:
                raise ValueError(f"piles must give one pile per player, not {piles!r}")
            for s in range(players):
                self.d.pile[s] = claim(&seen, piles[s], f"pile {s}")
        tokens = stock.split() if isinstance(stock, str) else list(stock)
        claim(&seen, tokens, "stock")
        order = [parse_card(c, "stock card") for c in tokens]
        if turned is not None:
            t = parse_card(turned, "turned card")
            claim(&seen, [turned], "turned card")
        sizes = [popcount(self.d.hand[s]) for s in range(players)]
        if len(order) != sum(sizes):
            raise ValueError(f"the stock holds {len(order)} cards but the hands {sum(sizes)}; "
                             "each turn plays one of each")
        start_seat = cur if t == CT_NO_CARD else (cur + 1) % players
        in_turn = [sizes[(start_seat + k) % players] for k in range(players)]
        if any(a < b for a, b in zip(in_turn, in_turn[1:])) or in_turn[0] - in_turn[players - 1] > 1:
            raise ValueError(f"hand sizes {tuple(sizes)} do not fit a turn order starting at seat {start_seat}")
        if t == CT_NO_CARD and not sizes[cur]:
            raise ValueError(f"seat {cur} has no card to play")
        self.d.nstock = len(order)
        for s, f in enumerate(reversed(order)):
            self.d.stock[s] = f
        if opening:
            open_layout(&self.d)
        start(&self.d, cur)
        if bonus is not None:
            self.d.bonus = check_seat(bonus, players, "bonus")
        if t != CT_NO_CARD:
            m = ct_targets(t, self.d.layout)
            if m == 0 or ((self.d.flags & CT_FLAG_FORCED) and (popcount(m) == 1 or ct_takes_triple(t, m))):
                raise ValueError(f"the turned card {face_name(t)} has no choice to make")
            self.d.phase = CT_PHASE_TURN
            self.d.turned = t
        return self

    def determinize(self, player, seed, keep_bottom=False):
        """A copy in which the cards ``player`` cannot see (the other hands and the stock)
        are re-dealt uniformly, each hand keeping its size and the stock its size; with
        ``keep_bottom`` the bottom stock card (the last to be turned) stays in place."""
        cdef DealEngine other = self.clone()
        cdef rng_t rng
        cdef uint8_t pool[CT_DECK]
        cdef int n = 0, i, s, k, p = check_seat(player, self.d.t.seats, "player")
        cdef int kept = 1 if keep_bottom and self.d.nstock > 0 else 0
        cdef mask_t m
        if not isinstance(keep_bottom, bool):
            raise TypeError(f"keep_bottom must be True or False, not {keep_bottom!r}")
        rng_seed(&rng, seed64(seed), 0)
        for s in range(self.d.t.seats):
            if s != p:
                m = self.d.hand[s]
                while m:
                    pool[n] = lowest_bit(m)
                    n += 1
                    m &= m - 1
        for i in range(kept, self.d.nstock):
            pool[n] = self.d.stock[i]
            n += 1
        rng_shuffle(pool, n, &rng)
        n = 0
        for s in range(self.d.t.seats):
            if s != p:
                other.d.hand[s] = 0
                for k in range(popcount(self.d.hand[s])):
                    other.d.hand[s] |= bit(pool[n])
                    n += 1
        for i in range(kept, self.d.nstock):
            other.d.stock[i] = pool[n + i - kept]
        return other

    # -- hooks ------------------------------------------------------------------------------
    cdef void h_hand(self, const void *st, int seat, mask_t *lo, mask_t *hi) noexcept nogil:
        lo[0] = (<const ct_deal_t *>st).hand[seat]
        hi[0] = 0

    cdef int h_legal(self, const void *st, int collapse, playbuf_t *out) noexcept nogil:
        return ct_legal(<const ct_deal_t *>st, collapse, out)

    cdef int h_plays_of(self, const void *st, const play_t *p, int lead, playbuf_t *out) noexcept nogil:
        """The choices of the current step for the card of `p` (no trick to lead)."""
        cdef const ct_deal_t *d = <const ct_deal_t *>st
        if lead or d.t.current == CT_NOBODY or p.hi or popcount(p.lo) != 1:
            return 0
        if d.phase == CT_PHASE_PLAY and p.lo & d.hand[d.t.current]:
            return ct_generate(p.lo, d.layout, d.flags, 0, out)
        if d.phase == CT_PHASE_TURN and p.lo == bit(d.turned):
            return ct_generate(p.lo, d.layout, d.flags, 0, out)
        return 0

    cdef void h_play(self, void *st, const play_t *p) noexcept nogil:
        ct_apply(<ct_deal_t *>st, p)

    cdef int h_greedy(self, const void *st, const playbuf_t *buf) noexcept nogil:
        return choose_greedy(<const ct_deal_t *>st, buf)

    cdef int h_heuristic(self, const void *st, const playbuf_t *buf) noexcept nogil:
        return choose_heuristic(<const ct_deal_t *>st, buf)  # the heuristic block

    cdef void h_returns(self, const void *st, const double *weights, double *out) noexcept nogil:
        cdef int s
        for s in range((<const ct_deal_t *>st).t.seats):
            out[s] = ct_return(<const ct_deal_t *>st, s)

    cdef int h_deal(self, void *st, rng_t *rng, int policy) noexcept nogil:
        cdef ct_deal_t *d = <ct_deal_t *>st
        return ct_deal_random(d, rng, d.hand_size, d.layout_size, d.first)

    cdef int h_row_width(self, const void *st) noexcept nogil:
        return (<const ct_deal_t *>st).t.seats + 2

    cdef void h_row(self, const void *st, int dealt, double *row) noexcept nogil:
        """Each player's score, the red-five capturer (-1: none), the redeals."""
        cdef const ct_deal_t *d = <const ct_deal_t *>st
        cdef int s
        for s in range(d.t.seats):
            row[s] = ct_score(d, s)
        row[d.t.seats] = d.bonus
        row[d.t.seats + 1] = dealt

    cdef int h_valid(self, const void *st) noexcept nogil:
        return valid(<const ct_deal_t *>st)

    cdef object h_outcome(self):
        return self.scores(), self.returns(), self.bonus_player

    cdef int h_record(self, object play, play_t *p) except -1:
        cdef int i
        p.lo = bit(play._card)
        p.hi = 0
        p.taken = play._captured
        p.type = play._type
        p.key = play._card
        p.length = popcount(p.taken)
        p.cls = 0
        p.nwild = 0
        p.flags = 0
        for i in range(MAX_WILDS):
            p.decl[i] = NO_FACE
        return 0

    cdef str h_refusal(self, object play, const play_t *p):
        legal = self.legal_plays()
        if self.d.phase == CT_PHASE_TURN:
            return (f"{play}: seat {self.d.t.current} must choose the capture of the turned "
                    f"{face_name(self.d.turned)}, among {[str(q) for q in legal]}")
        if not self.d.hand[self.d.t.current] & p.lo:
            return f"{play}: seat {self.d.t.current} does not hold {play.card}"
        return f"{play} is not legal on the layout {self.layout}: {[str(q) for q in legal if q.card == play.card]}"

    cdef object h_extra(self):
        return self.redeals

    cdef int h_restore_extra(self, object extra) except -1:
        if isinstance(extra, bool) or not isinstance(extra, int) or extra < 0:
            raise ValueError(f"redeals must be a non-negative int, not {extra!r}")
        self.redeals = extra
        return 0

    cdef int h_phase(self, const void *st) noexcept nogil:
        return (<const ct_deal_t *>st).phase

    cdef long long h_mark(self, const void *st) noexcept nogil:
        cdef const ct_deal_t *d = <const ct_deal_t *>st
        return <long long>d.nstock * MARK_PHASES + d.phase

    cdef int h_auto(self, const void *st, long long mark, play_t *out) noexcept nogil:
        """A card from the hand turned a stock card that resolved at once (one outcome):
        that turn, an automatic step of the TURN phase."""
        cdef const ct_deal_t *d = <const ct_deal_t *>st
        if (mark % MARK_PHASES != CT_PHASE_PLAY or d.phase == CT_PHASE_TURN
                or d.nstock >= mark // MARK_PHASES):
            return -1
        last_turn_record(d, out)
        return CT_PHASE_TURN

    cdef void h_copy_extra(self, Engine other):
        (<DealEngine>other).redeals = self.redeals

    # -- Chinese Ten state ------------------------------------------------------------------
    @property
    def phase(self):
        """``"play"`` (a card from the hand), ``"turn"`` (the turned card's capture) or ``"over"``."""
        return PHASES[self.d.phase]

    @property
    def dealer(self):
        return self.d.dealer

    @property
    def turned(self):
        """The turned stock card awaiting its capture choice, or None."""
        return face_name(self.d.turned) if self.d.turned != CT_NO_CARD else None

    @property
    def last_turn(self):
        """The last resolved stock card with what it captured (a ``Play``), or None before any."""
        cdef play_t p
        if self.d.last_turned == CT_NO_CARD:
            return None
        last_turn_record(&self.d, &p)
        return play_object(CLASSES.factory, &p, None)

    @property
    def layout(self):
        return Cards.from_masks(self.d.layout)

    @property
    def stock_size(self):
        return self.d.nstock

    def stock(self):
        """The stock cards in the order they will be turned (hidden information)."""
        return [face_name(self.d.stock[i]) for i in range(self.d.nstock - 1, -1, -1)]

    @property
    def bonus_player(self):
        """Who captured a red 5 with the other red 5 (whether or not the rule is on), or None."""
        return self.d.bonus if self.d.bonus != CT_NOBODY else None

    def pile(self, seat):
        """The cards ``seat`` has captured."""
        return Cards.from_masks(self.d.pile[check_seat(seat, self.d.t.seats, "seat")])

    def scores(self):
        """The points of each player's captured cards."""
        return tuple(ct_score(&self.d, s) for s in range(self.d.t.seats))

