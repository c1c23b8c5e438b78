"""Dou Dizhu's playout policies: the bids, and the greedy and heuristic card play.

A bid policy reads a deal in its auction and returns the index of its bid among the
legal ones; a card-play policy reads a deal (``ddz_deal_t``) and the suit-collapsed
legal plays of the seat to act and returns the index of its choice (-1: pass).  The
engine (``chupai.doudizhu._engine``) calls them in its playouts (``h_deal``,
``h_greedy``, ``h_heuristic``), the compiled tables for their built-in players.
"""
from chupai.core.records cimport mask_t, play_t, playbuf_t, popcount, rng_below, rng_t
from chupai.engine.base cimport POLICY_RANDOM, going_out
from chupai.doudizhu._deal cimport DDZ_BID_ROB, DDZ_BID_VALUES, DDZ_SEATS, ddz_bid_count, ddz_deal_t
from chupai.doudizhu._movegen cimport (
    DDZ_ACE_VALUE,
    DDZ_BJ_VALUE,
    DDZ_BOMB,
    DDZ_N_VALUES,
    DDZ_PAIR,
    DDZ_RJ_VALUE,
    DDZ_ROCKET,
    DDZ_SINGLE,
    DDZ_TWO_VALUE,
)

# a greedy player bombs only a player of the other side holding at most this many cards
cdef int GREEDY_THREAT = 3


# --- the bids ---------------------------------------------------------------------------
cdef int hand_worth(mask_t hand) noexcept nogil:
    """chupai.doudizhu.bidding.worth: the rocket 8, a lone red joker 4, a lone black
    joker 3, each bomb 6, each 2 held 2, each ace 1; a bid of 3 from 10 points, 2 from 7,
    1 from 4, else none (faces rank * 4 + suit, ranks 2..A, then the black and the red joker)."""
    cdef int points, r, count
    cdef bint black = (hand >> 52) & 1, red = (hand >> 53) & 1
    points = 8 if black and red else 4 * red + 3 * black
    for r in range(13):
        count = popcount((hand >> (4 * r)) & 15)
        if count == 4:
            points += 6
        if r == 0:
            points += 2 * count
        elif r == 12:
            points += count
    if points >= 10:
        return 3
    if points >= 7:
        return 2
    return 1 if points >= 4 else 0


cdef int choose_bid(const ddz_deal_t *d, int policy, rng_t *rng) noexcept nogil:
    """The index of the seat to bid's bid among its legal ones (Bid(0), then the higher
    bids: chupai.doudizhu._deal.ddz_bid_value).  Random: uniform; greedy and
    heuristic: chupai.doudizhu.bidding.decision_choice (the highest legal bid up to the
    hand's worth; call from a worth of 1, rob from 2)."""
    cdef int worth, s, robbing = 0
    if policy == POLICY_RANDOM:
        return <int>rng_below(rng, ddz_bid_count(d))
    worth = hand_worth(d.hand[d.t.current])
    if d.a.bidding == DDZ_BID_ROB:
        for s in range(DDZ_SEATS):
            robbing |= d.a.bids[s * DDZ_BID_VALUES + 1]
        return 1 if worth >= (2 if robbing else 1) else 0
    return worth - d.a.base if worth > d.a.base else 0


cdef inline bint is_bomb(const play_t *p) noexcept nogil:
    return p.type == DDZ_BOMB or p.type == DDZ_ROCKET


cdef inline bint lead_less(const play_t *a, const play_t *b) noexcept nogil:
    """Leading: no bomb before a bomb, then the lower key, then more cards."""
    if is_bomb(a) != is_bomb(b):
        return not is_bomb(a)
    if a.key != b.key:
        return a.key < b.key
    return a.length > b.length


cdef inline bint follow_less(const play_t *a, const play_t *b) noexcept nogil:
    """Following: no bomb before a bomb, then the lower key (the rocket last)."""
    if is_bomb(a) != is_bomb(b):
        return not is_bomb(a)
    if a.type != b.type:
        return a.type < b.type
    return a.key < b.key


