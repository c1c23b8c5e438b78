"""The Dou Dizhu legal-play generator (``docs/rules/doudizhu.md``).

A hand is one word of the card core (one deck).  The kernel rewrites it as words in the
game's order of values (nibble v: value v, 3..A, 2, BJ, RJ), so the values held at
least k times, the runs of a chain and the values a kicker may come from are bit sets.
It builds each play as a count of cards per value (``take``): the sets, the chains
(each start of a long enough run extended while the hand holds enough of the next
value), then the kickers of trios, airplanes and fours, chosen value by value in
increasing order with the count of each value fixed once, so each play (its core and
its kicker counts) is reached by exactly one path.  Following, only the type of the
play to beat is generated, and the bombs.  A play's count vector is then expanded into
every concrete choice of suits (the sub-multiset table of ``chupai.core.records``, the
same order everywhere), or, in the suit-collapsed view, into the one choice of the
lowest suits of each rank (``docs/rules/cards.md``), kept in step as the play is built.
Dou Dizhu has no wild cards: a record's declaration is empty.
"""
from libc.stdint cimport uint8_t
from libc.string cimport memset

import numpy as np

from chupai.core.records cimport (
    GEN_TOO_MANY,
    target_set,
    BJ_BIT,
    N_RANKS,
    NIBBLE,
    RANK_2,
    RANK_BITS,
    RJ_BIT,
    SUIT_S_MASK,
    SUITED_MASK,
    PlayList,
    lowest_bit,
    GameClasses,
    mask_t,
    multiset_valid,
    roomy_filled,
    roomy_playlist,
    nibble_counts,
    play_push,
    playbuf_t,
    rank_nibble,
    rank_subsets,
    slot_lo,
    slot_t,
    subset_slot,
    subsets_t,
)

from chupai.core.cardset cimport hand_masks
from chupai.core.play cimport PlayRecord
from chupai.core.wrappers cimport (
    PLAY_LIMIT, bad_record, check_flag, check_generated, check_previous, check_run, onedeck_kernel_count,
)

#: the Python classes this generator makes and reads (Play, Rules), bound by
#: chupai.doudizhu.play when it is imported: this layer imports nothing above it
GAME_CLASSES = GameClasses("doudizhu")
cdef GameClasses CLASSES = GAME_CLASSES

#: the option flags of the compiled code (Rules._flags), from the C declarations
FLAG_FOUR_TWO_PAIR = DDZ_FLAG_FOUR_TWO_PAIR
FLAG_KICKER_ROCKET = DDZ_FLAG_KICKER_ROCKET
FLAG_REPEAT_KICKERS = DDZ_FLAG_REPEAT_KICKERS
FLAG_KICKER_SPLITS_BOMB = DDZ_FLAG_KICKER_SPLITS_BOMB
FLAG_KICKER_TRIO_RANK = DDZ_FLAG_KICKER_TRIO_RANK
FLAG_FOUR_WITH_TWO = DDZ_FLAG_FOUR_WITH_TWO

cdef enum:
    MIN_STRAIGHT = 5             # ranks of the shortest straight
    MIN_PAIR_SEQUENCE = 3        # pairs of the shortest pair sequence
    MIN_AIRPLANE = 2             # trios of the shortest airplane
    FOUR = 4
    NO_PLAY = DDZ_N_VALUES       # shape_min: the shape is not wanted (no key exceeds it)

# the sub-multiset table of chupai.core.records (a one-deck rank's nibble is its pattern)
cdef const subsets_t *SUBS = rank_subsets()
# RANK_OF[v]: the core's rank index of value v 0..12 (3..A -> 1..12, 2 -> 0)
cdef uint8_t RANK_OF[DDZ_TWO_VALUE + 1]
# WIDTH[type]: the cards of each rank of a chain type (0: not a chain)
cdef uint8_t WIDTH[DDZ_ROCKET + 1]
# SHIFT[v]: the bit of value v's lowest face (a rank's nibble, or a joker's one bit)
cdef uint8_t SHIFT[DDZ_N_VALUES]
# LOWEST[nib][k]: the k lowest suits of the suits ``nib`` held of a rank (k <= held)
cdef uint8_t LOWEST[NIBBLE + 1][FOUR + 1]


