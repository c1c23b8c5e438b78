"""Guan Dan plays: types, comparison keys, the ``Play`` object and the protocol form.

The encoding of a play record (shared by the compiled generator, ``classify`` and
``Play``):

* ``type``: a :class:`PlayType` value.
* ``key``: for singles, pairs, triples, full houses and n-of-a-kind bombs the
  *level-order value* of the declared rank: ranks below the level rank in natural
  order 0.., then those above it, the level rank 12, ``BJ`` 13, ``RJ`` 14.  For
  straights and straight flushes the window position 0..9 (0 = A-2-3-4-5,
  9 = T-J-Q-K-A), tubes 0..11 (0 = A-A-2-2-3-3), plates 0..12 (0 = A-A-A-2-2-2).  A
  window at position ``p`` covers the ranks ``(p + 12 + j) % 13`` for ``j = 0, 1, ...``.
  Four jokers: 0.
* ``cls``: the bomb class, 0 for ordinary combinations (see :data:`BOMB_CLASS`).
* ``decl``: the face each wild card stands for, ascending.  Canonical declaration:
  in same-rank parts a wild is the heart of the declared rank; in straights, tubes and
  plates the heart of the rank it fills; in a straight flush the flush suit's card; in
  a full house whose pair is both wilds, the pair is of the level rank, or of the
  lowest rank other than the triple's when the triple is of the level rank.
"""
from __future__ import annotations

import enum
from typing import Any

from chupai.core.records import BITS_PER_RANK, BLACK_JOKER_BIT, NUM_FACES, RED_JOKER_BIT
from chupai.core.play import BombPlay, RecordView
from chupai.cards import RANKS, SUITS, parse_face
from chupai.guandan._movegen import GAME_CLASSES
from chupai.guandan.rules import PAGAT, Rules, parse_rank

__all__ = [
    "PlayType",
    "Play",
    "BOMB_CLASS",
    "level_value",
    "window_ranks",
    "wild_face",
    "PASS_PROTOCOL",
]

JOKER_BLACK_VALUE = 13
JOKER_RED_VALUE = 14
LEVEL_VALUE = 12


class PlayType(enum.IntEnum):
    """The Guan Dan combination types (``docs/rules/guandan.md``, "Combinations")."""

    SINGLE = 1
    PAIR = 2
    TRIPLE = 3
    FULL_HOUSE = 4
    STRAIGHT = 5
    TUBE = 6
    PLATE = 7
    BOMB = 8
    STRAIGHT_FLUSH = 9
    FOUR_JOKERS = 10

    def __str__(self) -> str:
        return self.name


#: bomb class by (type, number of cards): any bomb of a higher class beats any lower one
# keyed by (type code, cards): a PlayType member hashes and compares as its int
BOMB_CLASS: dict[tuple[int, int], int] = {
    (PlayType.BOMB, 4): 1,
    (PlayType.BOMB, 5): 2,
    (PlayType.STRAIGHT_FLUSH, 5): 3,
    (PlayType.BOMB, 6): 4,
    (PlayType.BOMB, 7): 5,
    (PlayType.BOMB, 8): 6,
    (PlayType.BOMB, 9): 7,
    (PlayType.BOMB, 10): 8,
    (PlayType.FOUR_JOKERS, 4): 9,
}

#: the number of ranks of a window type, and its number of positions
WINDOW_RANKS = {PlayType.STRAIGHT: 5, PlayType.STRAIGHT_FLUSH: 5, PlayType.TUBE: 3, PlayType.PLATE: 2}


def level_value(rank: int, level: int) -> int:
    """Level-order value (0..12) of a rank index 0..12 at a level rank index."""
    if rank == level:
        return LEVEL_VALUE
    return rank if rank < level else rank - 1


def value_rank(value: int, level: int) -> int:
    """The rank index with this level-order value (inverse of :func:`level_value`)."""
    if value == LEVEL_VALUE:
        return level
    return value if value < level else value + 1


def window_ranks(position: int, n: int) -> list[int]:
    """Rank indexes of the ``n``-rank window at ``position`` (0 starts at a low ace)."""
    return [(position + 12 + j) % 13 for j in range(n)]


def wild_face(level: int) -> int:
    """The face of the wild card at a level: the heart of the level rank."""
    return level * BITS_PER_RANK + SUITS.index("H")


_PROTOCOL_TYPE = {
    PlayType.SINGLE: "Single",
    PlayType.PAIR: "Pair",
    PlayType.TRIPLE: "Trips",
    PlayType.FULL_HOUSE: "ThreeWithTwo",
    PlayType.STRAIGHT: "Straight",
    PlayType.TUBE: "ThreePair",
    PlayType.PLATE: "TwoTrips",
    PlayType.STRAIGHT_FLUSH: "StraightFlush",
    PlayType.BOMB: "Bomb",
    PlayType.FOUR_JOKERS: "Bomb",
}
PROTOCOL_TYPES = set(_PROTOCOL_TYPE.values()) | {"FourKings"}
PASS_PROTOCOL = ["PASS", "PASS", "PASS"]
_PROTOCOL_SUIT = {"S": "S", "H": "H", "C": "C", "D": "D"}


