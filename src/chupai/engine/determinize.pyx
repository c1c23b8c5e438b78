"""The compiled determinization the climbing games share (Guan Dan, Zheng Shangyou,
Gan Deng Yan; Chinese Ten has its own, without constraints).  Each game's
``_world`` module is the thin hook that copies its engine and hands this module the
hands of the copy's struct.

A seat's view of a deal fixes its own hand, every card played, each hand's size and the
cards publicly known to be in a hand.  Everything else (the other hands' unknown cards,
a talon) is dealt again here, uniformly over the deals the public history allows:

* ``forbid``: faces a hand cannot hold (a Guan Dan payer holds nothing above its
  tribute, ...).  Handled exactly: the cards are grouped by the set of hands that may
  take them and each group's split is drawn with its exact weight (the number of
  deals it leaves, counted in 128-bit integers; the copies of a face are distinct, as a
  shuffle deals them), then the cards of each group are shuffled into its split.
* ``must``: a hand holds at least one face of a mask (where the masks come from:
  :func:`chupai.engine.sampling.must_masks`).  Handled by rejection: the forbid-uniform draw
  is repeated until it holds, which is uniform over the deals respecting both.
* ``accept`` (the games' hooks only, ``dz_redeal``): a C test of a draw's hands for
  what no mask says (a tribute decision still to come), rejection likewise.

Hands with the same ``forbid`` are one class for the count (their common cards are
split among them by a shuffle), so the count's state is at most
``DZ_MAX_CLASSES - 1`` hand sizes.

>>> sorted(map(sorted, deal([0, 1, 2, 3], [2, 2], [0, 0b0011], None, seed=5)))
[[0, 1], [2, 3]]
"""
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.math cimport M_LN2, lgamma
from libc.stdlib cimport realloc
from libc.string cimport memcpy, memset

from chupai.core.cardset cimport Cards, cards_new
from chupai.core.records cimport (
    BJ_BIT,
    N_FACES,
    N_RANKS,
    RANK_BITS,
    RJ_BIT,
    bit,
    mask_t,
    rank_nibble,
    rng_below,
    rng_next,
    rng_seed,
    rng_shuffle,
    rng_t,
    seed64,
)
from chupai.engine.base cimport Engine, check_seat

from chupai.errors import ReplayError

__all__ = ["MUST_TRIES", "deal", "redeal_hands"]

cdef extern from *:
    """
    typedef unsigned __int128 chupai_u128;
    """
    # exact deal counts: at most 81! / (27!)^3 < 2^122 for Guan Dan's 81 hidden cards
    ctypedef unsigned long long u128 "chupai_u128"

cdef enum:
    MAX_GROUPS = 16              # sets of classes a card may go to (2^DZ_MAX_CLASSES)

#: draws rejected by the ``must`` constraints before giving up (RuntimeError)
MUST_TRIES = 100000

# BINOM[n][k] = n choose k, exact (C(108, 54) < 2^106)
cdef u128 BINOM[DZ_MAX_POOL + 1][DZ_MAX_POOL + 1]


cdef void _init_binom() noexcept:
    cdef int n, k
    for n in range(DZ_MAX_POOL + 1):
        BINOM[n][0] = 1
        BINOM[n][n] = 1
        for k in range(1, n):
            BINOM[n][k] = BINOM[n - 1][k - 1] + BINOM[n - 1][k]


_init_binom()

# the count's memo: one module buffer, entries valid when their stamp is the call's
cdef u128 *_memo = NULL
cdef uint32_t *_stamp = NULL
cdef Py_ssize_t _memo_cap = 0
cdef uint32_t _gen = 0


ctypedef struct ctx_t:
    int D                        # classes
    int cap[DZ_MAX_CLASSES]      # cards each class still takes
    int G                        # constrained groups (cards some class may not take)
    int gsize[MAX_GROUPS]
    int gnallow[MAX_GROUPS]
    int gallow[MAX_GROUPS][DZ_MAX_CLASSES]
    Py_ssize_t stride[DZ_MAX_CLASSES]
    Py_ssize_t level


cdef inline Py_ssize_t _index(ctx_t *c, int i) noexcept:
    cdef Py_ssize_t idx = i * c.level
    cdef int k
    for k in range(c.D - 1):
        idx += c.cap[k] * c.stride[k]
    return idx