cdef void _build_tables() noexcept:
    cdef int v
    cdef unsigned nib, low, b, rest
    cdef int k
    for v in range(DDZ_TWO_VALUE + 1):
        RANK_OF[v] = RANK_2 if v == DDZ_TWO_VALUE else v + 1
        SHIFT[v] = RANK_OF[v] * RANK_BITS
    SHIFT[DDZ_BJ_VALUE] = BJ_BIT
    SHIFT[DDZ_RJ_VALUE] = RJ_BIT
    for nib in range(NIBBLE + 1):
        low = 0
        rest = nib
        LOWEST[nib][0] = 0
        for k in range(1, FOUR + 1):
            b = rest & (~rest + 1)
            low |= b
            rest ^= b
            LOWEST[nib][k] = low
    for v in range(DDZ_ROCKET + 1):
        WIDTH[v] = 0
    WIDTH[DDZ_STRAIGHT] = 1
    WIDTH[DDZ_PAIR_SEQUENCE] = 2
    WIDTH[DDZ_AIRPLANE] = 3
    WIDTH[DDZ_AIRPLANE_SINGLES] = 4
    WIDTH[DDZ_AIRPLANE_PAIRS] = 5


_build_tables()


# --- the kernel ------------------------------------------------------------------
# The kernel reads a hand as words in the game's order of values: nibble v of a word is
# value v (3..A, 2, BJ, RJ are 0..14).  A set of values is a word with bit 0 of each of
# its values' nibbles set, so a set is scanned with lowest_bit and a run of values is
# a chain of nibbles.
cdef extern from *:
    """
    #define DDZ_VALUE_ONES 0x0111111111111111ULL
    """
    # bit 0 of each of the 15 values' nibbles: the set of every value
    const mask_t VALUE_ONES "DDZ_VALUE_ONES"


cdef inline mask_t value_bit(int v) noexcept nogil:
    return (<mask_t>1) << (RANK_BITS * v)


cdef inline mask_t values_upto(int v) noexcept nogil:
    """The values 0..v (none for v < 0, all for v >= 14)."""
    if v < 0:
        return 0
    if v >= DDZ_RJ_VALUE:
        return VALUE_ONES
    return VALUE_ONES & (value_bit(v + 1) - 1)


cdef inline mask_t values_above(int v) noexcept nogil:
    """The values v+1..14."""
    return VALUE_ONES & ~values_upto(v)


cdef inline int value_at(mask_t values) noexcept nogil:
    """The lowest value of a non-empty set."""
    return lowest_bit(values) >> 2


cdef inline mask_t nibbles_of(mask_t values) noexcept nogil:
    """Every bit of the nibbles of a set of values."""
    return values * NIBBLE


cdef inline mask_t values_held(mask_t counts, int k) noexcept nogil:
    """The values of which a word of counts (nibble v: 0..4) holds at least k, k 1..4."""
    if k == 1:
        return (counts | (counts >> 1) | (counts >> 2)) & VALUE_ONES
    if k == 2:
        return ((counts >> 1) | (counts >> 2)) & VALUE_ONES
    if k == 3:
        return ((counts & (counts >> 1)) | (counts >> 2)) & VALUE_ONES
    return (counts >> 2) & VALUE_ONES


cdef inline mask_t runs_of(mask_t values, int n) noexcept nogil:
    """The starts of the runs of n consecutive values of a set."""
    cdef mask_t starts = values
    cdef int i
    for i in range(1, n):
        starts &= values >> (RANK_BITS * i)
    return starts


ctypedef struct ctx_t:
    playbuf_t *out
    int full                     # PLAY_LIMIT reached: stop
    int flags
    int collapse
    int lead
    ddz_target tg
    mask_t hand                  # the cards held (the card core's word)
    mask_t suits                 # nibble v: the suits held of value v (a joker: bit 0)
    mask_t counts                # nibble v: the cards held of value v
    mask_t held[FOUR + 1]        # held[k], 1 <= k <= 4: the values held at least k times
    mask_t avail                 # nibble v: the kicker cards value v may give the play
    int take[DDZ_N_VALUES]       # the play being built: its cards of each value
    mask_t low                   # ... and the lowest suits held of each (its collapsed cards)


cdef inline unsigned suits_of(const ctx_t *c, int v) noexcept nogil:
    return <unsigned>((c.suits >> (RANK_BITS * v)) & NIBBLE)


cdef inline int avail_of(const ctx_t *c, int v) noexcept nogil:
    return <int>((c.avail >> (RANK_BITS * v)) & NIBBLE)


