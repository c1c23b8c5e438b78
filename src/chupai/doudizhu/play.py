"""Dou Dizhu plays: types, comparison keys and the ``Play`` object.

The encoding of a play record (shared by the compiled generator, ``classify`` and
``Play``):

* ``type``: a :class:`PlayType` value.
* ``key``: the *value* of the comparing rank, in the game's order 3 4 5 6 7 8 9 T J Q K
  A 2 BJ RJ: 3..A are 0..11, a 2 is 12 (:data:`TWO_VALUE`), the black joker 13 and the
  red joker 14 (:data:`RED_JOKER_VALUE`, also the rocket's key).  A chain (straight,
  pair sequence, airplane with or without kickers) takes the value of its top rank; a
  trio or four with kickers the value of its trio or four.
* ``length``: the number of cards (chains compare only at equal length: the same
  number of ranks, or of trios).
* ``cls``: the bomb class, 0 for ordinary combinations, :data:`BOMB_CLASS` for a bomb
  and :data:`ROCKET_CLASS` for the rocket; a higher class beats any lower one, within
  a class the higher key wins.
* ``decl``: empty: Dou Dizhu has no wild cards.

Suits never matter in this game: ``legal_plays(..., collapse_suits=True)`` lists each
play once, with the lowest suits of each rank.
"""
from __future__ import annotations

import enum
from typing import Any

from chupai.core.records import BITS_PER_RANK, BLACK_JOKER_BIT, NUM_FACES
from chupai.core.play import BombPlay, RecordView
from chupai.cards import face_name
from chupai.doudizhu._movegen import GAME_CLASSES
from chupai.doudizhu.rules import DEFAULT, Rules

__all__ = [
    "ACE_VALUE",
    "BLACK_JOKER_VALUE",
    "BOMB_CLASS",
    "CHAIN_WIDTH",
    "RED_JOKER_VALUE",
    "ROCKET_CLASS",
    "TWO_VALUE",
    "VALUE_NAMES",
    "Play",
    "PlayType",
    "value_of_face",
]