def protocol_card(face: int) -> str:
    """A face in the protocol's spelling: suit then rank (``S2``), ``SB`` / ``HR`` jokers."""
    if face == BLACK_JOKER_BIT:
        return "SB"
    if face == RED_JOKER_BIT:
        return "HR"
    return SUITS[face % BITS_PER_RANK] + RANKS[face // BITS_PER_RANK]


def parse_protocol_card(token: Any) -> int:
    if not isinstance(token, str):
        raise ValueError(f"protocol card {token!r} is not a string")
    t = token.strip().upper()
    if t == "SB":
        return BLACK_JOKER_BIT
    if t == "HR":
        return RED_JOKER_BIT
    if len(t) == 2 and t[0] in _PROTOCOL_SUIT:
        return parse_face(t[1] + t[0])
    raise ValueError(f"unknown protocol card {token!r}; expected suit then rank, e.g. 'S2', 'HT', or SB/HR")


_PROTOCOL_NAMES = tuple(protocol_card(f) for f in range(NUM_FACES))


def _head_view(type_: int, key: int, _length: int, _cls: int, level: int) -> str:
    """The words of ``str(play)`` before the cards."""
    t = PlayType(type_)
    words = t.name.lower().replace("_", " ")
    if t in WINDOW_RANKS:
        ranks = window_ranks(key, WINDOW_RANKS[t])
        return f"{words} {RANKS[ranks[0]]}-{RANKS[ranks[-1]]}"
    if t == PlayType.FOUR_JOKERS:
        return words
    return f"{words} {_rank_name(t, key, level)}"


def _rank_name(t: PlayType, key: int, level: int) -> str:
    if t == PlayType.FOUR_JOKERS:
        return "JOKER"
    if t in WINDOW_RANKS:
        return RANKS[window_ranks(key, WINDOW_RANKS[t])[-1]]
    if key == JOKER_BLACK_VALUE:
        return "BJ"
    if key == JOKER_RED_VALUE:
        return "RJ"
    return RANKS[value_rank(key, level)]


def _protocol_view(type_: int, key: int, _length: int, _cls: int, level: int) -> tuple[str, str]:
    """The protocol's type and rank fields of a play."""
    t = PlayType(type_)
    if t == PlayType.FOUR_JOKERS:
        rank = "JOKER"
    elif t in WINDOW_RANKS:
        rank = RANKS[window_ranks(key, WINDOW_RANKS[t])[0]]
    elif key >= JOKER_BLACK_VALUE:
        rank = "B" if key == JOKER_BLACK_VALUE else "R"
    else:
        rank = RANKS[value_rank(key, level)]
    return _PROTOCOL_TYPE[t], rank


def _rank_view(type_: int, key: int, _length: int, _cls: int, level: int) -> str:
    return _rank_name(PlayType(type_), key, level)


def _level_name(_type: int, _key: int, _length: int, _cls: int, level: int) -> str:
    return RANKS[level]


class Play(BombPlay):
    """One Guan Dan play: cards, type, comparison key and wild declaration.

    Immutable and hashable; equal plays are the same play in the sense of
    ``docs/rules/cards.md`` (same cards, type and key) at the same level.  The record's
    context is the level index (``_level``).

    >>> from chupai.guandan import classify
    >>> [str(p) for p in classify("3D 4S 7H 6C 7S", "7")]
    ['straight 3-7: 3D 4S 6C 7S 7H(=5H)']
    """

    __slots__ = ()
    _TYPES = PlayType
    _ORIGIN = "legal_plays(), classify() or from_protocol()"

    @property
    def _level(self) -> int:
        """The level index (0..12) the play was formed at: the generator's context."""
        level: int = self._context
        return level

    # -- the public view -----------------------------------------------------------
    level = RecordView(_level_name, "The level rank this play was formed at.")

    def _wild_mask(self) -> int:
        return 1 << wild_face(self._context)

    rank = RecordView(
        _rank_view, "The rank that names the play: declared rank, triple rank, or top of the window."
    )
    _head = RecordView(_head_view, "The words of str() before the cards.")
    _protocol_head = RecordView(_protocol_view, "The protocol's type and rank fields.")

    def beats(self, other: Play) -> bool:
        """True if this play may be played on ``other`` (``docs/rules/guandan.md``, "Following")."""
        if not isinstance(other, Play):
            raise TypeError(f"expected a Play, not {type(other).__name__}")
        if self._cls or other._cls:
            return (self._cls, self._key) > (other._cls, other._key)
        return self._type == other._type and self._key > other._key

    def __str__(self) -> str:
        return f"{self._head}: {self._cards_text()}"

    def __repr__(self) -> str:
        return f"<Play {self} level {self.level}>"

    # -- the competition protocol -----------------------------------------------------
    def to_protocol(self) -> list[Any]:
        """``[type, rank, cards]`` as in ``docs/rules/guandan.md``, "The competition protocol"."""
        ptype, prank = self._protocol_head
        return [ptype, prank, self._card_names(_PROTOCOL_NAMES)]


def make_level(level: str | int) -> int:
    """The level rank index of a rank character (``'7'``, ``'T'``/``'10'``, ``'A'``)."""
    return parse_rank(level, "level")


# the compiled generator and engine make and read these classes (they import nothing
# from this layer: docs/design.md, "Layers")
GAME_CLASSES.bind(Play, Rules, PAGAT)