cdef inline int shape_min(const ctx_t *c, int type_, int length) noexcept nogil:
    """The key an ordinary play of this shape must exceed, or NO_PLAY."""
    if c.lead:
        return -1
    if c.tg.cls == 0 and c.tg.type == type_ and c.tg.length == length:
        return c.tg.key
    return NO_PLAY


cdef inline bint wants(const ctx_t *c, int type_) noexcept nogil:
    """Whether plays of this ordinary type can be wanted at all."""
    return c.lead or (c.tg.cls == 0 and c.tg.type == type_)


cdef inline void push_cards(ctx_t *c, mask_t cards, int type_, int key, int length, int cls) noexcept nogil:
    """Push one play of these cards (or, past PLAY_LIMIT or out of memory, stop: `full`)."""
    if c.out.len >= PLAY_LIMIT or play_push(c.out, cards, 0, type_, key, length, cls) == NULL:
        c.full = 1


cdef inline mask_t ranks_of(mask_t cards) noexcept nogil:
    """The ranks of which a set of suited cards holds any, as bit 0 of each rank's nibble."""
    return (cards | (cards >> 1) | (cards >> 2) | (cards >> 3)) & SUIT_S_MASK


cdef inline mask_t by_value(mask_t hand) noexcept nogil:
    """A one-deck hand as a word in the order of values: the 3..A nibbles moved down one
    rank, the 2s' nibble above them, the black joker at bit 0 of nibble 13 and the red
    joker at bit 0 of nibble 14."""
    return (((hand >> RANK_BITS) & (value_bit(DDZ_TWO_VALUE) - 1))
            | ((hand & NIBBLE) << (RANK_BITS * DDZ_TWO_VALUE))
            | (((hand >> BJ_BIT) & 1) << (RANK_BITS * DDZ_BJ_VALUE))
            | (((hand >> RJ_BIT) & 1) << (RANK_BITS * DDZ_RJ_VALUE)))


cdef void expand(ctx_t *c, int type_, int key, int length, int cls) noexcept nogil:
    """Every choice of suits for the cards ``take`` holds, each pushed as one play: the
    choices of the lowest value taken vary slowest (an odometer over the values' slots
    of the sub-multiset table).  Only the values of which the play takes some but not
    all of the suits held have a choice; the others' cards (every suit held, or a
    joker) are the same in every play, ``low``'s."""
    cdef slot_t s[DDZ_N_VALUES]
    cdef mask_t part[DDZ_N_VALUES]   # part[i]: the cards without a choice and those chosen below level i
    cdef int at[DDZ_N_VALUES]        # at[i]: the entry of slot i chosen
    cdef int n = 0, i, k, v
    cdef mask_t low = c.low
    # the ranks taken (bit 0 of a rank's nibble), then those of them with suits left out
    cdef mask_t choice = ranks_of(low & SUITED_MASK)
    choice = ranks_of((low ^ c.hand) & nibbles_of(choice))
    if choice == 0:
        push_cards(c, low, type_, key, length, cls)
        return
    part[0] = low & ~nibbles_of(choice)
    # as values, in their order: the 3..A are ranks 1..12, the 2 is rank 0
    choice = (choice >> RANK_BITS) | ((choice & 1) << (RANK_BITS * DDZ_TWO_VALUE))
    while choice:
        v = value_at(choice)
        choice &= choice - 1
        subset_slot(SUBS, suits_of(c, v), RANK_OF[v], c.take[v], 0, &s[n])
        n += 1
    at[0] = s[0].begin
    i = 0
    while i >= 0:
        if i == n - 1:  # the last value: one play per choice
            for k in range(s[i].begin, s[i].end):
                push_cards(c, part[i] | slot_lo(&s[i], k), type_, key, length, cls)
                if c.full:
                    return
        elif at[i] < s[i].end:
            part[i + 1] = part[i] | slot_lo(&s[i], at[i])
            i += 1
            at[i] = s[i].begin
            continue
        i -= 1
        if i >= 0:
            at[i] += 1


cdef inline void take_add(ctx_t *c, int v, int t) noexcept nogil:
    """Add ``t`` cards of value ``v`` to the play being built (``t`` < 0: take them back),
    keeping its collapsed cards ``low`` in step."""
    cdef int was = c.take[v]
    cdef unsigned nib = suits_of(c, v)
    c.take[v] = was + t
    c.low ^= <mask_t>(LOWEST[nib][was] ^ LOWEST[nib][was + t]) << SHIFT[v]


