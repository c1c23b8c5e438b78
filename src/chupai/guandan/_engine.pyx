"""The Guan Dan trick engine and the playouts (``docs/rules/guandan.md``, "A deal").

A deal's card play is the C struct ``gd_deal_t``: hands, the trick (last play, who
made it, passes since), the finishing order and the result.  ``DealCore`` wraps it for
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
    multiset_size,
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
from chupai.engine.base cimport CHOICE_OOM, CHOICE_OVER, CHOICE_PASS, PASS_FOLLOWING, POLICY_GREEDY, Engine, GameSpec, trick_start, trick_target, checked_hands, check_players, check_seat, trick_lead, trick_played, going_out, hand_after
from chupai.guandan._movegen cimport (
    GD_BOMB,
    GD_LEVEL_VALUE,
    GD_PAIR,
    GD_SINGLE,
    GD_TRIPLE,
    GD_FLAG_JOKER_PAIR_IN_FH,
    GD_FLAG_SF_AS_STRAIGHT,
    gd_generate,
    gd_target,
)

from chupai.guandan cimport _movegen as mg
from chupai.engine.base import POLICIES
from chupai.engine.batch import RowField
from chupai.core.cardset import Cards, face_name
from chupai.guandan._movegen import GAME_CLASSES as _BOUND, parse_rank

#: the fields of the batch row ``h_row`` writes, in order (chupai.engine.batch.split_rows)
ROW = (RowField("order", "int8", per_seat=True), RowField("result", "int8"))

#: ``DealCore.result`` values: how the deal was won (index into ``Rules.promotion``)
RESULT_NONE = GD_RESULT_NONE
RESULT_12 = GD_RESULT_12
RESULT_13 = GD_RESULT_13
RESULT_14 = GD_RESULT_14
cdef int GD_FLAGS = GD_FLAG_SF_AS_STRAIGHT | GD_FLAG_JOKER_PAIR_IN_FH  # every option flag
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


cdef int gd_legal(const gd_deal_t *d, int collapse, playbuf_t *out) noexcept nogil:
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


cdef void gd_play(gd_deal_t *d, const play_t *p) noexcept nogil:
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


cdef void gd_pass(gd_deal_t *d) noexcept nogil:
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
    cdef int best = -1, bomb = -1, lp = d.t.last_player
    for i in range(buf.len):
        if buf.data[i].cls:
            if bomb < 0 or less(&buf.data[i], &buf.data[bomb]):
                bomb = i
        elif best < 0 or less(&buf.data[i], &buf.data[best]):
            best = i
    if lp < 0:
        return best if best >= 0 else bomb
    if lp % 2 == d.t.current % 2:
        return -1  # never beat the partner
    if best >= 0:
        return best
    if bomb >= 0 and hand_size(d, lp) <= GREEDY_BOMB_THREAT:
        return bomb
    return -1


# --- the heuristic policy (h_heuristic) -------------------------------------------------
# What good players do, cheaply enough to run inside playouts.  The hand is scored by
# its *burden*: the combinations it still has to get rid of (straights, tubes and plates
# as the plan below takes them out, then singles, pairs, triples -- a triple carrying the
# lowest free pair as a full house), each costing more the lower it ranks, while bombs
# and wild cards count as assets.  The plan is searched once a decision, for the hand
# as it is; each play is scored by the hand it leaves, kept to that plan's runs
# (plan_after), so that a play breaking a run of the plan costs what the run saved.
# Leading, the play that leaves the lightest hand wins (the fewest and weakest
# combinations: the weakest first); following, the play that adds the least burden, and
# only if it adds at most HX_FOLLOW_SLACK (a broken pair may; a broken run or a spent
# wild card costs more, a bomb is kept) unless the opponent who made the play is within HX_FOLLOW_THREAT cards of going
# out (then any play that beats it, bombs too) or the hand is nearly out.  Never over
# the partner unless it goes out; lead what a partner about to go out can follow; lead
# what an opponent about to go out cannot match; keep the lead with an unbeatable play
# (counted from the cards not yet seen) when the hand is nearly out.  It reads only the player's own hand, every seat's card
# count, the trick and the unseen cards as a whole (2 decks minus the own hand minus
# what was played), so a bot may run it on the true state.
from chupai.core.records cimport BJ_BIT, RJ_BIT, SUIT_H, bit, face_of, rank_count
from chupai.guandan._movegen cimport GD_BJ_VALUE, GD_RJ_VALUE

cdef enum:
    HX_VALUES = 15               # level-order values: ranks 0..11, level 12, BJ 13, RJ 14
    HX_TOP = 11                  # a combination of value v costs HX_TOP - v (an ace: 0)
    HX_PAIR_BONUS = 0            # a pair costs that much less than a single of its rank
    HX_BOMB_ASSET = 16           # what a bomb in hand is worth (negative burden)
    HX_WILD_ASSET = 6            # and a wild card
    HX_FOLLOW_SLACK = 5          # burden a follow may add without a reason
    HX_THREAT = 2                # leading, an opponent with this many cards is about to go out
    HX_FOLLOW_THREAT = 10        # following one with this many, any play that beats it
    HX_CLOSE = 4                 # a partner with this many cards is about to go out
    HX_BOMB_LEAD = 60            # leading a bomb that does not decide the deal
    HX_SHORT_LEAD = 40           # leading what an opponent about to go out may match
    HX_PARTNER_LEAD = 30         # leading what a partner about to go out may follow
    HX_KEEP_LEAD = 50            # an unbeatable lead when the rest is at most HX_NEAR_OUT plays
    HX_NEAR_OUT = 1
    HX_HUGE = 1 << 28


ctypedef struct hx_hand_t:
    int cnt[HX_VALUES]           # natural cards held of each level-order value
    int wild                     # wild cards (hearts of the level rank)


cdef inline int hx_value(int rank, int level) noexcept nogil:
    """The level-order value of a natural rank."""
    if rank == level:
        return GD_LEVEL_VALUE
    return rank if rank < level else rank - 1


cdef void hx_count(mask_t lo, mask_t hi, int level, hx_hand_t *h) noexcept nogil:
    cdef int r
    cdef mask_t w = bit(face_of(level, SUIT_H))
    h.wild = ((lo & w) != 0) + ((hi & w) != 0)
    for r in range(RANK_A + 1):
        h.cnt[hx_value(r, level)] = rank_count(lo, hi, r)
    h.cnt[GD_LEVEL_VALUE] -= h.wild
    h.cnt[GD_BJ_VALUE] = <int>((lo >> BJ_BIT) & 1) + <int>((hi >> BJ_BIT) & 1)
    h.cnt[GD_RJ_VALUE] = <int>((lo >> RJ_BIT) & 1) + <int>((hi >> RJ_BIT) & 1)


cdef int hx_burden(const hx_hand_t *h, int *units) noexcept nogil:
    """The hand's burden (see above) and, in `units`, the combinations it splits into."""
    cdef int v, c, s = 0, n = 0, triples = 0, top = HX_VALUES
    if h.cnt[GD_BJ_VALUE] == 2 and h.cnt[GD_RJ_VALUE] == 2:
        s -= 2 * HX_BOMB_ASSET   # the four jokers: no joker singles or pairs
        top = GD_BJ_VALUE
    for v in range(top):
        if h.cnt[v] == 3:
            triples += 1
    for v in range(top):
        c = h.cnt[v]
        if c >= 4:
            s -= HX_BOMB_ASSET
        elif c == 3:
            s += HX_TOP - v
            n += 1
        elif c == 2:
            if triples > 0 and v < GD_BJ_VALUE:
                triples -= 1     # carried by a triple as a full house: no play of its own
            else:
                s += HX_TOP - v - HX_PAIR_BONUS
                n += 1
        elif c == 1:
            s += HX_TOP - v
            n += 1
    units[0] = n
    return s - HX_WILD_ASSET * h.wild


