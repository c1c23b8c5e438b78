"""Guan Dan's playout policies: the greedy one and the heuristic one (``docs/rules/guandan.md``
for the rules they play by; ``chupai.players.bots`` for the bots that run them).

Each reads a deal (``gd_deal_t``) and the suit-collapsed legal plays of the seat to act
and returns the index of its choice (-1: pass); the engine (``chupai.guandan._engine``)
calls them through its ``h_greedy`` and ``h_heuristic`` hooks.  ``_plan`` exposes the
heuristic's hand planner to ``chupai.guandan.plan``.
"""
from chupai.core.records cimport mask_t, play_t, playbuf_t, RANK_A
from chupai.core.records cimport BJ_BIT, RJ_BIT, SUIT_H, bit, face_of, rank_count
from chupai.guandan._kernel cimport GD_BJ_VALUE, GD_RJ_VALUE
from chupai.engine.base cimport going_out, hand_after
from chupai.guandan._deal cimport GD_HAND, GD_SEATS, gd_deal_t, hand_size
from chupai.guandan._kernel cimport GD_LEVEL_VALUE, GD_PAIR, GD_SINGLE, GD_TRIPLE

# a greedy player spends a bomb only on an opponent holding at most this many cards
cdef int GREEDY_BOMB_THREAT = 6


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