cdef inline void emit(ctx_t *c, int type_, int key, int length, int cls) noexcept nogil:
    """Push the play ``take`` holds: every choice of suits, or (collapsing) its lowest
    suits, ``low``."""
    if c.full:
        return
    if c.collapse:
        push_cards(c, c.low, type_, key, length, cls)
    else:
        expand(c, type_, key, length, cls)


cdef void gen_sets(ctx_t *c, int type_, int width, int top) noexcept nogil:
    """Singles, pairs and trios: ``width`` cards of one value up to ``top``."""
    cdef int kmin = shape_min(c, type_, width), v
    cdef mask_t values
    if kmin == NO_PLAY:
        return
    values = c.held[width] & values_above(kmin) & values_upto(top)
    while values and not c.full:
        v = value_at(values)
        values &= values - 1
        if c.collapse:
            push_cards(c, <mask_t>LOWEST[suits_of(c, v)][width] << SHIFT[v], type_, v, width, 0)
        else:
            take_add(c, v, width)
            emit(c, type_, v, width, 0)
            take_add(c, v, -width)


cdef void set_avail(ctx_t *c, int lo_v, int hi_v, int core_take) noexcept nogil:
    """The kicker cards of each value for a play whose core (its trios or four) is the
    values lo_v..hi_v with ``core_take`` cards each."""
    cdef mask_t core = values_upto(hi_v) & ~values_upto(lo_v - 1)
    cdef mask_t avail = c.counts
    if not (c.flags & DDZ_FLAG_KICKER_SPLITS_BOMB):
        avail &= ~nibbles_of(c.held[FOUR])
    avail &= ~nibbles_of(core)
    if c.flags & DDZ_FLAG_KICKER_TRIO_RANK and core_take < FOUR:
        avail |= c.held[FOUR] & core
    c.avail = avail


cdef inline bint kickers_allowed(ctx_t *c) noexcept nogil:
    """Whether the kickers taken may stand: both jokers together (the rocket) only where
    the rules let the rocket be kickers."""
    return not (c.take[DDZ_BJ_VALUE] and c.take[DDZ_RJ_VALUE]) or (c.flags & DDZ_FLAG_KICKER_ROCKET) != 0


cdef void kick_singles(ctx_t *c, mask_t values, int need, int per, int type_, int key, int length) noexcept nogil:
    """Add ``need`` single kicker cards of the ``values`` (ascending), at most ``per`` of
    one value."""
    cdef int t, m, v
    if c.full:
        return
    if need == 0:
        if kickers_allowed(c):
            emit(c, type_, key, length, 0)
        return
    if need == 1:  # the last kicker: one play per value left
        while values and not c.full:
            v = value_at(values)
            values &= values - 1
            take_add(c, v, 1)
            if kickers_allowed(c):
                emit(c, type_, key, length, 0)
            take_add(c, v, -1)
        return
    if values == 0:
        return
    v = value_at(values)
    values &= values - 1
    m = avail_of(c, v)
    if m > per:
        m = per
    if m > need:
        m = need
    for t in range(m, -1, -1):
        take_add(c, v, t)
        kick_singles(c, values, need - t, per, type_, key, length)
        take_add(c, v, -t)


cdef void kick_pairs(ctx_t *c, mask_t values, int need, int type_, int key, int length) noexcept nogil:
    """Add ``need`` kicker pairs of distinct ``values`` (ascending)."""
    cdef int v
    if c.full:
        return
    if need == 0:
        emit(c, type_, key, length, 0)
        return
    if values == 0:
        return
    v = value_at(values)
    values &= values - 1
    take_add(c, v, 2)
    kick_pairs(c, values, need - 1, type_, key, length)
    take_add(c, v, -2)
    kick_pairs(c, values, need, type_, key, length)


cdef inline mask_t kicker_values(const ctx_t *c) noexcept nogil:
    """The values that may give a single kicker."""
    return values_held(c.avail, 1)


cdef inline mask_t pair_values(const ctx_t *c) noexcept nogil:
    """The values that may give a kicker pair (jokers never pair)."""
    return values_held(c.avail, 2) & values_upto(DDZ_TWO_VALUE)