# The plan: the hand split into combinations the cheapest way.  Straights, tubes and
# plates (natural cards only, never a card of a rank held four or more times: bombs stay
# whole, wild cards stay assets) are taken out by a bounded depth-first search, in a
# fixed order so that each set of them is tried once; what remains is scored by
# hx_burden.  A run costs as a single of its top rank would (HX_RUN_TOP - top, the
# natural rank index of its top card), so one run is far cheaper than the singles or
# pairs it replaces, and a run is formed only where it saves plays.
cdef enum:
    PL_MAX_RUNS = 48             # straights (10), tubes (12) and plates (13) that fit
    PL_NODES = 96                # search nodes per plan (the runs' sets tried)
    HX_RUN_TOP = 12              # a run with its top card of natural rank index t costs 12 - t
    PL_SLACK = 16                # how much heavier than its parent a searched node may be


ctypedef struct pl_run_t:
    int nv                       # ranks the run spans
    int v[5]                     # their level-order values
    int mult                     # cards of each: 1 straight, 2 tube, 3 plate
    int cost
    int top                      # natural rank index of the top card (-1: an ace low)


ctypedef struct pl_search_t:
    pl_run_t runs[PL_MAX_RUNS]
    int n
    int nodes
    int limit                    # the most nodes searched
    int slack                    # a node this much heavier than its parent ends its branch
    int best
    int best_units
    int depth
    int path[8]                  # the runs taken on the way to the node being scored
    int best_path[8]             # and those of the best plan found
    int best_depth
    hx_hand_t h