#: the name of each value 0..14, low to high
VALUE_NAMES = ("3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "BJ", "RJ")
#: the value of an ace, the top of every chain
ACE_VALUE = 11
#: the value of a 2
TWO_VALUE = 12
#: the value of the black joker
BLACK_JOKER_VALUE = 13
#: the value of the red joker (the rocket's key)
RED_JOKER_VALUE = 14
#: the bomb class of a bomb and of the rocket (0: ordinary combinations)
BOMB_CLASS = 1
ROCKET_CLASS = 2


class PlayType(enum.IntEnum):
    """The Dou Dizhu combination types (``docs/rules/doudizhu.md``)."""

    SINGLE = 1
    PAIR = 2
    TRIO = 3
    TRIO_SINGLE = 4
    TRIO_PAIR = 5
    STRAIGHT = 6
    PAIR_SEQUENCE = 7
    AIRPLANE = 8
    AIRPLANE_SINGLES = 9
    AIRPLANE_PAIRS = 10
    FOUR_TWO_SINGLES = 11
    FOUR_TWO_PAIRS = 12
    BOMB = 13
    ROCKET = 14

    def __str__(self) -> str:
        return self.name


#: the cards per rank of a chain's core, by chain type: a play of ``length`` cards
#: spans ``length // CHAIN_WIDTH[type]`` ranks (an airplane's kickers included)
CHAIN_WIDTH: dict[PlayType, int] = {
    PlayType.STRAIGHT: 1,
    PlayType.PAIR_SEQUENCE: 2,
    PlayType.AIRPLANE: 3,
    PlayType.AIRPLANE_SINGLES: 4,
    PlayType.AIRPLANE_PAIRS: 5,
}

#: (the name before the rank, the words after it) of each type in ``str(play)``
_WORDS = {
    PlayType.SINGLE: ("single", ""),
    PlayType.PAIR: ("pair", ""),
    PlayType.TRIO: ("trio", ""),
    PlayType.TRIO_SINGLE: ("trio", " with a single"),
    PlayType.TRIO_PAIR: ("trio", " with a pair"),
    PlayType.STRAIGHT: ("straight", ""),
    PlayType.PAIR_SEQUENCE: ("pair sequence", ""),
    PlayType.AIRPLANE: ("airplane", ""),
    PlayType.AIRPLANE_SINGLES: ("airplane", " with singles"),
    PlayType.AIRPLANE_PAIRS: ("airplane", " with pairs"),
    PlayType.FOUR_TWO_SINGLES: ("four", " with two singles"),
    PlayType.FOUR_TWO_PAIRS: ("four", " with two pairs"),
    PlayType.BOMB: ("bomb", ""),
    PlayType.ROCKET: ("rocket", ""),
}


def value_of_face(face: int) -> int:
    """The value 0..14 of a card face 0..53 (``chupai.cards``: 2s are rank 0 there)."""
    if face >= BLACK_JOKER_BIT:
        return BLACK_JOKER_VALUE if face == BLACK_JOKER_BIT else RED_JOKER_VALUE
    rank = face // BITS_PER_RANK
    return TWO_VALUE if rank == 0 else rank - 1


def _head_view(type_: int, key: int, length: int, _cls: int, _context: object) -> str:
    """The words of ``str(play)`` before the cards."""
    t = PlayType(type_)
    name, after = _WORDS[t]
    if t == PlayType.ROCKET:
        return name
    width = CHAIN_WIDTH.get(t)
    if width is None:
        return f"{name} {VALUE_NAMES[key]}{after}"
    return f"{name} {VALUE_NAMES[key - length // width + 1]}-{VALUE_NAMES[key]}{after}"


def _rank_view(_type: int, key: int, _length: int, _cls: int, _context: object) -> str:
    return VALUE_NAMES[key]


class Play(BombPlay):
    """One Dou Dizhu play: cards, type and comparison key.

    Immutable and hashable; equal plays are the same play in the sense of
    ``docs/rules/cards.md`` (same cards, type and key): 333444555666 read as an airplane
    of four trios and as the trios 444555666 with the kickers 3 3 3 (``Rules(
    airplane_repeat_kickers=True)``) are two plays.  The cards are shown in the game's
    order of ranks.

    >>> from chupai.doudizhu import classify
    >>> [str(p) for p in classify("3S 4S 5S 6S 7S")]
    ['straight 3-7: 3S 4S 5S 6S 7S']
    >>> [str(p) for p in classify("9S 9H 9D 2C")]
    ['trio 9 with a single: 9S 9H 9D 2C']
    """

    __slots__ = ()
    _TYPES = PlayType

    rank = RecordView(_rank_view, "The comparing rank ('3'..'A', '2', 'BJ', 'RJ'; the rocket's is 'RJ').")
    _head = RecordView(_head_view, "The words of str() before the cards.")

    @property
    def ranks(self) -> tuple[str, ...]:
        """The ranks of a chain's core (its trios for an airplane), low to high; the one
        comparing rank of other plays."""
        width = CHAIN_WIDTH.get(PlayType(self._type))
        if width is None:
            return (self.rank,)
        n = self._length // width
        return tuple(VALUE_NAMES[v] for v in range(self._key - n + 1, self._key + 1))

    def beats(self, other: Play) -> bool:
        """True if this play may follow ``other`` (``docs/rules/doudizhu.md``).

        An ordinary combination follows one of the same type and number of cards with a
        higher key; a bomb follows any ordinary combination and any lower bomb; the
        rocket follows everything.
        """
        if not isinstance(other, Play):
            raise TypeError(f"other must be a chupai.doudizhu.Play, not {type(other).__name__}")
        if self._cls or other._cls:
            return self._cls > 0 and (self._cls, self._key) > (other._cls, other._key)
        return self._type == other._type and self._length == other._length and self._key > other._key

    def __str__(self) -> str:
        return f"{self._head}: {' '.join(self._names_in_order())}"

    def _names_in_order(self) -> list[str]:
        return sorted(self._card_names(_FACE_NAMES), key=_ORDER.__getitem__)

    def to_protocol(self) -> list[Any]:
        """``[type, rank, cards]``: the type's name, :attr:`rank` and the card names; read
        back exactly by :func:`~chupai.doudizhu.classify.from_protocol`.

        >>> from chupai.doudizhu import classify
        >>> [p.to_protocol() for p in classify("BJ RJ")]
        [['ROCKET', 'RJ', ['BJ', 'RJ']]]
        """
        return [_TYPE_NAMES[self._type], self.rank, self._names_in_order()]


_TYPE_NAMES = {t.value: t.name for t in PlayType}
_FACE_NAMES = tuple(face_name(f) for f in range(NUM_FACES))
#: a card name's place in the game's order: by value, then suit
_ORDER = {face_name(f): (value_of_face(f), f) for f in range(NUM_FACES)}

# the compiled generator makes and reads these classes (it imports nothing from this
# layer: docs/design.md, "Layers")
GAME_CLASSES.bind(Play, Rules, DEFAULT)