cdef u128 _count(ctx_t *c, int i) noexcept:
    """The deals of groups i.. and the free cards into the classes' caps."""
    cdef u128 w = 1
    cdef int n = 0, k
    cdef Py_ssize_t idx
    if i == c.G:
        for k in range(c.D):
            n += c.cap[k]
        for k in range(c.D):
            w *= BINOM[n][c.cap[k]]
            n -= c.cap[k]
        return w
    idx = _index(c, i)
    if _stamp[idx] == _gen:
        return _memo[idx]
    w = _splits(c, i, 0, c.gsize[i], 1)
    _memo[idx] = w
    _stamp[idx] = _gen
    return w


cdef u128 _splits(ctx_t *c, int i, int k, int left, u128 w) noexcept:
    """Sum over the splits of group i's `left` cards among its classes k.. (w: the ways
    so far) of the deals each leaves."""
    cdef int v = c.gallow[i][k], x, top
    cdef u128 total = 0, rest
    if k == c.gnallow[i] - 1:
        if left > c.cap[v]:
            return 0
        c.cap[v] -= left
        rest = _count(c, i + 1)
        c.cap[v] += left
        return w * rest
    top = left if left < c.cap[v] else c.cap[v]
    for x in range(top + 1):
        c.cap[v] -= x
        total += _splits(c, i, k + 1, left - x, w * BINOM[left][x])
        c.cap[v] += x
    return total


cdef int _pick(ctx_t *c, int i, int k, int left, u128 w, u128 *r, int *take) noexcept:
    """Walk the splits as _splits does, taking away each one's weight from r[0] until
    r[0] falls inside one: that split (cards per class in `take`, caps left reduced)."""
    cdef int v = c.gallow[i][k], x, top
    cdef u128 term
    if k == c.gnallow[i] - 1:
        if left > c.cap[v]:
            return 0
        c.cap[v] -= left
        term = w * _count(c, i + 1)
        if r[0] < term:
            take[v] = left
            return 1
        r[0] -= term
        c.cap[v] += left
        return 0
    top = left if left < c.cap[v] else c.cap[v]
    for x in range(top + 1):
        c.cap[v] -= x
        if _pick(c, i, k + 1, left - x, w * BINOM[left][x], r, take):
            take[v] = x
            return 1
        c.cap[v] += x
    return 0


cdef u128 _below(rng_t *rng, u128 n) noexcept:
    """Uniform in [0, n), n >= 1 (rejection of the top partial block of 2^128)."""
    cdef u128 x, rem
    if n <= 0xFFFFFFFF:
        return rng_below(rng, <uint32_t>n)
    rem = (<u128>0 - n) % n          # 2^128 mod n
    while True:
        x = ((<u128>rng_next(rng)) << 64) | rng_next(rng)
        if x >= rem:
            return x % n


cdef int _memo_ready(Py_ssize_t size) noexcept:
    global _memo, _stamp, _memo_cap, _gen
    cdef void *m
    cdef void *s
    if size > _memo_cap:
        m = realloc(_memo, size * sizeof(u128))
        if m == NULL:
            return -1
        _memo = <u128 *>m
        s = realloc(_stamp, size * sizeof(uint32_t))
        if s == NULL:
            return -1
        _stamp = <uint32_t *>s
        memset(_stamp, 0, size * sizeof(uint32_t))
        _memo_cap = size
        _gen = 0
    _gen += 1
    if _gen == 0:
        memset(_stamp, 0, _memo_cap * sizeof(uint32_t))
        _gen = 1
    return 0


cdef int _musts_hold(const dz_job_t *job) noexcept:
    cdef int j, k, at = 0
    cdef mask_t got
    for j in range(job.nh):
        if job.must[j]:
            got = 0
            for k in range(at, at + job.need[j]):
                got |= bit(job.out[k])
            if not got & job.must[j]:
                return 0
        at += job.need[j]
    return 1


cdef int dz_deal(dz_job_t *job, rng_t *rng, int tries) noexcept:
    return _deal(job, rng, tries, NULL, NULL)


# a test of a draw of the job (its `out`) beyond the must masks, with its data
ctypedef int (*_test_t)(const dz_job_t *job, const void *arg) noexcept


