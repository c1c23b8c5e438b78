"""Chinese Ten plays: a card (from the hand, or turned from the stock) and what it captures.

The encoding of a play record (shared by the compiled generator, the engine and
``Play``):

* ``lo``: the one card played or turned (a single bit; ``hi`` is 0: one deck);
* ``taken``: the layout cards it captures (0 when it captures nothing);
* ``type``: a :class:`PlayType` value;
* ``key``: the face number of the card played;
* ``length``: the number of cards captured (0, 1, or 3 for a triple).

Two plays are the same play when they agree on the card and the captured cards.  The
suit-collapsed view (``spec/cards.md``) erases only what the scores never look at:
cards are grouped by :func:`score_class` (rank and colour, with the two black aces kept
apart because they score differently), which is the same grouping in every variant.
"""
from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Any

from chupai._core import BITS_PER_RANK, JOKER_FACES
from chupai._play import PlayBase
from chupai.cards import RANKS, SUITS, Cards, face_name, parse_face

__all__ = ["PlayType", "Play", "parse_card", "parse_cards", "score_class"]

_RED = frozenset((SUITS.index("H"), SUITS.index("D")))
_ACE = RANKS.index("A")
_NO_JOKERS = "Chinese Ten uses the 52 cards without jokers"


class PlayType(enum.IntEnum):
    """What a card does: capture one layout card, capture a triple, or join the layout."""

    CAPTURE = 1
    TRIPLE = 2
    DISCARD = 3

    def __str__(self) -> str:
        return self.name


def score_class(face: int) -> tuple[int, str]:
    """The suit-collapsed group of a card: its rank and colour, black aces by suit.

    >>> score_class(parse_face("3S")) == score_class(parse_face("3C"))
    True
    >>> score_class(parse_face("AS")) == score_class(parse_face("AC"))
    False
    """
    rank, suit = divmod(face, BITS_PER_RANK)
    if suit in _RED:
        return (rank, "red")
    return (rank, SUITS[suit]) if rank == _ACE else (rank, "black")


def parse_card(card: Any, what: str = "card") -> int:
    """The face number of one card token (no jokers); ``ValueError`` naming the token."""
    if isinstance(card, Cards):
        if len(card) != 1:
            raise ValueError(f"{what} must be one card, not {card}")
        card = str(card)
    face = parse_face(card)
    if (1 << face) & JOKER_FACES:
        raise ValueError(f"{what} {card!r} is a joker; {_NO_JOKERS}")
    return face


def parse_cards(cards: Any, what: str = "cards") -> int:
    """The mask of a set of cards (a ``Cards``, a card string or an iterable of tokens).

    ``ValueError`` naming the bad token for an unknown card, a joker or a card given
    twice (Chinese Ten has one deck).
    """
    if isinstance(cards, Cards):
        if len(cards.layers) > 1:
            raise ValueError(f"{what}: card {face_name(cards.hi.bit_length() - 1)} appears twice; one deck")
        if cards.lo & JOKER_FACES:
            raise ValueError(f"{what}: card {face_name(cards.lo.bit_length() - 1)!r} is a joker; {_NO_JOKERS}")
        return cards.lo
    if isinstance(cards, str):
        tokens: Iterable[Any] = cards.split()
    else:
        try:
            tokens = list(cards)
        except TypeError:
            raise ValueError(f"{what} must be a card string, an iterable of cards or Cards, not {cards!r}") from None
    mask = 0
    for token in tokens:
        face = parse_card(token, f"{what}: card")
        if mask >> face & 1:
            raise ValueError(f"{what}: card {token!r} appears twice; Chinese Ten has one deck")
        mask |= 1 << face
    return mask


class Play(PlayBase):
    """One Chinese Ten play: the card played (or turned) and the layout cards it captures.

    Immutable and hashable.

    >>> from chupai.chinese_ten import legal_plays
    >>> [str(p) for p in legal_plays("7D", "QD 3S 3H 6C")]
    ['7D takes 3S', '7D takes 3H']
    """

    __slots__ = ("_card", "_captured", "_type", "_hash")
    _TYPES = PlayType
    _ORIGIN = "legal_plays(), captures() or a game state's legal_actions()"

    @classmethod
    def _from_record(
        cls, lo: int, hi: int, type_: int, key: int, length: int, _cls: int, _decl: bytes, _context: Any,
        taken: int = 0,
    ) -> Play:
        self = object.__new__(cls)
        self._card = key
        self._captured = taken
        self._type = type_
        self._hash = None
        return self

    @property
    def card(self) -> str:
        """The card played from the hand or turned from the stock."""
        return face_name(self._card)

    @property
    def cards(self) -> Cards:
        """The card played, as ``Cards`` (the cards this play takes from the hand)."""
        return Cards.from_masks(1 << self._card)

    @property
    def captured(self) -> Cards:
        """The layout cards captured (none for a discard)."""
        return Cards.from_masks(self._captured)

    @property
    def is_capture(self) -> bool:
        return self._captured != 0

    @property
    def taken(self) -> Cards:
        """The cards that go to the player's pile: the card and its captures, or none."""
        return Cards.from_masks((1 << self._card) | self._captured) if self._captured else Cards()

    # -- identity -------------------------------------------------------------------------
    def _identity(self) -> tuple[int, int]:
        return (self._card, self._captured)

    def __str__(self) -> str:
        if not self._captured:
            return f"{self.card} to the layout"
        return f"{self.card} takes {self.captured}"