cdef inline int pl_rank(int r) noexcept nogil:
    """A natural rank index of a run, -1 standing for the ace played low."""
    return RANK_A if r < 0 else r


cdef void pl_runs(pl_search_t *s, int level) noexcept nogil:
    """The runs the hand in s.h can form (no rank of four or more cards)."""
    cdef int span, mult, top, j, c, lowest
    cdef bint ok
    cdef pl_run_t *run
    s.n = 0
    for mult in range(1, 4):
        span = 5 if mult == 1 else (3 if mult == 2 else 2)
        lowest = span - 2          # the lowest top: the ace low below it
        for top in range(lowest, RANK_A + 1):
            ok = True
            for j in range(span):
                c = s.h.cnt[hx_value(pl_rank(top - j), level)]
                if c < mult or c >= 4:
                    ok = False
                    break
            if ok and s.n < PL_MAX_RUNS:
                run = &s.runs[s.n]
                run.nv = span
                run.mult = mult
                run.top = top
                run.cost = HX_RUN_TOP - top
                for j in range(span):
                    run.v[j] = hx_value(pl_rank(top - j), level)
                s.n += 1


cdef void pl_dfs(pl_search_t *s, int k0, int acc, int parent) noexcept nogil:
    """Score the node (the runs taken cost `acc`), then take one more run from k0 on;
    a node more than s.slack heavier than its parent (`parent`) is not searched on."""
    cdef int b, u, k, j
    cdef bint fits
    cdef pl_run_t *run
    s.nodes += 1
    b = hx_burden(&s.h, &u) + acc
    if b > parent + s.slack:
        return
    if b < s.best:
        s.best = b
        s.best_units = u + s.depth
        s.best_depth = s.depth
        for j in range(s.depth):
            s.best_path[j] = s.path[j]
    if s.depth >= 8:
        return
    for k in range(k0, s.n):
        if s.nodes >= s.limit:
            return
        run = &s.runs[k]
        fits = True
        for j in range(run.nv):
            if s.h.cnt[run.v[j]] < run.mult:
                fits = False
                break
        if not fits:
            continue
        for j in range(run.nv):
            s.h.cnt[run.v[j]] -= run.mult
        s.path[s.depth] = k
        s.depth += 1
        pl_dfs(s, k, acc + run.cost, b)
        s.depth -= 1
        for j in range(run.nv):
            s.h.cnt[run.v[j]] += run.mult


cdef int pl_plan(const hx_hand_t *h, int level, int limit, int slack, int *units, pl_search_t *s) noexcept nogil:
    """The plan's burden (hx_burden's scale) and, in `units`, its combinations, searching
    at most `limit` nodes, each at most `slack` heavier than its parent."""
    s.h = h[0]
    s.limit = limit
    s.slack = slack
    pl_runs(s, level)
    s.nodes = 0
    s.depth = 0
    s.best_depth = 0
    s.best = HX_HUGE
    s.best_units = 0
    pl_dfs(s, 0, 0, HX_HUGE)
    units[0] = s.best_units
    return s.best


cdef int plan_after(const pl_search_t *s, const hx_hand_t *after, int *units) noexcept nogil:
    """The burden of `after` (the planned hand less a play) kept to the plan in `s`: the
    plan's runs it still holds (taken in the plan's order), the rest by hx_burden."""
    cdef hx_hand_t r = after[0]
    cdef int acc = 0, n = 0, j, i, u
    cdef bint fits
    cdef const pl_run_t *run
    for j in range(s.best_depth):
        run = &s.runs[s.best_path[j]]
        fits = True
        for i in range(run.nv):
            if r.cnt[run.v[i]] < run.mult:
                fits = False
                break
        if fits:
            for i in range(run.nv):
                r.cnt[run.v[i]] -= run.mult
            acc += run.cost
            n += 1
    acc += hx_burden(&r, &u)
    units[0] = u + n
    return acc