cdef int _deal(dz_job_t *job, rng_t *rng, int tries, _test_t test, const void *arg) noexcept:
    """dz_deal, each draw also passing `test` (when not NULL): the classes, groups and
    counts are made once, only the draws repeat."""
    cdef int nh = job.nh, j, k, v, g, n, at, free_n = 0, t, total = 0
    cdef int cls[DZ_MAX_HANDS]
    cdef mask_t cforbid[DZ_MAX_CLASSES]
    cdef int gid[MAX_GROUPS]               # allowed-class set -> group index, -1 none
    cdef uint8_t cards[MAX_GROUPS][DZ_MAX_POOL]
    cdef uint8_t freec[DZ_MAX_POOL]
    cdef uint8_t byclass[DZ_MAX_CLASSES][DZ_MAX_POOL]
    cdef int nby[DZ_MAX_CLASSES]
    cdef int take[DZ_MAX_CLASSES]
    cdef int start_cap[DZ_MAX_CLASSES]
    cdef int nhands[DZ_MAX_CLASSES]
    cdef int ordered = -1                  # the class of hand job.ordered
    cdef int gset[MAX_GROUPS]
    cdef unsigned allowed, full
    cdef ctx_t c
    cdef u128 r
    cdef Py_ssize_t size
    cdef double bound
    if nh < 1 or nh > DZ_MAX_HANDS or job.npool < 0 or job.npool > DZ_MAX_POOL:
        return DZ_NONE
    for j in range(nh):
        if job.need[j] < 0:
            return DZ_NONE
        total += job.need[j]
    if total != job.npool:
        return DZ_NONE
    # the classes: hands with the same forbidden faces
    c.D = 0
    for j in range(nh):
        for v in range(c.D):
            if cforbid[v] == job.forbid[j]:
                break
        else:
            if c.D == DZ_MAX_CLASSES:
                return DZ_TOO_MANY
            v = c.D
            cforbid[v] = job.forbid[j]
            c.cap[v] = 0
            nhands[v] = 0
            c.D += 1
        cls[j] = v
        c.cap[v] += job.need[j]
        nhands[v] += 1
        if j == job.ordered:
            ordered = v
    full = ((<unsigned>1) << c.D) - 1
    # the groups: cards by the classes that may take them
    for g in range(MAX_GROUPS):
        gid[g] = -1
    c.G = 0
    for k in range(job.npool):
        allowed = 0
        for v in range(c.D):
            if not (cforbid[v] >> job.pool[k]) & 1:
                allowed |= (<unsigned>1) << v
        if allowed == 0:
            return DZ_NONE
        if allowed == full:
            freec[free_n] = job.pool[k]
            free_n += 1
            continue
        if gid[allowed] < 0:
            gid[allowed] = c.G
            gset[c.G] = allowed
            c.gsize[c.G] = 0
            c.gnallow[c.G] = 0
            for v in range(c.D):
                if allowed >> v & 1:
                    c.gallow[c.G][c.gnallow[c.G]] = v
                    c.gnallow[c.G] += 1
            c.G += 1
        g = gid[allowed]
        cards[g][c.gsize[g]] = job.pool[k]
        c.gsize[g] += 1
    for v in range(c.D):
        start_cap[v] = c.cap[v]
    if c.G:
        # every count below is at most the deals into the classes' sizes, which must
        # fit 128 bits (Guan Dan's largest, 81 cards into 3 x 27: below 2^122)
        bound = lgamma(job.npool + 1.0)
        for v in range(c.D):
            bound -= lgamma(c.cap[v] + 1.0)
        if bound > 126.0 * M_LN2:
            return DZ_TOO_MANY
        c.level = 1
        for v in range(c.D - 1):
            c.stride[v] = c.level
            c.level *= c.cap[v] + 1
        size = (c.G + 1) * c.level
        if _memo_ready(size) < 0:
            return DZ_NONE
        if _count(&c, 0) == 0:
            return DZ_NONE
    for t in range(tries):
        for v in range(c.D):
            c.cap[v] = start_cap[v]
            nby[v] = 0
        for g in range(c.G):
            r = _below(rng, _count(&c, g))
            _pick(&c, g, 0, c.gsize[g], 1, &r, take)
            rng_shuffle(cards[g], c.gsize[g], rng)
            at = 0
            for k in range(c.gnallow[g]):
                v = c.gallow[g][k]
                for n in range(take[v]):
                    byclass[v][nby[v]] = cards[g][at]
                    nby[v] += 1
                    at += 1
        if c.D > 1:  # (one class: its shuffle below deals them)
            rng_shuffle(freec, free_n, rng)
        at = 0
        for v in range(c.D):
            for n in range(c.cap[v]):
                byclass[v][nby[v]] = freec[at]
                nby[v] += 1
                at += 1
        # each class's cards to its hands in a random order (a class of one hand takes
        # them all: their order matters only for an ordered hand)
        for v in range(c.D):
            if nhands[v] > 1 or v == ordered:
                rng_shuffle(byclass[v], nby[v], rng)
            nby[v] = 0
        at = 0
        for j in range(nh):
            v = cls[j]
            for n in range(job.need[j]):
                job.out[at] = byclass[v][nby[v]]
                nby[v] += 1
                at += 1
        if _musts_hold(job) and (test == NULL or test(job, arg)):
            return DZ_OK
    return DZ_TRIES