cdef void gen_trio_kickers(ctx_t *c) noexcept nogil:
    """A trio with a single, a trio with a pair."""
    cdef int ks = shape_min(c, DDZ_TRIO_SINGLE, 4), kp = shape_min(c, DDZ_TRIO_PAIR, 5), v
    cdef mask_t trios = c.held[3] & values_upto(DDZ_TWO_VALUE) & values_above(ks if ks < kp else kp)
    while trios and not c.full:
        v = value_at(trios)
        trios &= trios - 1
        take_add(c, v, 3)
        set_avail(c, v, v, 3)
        if v > ks:
            kick_singles(c, kicker_values(c), 1, 1, DDZ_TRIO_SINGLE, v, 4)
        if v > kp:
            kick_pairs(c, pair_values(c), 1, DDZ_TRIO_PAIR, v, 5)
        take_add(c, v, -3)


cdef void chain_kickers(ctx_t *c, int lo_v, int top, int n) noexcept nogil:
    """The airplanes with kickers whose trios are lo_v..top (``take`` holds them)."""
    cdef bint singles = top > shape_min(c, DDZ_AIRPLANE_SINGLES, 4 * n)
    cdef bint pairs = top > shape_min(c, DDZ_AIRPLANE_PAIRS, 5 * n)
    if not singles and not pairs:
        return
    set_avail(c, lo_v, top, 3)
    if singles:
        kick_singles(c, kicker_values(c), n, n if c.flags & DDZ_FLAG_REPEAT_KICKERS else 1,
                     DDZ_AIRPLANE_SINGLES, top, 4 * n)
    if pairs:
        kick_pairs(c, pair_values(c), n, DDZ_AIRPLANE_PAIRS, top, 5 * n)


cdef void gen_chains(ctx_t *c, int type_, int width, int min_n) noexcept nogil:
    """Straights, pair sequences and airplanes (with their kickers when ``type_`` is
    DDZ_AIRPLANE): ``width`` cards of each of n >= min_n consecutive values 3..A (when
    following, n is the play to beat's number of ranks and its top must be higher)."""
    cdef int s, e, n, k, plain = wants(c, type_)
    cdef int kicked = type_ == DDZ_AIRPLANE and (wants(c, DDZ_AIRPLANE_SINGLES) or wants(c, DDZ_AIRPLANE_PAIRS))
    cdef int n_lo = min_n, n_hi = DDZ_ACE_VALUE + 1
    cdef mask_t values = c.held[width] & values_upto(DDZ_ACE_VALUE), starts
    if not plain and not kicked:
        return
    if not c.lead:
        n_lo = n_hi = c.tg.length // WIDTH[c.tg.type]
        if n_lo < min_n or n_lo > DDZ_ACE_VALUE + 1:
            return
        values &= values_above(c.tg.key - n_lo + 1)   # a start above the beaten chain's
    starts = runs_of(values, n_lo)
    while starts and not c.full:
        s = value_at(starts)
        starts &= starts - 1
        for e in range(s, s + n_lo - 1):
            take_add(c, e, width)
        e = s + n_lo - 1
        while e - s < n_hi and values & value_bit(e):
            take_add(c, e, width)
            n = e - s + 1
            if plain:
                k = shape_min(c, type_, width * n)
                if e > k:
                    emit(c, type_, e, width * n, 0)
            if kicked:
                chain_kickers(c, s, e, n)
            e += 1
        for k in range(s, e):
            take_add(c, k, -width)


cdef void gen_four_two(ctx_t *c) noexcept nogil:
    """Four with two singles, four with two pairs."""
    cdef int ks = shape_min(c, DDZ_FOUR_TWO_SINGLES, 6), kp = shape_min(c, DDZ_FOUR_TWO_PAIRS, 8), v
    cdef mask_t fours = c.held[FOUR] & values_above(ks if ks < kp else kp)
    while fours and not c.full:
        v = value_at(fours)
        fours &= fours - 1
        take_add(c, v, FOUR)
        set_avail(c, v, v, FOUR)
        if v > ks:
            kick_singles(c, kicker_values(c), 2, 2 if c.flags & DDZ_FLAG_FOUR_TWO_PAIR else 1,
                         DDZ_FOUR_TWO_SINGLES, v, 6)
        if v > kp:
            kick_pairs(c, pair_values(c), 2, DDZ_FOUR_TWO_PAIRS, v, 8)
        take_add(c, v, -FOUR)


