"""Gan Deng Yan plays: types, comparison keys and the ``Play`` object.

The encoding of a play record (shared by the compiled generator, ``classify`` and
``Play``):

* ``type``: a :class:`PlayType` value.
* ``key``: the *value* of the play's rank.  The ordinary ranks 3..A have the values
  1..12 (their rank index), a 2 has the value 13 (:data:`TWO_VALUE`: above the ace, the
  top of singles, pairs and triples), and the jokers played alone as a player's last
  cards have 14 (:data:`JOKER_VALUE`).  Sequences, double and triple sequences take the
  value of their top rank (3..A); the double-joker bomb has key 0.
* ``length``: the number of cards (sequences compare only at equal length).
* ``cls``: the bomb class, 0 for ordinary combinations (:data:`BOMB_CLASS`); a higher
  class beats any lower one, within a class the higher key wins.
* ``decl``: what each joker stands for, ascending, given to the jokers in the order of
  their faces (``BJ`` before ``RJ``).  Suits never matter in this game: a joker is
  declared as the spade of its rank.  A play is fixed by its cards, type and key: the
  jokers always fill exactly the ranks the natural cards leave open.

A joker stands in only together with at least one natural card (``docs/rules/gandengyan.md``,
"Ranks, 2s and jokers"); the only plays of jokers alone are the double-joker bomb and
the lone joker (or, with two decks, two identical jokers) led as a player's last cards,
a single (or pair) of :data:`JOKER_VALUE` that only a bomb follows.
"""
from __future__ import annotations

import enum
from typing import Any

from chupai.core.records import BITS_PER_RANK, BLACK_JOKER_BIT, NUM_FACES, RANKS, RED_JOKER_BIT
from chupai.core.play import BombPlay, RecordView
from chupai.cards import face_name
from chupai.gandengyan._movegen import GAME_CLASSES
from chupai.gandengyan.rules import PAGAT, Rules

__all__ = [
    "BOMB_CLASS",
    "JOKER_VALUE",
    "TWO_VALUE",
    "Play",
    "PlayType",
    "rank_of_value",
    "value_of_rank",
]

#: the value of a 2 (rank index 0): above the ace
TWO_VALUE = 13
#: the value of jokers led alone as a player's last cards
JOKER_VALUE = 14
#: the value of an ace, the highest ordinary rank
ACE_VALUE = 12
_TWO_RANK = 0


class PlayType(enum.IntEnum):
    """The Gan Deng Yan combination types (``docs/rules/gandengyan.md``)."""

    SINGLE = 1
    PAIR = 2
    SEQUENCE = 3
    DOUBLE_SEQUENCE = 4
    TRIPLE = 5
    TRIPLE_SEQUENCE = 6
    THREE_BOMB = 7
    FOUR_BOMB = 8
    JOKER_BOMB = 9

    def __str__(self) -> str:
        return self.name


#: bomb class by type: any bomb of a higher class beats any lower one
BOMB_CLASS: dict[PlayType, int] = {
    PlayType.THREE_BOMB: 1,
    PlayType.FOUR_BOMB: 2,
    PlayType.JOKER_BOMB: 3,
}

#: cards of each rank in the sequence types
SEQUENCE_WIDTH = {PlayType.SEQUENCE: 1, PlayType.DOUBLE_SEQUENCE: 2, PlayType.TRIPLE_SEQUENCE: 3}
#: the types a 2 (of the same number of cards) follows whatever their rank
TOPPED_BY_TWOS = frozenset({PlayType.SINGLE, PlayType.PAIR, PlayType.TRIPLE})

_NAMES = {
    PlayType.SINGLE: "single",
    PlayType.PAIR: "pair",
    PlayType.SEQUENCE: "sequence",
    PlayType.DOUBLE_SEQUENCE: "double sequence",
    PlayType.TRIPLE: "triple",
    PlayType.TRIPLE_SEQUENCE: "triple sequence",
    PlayType.THREE_BOMB: "three bomb",
    PlayType.FOUR_BOMB: "four bomb",
    PlayType.JOKER_BOMB: "joker bomb",
}


def value_of_rank(rank: int) -> int:
    """The value (1..13) of a rank index 0..12: 3..A keep their index, a 2 is 13."""
    return TWO_VALUE if rank == _TWO_RANK else rank


def rank_of_value(value: int) -> int:
    """The rank index of a value 1..13 (inverse of :func:`value_of_rank`)."""
    return _TWO_RANK if value == TWO_VALUE else value


def _value_name(value: int) -> str:
    return "joker" if value == JOKER_VALUE else RANKS[rank_of_value(value)]


def _rank_text(type_: int, key: int) -> str:
    return "joker" if type_ == PlayType.JOKER_BOMB else _value_name(key)


