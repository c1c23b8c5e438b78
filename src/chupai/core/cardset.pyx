"""Card faces and the immutable multiset ``Cards``, compiled (see ``chupai.cards``).

A multiset is the core's two words: ``lo`` holds the faces held at least once, ``hi``
those held twice.  No game holds a card more than twice (two decks), so the public
constructors refuse more; only the *declared* view of a play (each wild card replaced
by what it stands for) may hold a face up to four times (two copies and two wild cards
standing in), in two more layers.  The text parser reads the characters of a string directly,
without splitting it into token objects.
"""
from cpython.unicode cimport PyUnicode_DATA, PyUnicode_KIND, PyUnicode_READ, Py_UNICODE_ISSPACE
from libc.stdint cimport uint8_t
from libc.string cimport memset

from chupai.core.records cimport BJ_BIT, N_FACES, RANK_BITS, RJ_BIT, bit, lowest_bit, mask_t, popcount

import numpy as np

from chupai.core.records import RANKS, SUITS

#: what a card token looks like, for the error messages
EXPECTED = "a rank 2-9/T/J/Q/K/A (or 10) followed by a suit S/H/C/D, or BJ/RJ"

cdef tuple _NAMES = tuple([r + s for r in RANKS for s in SUITS] + ["BJ", "RJ"])
cdef mask_t ALL_FACES = (<mask_t>1 << N_FACES) - 1

cdef enum:
    NO_CODE = -1


cdef inline unsigned upper_ascii(unsigned ch) noexcept nogil:
    return ch - 32 if ord('a') <= ch <= ord('z') else ch


cdef inline int rank_code(unsigned ch) noexcept nogil:
    """The rank index of a rank character (upper or lower case), or NO_CODE ("10" is
    handled by the token parser)."""
    if ord('2') <= ch <= ord('9'):
        return <int>(ch - ord('2'))
    ch = upper_ascii(ch)
    if ch == ord('T'):
        return 8
    if ch == ord('J'):
        return 9
    if ch == ord('Q'):
        return 10
    if ch == ord('K'):
        return 11
    if ch == ord('A'):
        return 12
    return NO_CODE


cdef inline int suit_code(unsigned ch) noexcept nogil:
    """The suit index of a suit letter (either case) or symbol (♠ ♥ ♣ ♦), or NO_CODE."""
    ch = upper_ascii(ch)
    if ch == ord('S') or ch == 0x2660:
        return 0
    if ch == ord('H') or ch == 0x2665:
        return 1
    if ch == ord('C') or ch == 0x2663:
        return 2
    if ch == ord('D') or ch == 0x2666:
        return 3
    return NO_CODE


cdef int token_face(int kind, const void *data, Py_ssize_t a, Py_ssize_t b) noexcept:
    """The face of the token data[a:b] (no surrounding white space), or NO_CODE."""
    cdef Py_ssize_t n = b - a
    cdef unsigned c0, c1
    cdef int r, s
    if n == 2:
        c0 = upper_ascii(PyUnicode_READ(kind, <void *>data, a))
        c1 = upper_ascii(PyUnicode_READ(kind, <void *>data, a + 1))
        if c1 == ord('J'):
            if c0 == ord('B'):
                return BJ_BIT
            if c0 == ord('R'):
                return RJ_BIT
        r = rank_code(c0)
        s = suit_code(c1)
    elif n == 3:
        if PyUnicode_READ(kind, <void *>data, a) != ord('1') or PyUnicode_READ(kind, <void *>data, a + 1) != ord('0'):
            return NO_CODE
        r = 8
        s = suit_code(PyUnicode_READ(kind, <void *>data, a + 2))
    else:
        return NO_CODE
    if r == NO_CODE or s == NO_CODE:
        return NO_CODE
    return r * RANK_BITS + s


cdef int str_face(str token) except -2:
    """The face of one token string (white space around it allowed), or NO_CODE."""
    cdef int kind = PyUnicode_KIND(token)
    cdef const void *data = PyUnicode_DATA(token)
    cdef Py_ssize_t a = 0, b = len(token)
    while a < b and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, <void *>data, a)):
        a += 1
    while b > a and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, <void *>data, b - 1)):
        b -= 1
    return token_face(kind, data, a, b)


cdef inline str name_of(int face):
    return <str>_NAMES[face]


cdef inline bint add_copy(mask_t *lo, mask_t *hi, int face, int decks) noexcept nogil:
    """Add one copy of `face`; False (nothing added) past `decks` copies."""
    cdef mask_t b = bit(face)
    if not (lo[0] & b):
        lo[0] |= b
    elif decks > 1 and not (hi[0] & b):
        hi[0] |= b
    else:
        return False
    return True