cdef void gen_bombs(ctx_t *c) noexcept nogil:
    """Bombs above the play to beat, and the rocket."""
    cdef int kmin = -1, v
    cdef mask_t fours
    if not c.lead and c.tg.cls == DDZ_ROCKET_CLASS:
        return
    if not c.lead and c.tg.cls == DDZ_BOMB_CLASS:
        kmin = c.tg.key
    fours = c.held[FOUR] & values_above(kmin)
    while fours and not c.full:
        v = value_at(fours)
        fours &= fours - 1
        take_add(c, v, FOUR)
        emit(c, DDZ_BOMB, v, FOUR, DDZ_BOMB_CLASS)
        take_add(c, v, -FOUR)
    if c.held[1] & value_bit(DDZ_BJ_VALUE) and c.held[1] & value_bit(DDZ_RJ_VALUE):
        take_add(c, DDZ_BJ_VALUE, 1)
        take_add(c, DDZ_RJ_VALUE, 1)
        emit(c, DDZ_ROCKET, DDZ_RJ_VALUE, 2, DDZ_ROCKET_CLASS)
        take_add(c, DDZ_BJ_VALUE, -1)
        take_add(c, DDZ_RJ_VALUE, -1)


cdef void gen_ordinary(ctx_t *c) noexcept nogil:
    """The ordinary combinations: every type when leading, else the type of the play to
    beat (its generator alone)."""
    cdef int t = c.tg.type
    if c.lead or t == DDZ_SINGLE:
        gen_sets(c, DDZ_SINGLE, 1, DDZ_RJ_VALUE)
    if c.lead or t == DDZ_PAIR:
        gen_sets(c, DDZ_PAIR, 2, DDZ_TWO_VALUE)
    if c.lead or t == DDZ_TRIO:
        gen_sets(c, DDZ_TRIO, 3, DDZ_TWO_VALUE)
    if c.lead or t == DDZ_TRIO_SINGLE or t == DDZ_TRIO_PAIR:
        gen_trio_kickers(c)
    if c.lead or t == DDZ_STRAIGHT:
        gen_chains(c, DDZ_STRAIGHT, 1, MIN_STRAIGHT)
    if c.lead or t == DDZ_PAIR_SEQUENCE:
        gen_chains(c, DDZ_PAIR_SEQUENCE, 2, MIN_PAIR_SEQUENCE)
    if c.lead or t == DDZ_AIRPLANE or t == DDZ_AIRPLANE_SINGLES or t == DDZ_AIRPLANE_PAIRS:
        gen_chains(c, DDZ_AIRPLANE, 3, MIN_AIRPLANE)
    if c.flags & DDZ_FLAG_FOUR_WITH_TWO and (c.lead or t == DDZ_FOUR_TWO_SINGLES or t == DDZ_FOUR_TWO_PAIRS):
        gen_four_two(c)


cdef int ddz_generate(mask_t hand, int flags, int collapse, const ddz_target *target,
                      playbuf_t *out) noexcept nogil:
    """Append every legal play of ``hand`` to ``out`` (``target.type`` 0: leading, else the
    plays that beat it), in the order of the type codes; 0, GEN_OOM or GEN_TOO_MANY."""
    cdef ctx_t c
    cdef int k
    c.out = out
    c.full = 0
    c.flags = flags
    c.collapse = collapse
    c.tg = target[0]
    c.lead = target.type == 0
    c.low = 0
    c.avail = 0
    c.hand = hand
    c.suits = by_value(hand)
    c.counts = nibble_counts(c.suits)
    for k in range(1, FOUR + 1):
        c.held[k] = values_held(c.counts, k)
    memset(c.take, 0, sizeof(c.take))
    if c.lead or c.tg.cls == 0:
        gen_ordinary(&c)
    gen_bombs(&c)
    if out.oom:
        return -1
    if c.full:
        return GEN_TOO_MANY
    return 0


# --- the Python wrappers -----------------------------------------------------------------
cdef mask_t hand_mask(object hand) except? 0xFFFFFFFFFFFFFFFF:
    """The one-deck mask of a hand (``Cards``, string or iterable of card strings)."""
    cdef mask_t lo, hi
    hand_masks(hand, 1, "hand", &lo, &hi)
    return lo