cdef int choose_greedy(const ddz_deal_t *d, const playbuf_t *buf) noexcept nogil:
    """Go out when a play empties the hand; lead the lowest play (no bomb while another
    play is left, the longest of the lowest key); follow with the lowest play that beats,
    never over the partner (two farmers), a bomb or the rocket only against a player of
    the other side holding at most three cards; -1 = pass."""
    cdef Py_ssize_t i
    cdef int best = -1, s = d.t.current, last = d.t.last_player
    best = going_out(buf, popcount(d.hand[s]))
    if best >= 0:
        return best
    if last < 0:
        for i in range(buf.len):
            if best < 0 or lead_less(&buf.data[i], &buf.data[best]):
                best = <int>i
        return best
    if s != d.landlord and last != d.landlord:
        return -1
    for i in range(buf.len):
        if best < 0 or follow_less(&buf.data[i], &buf.data[best]):
            best = <int>i
    if best >= 0 and is_bomb(&buf.data[best]) and popcount(d.hand[last]) > GREEDY_THREAT:
        return -1
    return best


cdef inline bint shed_less(const play_t *a, const play_t *b) noexcept nogil:
    """Leading to empty the hand: no bomb before a bomb, then more cards, then the lower key."""
    if is_bomb(a) != is_bomb(b):
        return not is_bomb(a)
    if a.length != b.length:
        return a.length > b.length
    return a.key < b.key


# --- the heuristic: a plan of the hand ---------------------------------------------------
# The hand's burden: the combinations it splits into, each costing what it lacks in
# strength (DZ_TOP - value: a 3 costs 12, a 2 nothing, a joker less), bombs and the rocket
# kept whole as assets; each trio (an airplane's trios too) carries the lowest single or
# pair left below the 2s as its kicker, which then costs nothing.  Straights, pair
# sequences and airplanes (never of a rank held four times) are taken out by a bounded
# depth-first search over the sets of them, each costing what a single of its top card
# would; the cheapest split is the plan.  Leading, the play that leaves the lightest hand
# (kept to the plan) wins; following, the play that adds the least burden, and only if it
# adds at most DZ_FOLLOW_SLACK unless a player of the other side is within DZ_STOP cards
# of going out (then the highest play that beats, a bomb or the rocket included), or
# the play leaves one play besides bombs and the rocket (DZ_TAKE_OUT: the trick taken,
# the lead goes out).  A farmer never plays over the other farmer, and leads its lowest
# single to a partner next to play holding one card; leading against an opponent about
# to go out, singles and pairs it may beat cost DZ_SHORT_LEAD.  It reads only the player's own hand, the
# cards each seat holds and the trick.
cdef enum:
    DZ_TOP = 12                  # a unit of value v costs DZ_TOP - v
    DZ_BOMB_ASSET = 14           # what a bomb or the rocket in hand is worth
    DZ_RUN_TOP = 12              # a sequence whose top value is t costs DZ_RUN_TOP - t
    DZ_MAX_RUNS = 128            # the sequences that fit a hand (far fewer in practice)
    DZ_NODES = 128               # search nodes per plan
    DZ_SLACK = 16                # how much heavier than its parent a searched node may be
    DZ_DEPTH = 6                 # the most sequences in a plan
    DZ_FOLLOW_SLACK = 6          # burden a follow may add without a reason
    DZ_STOP = 2                  # a player of the other side with this many cards is stopped
    DZ_BOMB_LEAD = 60            # leading a bomb or the rocket that does not go out
    DZ_SHORT_LEAD = 40           # leading a single or pair to an opponent about to go out
    DZ_TAKE_OUT = 1000           # following with a play after which one play is left
    DZ_HUGE = 1 << 28


ctypedef struct dz_hand_t:
    int cnt[DDZ_N_VALUES]        # cards held of each value (3..A, 2, black joker, red joker)


ctypedef struct dz_run_t:
    int low                      # values low .. low + n - 1
    int n
    int mult                     # cards of each: 1 straight, 2 pair sequence, 3 airplane
    int cost


ctypedef struct dz_search_t:
    dz_run_t runs[DZ_MAX_RUNS]
    int n
    int nodes
    int best
    int best_units
    int depth
    int wings                    # the airplanes' trios taken (each carries a kicker)
    int path[DZ_DEPTH]
    int best_path[DZ_DEPTH]
    int best_depth
    dz_hand_t h


cdef inline int rank_of(int v) noexcept nogil:
    """The core's rank index of value v 0..12 (3..A: 1..12, the 2: 0)."""
    return 0 if v == DDZ_TWO_VALUE else v + 1