cdef inline int _copies(mask_t lo, mask_t hi, int f) noexcept:
    return <int>((lo >> f) & 1) + <int>((hi >> f) & 1)


# what the test of a world's draw needs to see the hands the draw makes
ctypedef struct world_t:
    int seats
    int nhidden                  # the job's hands that are seats (a talon is not)
    int seat_of[DZ_MAX_HANDS]
    const mask_t *lo             # the hands before the draw
    const mask_t *hi
    const mask_t *klo
    const mask_t *khi
    dz_accept_t accept
    const void *arg


cdef void _place(const world_t *w, const dz_job_t *job, mask_t *lo, mask_t *hi) noexcept:
    """The seats' hands of the draw `job.out`: their known cards and the new hidden ones."""
    cdef int j, k, s, at = 0
    cdef mask_t b
    for j in range(w.nhidden):
        s = w.seat_of[j]
        lo[s] = w.klo[s]
        hi[s] = w.khi[s]
        for k in range(at, at + job.need[j]):
            b = bit(job.out[k])
            if lo[s] & b:
                hi[s] |= b
            else:
                lo[s] |= b
        at += job.need[j]


cdef int _world_test(const dz_job_t *job, const void *arg) noexcept:
    cdef const world_t *w = <const world_t *>arg
    cdef mask_t lo[DZ_MAX_HANDS]
    cdef mask_t hi[DZ_MAX_HANDS]
    memcpy(lo, w.lo, w.seats * sizeof(mask_t))
    memcpy(hi, w.hi, w.seats * sizeof(mask_t))
    _place(w, job, lo, hi)
    return w.accept(lo, hi, w.arg)


cdef int dz_world(int seats, int player, mask_t *lo, mask_t *hi, const mask_t *klo, const mask_t *khi,
                  const mask_t *forbid, const mask_t *must, uint8_t *extra, int nextra,
                  dz_accept_t accept, const void *arg, rng_t *rng, int tries) noexcept:
    cdef dz_job_t job
    cdef world_t w
    cdef int s, f, n, k, rc
    if seats < 1 or seats > DZ_MAX_HANDS - 1 or nextra < 0:
        return DZ_NONE
    job.nh = 0
    job.npool = 0
    for s in range(seats):
        if s == player:
            continue
        job.need[job.nh] = 0
        for f in range(N_FACES):
            n = _copies(lo[s], hi[s], f) - _copies(klo[s], khi[s], f)
            if n < 0 or job.npool + n > DZ_MAX_POOL:
                return DZ_NONE
            for k in range(n):
                job.pool[job.npool] = f
                job.npool += 1
            job.need[job.nh] += n
        job.forbid[job.nh] = forbid[s] if forbid != NULL else 0
        job.must[job.nh] = must[s] if must != NULL else 0
        w.seat_of[job.nh] = s
        job.nh += 1
    w.nhidden = job.nh
    job.ordered = job.nh if nextra else -1
    if nextra:
        if job.npool + nextra > DZ_MAX_POOL:
            return DZ_NONE
        for k in range(nextra):
            job.pool[job.npool + k] = extra[k]
        job.npool += nextra
        job.need[job.nh] = nextra
        job.forbid[job.nh] = 0
        job.must[job.nh] = 0
        job.nh += 1
    w.seats = seats
    w.lo = lo
    w.hi = hi
    w.klo = klo
    w.khi = khi
    w.accept = accept
    w.arg = arg
    rc = _deal(&job, rng, tries, _world_test if accept != NULL else <_test_t>NULL, &w)
    if rc != DZ_OK:
        return rc
    _place(&w, &job, lo, hi)
    for k in range(nextra):
        extra[k] = job.out[job.npool - nextra + k]
    return DZ_OK