cdef str allowance(int decks):
    return "one deck holds each card once" if decks == 1 else "two decks hold each card at most twice"


cdef int too_many(int face, int decks, object token) except -1:
    raise ValueError(f"card {name_of(face)} (token {token!r}) appears too often; {allowance(decks)}")


cdef str unknown_card(str token):
    """The message for a token that is not a card; a suit-first token (``C2``, the Guan Dan
    protocol's spelling) is told its rank-first form."""
    cdef str flipped = token[1:] + token[:1]
    if len(token) >= 2 and str_face(flipped) != NO_CODE:
        return (f"unknown card {token!r}; did you mean {flipped!r}? Cards are written rank first "
                f"(a rank 2-9/T/J/Q/K/A, then a suit S/H/C/D; BJ/RJ); {token!r} is the protocol's suit-first form")
    return f"unknown card {token!r}; expected {EXPECTED}"


cdef int parse_text(str text, int decks, mask_t *lo, mask_t *hi) except -1:
    """Add the cards of a white-space separated card string to (lo, hi)."""
    cdef int kind = PyUnicode_KIND(text)
    cdef const void *data = PyUnicode_DATA(text)
    cdef Py_ssize_t n = len(text), i = 0, a
    cdef int face
    while True:
        while i < n and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, <void *>data, i)):
            i += 1
        if i == n:
            return 0
        a = i
        while i < n and not Py_UNICODE_ISSPACE(PyUnicode_READ(kind, <void *>data, i)):
            i += 1
        face = token_face(kind, data, a, i)
        if face == NO_CODE:
            raise ValueError(unknown_card(text[a:i]))
        if not add_copy(lo, hi, face, decks):
            too_many(face, decks, text[a:i])


cdef int parse_tokens(object tokens, int decks, mask_t *lo, mask_t *hi) except -1:
    """Add the cards of an iterable of card strings to (lo, hi)."""
    cdef int face
    for token in tokens:
        face = parse_face(token)
        if not add_copy(lo, hi, face, decks):
            too_many(face, decks, token)
    return 0


cdef int check_decks(object decks) except -1:
    if type(decks) is int and (decks == 1 or decks == 2):
        return decks
    if isinstance(decks, bool) or not isinstance(decks, (int, np.integer)):
        raise TypeError(f"decks must be an int, 1 or 2, not {decks!r}")
    if decks != 1 and decks != 2:
        raise ValueError(f"decks must be 1 or 2, not {decks!r}")
    return decks


cdef int hand_masks(object hand, int decks, str what, mask_t *lo, mask_t *hi) except -1:
    cdef Cards c
    lo[0] = 0
    hi[0] = 0
    if type(hand) is Cards:
        c = <Cards>hand
        if c.w[decks]:
            raise ValueError(f"{what} {c}: card {name_of(lowest_bit(c.w[decks]))} appears too often; {allowance(decks)}")
        lo[0] = c.w[0]
        hi[0] = c.w[1]
    elif isinstance(hand, str):
        parse_text(<str>hand, decks, lo, hi)
    elif isinstance(hand, (bytes, bytearray)) or not hasattr(hand, "__iter__"):
        raise TypeError(f"{what} must be Cards, a card string or an iterable of card strings, not {hand!r}")
    else:
        parse_tokens(hand, decks, lo, hi)
    return 0


cdef mask_t layer_of(object m, tuple layers) except? 0:
    """One mask argument of ``from_masks`` as 64 bits; TypeError / ValueError otherwise."""
    if type(m) is int and 0 <= m < (<object>1 << N_FACES):
        return <mask_t>m
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)):
        raise TypeError(f"mask layers must be ints, not {m!r}")
    m = int(m)
    if m < 0 or m >> N_FACES:
        raise ValueError(f"mask layers {layers!r} are not nested sets of the faces 0..{N_FACES - 1}")
    return <mask_t>m


cdef Cards cards_new(mask_t lo, mask_t hi):
    cdef Cards c = Cards.__new__(Cards)
    c.w[0] = lo
    c.w[1] = hi
    c.w[2] = 0
    c.w[3] = 0
    return c


cdef Cards cards_of_counts(const uint8_t *counts):
    """The multiset of per-face counts 0..MAX_LAYERS (the caller's promise)."""
    cdef Cards c = Cards.__new__(Cards)
    cdef int f, k
    memset(c.w, 0, sizeof(c.w))
    for f in range(N_FACES):
        for k in range(counts[f]):
            c.w[k] |= bit(f)
    return c


cdef inline int copies(Cards c, int f) noexcept:
    return <int>((c.w[0] >> f) & 1) + <int>((c.w[1] >> f) & 1) + <int>((c.w[2] >> f) & 1) + <int>((c.w[3] >> f) & 1)