cdef void dz_count(mask_t hand, dz_hand_t *h) noexcept nogil:
    cdef int v
    for v in range(DDZ_TWO_VALUE + 1):
        h.cnt[v] = popcount((hand >> (4 * rank_of(v))) & 15)
    h.cnt[DDZ_BJ_VALUE] = <int>((hand >> 52) & 1)
    h.cnt[DDZ_RJ_VALUE] = <int>((hand >> 53) & 1)


cdef int dz_burden(const dz_hand_t *h, int wings, int *units) noexcept nogil:
    """The burden of the hand h (its airplanes' `wings` trios already taken out), and in
    `units` the combinations it splits into (the airplanes not counted)."""
    cdef int v, c, s = 0, n = 0, trios = wings
    for v in range(DDZ_TWO_VALUE + 1):
        c = h.cnt[v]
        if c == 4:
            s -= DZ_BOMB_ASSET
        elif c == 3:
            trios += 1
            s += DZ_TOP - v
            n += 1
    for v in range(DDZ_TWO_VALUE + 1):
        c = h.cnt[v]
        if c == 1 or c == 2:
            if trios > 0 and v < DDZ_TWO_VALUE:
                trios -= 1       # a trio's kicker: no play of its own
            else:
                s += DZ_TOP - v
                n += 1
    if h.cnt[DDZ_BJ_VALUE] and h.cnt[DDZ_RJ_VALUE]:
        s -= DZ_BOMB_ASSET
    else:
        for v in range(DDZ_BJ_VALUE, DDZ_RJ_VALUE + 1):
            if h.cnt[v]:
                s += DZ_TOP - v
                n += 1
    units[0] = n
    return s


cdef void dz_runs(dz_search_t *s) noexcept nogil:
    """The sequences the hand in s.h can form (no rank held four times)."""
    cdef int mult, shortest, low, n, v
    cdef dz_run_t *run
    s.n = 0
    for mult in range(1, 4):
        shortest = 5 if mult == 1 else (3 if mult == 2 else 2)
        for low in range(DDZ_ACE_VALUE + 1):
            n = 0
            for v in range(low, DDZ_ACE_VALUE + 1):
                if s.h.cnt[v] < mult or s.h.cnt[v] >= 4:
                    break
                n += 1
                if n >= shortest and s.n < DZ_MAX_RUNS:
                    run = &s.runs[s.n]
                    run.low = low
                    run.n = n
                    run.mult = mult
                    run.cost = DZ_RUN_TOP - v
                    s.n += 1


cdef inline bint dz_fits(const dz_hand_t *h, const dz_run_t *run) noexcept nogil:
    cdef int v
    for v in range(run.low, run.low + run.n):
        if h.cnt[v] < run.mult:
            return False
    return True


cdef inline void dz_take(dz_hand_t *h, const dz_run_t *run, int sign) noexcept nogil:
    cdef int v
    for v in range(run.low, run.low + run.n):
        h.cnt[v] -= sign * run.mult


cdef void dz_dfs(dz_search_t *s, int k0, int acc, int parent) noexcept nogil:
    """Score the node (its sequences cost `acc`), then take one more from k0 on; a node
    more than DZ_SLACK heavier than its parent is not searched on."""
    cdef int b, u, k, j
    cdef const dz_run_t *run
    s.nodes += 1
    b = dz_burden(&s.h, s.wings, &u) + acc
    if b > parent + DZ_SLACK:
        return
    if b < s.best:
        s.best = b
        s.best_units = u + s.depth
        s.best_depth = s.depth
        for j in range(s.depth):
            s.best_path[j] = s.path[j]
    if s.depth >= DZ_DEPTH:
        return
    for k in range(k0, s.n):
        if s.nodes >= DZ_NODES:
            return
        run = &s.runs[k]
        if not dz_fits(&s.h, run):
            continue
        dz_take(&s.h, run, 1)
        if run.mult == 3:
            s.wings += run.n
        s.path[s.depth] = k
        s.depth += 1
        dz_dfs(s, k, acc + run.cost, b)
        s.depth -= 1
        if run.mult == 3:
            s.wings -= run.n
        dz_take(&s.h, run, -1)


