"""Card faces, parsing and printing, and the immutable multiset ``Cards``.

The text notation is that of ``spec/cards.md``: ranks ``2 3 4 5 6 7 8 9 T J Q K A``
(``10`` and lower case accepted), suits ``S H C D`` (``♠ ♥ ♣ ♦`` accepted), jokers
``BJ`` and ``RJ``.  A face is an integer 0..53: ``rank * 4 + suit`` for the suited
cards (ranks 2..A -> 0..12, suits S H C D -> 0..3), 52 for ``BJ`` and 53 for ``RJ``,
the bit numbers of the core's masks.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

from chupai._core import (
    BITS_PER_RANK,
    BLACK_JOKER_BIT,
    NUM_FACES,
    RANKS,
    RED_JOKER_BIT,
    SUITS,
)

__all__ = ["Cards", "face_of", "face_name", "parse_face", "RANKS", "SUITS"]

_SUIT_ALIASES = {"♠": "S", "♥": "H", "♣": "C", "♦": "D"}
_JOKERS = {"BJ": BLACK_JOKER_BIT, "RJ": RED_JOKER_BIT}
_FACE_NAMES = [r + s for r in RANKS for s in SUITS] + ["BJ", "RJ"]
_EXPECTED = "a rank 2-9/T/J/Q/K/A (or 10) followed by a suit S/H/C/D, or BJ/RJ"


def face_of(rank: str, suit: str) -> int:
    """The face number of a rank character and a suit character (``face_of('7', 'S')``)."""
    return parse_face(rank + suit)


def face_name(face: int) -> str:
    """The canonical text of a face number (``face_name(20) == '7S'``)."""
    if not 0 <= face < NUM_FACES:
        raise ValueError(f"face {face!r} out of range 0..{NUM_FACES - 1}")
    return _FACE_NAMES[face]


def parse_face(token: str) -> int:
    """The face number of one card token; ``ValueError`` naming the token if it is not one."""
    if not isinstance(token, str):
        raise ValueError(f"card {token!r} is not a string; expected {_EXPECTED}")
    t = token.strip().upper()
    if t in _JOKERS:
        return _JOKERS[t]
    if len(t) >= 2:
        rank, suit = t[:-1], _SUIT_ALIASES.get(t[-1], t[-1])
        if rank == "10":
            rank = "T"
        if len(rank) == 1 and rank in RANKS and suit in SUITS:
            return RANKS.index(rank) * BITS_PER_RANK + SUITS.index(suit)
    raise ValueError(f"unknown card {token!r}; expected {_EXPECTED}")


class Cards:
    """An immutable multiset of card faces.

    >>> hand = Cards("7S 7s bj 10H")
    >>> str(hand)
    '7S 7S TH BJ'
    >>> len(hand), hand.count("7S"), "BJ" in hand
    (4, 2, True)
    >>> str(hand - Cards("7S"))
    '7S TH BJ'

    ``decks`` bounds how often one face may appear (1 or 2; Guan Dan uses 2).
    Internally the multiset is a tuple of bit masks ``layers``: ``layers[k]`` holds the
    faces held more than ``k`` times, so ``layers[0]`` and ``layers[1]`` are the core's
    ``lo`` and ``hi`` words.
    """

    __slots__ = ("_layers", "_hash")

    def __init__(self, cards: str | Iterable[str] | Cards = "", *, decks: int = 2) -> None:
        if decks not in (1, 2):
            raise ValueError(f"decks must be 1 or 2, not {decks!r}")
        if isinstance(cards, Cards):
            layers = cards._layers
            if len(layers) > decks:
                raise ValueError(
                    f"card {face_name((layers[decks]).bit_length() - 1)} appears more than "
                    f"{decks} time(s); {decks} deck(s) allow at most {decks}"
                )
        else:
            if isinstance(cards, str):
                tokens = cards.split()
            else:
                try:
                    tokens = list(cards)
                except TypeError:
                    raise ValueError(
                        f"cards must be a string, an iterable of card strings or Cards, not {cards!r}"
                    ) from None
            counts = [0] * NUM_FACES
            for token in tokens:
                face = parse_face(token)
                counts[face] += 1
                if counts[face] > decks:
                    raise ValueError(
                        f"card {face_name(face)} (token {token!r}) appears more than {decks} "
                        f"time(s); {decks} deck(s) allow at most {decks}"
                    )
            layers = _layers_from_counts(counts)
        self._layers = layers
        self._hash = None

    @classmethod
    def from_masks(cls, *layers: int) -> Cards:
        """The multiset whose faces held more than k times are the bits of ``layers[k]``.

        ``Cards.from_masks(lo, hi)`` reads the core's two-deck words.  Each layer must
        be a subset of the one before it.
        """
        prev = (1 << NUM_FACES) - 1
        for m in layers:
            if m < 0 or m & ~prev:
                raise ValueError(f"mask layers {layers!r} are not nested face sets")
            prev = m
        self = object.__new__(cls)
        self._layers = _trim(layers)
        self._hash = None
        return self

    @classmethod
    def from_counts(cls, counts: Iterable[int]) -> Cards:
        """The multiset with ``counts[f]`` copies of face ``f`` (54 counts)."""
        counts = list(counts)
        if len(counts) != NUM_FACES or any(c < 0 for c in counts):
            raise ValueError(f"expected {NUM_FACES} non-negative counts")
        self = object.__new__(cls)
        self._layers = _layers_from_counts(counts)
        self._hash = None
        return self

    # -- views -----------------------------------------------------------------
    @property
    def layers(self) -> tuple[int, ...]:
        """The nested masks (see the class docstring); ``()`` for no cards."""
        return self._layers

    @property
    def lo(self) -> int:
        """Mask of the faces held at least once."""
        return self._layers[0] if self._layers else 0

    @property
    def hi(self) -> int:
        """Mask of the faces held at least twice."""
        return self._layers[1] if len(self._layers) > 1 else 0

    def counts(self) -> list[int]:
        """The number of copies of each face, indexed by face number."""
        out = [0] * NUM_FACES
        for m in self._layers:
            while m:
                low = m & -m
                out[low.bit_length() - 1] += 1
                m ^= low
        return out

    def faces(self) -> Iterator[int]:
        """Face numbers in canonical order, one per copy."""
        for face, n in enumerate(self.counts()):
            for _ in range(n):
                yield face

    # -- the multiset protocol ---------------------------------------------------
    def __len__(self) -> int:
        return sum(m.bit_count() for m in self._layers)

    def __iter__(self) -> Iterator[str]:
        return (_FACE_NAMES[f] for f in self.faces())

    def count(self, card: str) -> int:
        """How many copies of ``card`` (a card token) this holds."""
        face = parse_face(card)
        return sum((m >> face) & 1 for m in self._layers)

    def __contains__(self, card: object) -> bool:
        if isinstance(card, Cards):
            return card <= self
        return bool(self.lo >> parse_face(card) & 1)  # type: ignore[arg-type]

    def __add__(self, other: Cards) -> Cards:
        """The multiset sum; ``ValueError`` if a card would appear more than twice."""
        if not isinstance(other, Cards):
            return NotImplemented
        total = [a + b for a, b in zip(self.counts(), other.counts())]
        for face, n in enumerate(total):
            if n > 2:
                raise ValueError(f"card {face_name(face)} would appear {n} times; two decks allow at most 2")
        return Cards.from_counts(total)

    def __sub__(self, other: Cards) -> Cards:
        """Remove ``other``; ``ValueError`` naming the first card that is not here."""
        if not isinstance(other, Cards):
            return NotImplemented
        mine = self.counts()
        for face, n in enumerate(other.counts()):
            if n > mine[face]:
                raise ValueError(
                    f"cannot remove {n} x {face_name(face)}: only {mine[face]} held"
                )
            mine[face] -= n
        return Cards.from_counts(mine)

    def __le__(self, other: Cards) -> bool:
        if not isinstance(other, Cards):
            return NotImplemented
        return all(not (a & ~b) for a, b in zip(self._layers, other._layers + (0,) * len(self._layers)))

    def __ge__(self, other: Cards) -> bool:
        if not isinstance(other, Cards):
            return NotImplemented
        return other <= self

    def __lt__(self, other: Cards) -> bool:
        if not isinstance(other, Cards):
            return NotImplemented
        return self <= other and self != other

    def __gt__(self, other: Cards) -> bool:
        if not isinstance(other, Cards):
            return NotImplemented
        return other < self

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Cards):
            return NotImplemented
        return self._layers == other._layers

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(("Cards", self._layers))
        return self._hash

    def __bool__(self) -> bool:
        return bool(self._layers)

    def __str__(self) -> str:
        return " ".join(self)

    def __repr__(self) -> str:
        return f"Cards({str(self)!r})"


def _trim(layers: Iterable[int]) -> tuple[int, ...]:
    out = list(layers)
    while out and not out[-1]:
        out.pop()
    return tuple(out)


def _layers_from_counts(counts: list[int]) -> tuple[int, ...]:
    layers = [0] * max(counts, default=0)
    for face, n in enumerate(counts):
        for k in range(n):
            layers[k] |= 1 << face
    return tuple(layers)