def parse_face(token):
    """The face number of one card token; ``TypeError`` if it is not a string,
    ``ValueError`` naming the token if it is not a card."""
    if not isinstance(token, str):
        raise TypeError(f"card {token!r} is not a string; expected {EXPECTED}")
    cdef int face = str_face(<str>token)
    if face == NO_CODE:
        raise ValueError(unknown_card(<str>token))
    return face


def face_name(face):
    """The canonical text of a face number (``face_name(20) == '7S'``)."""
    if isinstance(face, bool) or not isinstance(face, (int, np.integer)):
        raise TypeError(f"face must be an int 0..{N_FACES - 1}, not {face!r}")
    if not 0 <= face < N_FACES:
        raise ValueError(f"face {face!r} out of range 0..{N_FACES - 1}")
    return _NAMES[face]


def face_of(rank, suit):
    """The face number of a rank character and a suit character (``face_of('7', 'S')``)."""
    if not isinstance(rank, str) or not isinstance(suit, str):
        raise TypeError(f"rank and suit must be strings, not {rank!r} and {suit!r}")
    return parse_face(rank + suit)


cdef class Cards:
    """An immutable multiset of card faces.

    >>> hand = Cards("7S 7s bj 10H")
    >>> str(hand)
    '7S 7S TH BJ'
    >>> len(hand), hand.count("7S"), "BJ" in hand
    (4, 2, True)
    >>> str(hand - Cards("7S"))
    '7S TH BJ'

    ``cards``: a card string (tokens separated by white space), an iterable of card
    strings, or ``Cards``.  ``decks`` bounds how often one face may appear (1 or 2; no
    game uses more than two decks).  A wrong type raises ``TypeError``, an unknown card
    or too many copies ``ValueError`` naming the token.  The multiset is the core's two
    words: ``lo`` (faces held at least once) and ``hi`` (faces held twice).
    """

    def __init__(self, cards="", *, decks=2):
        cdef int d = check_decks(decks)
        cdef mask_t lo = 0, hi = 0
        hand_masks(cards, d, "cards", &lo, &hi)
        self.w[0] = lo
        self.w[1] = hi
        self.w[2] = 0
        self.w[3] = 0

    @classmethod
    def from_masks(cls, *layers):
        """The multiset whose faces held more than k times are the bits of ``layers[k]``.

        ``Cards.from_masks(lo, hi)`` reads the core's two-deck words.  Each layer must
        be a subset of the one before it; a third non-empty layer (a card held three
        times) is refused: no game holds that many.
        """
        cdef mask_t prev = ALL_FACES, m, lo = 0, hi = 0
        cdef Py_ssize_t k
        for k in range(len(layers)):
            m = layer_of(layers[k], layers)
            if m & ~prev:
                raise ValueError(f"mask layers {layers!r} are not nested face sets")
            if k >= MAX_COPIES and m:
                raise ValueError(
                    f"card {name_of(lowest_bit(m))} held {k + 1} times in the mask layers; "
                    f"no game holds a card more than {MAX_COPIES} times"
                )
            if k == 0:
                lo = m
            elif k == 1:
                hi = m
            prev = m
        return cards_new(lo, hi)

    @classmethod
    def from_counts(cls, counts):
        """The multiset with ``counts[f]`` copies of face ``f`` (54 counts, each 0..2)."""
        cdef mask_t lo = 0, hi = 0
        cdef int face
        if isinstance(counts, (str, bytes, bytearray)) or not hasattr(counts, "__iter__"):
            raise TypeError(f"counts must be an iterable of {N_FACES} ints, not {counts!r}")
        values = list(counts)
        if len(values) != N_FACES:
            raise ValueError(f"expected {N_FACES} counts, one per face, not {len(values)}")
        for face in range(N_FACES):
            n = values[face]
            if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
                raise TypeError(f"count of {name_of(face)} must be an int, not {n!r}")
            if n < 0 or n > MAX_COPIES:
                raise ValueError(
                    f"count of {name_of(face)} is {n}; expected 0..{MAX_COPIES} "
                    f"(no game holds a card more than {MAX_COPIES} times)"
                )
            if n >= 1:
                lo |= bit(face)
                if n == 2:
                    hi |= bit(face)
        return cards_new(lo, hi)

    # -- views -----------------------------------------------------------------
    @property
    def lo(self):
        """Mask of the faces held at least once."""
        return self.w[0]

    @property
    def hi(self):
        """Mask of the faces held at least twice."""
        return self.w[1]

    @property
    def layers(self):
        """The nested masks (``layers[k]``: the faces held more than k times) without
        empty trailing layers; ``()`` for no cards."""
        cdef int n = MAX_LAYERS
        while n and not self.w[n - 1]:
            n -= 1
        return tuple([self.w[k] for k in range(n)])

    def counts(self):
        """The number of copies of each face, indexed by face number."""
        return [copies(self, f) for f in range(N_FACES)]

    def faces(self):
        """Face numbers in canonical order, one per copy."""
        return iter(self._faces())

    cdef list _faces(self):
        cdef mask_t m = self.w[0]
        cdef int f, k
        out = []
        while m:
            f = lowest_bit(m)
            m &= m - 1
            for k in range(copies(self, f)):
                out.append(f)
        return out

    # -- the multiset protocol ---------------------------------------------------
    def __len__(self):
        return popcount(self.w[0]) + popcount(self.w[1]) + popcount(self.w[2]) + popcount(self.w[3])

    def __iter__(self):
        return iter([name_of(f) for f in self._faces()])

    def count(self, card):
        """How many copies of ``card`` (a card token) this holds."""
        return copies(self, parse_face(card))

    def __contains__(self, card):
        if isinstance(card, Cards):
            return card <= self
        return bool((self.w[0] >> <int>parse_face(card)) & 1)

    def __add__(self, other):
        """The multiset sum; ``ValueError`` if a card would appear more than twice."""
        if not isinstance(other, Cards):
            return NotImplemented
        cdef Cards o = <Cards>other
        cdef mask_t over = (self.w[1] & o.w[0]) | (o.w[1] & self.w[0]) | self.w[2] | o.w[2]
        cdef int f
        if over:
            f = lowest_bit(over)
            raise ValueError(
                f"card {name_of(f)} would appear {copies(self, f) + copies(o, f)} times; two decks allow at most 2"
            )
        return cards_new(self.w[0] | o.w[0], self.w[1] | o.w[1] | (self.w[0] & o.w[0]))

    def __sub__(self, other):
        """Remove ``other``; ``ValueError`` naming the first card that is not here."""
        if not isinstance(other, Cards):
            return NotImplemented
        cdef Cards o = <Cards>other
        cdef uint8_t left[N_FACES]
        cdef int f, n
        for f in range(N_FACES):
            n = copies(self, f) - copies(o, f)
            if n < 0:
                raise ValueError(f"cannot remove {copies(o, f)} x {name_of(f)}: only {copies(self, f)} held")
            left[f] = n
        return cards_of_counts(left)

    def __le__(self, other):
        if not isinstance(other, Cards):
            return NotImplemented
        cdef Cards o = <Cards>other
        cdef int k
        for k in range(MAX_LAYERS):
            if self.w[k] & ~o.w[k]:
                return False
        return True

    def __ge__(self, other):
        if not isinstance(other, Cards):
            return NotImplemented
        return other <= self

    def __lt__(self, other):
        if not isinstance(other, Cards):
            return NotImplemented
        return self <= other and self != other

    def __gt__(self, other):
        if not isinstance(other, Cards):
            return NotImplemented
        return other < self

    def __eq__(self, other):
        if not isinstance(other, Cards):
            return NotImplemented
        return same(self, <Cards>other)

    def __ne__(self, other):
        if not isinstance(other, Cards):
            return NotImplemented
        return not same(self, <Cards>other)

    def __hash__(self):
        # a fixed mix of the words (never -1, which CPython reserves)
        cdef mask_t h = (self.w[0] * <mask_t>0x9E3779B97F4A7C15ULL) ^ (self.w[1] * <mask_t>0xC2B2AE3D27D4EB4FULL)
        h ^= (self.w[2] * <mask_t>0x165667B19E3779F9ULL) ^ (self.w[3] * <mask_t>0x27D4EB2F165667C5ULL)
        cdef Py_hash_t out = <Py_hash_t>(h ^ (h >> 29))
        return -2 if out == -1 else out

    def __bool__(self):
        return self.w[0] != 0

    def __str__(self):
        return " ".join(self)

    def __repr__(self):
        return f"Cards({str(self)!r})"

    def __reduce__(self):
        return (_from_counts, (bytes(self.counts()),))


cdef inline bint same(Cards a, Cards b) noexcept:
    return a.w[0] == b.w[0] and a.w[1] == b.w[1] and a.w[2] == b.w[2] and a.w[3] == b.w[3]


def _from_counts(counts):
    """Unpickling: per-face counts as bytes (declared views may hold up to four copies)."""
    if not isinstance(counts, bytes) or len(counts) != N_FACES or max(counts) > MAX_LAYERS:
        raise ValueError(f"not a pickled Cards: {counts!r}")
    return cards_of_counts(counts)