def _plan(lo, hi, level, nodes=None, slack=None):
    """The plan of the hand (two-deck masks ``lo``, ``hi``) at ``level`` (rank index):
    ``(burden, units, runs)``, ``runs`` the straights, tubes and plates taken out as
    ``(cards of each rank, (natural rank indexes, top first))``, the ace low as 12.
    What remains is split by hx_burden (``chupai.guandan.plan``).  ``nodes``: the most
    search nodes, ``slack`` how much heavier than its parent a node searched on may be
    (``None``: the policy's bounds); also returned, the nodes searched."""
    cdef hx_hand_t h
    cdef pl_search_t s
    cdef int units, burden, k
    cdef pl_run_t *run
    hx_count(<mask_t>lo, <mask_t>hi, <int>level, &h)
    burden = pl_plan(&h, <int>level, PL_NODES if nodes is None else <int>nodes,
                     PL_SLACK if slack is None else <int>slack, &units, &s)
    runs = []
    for k in range(s.best_depth):
        run = &s.runs[s.best_path[k]]
        runs.append((run.mult, tuple(pl_rank(run.top - j) for j in range(run.nv))))
    return burden, units, runs, s.nodes


cdef bint hx_unbeatable(const play_t *p, const hx_hand_t *unseen) noexcept nogil:
    """No unseen cards make a higher single, pair or triple (bombs aside)."""
    cdef int v, c
    if p.type != GD_SINGLE and p.type != GD_PAIR and p.type != GD_TRIPLE:
        return False
    for v in range(p.key + 1, HX_VALUES):
        c = unseen.cnt[v]
        if v < GD_BJ_VALUE:
            c += unseen.wild
        if c >= p.length:
            return False
    return True


cdef int choose_heuristic(const gd_deal_t *d, const playbuf_t *buf) noexcept nogil:
    """The heuristic policy's choice among the suit-collapsed plays in buf; -1 = pass."""
    cdef Py_ssize_t i
    cdef int me = d.t.current, lp = d.t.last_player, s, size = hand_size(d, me)
    cdef int opp_min = GD_HAND * 2, partner = hand_size(d, (me + 2) % GD_SEATS)
    cdef int before, units, after_units, score, best = -1, best_score = HX_HUGE
    cdef mask_t lo, hi, ulo = 0, uhi = 0
    cdef hx_hand_t h, unseen
    cdef pl_search_t plan
    cdef const play_t *p
    cdef bint threat
    for s in range(1, GD_SEATS, 2):
        if d.lo[(me + s) % GD_SEATS] and hand_size(d, (me + s) % GD_SEATS) < opp_min:
            opp_min = hand_size(d, (me + s) % GD_SEATS)
    i = going_out(buf, size)
    if i >= 0:
        return <int>i        # going out
    if lp >= 0 and lp % 2 == me % 2:
        return -1                # never over the partner
    hx_count(d.lo[me], d.hi[me], d.level, &h)
    before = pl_plan(&h, d.level, PL_NODES, PL_SLACK, &units, &plan)
    if lp < 0:
        # the cards not yet seen, as a whole (for the unbeatable leads)
        for s in range(GD_SEATS):
            if s != me:
                lo = d.lo[s]
                hi = d.hi[s]
                # a multiset union of the other hands: at most two of a face in all
                uhi |= (ulo & lo) | hi
                ulo |= lo
        hx_count(ulo, uhi, d.level, &unseen)
    threat = lp >= 0 and hand_size(d, lp) <= HX_FOLLOW_THREAT
    for i in range(buf.len):
        p = &buf.data[i]
        hand_after(d.lo[me], d.hi[me], p, &lo, &hi)
        hx_count(lo, hi, d.level, &h)
        score = plan_after(&plan, &h, &after_units)
        if lp < 0:
            if p.cls and after_units > 1:
                score += HX_BOMB_LEAD
            if opp_min <= HX_THREAT and p.length <= opp_min and not hx_unbeatable(p, &unseen):
                score += HX_SHORT_LEAD - p.key
            elif partner <= HX_CLOSE and opp_min > HX_THREAT and p.length <= partner and not p.cls:
                score -= HX_PARTNER_LEAD - p.key
            if after_units <= HX_NEAR_OUT and hx_unbeatable(p, &unseen):
                score -= HX_KEEP_LEAD
        else:
            if p.cls and not threat and after_units > 1:
                continue         # a bomb only when it stops an opponent or decides the deal
            if not threat and units > HX_NEAR_OUT and score - before > HX_FOLLOW_SLACK:
                continue
        if score < best_score or (score == best_score and less(p, &buf.data[best])):
            best = <int>i
            best_score = score
    return best


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
    "play.PlayType.SINGLE": mg.GD_SINGLE, "play.PlayType.PAIR": mg.GD_PAIR,
    "play.PlayType.TRIPLE": mg.GD_TRIPLE, "play.PlayType.FULL_HOUSE": mg.GD_FULL_HOUSE,
    "play.PlayType.STRAIGHT": mg.GD_STRAIGHT, "play.PlayType.TUBE": mg.GD_TUBE,
    "play.PlayType.PLATE": mg.GD_PLATE, "play.PlayType.BOMB": mg.GD_BOMB,
    "play.PlayType.STRAIGHT_FLUSH": mg.GD_STRAIGHT_FLUSH, "play.PlayType.FOUR_JOKERS": mg.GD_FOUR_JOKERS,
    "play.LEVEL_VALUE": mg.GD_LEVEL_VALUE, "play.JOKER_BLACK_VALUE": mg.GD_BJ_VALUE,
    "play.JOKER_RED_VALUE": mg.GD_RJ_VALUE,
    "play.BOMB_CLASS[STRAIGHT_FLUSH,5]": mg.GD_CLASS_SF, "play.BOMB_CLASS[FOUR_JOKERS,4]": mg.GD_CLASS_FOUR_JOKERS,
    "rules.FLAG_SF_AS_STRAIGHT": mg.GD_FLAG_SF_AS_STRAIGHT,
    "rules.FLAG_JOKER_PAIR_IN_FULL_HOUSE": mg.GD_FLAG_JOKER_PAIR_IN_FH,
}