cdef int check_record(PlayRecord p) except -1:
    """ValueError unless the record is a Dou Dizhu play: a bomb class that matches its
    type, its number of cards, a key in range and a chain of 3..A of legal length."""
    cdef int t = p.rec.type, key = p.rec.key, length = p.rec.length, cls = p.rec.cls
    cdef int width = WIDTH[t] if t <= DDZ_ROCKET else 0
    cdef int ok
    if p.rec.hi or p.rec.nwild:
        bad_record(p, "Dou Dizhu")
    if t == DDZ_ROCKET:
        ok = cls == DDZ_ROCKET_CLASS and key == DDZ_RJ_VALUE and length == 2
    elif t == DDZ_BOMB:
        ok = cls == DDZ_BOMB_CLASS and key <= DDZ_TWO_VALUE and length == FOUR
    elif cls:
        ok = 0
    elif t == DDZ_SINGLE:
        ok = length == 1 and key <= DDZ_RJ_VALUE
    elif width:
        ok = (length % width == 0 and length // width >= (
            MIN_STRAIGHT if t == DDZ_STRAIGHT else MIN_PAIR_SEQUENCE if t == DDZ_PAIR_SEQUENCE else MIN_AIRPLANE))
    else:
        ok = key <= DDZ_TWO_VALUE and length == (
            2 if t == DDZ_PAIR else 3 if t == DDZ_TRIO else 4 if t == DDZ_TRIO_SINGLE
            else 5 if t == DDZ_TRIO_PAIR else 6 if t == DDZ_FOUR_TWO_SINGLES else 8)
    if not ok:
        bad_record(p, "Dou Dizhu")
    check_run(p, "Dou Dizhu", width, key, 0, DDZ_ACE_VALUE)
    return 0


# the last Rules read, and its flags (a Rules is immutable): a loop over positions under
# one Rules reads its flags once
cdef object LAST_RULES = None
cdef int LAST_FLAGS = 0


cdef int ddz_rules_flags(object rules) except -1:
    """The generator flags of `rules` (None: the default rules); TypeError if not a Rules."""
    global LAST_RULES, LAST_FLAGS
    if rules is None:
        return CLASSES.pagat_flags
    if rules is not LAST_RULES:
        LAST_FLAGS = CLASSES.rules_of(rules)._flags
        LAST_RULES = rules
    return LAST_FLAGS


# a list's first room (records), for nearly every hand's plays (roomy_playlist)
cdef enum:
    ROOMY_LEAD = 1024
    ROOMY_FOLLOW = 64


def legal_plays(hand, previous=None, *, rules=None, collapse_suits=False):
    """Every legal play of a Dou Dizhu hand (``docs/rules/doudizhu.md``).

    Args:
        hand: a one-deck ``Cards`` or a card string such as ``"7S 7H BJ"``.
        previous: the ``Play`` to beat, or ``None`` when leading.
        rules: a ``Rules`` object (default ``Rules()``).
        collapse_suits: one play per suit-collapsed group (``docs/rules/cards.md``:
            type, key and cards of each rank; the lowest suits S H C D of each rank)
            instead of every concrete choice of suits.

    Returns:
        A ``PlayList``: leading, every combination the hand can form; following, every
        play of the same type and length with a higher key, every bomb that beats it
        and the rocket (passing is always allowed then and is not listed).

    Raises:
        ValueError: a bad card, a card given twice, bad ``previous`` or ``rules``.
        MemoryError: more than 20 million plays (a hand of most of the deck; the
            suit-collapsed view stays small), or memory ran out.

    >>> [str(p) for p in legal_plays("3S 3H 3C 4S", collapse_suits=True)]
    ['single 3: 3S', 'single 4: 4S', 'pair 3: 3S 3H', 'trio 3: 3S 3H 3C', 'trio 3 with a single: 3S 3H 3C 4S']
    >>> previous = legal_plays("5S 5H")[-1]
    >>> [str(p) for p in legal_plays("6D 6C BJ RJ", previous)]
    ['pair 6: 6C 6D', 'rocket: BJ RJ']
    """
    cdef mask_t lo = hand_mask(hand)
    cdef int flags = ddz_rules_flags(rules)
    cdef ddz_target tg
    cdef PlayList out
    cdef bint collapse = check_flag(collapse_suits, "collapse_suits")
    cdef PlayRecord prev
    target_set(&tg, NULL)
    if previous is not None:
        prev = check_previous(previous, CLASSES.play)
        check_record(prev)
        target_set(&tg, &prev.rec)
    out = roomy_playlist(CLASSES.factory, None, ROOMY_FOLLOW if tg.type else ROOMY_LEAD)
    # a few microseconds of work: releasing the GIL would cost more than it frees
    check_generated(ddz_generate(lo, flags, collapse, &tg, &out.buf))
    roomy_filled(out)
    return out


