"""The Chinese Ten deal engine and the playouts (``spec/chinese_ten.md``).

A deal is the C struct ``ct_deal_t``: hands, layout, stock, each player's captured
pile, whose turn it is and which step (playing a card from the hand, or choosing the
capture of the turned stock card when it has a choice).  Turning the stock card is
part of the play step: when the turned card has a single possible outcome (no target,
or one target under forced capture, or a triple) it is resolved at once; otherwise the
same player decides.  ``DealCore`` wraps the struct for Python
(``chupai.chinese_ten.game`` builds the state machines on it); the playouts run it to
the end inside C with the GIL released.
"""
import numpy as np

from libc.stdint cimport int8_t, int16_t, uint8_t, uint64_t
from libc.string cimport memset

from chupai._core cimport (
    N_RANKS,
    PlayList,
    bit,
    check_grown,
    checked_rules,
    lowest_bit,
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

from chupai.cards import Cards, face_name
from chupai.chinese_ten.play import Play, parse_card, parse_cards
from chupai.chinese_ten.rules import PAGAT, Rules
from chupai.errors import IllegalActionError

cdef enum:
    CT_REDEAL_GROUP = 5          # main_merah: this many cards of one capture group
    CT_BONUS_POINTS = 10         # red five bonus, from each other player

POLICIES = {"random": CT_POLICY_RANDOM, "greedy": CT_POLICY_GREEDY}
#: the red five bonus each other player pays (``chupai.chinese_ten.rules.RED_FIVE_BONUS``)
RED_FIVE_BONUS = CT_BONUS_POINTS
_PHASES = ("play", "turn", "over")


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
    d.current = first
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
        for s in range(d.players):
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
        return ct_generate(d.hand[d.current], d.layout, d.flags, collapse, out)
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
    cdef int nxt = (d.current + 1) % d.players
    d.phase = CT_PHASE_PLAY
    d.turned = CT_NO_CARD
    if d.hand[nxt]:
        d.current = nxt
    else:
        d.current = CT_NOBODY
        d.phase = CT_PHASE_OVER


cdef inline void resolve_turn(ct_deal_t *d, int card, mask_t captured) noexcept nogil:
    take(d, d.current, card, captured)
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
        d.hand[d.current] &= ~p.lo
        take(d, d.current, p.key, p.hi)
        turn_stock(d)
    elif d.phase == CT_PHASE_TURN:
        resolve_turn(d, d.turned, p.hi)


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
    r = ct_score(d, seat) - <double>total / d.players
    if (d.flags & CT_FLAG_BONUS) and d.bonus != CT_NOBODY:
        r += CT_BONUS_POINTS * (d.players - 1) if d.bonus == seat else -CT_BONUS_POINTS
    return r


# --- playout policies -------------------------------------------------------------------------
cdef inline int gain(const ct_deal_t *d, const play_t *p) noexcept nogil:
    """Greedy value of a capture: the points taken, and the red five bonus."""
    cdef int v = d.points[p.key]
    cdef mask_t m = p.hi, fives = ct_red_fives()
    while m:
        v += d.points[lowest_bit(m)]
        m &= m - 1
    if (d.flags & CT_FLAG_BONUS) and (p.lo & fives) and ((p.lo | p.hi) & fives) == fives:
        v += CT_BONUS_POINTS * (d.players - 1)
    return v


cdef int choose_greedy(const ct_deal_t *d, const playbuf_t *buf) noexcept nogil:
    """The capture taking the most points; with no capture, the card worth least joins
    the layout (first in face order among equals)."""
    cdef Py_ssize_t i
    cdef int best = -1, best_v = 0, v
    cdef bint best_cap = False, cap
    for i in range(buf.len):
        cap = buf.data[i].hi != 0
        v = gain(d, &buf.data[i]) if cap else -d.points[buf.data[i].key]
        if best < 0 or (cap and not best_cap) or (cap == best_cap and v > best_v):
            best, best_v, best_cap = i, v, cap
    return best


cdef int choose(const ct_deal_t *d, rng_t *rng, int policy, playbuf_t *buf) noexcept nogil:
    """The policy's choice among the current player's suit-collapsed options, which it
    leaves in `buf`: an index into `buf`, or -2 if memory ran out."""
    buf.len = 0
    if ct_legal(d, 1, buf) != 0:
        return -2
    if buf.len == 1:
        return 0
    if policy == CT_POLICY_GREEDY:
        return choose_greedy(d, buf)
    return rng_below(rng, <int>buf.len)


cdef int ct_playout(ct_deal_t *d, rng_t *rng, int policy, playbuf_t *buf) noexcept nogil:
    """Play to the end of the deal; 0, or -1 if memory ran out."""
    cdef int k
    while d.current != CT_NOBODY:
        k = choose(d, rng, policy, buf)
        if k < 0:
            return -1
        ct_apply(d, &buf.data[k])
    return 0


cdef int evaluate(const ct_deal_t *d, const playbuf_t *cands, int n, rng_t *rng, int policy,
                  double *sums, playbuf_t *buf) noexcept nogil:
    """For each candidate, add up the current player's result over `n` playouts after it."""
    cdef ct_deal_t x
    cdef int c, k, me = d.current
    for c in range(cands.len):
        for k in range(n):
            x = d[0]
            ct_apply(&x, &cands.data[c])
            if ct_playout(&x, rng, policy, buf) < 0:
                return -1
            sums[c] += ct_return(&x, me)
    return 0


# --- Python surface ---------------------------------------------------------------------------
cdef object rules_of(object rules):
    return checked_rules(rules, Rules, PAGAT, "chinese_ten.Rules")


def redeal_needed(layout, crowded_groups=True):
    """main_merah: whether an opening layout is thrown in (three or four of K/Q/J/T/5, or,
    with ``crowded_groups``, five or more cards of one capture group A/9, 2/8, 3/7, 4/6)."""
    if not isinstance(crowded_groups, bool):
        raise TypeError(f"crowded_groups must be True or False, not {crowded_groups!r}")
    return bool(layout_redealt(parse_cards(layout, "layout"), crowded_groups))


def first_player(rules, int players, int dealer):
    """The player who starts a deal: the dealer or the next seat (``Rules.order``)."""
    return dealer if rules.order == "dealer_first" else (dealer + 1) % players


cdef void setup(ct_deal_t *d, object rules, int players, int dealer) except *:
    memset(d, 0, sizeof(ct_deal_t))
    d.players = players
    d.flags = rules._flags
    d.dealer = dealer
    for f, v in enumerate(rules.points(players)):
        d.points[f] = v


cdef int seat_of(object seat, int players, str what) except -1:
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < players:
        raise ValueError(f"{what} must be a seat 0-{players - 1}, not {seat!r}")
    return int(seat)


cdef mask_t claim(mask_t *seen, object cards, str what) except? 0:
    """The mask of `cards`, which must not be among the cards `seen` so far (added to them)."""
    cdef mask_t m = parse_cards(cards, what)
    cdef mask_t both = m & seen[0]
    if both:
        raise ValueError(f"card {face_name(lowest_bit(both))} is dealt twice ({what})")
    seen[0] |= m
    return m


cdef object _make_play = Play._from_record


cdef object make_play(const play_t *p):
    return play_object(_make_play, p, None)


cdef class DealCore:
    """One Chinese Ten deal in C: hands, layout, stock, piles, the turn and its step.

    The building block of ``chupai.chinese_ten.Deal``; also usable alone for analysis.
    Seats ``0 .. players - 1`` play in seat order.  ``current`` acts in the ``phase``
    ``"play"`` (a card from the hand: :meth:`legal_plays`) or ``"turn"`` (the turned
    stock card's capture: :meth:`legal_plays` lists its choices); ``"over"`` at the end.
    """
    cdef ct_deal_t d
    cdef readonly int redeals
    cdef readonly object rules

    @staticmethod
    def random(seed, *, players=4, rules=None, dealer=0):
        """A fresh shuffled deal; the same seed gives the same deal as ``playouts``' first
        (dealer 0).  ``redeals`` counts the layouts thrown in (main_merah)."""
        cdef DealCore self = DealCore.__new__(DealCore)
        cdef rng_t rng
        cdef int hand_size, layout_size, first
        rules = rules_of(rules)
        hand_size, layout_size, _ = rules.deal_sizes(players)
        dealer = seat_of(dealer, players, "dealer")
        first = first_player(rules, players, dealer)
        setup(&self.d, rules, players, dealer)
        self.rules = rules
        rng_seed(&rng, seed64(seed), 0)
        self.redeals = ct_deal_random(&self.d, &rng, hand_size, layout_size, first)
        return self

    @staticmethod
    def from_cards(hands, layout, stock, *, current, rules=None, dealer=0, piles=None,
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
        cdef DealCore self = DealCore.__new__(DealCore)
        cdef int players, s, cur, start_seat, t = CT_NO_CARD
        cdef mask_t seen = 0, m
        rules = rules_of(rules)
        if isinstance(hands, (str, Cards)):
            raise ValueError(f"hands must be a sequence of hands, not {hands!r}")
        players = rules.check_players(len(hands))
        dealer = seat_of(dealer, players, "dealer")
        cur = seat_of(current, players, "current")
        setup(&self.d, rules, players, dealer)
        self.rules = rules
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
            self.d.bonus = seat_of(bonus, players, "bonus")
        if t != CT_NO_CARD:
            m = ct_targets(t, self.d.layout)
            if m == 0 or ((self.d.flags & CT_FLAG_FORCED) and (popcount(m) == 1 or ct_takes_triple(t, m))):
                raise ValueError(f"the turned card {face_name(t)} has no choice to make")
            self.d.phase = CT_PHASE_TURN
            self.d.turned = t
        return self

    def clone(self):
        """An independent copy."""
        cdef DealCore other = DealCore.__new__(DealCore)
        other.d = self.d
        other.redeals = self.redeals
        other.rules = self.rules
        return other

    def determinize(self, player, seed, keep_bottom=False):
        """A copy in which the cards ``player`` cannot see (the other hands and the stock)
        are re-dealt uniformly, each hand keeping its size and the stock its size; with
        ``keep_bottom`` the bottom stock card (the last to be turned) stays in place."""
        cdef DealCore other = self.clone()
        cdef rng_t rng
        cdef uint8_t pool[CT_DECK]
        cdef int n = 0, i, s, k, p = seat_of(player, self.d.players, "player")
        cdef int kept = 1 if keep_bottom and self.d.nstock > 0 else 0
        cdef mask_t m
        if not isinstance(keep_bottom, bool):
            raise TypeError(f"keep_bottom must be True or False, not {keep_bottom!r}")
        rng_seed(&rng, seed64(seed), 0)
        for s in range(self.d.players):
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
        for s in range(self.d.players):
            if s != p:
                other.d.hand[s] = 0
                for k in range(popcount(self.d.hand[s])):
                    other.d.hand[s] |= bit(pool[n])
                    n += 1
        for i in range(kept, self.d.nstock):
            other.d.stock[i] = pool[n + i - kept]
        return other

    # -- state ------------------------------------------------------------------------------
    @property
    def players(self):
        return self.d.players

    @property
    def current(self):
        """The player to act, or -1 once the deal is over."""
        return self.d.current

    @property
    def phase(self):
        """``"play"`` (a card from the hand), ``"turn"`` (the turned card's capture) or ``"over"``."""
        return _PHASES[self.d.phase]

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
        p.lo = bit(self.d.last_turned)
        p.hi = self.d.last_captured
        p.key = self.d.last_turned
        p.length = popcount(p.hi)
        p.type = CT_DISCARD if not p.hi else (CT_TRIPLE if p.length == CT_TRIPLE_SIZE else CT_CAPTURE)
        p.cls = 0
        p.nwild = 0
        return make_play(&p)

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

    def hand(self, seat):
        return Cards.from_masks(self.d.hand[seat_of(seat, self.d.players, "seat")])

    def pile(self, seat):
        """The cards ``seat`` has captured."""
        return Cards.from_masks(self.d.pile[seat_of(seat, self.d.players, "seat")])

    def hand_sizes(self):
        return tuple(popcount(self.d.hand[s]) for s in range(self.d.players))

    def scores(self):
        """The points of each player's captured cards."""
        return tuple(ct_score(&self.d, s) for s in range(self.d.players))

    def returns(self):
        """Each player's result as it stands: score - par, plus the red five bonus."""
        return [ct_return(&self.d, s) for s in range(self.d.players)]

    # -- actions ----------------------------------------------------------------------------
    def legal_plays(self, *, collapse_suits=False):
        """The current player's choices in the current step (a ``PlayList``)."""
        cdef PlayList out = new_playlist(_make_play, None, 32)
        check_grown(ct_legal(&self.d, 1 if collapse_suits else 0, &out.buf))
        return out

    def can_pass(self):
        """Always False: nobody passes in Chinese Ten."""
        return False

    cdef int _check(self, object play, play_t *p) except -1:
        """Fill `p` from `play` if it is one of the current choices, else IllegalActionError."""
        cdef PlayList legal
        cdef Py_ssize_t i
        if self.d.current == CT_NOBODY:
            raise IllegalActionError(f"{play!r}: the deal is over")
        if not isinstance(play, Play):
            raise IllegalActionError(f"{play!r} is not a Play")
        legal = self.legal_plays()
        for i in range(legal.buf.len):
            if legal.buf.data[i].key == play._card and legal.buf.data[i].hi == play._captured:
                p[0] = legal.buf.data[i]
                return 0
        if self.d.phase == CT_PHASE_TURN:
            raise IllegalActionError(f"{play}: seat {self.d.current} must choose the capture of the "
                                     f"turned {face_name(self.d.turned)}, among {[str(q) for q in legal]}")
        if not (self.d.hand[self.d.current] >> play._card) & 1:
            raise IllegalActionError(f"{play}: seat {self.d.current} does not hold {play.card}")
        raise IllegalActionError(f"{play} is not legal on the layout {self.layout}: "
                                 f"{[str(q) for q in legal if q.card == play.card]}")

    def play(self, play):
        """The current player makes ``play``; ``IllegalActionError`` (state unchanged) if illegal.

        In the play step this also turns the stock card, and resolves it when it has a
        single outcome."""
        cdef play_t p
        self._check(play, &p)
        ct_apply(&self.d, &p)

    def policy_choice(self, policy="random", seed=0):
        """The play the C policy would make now (see ``playouts``)."""
        cdef rng_t rng
        cdef playbuf_t buf
        cdef int k
        if self.d.current == CT_NOBODY:
            raise IllegalActionError("the deal is over")
        rng_seed(&rng, seed64(seed), 0)
        playbuf_open(&buf, 32)
        k = choose(&self.d, &rng, policy_code(POLICIES, policy), &buf)
        play = make_play(&buf.data[k]) if k >= 0 else None
        playbuf_close(&buf, k < 0)
        return play

    def evaluate(self, PlayList candidates, bint include_pass, int n, seed, policy="random"):
        """The current player's total result over ``n`` playouts after each candidate.

        ``candidates`` must be current choices (e.g. from ``legal_plays``);
        ``include_pass`` must be False (there is no passing).  Returns a float64 array of
        sums of ``score - par`` (with the red five bonus when on); divide by ``n``.
        """
        cdef rng_t rng
        cdef playbuf_t buf
        cdef int rc, pol = policy_code(POLICIES, policy)
        cdef Py_ssize_t i, n_cands = candidates.buf.len
        cdef PlayList checked
        if self.d.current == CT_NOBODY:
            raise IllegalActionError("the deal is over")
        if include_pass:
            raise IllegalActionError("there is no passing in Chinese Ten")
        if n < 1:
            raise ValueError(f"n must be positive, not {n}")
        # the engine's own copy of each candidate, checked against the current choices
        checked = new_playlist(_make_play, None, n_cands if n_cands > 0 else 1)
        for i in range(n_cands):
            self._check(make_play(&candidates.buf.data[i]), &checked.buf.data[i])
            checked.buf.len = i + 1
        sums = np.zeros(n_cands, dtype=np.float64)
        cdef double[::1] view = sums
        rng_seed(&rng, seed64(seed), 0)
        playbuf_open(&buf, 32)
        with nogil:
            rc = evaluate(&self.d, &checked.buf, n, &rng, pol,
                          &view[0] if view.shape[0] else NULL, &buf)
        playbuf_close(&buf, rc)
        return sums

    def playout(self, seed, policy="random"):
        """Play a copy of this deal to the end (``self`` is unchanged): (scores, returns, bonus player)."""
        cdef DealCore c = self.clone()
        cdef rng_t rng
        cdef playbuf_t buf
        cdef int pol = policy_code(POLICIES, policy), rc
        rng_seed(&rng, seed64(seed), 0)
        playbuf_open(&buf, 32)
        with nogil:
            rc = ct_playout(&c.d, &rng, pol, &buf)
        playbuf_close(&buf, rc < 0)
        return c.scores(), c.returns(), c.bonus_player

    def __repr__(self):
        return (f"<chinese_ten.DealCore {self.d.players} players, {self.phase}, current "
                f"{self.d.current}, sizes {self.hand_sizes()}, layout {self.layout}, stock {self.d.nstock}>")


# --- batch playouts ---------------------------------------------------------------------------
cdef int run(uint64_t seed, Py_ssize_t start, Py_ssize_t stop, const ct_deal_t *proto,
             int hand_size, int layout_size, int first, int policy,
             int16_t[:, ::1] scores, int8_t[::1] bonus, int16_t[::1] redeals) noexcept nogil:
    cdef ct_deal_t d
    cdef rng_t rng
    cdef playbuf_t buf
    cdef Py_ssize_t i
    cdef int s
    if playbuf_init(&buf, 32) != 0:
        return -1
    for i in range(start, stop):
        rng_seed(&rng, seed, <uint64_t>i)
        d = proto[0]
        redeals[i] = ct_deal_random(&d, &rng, hand_size, layout_size, first)
        if ct_playout(&d, &rng, policy, &buf) < 0:
            playbuf_free(&buf)
            return -1
        for s in range(d.players):
            scores[i, s] = ct_score(&d, s)
        bonus[i] = d.bonus
    playbuf_free(&buf)
    return 0


def _run_chunk(uint64_t seed, Py_ssize_t start, Py_ssize_t stop, rules, int players, int policy,
               int16_t[:, ::1] scores, int8_t[::1] bonus, int16_t[::1] redeals):
    """Deals ``start .. stop - 1`` of a batch (dealer 0), played out in C without the GIL."""
    cdef ct_deal_t proto
    cdef int rc, hand_size, layout_size, first
    hand_size, layout_size, _ = rules.deal_sizes(players)
    first = first_player(rules, players, 0)
    setup(&proto, rules, players, 0)
    if stop > scores.shape[0] or stop > bonus.shape[0] or stop > redeals.shape[0] \
            or scores.shape[1] < players or start < 0 or start > stop:
        raise ValueError("the result arrays do not fit the batch")
    with nogil:
        rc = run(seed, start, stop, &proto, hand_size, layout_size, first, policy, scores, bonus, redeals)
    check_grown(rc)
