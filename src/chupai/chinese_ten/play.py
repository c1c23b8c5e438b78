"""Chinese Ten plays: a card (from the hand, or turned from the stock) and what it captures.

The encoding of a play record (shared by the compiled generator, the engine and
``Play``):

* ``lo``: the one card played or turned (a single bit; ``hi`` is 0: one deck);
* ``taken``: the layout cards it captures (0 when it captures nothing);
* ``type``: a :class:`PlayType` value;
* ``key``: the face number of the card played;
* ``length``: the number of cards captured (0, 1, or 3 for a triple).

Two plays are the same play when they agree on the card and the captured cards.  The
suit-collapsed view (``docs/rules/cards.md``) erases only what the scores never look at:
cards are grouped by :func:`score_class` (rank and colour, with the two black aces kept
apart because they score differently), which is the same grouping in every variant.

The interchange form (``Play.to_protocol()``, read back exactly by
``from_protocol()``) is Chinese Ten's own, there being no competition protocol:
``[type, card, captured]`` with the type's name (``CAPTURE``, ``TRIPLE``, ``DISCARD``),
the card's name and the list of the captured cards' names in face order, e.g.
``["CAPTURE", "7D", ["3S"]]`` or ``["DISCARD", "AH", []]``.  The record's layout is
read only by the ``_card`` / ``_captured`` views here and by the compiled code.
"""
from __future__ import annotations

import enum
from typing import Any

from chupai.core.records import BITS_PER_RANK, NUM_FACES
from chupai.core.play import PlayBase
from chupai.cards import RANKS, SUITS, Cards, face_name
from chupai.chinese_ten._movegen import GAME_CLASSES, parse_card, parse_cards
from chupai.chinese_ten.rules import PAGAT, Rules

__all__ = ["PlayType", "Play", "parse_card", "parse_cards", "score_class"]

_RED = frozenset((SUITS.index("H"), SUITS.index("D")))
_ACE = RANKS.index("A")


class PlayType(enum.IntEnum):
    """What a card does: capture one layout card, capture a triple, or join the layout."""

    CAPTURE = 1
    TRIPLE = 2
    DISCARD = 3

    def __str__(self) -> str:
        return self.name


def score_class(face: int) -> tuple[int, str]:
    """The suit-collapsed group of a card: its rank and colour, black aces by suit.

    >>> from chupai.cards import parse_face
    >>> score_class(parse_face("3S")) == score_class(parse_face("3C"))
    True
    >>> score_class(parse_face("AS")) == score_class(parse_face("AC"))
    False
    """
    rank, suit = divmod(face, BITS_PER_RANK)
    if suit in _RED:
        return (rank, "red")
    return (rank, SUITS[suit]) if rank == _ACE else (rank, "black")


class Play(PlayBase):
    """One Chinese Ten play: the card played (or turned) and the layout cards it captures.

    Immutable and hashable.

    >>> from chupai.chinese_ten import legal_plays
    >>> [str(p) for p in legal_plays("7D", "QD 3S 3H 6C")]
    ['7D takes 3S', '7D takes 3H']
    """

    __slots__ = ()
    _TYPES = PlayType
    _ORIGIN = "legal_plays(), captures(), classify() or a game state's legal_actions()"

    @property
    def _card(self) -> int:
        """The face of the card played (the record's key)."""
        return self._key

    @property
    def _captured(self) -> int:
        """The mask of the captured cards (the record's taken)."""
        return self._taken

    @property
    def card(self) -> str:
        """The card played from the hand or turned from the stock."""
        return face_name(self._key)

    @property
    def cards(self) -> Cards:
        """The card played, as ``Cards`` (the cards this play takes from the hand)."""
        return _CARD_SETS[self._key]

    @property
    def captured(self) -> Cards:
        """The layout cards captured (none for a discard)."""
        return Cards.from_masks(self._taken)

    @property
    def is_capture(self) -> bool:
        return self._taken != 0

    @property
    def taken(self) -> Cards:
        """The cards that go to the player's pile: the card and its captures, or none."""
        return Cards.from_masks((1 << self._key) | self._taken) if self._taken else Cards()

    def __str__(self) -> str:
        if not self._taken:
            return f"{self.card} to the layout"
        return f"{self.card} takes {self.captured}"

    # -- the interchange form -------------------------------------------------------------
    def to_protocol(self) -> list[Any]:
        """``[type, card, captured]``: the type's name, the card played and the captured
        cards' names (Chinese Ten's own interchange form, read back exactly by
        :func:`~chupai.chinese_ten.classify.from_protocol`).

        >>> from chupai.chinese_ten import legal_plays
        >>> [p.to_protocol() for p in legal_plays("7D AH", "QD 3S 6C")]
        [['CAPTURE', '7D', ['3S']], ['DISCARD', 'AH', []]]
        """
        return [_TYPE_NAMES[self._type], face_name(self._key), list(Cards.from_masks(self._taken))]


_TYPE_NAMES = {t.value: t.name for t in PlayType}
#: each card alone (Cards are immutable: one object per face serves every play)
_CARD_SETS = tuple(Cards.from_masks(1 << f) for f in range(NUM_FACES))


# the compiled generator and engine make and read these classes (they import nothing
# from this layer: docs/design.md, "Layers")
GAME_CLASSES.bind(Play, Rules, PAGAT)