cdef mask_t dz_top_faces(mask_t faces, int top) noexcept:
    cdef int r
    if faces & bit(RJ_BIT):
        return bit(RJ_BIT)
    if faces & bit(BJ_BIT):
        return bit(BJ_BIT)
    if rank_nibble(faces, top):
        return (<mask_t>rank_nibble(faces, top)) << (top * RANK_BITS)
    for r in range(N_RANKS - 1, -1, -1):
        if r != top and rank_nibble(faces, r):
            return (<mask_t>rank_nibble(faces, r)) << (r * RANK_BITS)
    return 0


# --- the Python entry points ------------------------------------------------------------------
cdef int _raise(int rc) except -1:
    if rc == DZ_NONE:
        raise ReplayError("no deal of the hidden cards respects the public history (the deal's own "
                          "cards should: a bug in the state machine)")
    if rc == DZ_TRIES:
        raise RuntimeError(f"no deal consistent with the observation was found in {MUST_TRIES} draws")
    if rc == DZ_TOO_MANY:
        raise RuntimeError(f"more than {DZ_MAX_CLASSES} differently constrained hands, or more "
                           "constrained deals than 128-bit counts hold")
    return 0


cdef int _read_masks(object seq, int n, mask_t *out, str what) except -1:
    """`seq`: None (all 0) or `n` face masks (ints)."""
    cdef int s
    if seq is None:
        for s in range(n):
            out[s] = 0
        return 0
    if not isinstance(seq, (tuple, list)):
        raise TypeError(f"{what} must be a tuple or list of {n} face masks, not {seq!r}")
    if len(seq) != n:
        raise ValueError(f"{what} must hold {n} face masks, not {len(seq)}")
    for s in range(n):
        m = seq[s]
        if isinstance(m, bool) or not isinstance(m, int):
            raise TypeError(f"{what}[{s}] must be an int face mask, not {m!r}")
        if m < 0 or m >> N_FACES:
            raise ValueError(f"{what}[{s}] must be a mask of the faces 0..{N_FACES - 1}, not {m!r}")
        out[s] = m
    return 0


cdef int dz_read_known(object known, int n, mask_t *klo, mask_t *khi, str what) except -1:
    """`known` (called `what`): `n` entries, each a Cards or a one-deck face mask (int)."""
    cdef int s
    cdef Cards c
    if not isinstance(known, (tuple, list)):
        raise TypeError(f"{what} must be a tuple or list of {n} Cards or masks, not {known!r}")
    if len(known) != n:
        raise ValueError(f"{what} must hold {n} entries, not {len(known)}")
    for s in range(n):
        k = known[s]
        if isinstance(k, Cards):
            c = <Cards>k
            klo[s] = c.w[0]
            khi[s] = c.w[1]
        elif isinstance(k, int) and not isinstance(k, bool):
            if k < 0 or k >> N_FACES:
                raise ValueError(f"{what}[{s}] must be a mask of the faces 0..{N_FACES - 1}, not {k!r}")
            klo[s] = k
            khi[s] = 0
        else:
            raise TypeError(f"{what}[{s}] must be a Cards or an int face mask, not {k!r}")
    return 0