def legal_plays_batch(hands, previous=None, *, rules=None, collapse_suits=False):
    """The legal plays of many positions in one call (``legal_plays`` of each, in order).

    For callers that hold many positions at once (a batch of environments, the leaves
    of a search): one Python call and one list, however many positions.

    Args:
        hands: a 1-D array of one-deck masks (``numpy.uint64``, ``Cards.lo``) or a
            sequence of hands (``Cards`` or card strings).
        previous: ``None`` (every position leads) or a sequence of one ``Play`` or
            ``None`` per hand.
        rules, collapse_suits: as in ``legal_plays``.

    Returns:
        ``(plays, offsets)``: one ``PlayList`` of every position's plays, and an int64
        array of ``len(hands) + 1`` offsets; position ``i``'s plays are
        ``plays[offsets[i]:offsets[i + 1]]`` (records: ``plays.to_numpy()[...]``).

    Raises:
        TypeError, ValueError: as ``legal_plays``, naming the position; ``previous``
            of another length than ``hands``.
        MemoryError: as ``legal_plays``, for one position or for the whole list.

    >>> plays, offsets = legal_plays_batch(["3S 3H", "4D"], [None, legal_plays("3D")[0]], collapse_suits=True)
    >>> [str(p) for p in plays], offsets.tolist()
    (['single 3: 3S', 'pair 3: 3S 3H', 'single 4: 4D'], [0, 2, 3])
    """
    cdef int flags = ddz_rules_flags(rules)
    cdef bint collapse = check_flag(collapse_suits, "collapse_suits")
    cdef const unsigned long long[::1] masks = None
    cdef Py_ssize_t i, n
    cdef ddz_target tg
    cdef PlayRecord prev
    cdef mask_t lo
    if isinstance(hands, np.ndarray):
        if hands.dtype != np.uint64 or hands.ndim != 1:
            raise TypeError(f"hands must be a 1-D numpy.uint64 array of masks or a sequence of hands, "
                            f"not an array of {hands.dtype} with {hands.ndim} dimensions")
        masks = np.ascontiguousarray(hands)
        n = masks.shape[0]
    elif isinstance(hands, (str, bytes)) or not hasattr(hands, "__len__"):
        raise TypeError(f"hands must be a 1-D numpy.uint64 array of masks or a sequence of hands, not {hands!r}")
    else:
        n = len(hands)
    if previous is not None:
        if isinstance(previous, (str, bytes)) or not hasattr(previous, "__len__"):
            raise TypeError(f"previous must be None or a sequence of one Play or None per hand, not {previous!r}")
        if len(previous) != n:
            raise ValueError(f"previous must hold one Play or None per hand ({n}), not {len(previous)}")
    offsets = np.zeros(n + 1, dtype=np.int64)
    cdef long long[::1] off = offsets
    cdef PlayList out = roomy_playlist(CLASSES.factory, None, ROOMY_LEAD)
    for i in range(n):
        if masks is not None:
            lo = masks[i]
            if not multiset_valid(lo, 0):
                raise ValueError(f"hands[{i}] has bits beyond the 54 faces")
        else:
            try:
                lo = hand_mask(hands[i])
            except (TypeError, ValueError) as e:
                raise type(e)(f"hands[{i}]: {e}") from None
        target_set(&tg, NULL)
        if previous is not None and previous[i] is not None:
            try:
                prev = check_previous(previous[i], CLASSES.play)
                check_record(prev)
            except (TypeError, ValueError) as e:
                raise type(e)(f"previous[{i}]: {e}") from None
            target_set(&tg, &prev.rec)
        check_generated(ddz_generate(lo, flags, collapse, &tg, &out.buf))
        off[i + 1] = out.buf.len
    roomy_filled(out)
    return out, offsets


def kernel_count(hands, previous=None, *, rules=None, collapse_suits=False, repeat=1):
    """Run the bare kernel on many hands, reusing one buffer; the total number of plays.

    For throughput measurements (``bench/``): no Python object is created per hand or
    per play.  ``hands`` are one-deck masks; ``previous``, if given, holds one row
    ``(type, length, cls, key)`` per hand, the play to beat (type 0: leading).
    """
    return onedeck_kernel_count(ddz_generate, hands, previous, ddz_rules_flags(rules), collapse_suits, repeat,
                                DDZ_ROCKET, DDZ_ROCKET_CLASS, "Dou Dizhu")