def _head_view(type_: int, key: int, length: int, _cls: int, _context: object) -> str:
    """The words of ``str(play)`` before the cards."""
    t = PlayType(type_)
    words = _NAMES[t]
    if t == PlayType.JOKER_BOMB:
        return words
    width = SEQUENCE_WIDTH.get(t)
    if width is not None:
        n = length // width
        return f"{words} {RANKS[key - n + 1]}-{RANKS[key]}"
    return f"{words} {_rank_text(type_, key)}"


def _rank_view(type_: int, key: int, _length: int, _cls: int, _context: object) -> str:
    return _rank_text(type_, key)


class Play(BombPlay):
    """One Gan Deng Yan play: cards, type, comparison key and joker declaration.

    Immutable and hashable; equal plays are the same play in the sense of
    ``docs/rules/cards.md`` (same cards, type and key).  The jokers are the wild cards; a
    standing-in joker is declared as the spade of its rank.

    >>> from chupai.gandengyan import classify
    >>> [str(p) for p in classify("9S TS BJ")]
    ['sequence 8-T: 9S TS BJ(=8)', 'sequence 9-J: 9S TS BJ(=J)']
    """

    __slots__ = ()
    _TYPES = PlayType

    # -- the public view -----------------------------------------------------------
    @property
    def jokers(self) -> int:
        """How many jokers the play holds."""
        joker_faces = (1 << BLACK_JOKER_BIT) | (1 << RED_JOKER_BIT)
        return (self._lo & joker_faces).bit_count() + (self._hi & joker_faces).bit_count()

    @property
    def is_soft(self) -> bool:
        """A bomb of three or four of a kind that holds a joker (``soft_bombs``)."""
        return self._type in (PlayType.THREE_BOMB, PlayType.FOUR_BOMB) and self.jokers > 0

    rank = RecordView(_rank_view, "The rank that names the play ('3'..'A', '2', 'joker'), the top rank of a sequence.")
    _head = RecordView(_head_view, "The words of str() before the cards.")

    @property
    def ranks(self) -> tuple[str, ...]:
        """The ranks a sequence type spans, low to high; the one rank of other plays."""
        width = SEQUENCE_WIDTH.get(PlayType(self._type))
        if width is None:
            return (self.rank,)
        n = self._length // width
        return tuple(RANKS[r] for r in range(self._key - n + 1, self._key + 1))

    def beats(self, other: Play, *, rules: Rules | None = None) -> bool:
        """True if this play may follow ``other`` (``docs/rules/gandengyan.md``).

        An ordinary combination follows one of the same type and length exactly one
        rank higher (a 2 follows any ordinary single, pair or triple; with
        ``rules.follow_same_rank`` also one of the same rank); a bomb follows any
        ordinary combination and any lower bomb.
        """
        if not isinstance(other, Play):
            raise TypeError(f"expected a Play, not {type(other).__name__}")
        if self._cls or other._cls:
            return self._cls > 0 and (self._cls, self._key) > (other._cls, other._key)
        if self._type != other._type or self._length != other._length or other._key == JOKER_VALUE:
            return False
        if self._key == other._key + 1 and self._key <= ACE_VALUE:
            return True
        if self._key == TWO_VALUE and other._key <= ACE_VALUE and self._type in TOPPED_BY_TWOS:
            return True
        rules = PAGAT if rules is None else rules
        return rules.follow_same_rank and self._key == other._key

    def _wild_mask(self) -> int:
        return _JOKERS

    def __str__(self) -> str:
        return f"{self._head}: {self._cards_text(_RANK_OF_FACE)}"

    def to_protocol(self) -> list[Any]:
        """``[type, rank, cards]``: the type's name, :attr:`rank` and the card names; read
        back exactly by :func:`~chupai.gandengyan.classify.from_protocol`.

        >>> from chupai.gandengyan import classify
        >>> [p.to_protocol() for p in classify("9S TS BJ")]
        [['SEQUENCE', 'T', ['9S', 'TS', 'BJ']], ['SEQUENCE', 'J', ['9S', 'TS', 'BJ']]]
        """
        return [_TYPE_NAMES[self._type], self.rank, self._card_names(_FACE_NAMES)]


_JOKERS = (1 << BLACK_JOKER_BIT) | (1 << RED_JOKER_BIT)
_TYPE_NAMES = {t.value: t.name for t in PlayType}
_FACE_NAMES = tuple(face_name(f) for f in range(NUM_FACES))
#: how a joker's declaration is written: suits never matter here, so by its rank alone
_RANK_OF_FACE = tuple(RANKS[f // BITS_PER_RANK] if f < BLACK_JOKER_BIT else face_name(f) for f in range(NUM_FACES))


# the compiled generator and engine make and read these classes (they import nothing
# from this layer: docs/design.md, "Layers")
GAME_CLASSES.bind(Play, Rules, PAGAT)