def deal(pool, need, forbid=None, must=None, *, seed, tries=MUST_TRIES):
    """The hands dealt from ``pool`` (faces 0..53, one entry per copy, at most 108) to
    hands of sizes ``need``, hand ``j`` holding no face of mask ``forbid[j]`` and one of
    mask ``must[j]`` at least (when not 0); uniform over those deals (the copies treated
    as distinct).  A list of lists of faces (each in no particular order);
    ``ReplayError`` when no deal exists.
    """
    cdef dz_job_t job
    cdef rng_t rng
    cdef int j, k, at = 0
    cdef mask_t fm[DZ_MAX_HANDS]
    cdef mask_t mm[DZ_MAX_HANDS]
    if not isinstance(need, (tuple, list)) or not isinstance(pool, (tuple, list)):
        raise TypeError("pool and need must be lists")
    if not 1 <= len(need) <= DZ_MAX_HANDS:
        raise ValueError(f"need must list 1 to {DZ_MAX_HANDS} hand sizes, not {len(need)}")
    if len(pool) > DZ_MAX_POOL:
        raise ValueError(f"pool holds {len(pool)} cards; at most {DZ_MAX_POOL}")
    if isinstance(tries, bool) or not isinstance(tries, int) or tries < 1:
        raise ValueError(f"tries must be a positive int, not {tries!r}")
    job.nh = len(need)
    job.ordered = -1
    _read_masks(forbid, job.nh, fm, "forbid")
    _read_masks(must, job.nh, mm, "must")
    for j in range(job.nh):
        if isinstance(need[j], bool) or not isinstance(need[j], int):
            raise TypeError(f"need[{j}] must be an int, not {need[j]!r}")
        if need[j] < 0:
            raise ValueError(f"need[{j}] must be at least 0, not {need[j]}")
        job.need[j] = need[j]
        job.forbid[j] = fm[j]
        job.must[j] = mm[j]
    job.npool = len(pool)
    for k in range(job.npool):
        f = pool[k]
        if isinstance(f, bool) or not isinstance(f, int) or not 0 <= f < N_FACES:
            raise ValueError(f"pool[{k}] must be a face 0..{N_FACES - 1}, not {f!r}")
        job.pool[k] = f
    if sum(need) != job.npool:
        raise ValueError(f"the hand sizes {list(need)} do not add up to the {job.npool} cards of the pool")
    rng_seed(&rng, seed64(seed), 0)
    _raise(dz_deal(&job, &rng, tries))
    out = []
    for j in range(job.nh):
        out.append([job.out[k] for k in range(at, at + job.need[j])])
        at += job.need[j]
    return out


cdef int dz_redeal(int seats, int player, mask_t *lo, mask_t *hi, object known, object forbid, object must,
                object seed, uint8_t *extra, int nextra, dz_accept_t accept, const void *arg) except -1:
    cdef mask_t klo[DZ_MAX_HANDS]
    cdef mask_t khi[DZ_MAX_HANDS]
    cdef mask_t fm[DZ_MAX_HANDS]
    cdef mask_t mm[DZ_MAX_HANDS]
    cdef rng_t rng
    dz_read_known(known, seats, klo, khi, "known")
    _read_masks(forbid, seats, fm, "forbid")
    _read_masks(must, seats, mm, "must")
    rng_seed(&rng, seed64(seed), 0)
    _raise(dz_world(seats, player, lo, hi, klo, khi, fm if forbid is not None else NULL,
                    mm if must is not None else NULL, extra, nextra, accept, arg, &rng, MUST_TRIES))
    return 0


cdef Engine dz_copy_of(Engine engine, str game):
    """A clone of `engine`, an engine of `game` (TypeError otherwise)."""
    if engine.h_spec().name != game:
        raise TypeError(f"engine must be a chupai.{game} engine, not {engine!r}")
    return engine.clone()


def redeal_hands(hands, player, known, forbid, must, seed):
    """The hands (a sequence of Cards or one-deck int masks, at most 8) with the cards
    hidden from ``player`` dealt again (as the games' ``_world`` hooks do): a list of Cards
    (for the phases before the card play, whose hands are not in an engine yet)."""
    cdef mask_t lo[DZ_MAX_HANDS]
    cdef mask_t hi[DZ_MAX_HANDS]
    cdef int n, p, s
    if not isinstance(hands, (tuple, list)):
        raise TypeError(f"hands must be a tuple or list, not {hands!r}")
    n = len(hands)
    if not 1 <= n < DZ_MAX_HANDS:
        raise ValueError(f"hands must hold 1 to {DZ_MAX_HANDS - 1} hands, not {n}")
    p = check_seat(player, n, "player")
    dz_read_known(hands, n, lo, hi, "hands")
    dz_redeal(n, p, lo, hi, known, forbid, must, seed, NULL, 0, NULL, NULL)
    return [cards_new(lo[s], hi[s]) for s in range(n)]