cdef int dz_plan(const dz_hand_t *h, dz_search_t *s) noexcept nogil:
    """The plan's burden (s then holds its sequences)."""
    s.h = h[0]
    dz_runs(s)
    s.nodes = 0
    s.depth = 0
    s.wings = 0
    s.best_depth = 0
    s.best = DZ_HUGE
    s.best_units = 0
    dz_dfs(s, 0, 0, DZ_HUGE)
    return s.best


cdef int dz_after(const dz_search_t *s, mask_t after, int *units) noexcept nogil:
    """The burden of the hand `after` (the planned hand less a play) kept to the plan in
    s: the plan's sequences it still holds, then the rest by dz_burden; in `units` the
    plays it splits into but its bombs and the rocket."""
    cdef dz_hand_t r
    cdef int acc = 0, wings = 0, runs = 0, j, b
    cdef const dz_run_t *run
    dz_count(after, &r)
    for j in range(s.best_depth):
        run = &s.runs[s.best_path[j]]
        if dz_fits(&r, run):
            dz_take(&r, run, 1)
            acc += run.cost
            runs += 1
            if run.mult == 3:
                wings += run.n
    b = acc + dz_burden(&r, wings, units)
    units[0] += runs
    return b


def _plan(hand):
    """The plan of the hand (a one-deck mask): ``(burden, units, sequences)``, each
    sequence ``(cards of each value, (values, lowest first))`` (values 0..11: 3..A)."""
    cdef dz_hand_t h
    cdef dz_search_t s
    cdef int burden, k
    cdef dz_run_t *run
    dz_count(<mask_t>hand, &h)
    burden = dz_plan(&h, &s)
    runs = []
    for k in range(s.best_depth):
        run = &s.runs[s.best_path[k]]
        runs.append((run.mult, tuple(range(run.low, run.low + run.n))))
    return burden, s.best_units, runs


cdef inline bint other_side(const ddz_deal_t *d, int a, int b) noexcept nogil:
    return (a == d.landlord) != (b == d.landlord)


cdef int choose_heuristic(const ddz_deal_t *d, const playbuf_t *buf) noexcept nogil:
    """The heuristic policy's choice among the suit-collapsed plays in buf (see above);
    -1 = pass."""
    cdef Py_ssize_t i
    cdef int best, s = d.t.current, last = d.t.last_player, nxt, k, b, u, base, score, opp_min = 99
    cdef mask_t hand = d.hand[s]
    cdef const play_t *p
    cdef dz_hand_t h
    cdef dz_search_t plan
    best = going_out(buf, popcount(hand))
    if best >= 0:
        return best
    if last >= 0 and not other_side(d, s, last):
        return -1                # the other farmer holds the trick
    if last >= 0 and popcount(d.hand[last]) <= DZ_STOP:
        for i in range(buf.len):
            if best < 0 or follow_less(&buf.data[best], &buf.data[i]):
                best = <int>i
        return best
    nxt = (s + 1) % DDZ_SEATS
    if last < 0 and s != d.landlord and nxt != d.landlord and popcount(d.hand[nxt]) == 1:
        for i in range(buf.len):
            if buf.data[i].length == 1 and (best < 0 or buf.data[i].key < buf.data[best].key):
                best = <int>i
        if best >= 0:
            return best
    for k in range(DDZ_SEATS):
        if other_side(d, s, k) and popcount(d.hand[k]) < opp_min:
            opp_min = popcount(d.hand[k])
    dz_count(hand, &h)
    base = dz_plan(&h, &plan)
    score = DZ_HUGE
    for i in range(buf.len):
        p = &buf.data[i]
        b = dz_after(&plan, hand & ~p.lo, &u)
        if is_bomb(p):
            b += DZ_BOMB_LEAD if last < 0 else DZ_BOMB_ASSET
        if last >= 0 and u <= 1:
            b -= DZ_TAKE_OUT     # taking the trick leaves one play (and bombs): take it
        if last < 0 and p.length <= opp_min and (p.type == DDZ_SINGLE or p.type == DDZ_PAIR):
            b += DZ_SHORT_LEAD - p.key
        if b < score or (b == score and shed_less(p, &buf.data[best])):
            score = b
            best = <int>i
    if last >= 0 and score - base > DZ_FOLLOW_SLACK:
        return -1
    return best