cdef int _flags_of(object rules) except -1:
    return CLASSES.rules_of(rules)._flags


@cython.no_gc  # no reference cycles (see Engine): no GC bookkeeping per clone
cdef class DealCore(Engine):
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
        cdef DealCore self = DealCore.__new__(DealCore)
        cdef int s, leader = check_seat(current, GD_SEATS, "current")
        for s, hand in enumerate(checked_hands(hands, GD_SEATS, GD_SEATS, 2)):
            if not hand:
                raise ValueError(f"hand {s} is empty: every seat starts with cards")
            self.d.lo[s] = hand.lo
            self.d.hi[s] = hand.hi
        self.d.level = _level_index(level)
        self.d.flags = _flags_of(rules)
        self.set_rules(CLASSES.rules_of(rules))
        gd_start(&self.d, leader)
        return self

    @staticmethod
    def random(seed, *, level="2", rules=None):
        """A fresh deal from a seed: the same seed gives the same deal as ``playouts``' first."""
        cdef DealCore self = DealCore.__new__(DealCore)
        cdef rng_t rng
        rng_seed(&rng, seed64(seed), 0)
        self.d.level = _level_index(level)
        self.set_rules(CLASSES.rules_of(rules))
        gd_deal_random(&self.d, &rng, _flags_of(rules))
        return self

    # -- hooks ------------------------------------------------------------------------
    cdef void h_hand(self, const void *st, int seat, mask_t *lo, mask_t *hi) noexcept nogil:
        lo[0] = (<const gd_deal_t *>st).lo[seat]
        hi[0] = (<const gd_deal_t *>st).hi[seat]

    cdef int h_legal(self, const void *st, int collapse, playbuf_t *out) noexcept nogil:
        return gd_legal(<const gd_deal_t *>st, collapse, out)

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

    cdef void h_play(self, void *st, const play_t *p) noexcept nogil:
        gd_play(<gd_deal_t *>st, p)

    cdef void h_pass(self, void *st) noexcept nogil:
        gd_pass(<gd_deal_t *>st)

    cdef int h_greedy(self, const void *st, const playbuf_t *buf) noexcept nogil:
        return choose_greedy(<const gd_deal_t *>st, buf)

    cdef int h_heuristic(self, const void *st, const playbuf_t *buf) noexcept nogil:
        return choose_heuristic(<const gd_deal_t *>st, buf)  # the heuristic block

    cdef void h_returns(self, const void *st, const double *weights, double *out) noexcept nogil:
        cdef const gd_deal_t *d = <const gd_deal_t *>st
        cdef int s
        for s in range(GD_SEATS):
            out[s] = 0.0
            if d.result != GD_RESULT_NONE:
                out[s] = weights[d.result] if s % 2 == d.out[0] % 2 else -weights[d.result]

    cdef int h_deal(self, void *st, rng_t *rng) noexcept nogil:
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
        return (f"<DealCore level {_RANK_NAMES[self.d.level]} current {self.d.t.current} "
                f"sizes {self.hand_sizes()} result {self.d.result}>")


cdef int _level_index(object level) except -1:
    return parse_rank(level, "level")
