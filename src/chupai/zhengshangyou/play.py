"""Zheng Shangyou plays: types, comparison keys and the ``Play`` object.

The encoding of a play record (shared by the compiled generator, ``classify``, the
engine and ``Play``):

* ``type``: a :class:`PlayType` value.
* ``length``: the number of cards.
* ``cls``: the cards of each rank (the *multiplicity*): 1 for singles and single
  sequences, the size 2..4 for sets, ``m`` 2..4 for multiple sequences.  The *shape*
  of a play is ``(type, length, cls)``; a follower must have the same shape (so a
  multiple sequence's number of ranks is ``length // cls``).
* ``key``: the comparison key; within one shape, a play beats exactly the plays with
  a smaller key.  ``key = SUITED_KEY * suited + 2 * value + pure`` where ``value`` is
  the rank in the game's order (:func:`rank_value`: 3..A -> 0..11, 2 -> 12, ``BJ`` and
  the pair of jokers 13, ``RJ`` 14) of the single card, of the set, or of the top of the
  sequence; ``pure`` is 1 for a combination without wild cards; ``suited`` is 1 for a
  single sequence whose natural cards are of one suit.  So a higher rank wins, at
  equal rank a pure play beats an impure one, two impure ones (or two pure ones) of
  equal rank do not beat each other, and any suited sequence beats any mixed one.
* ``decl`` (``nwild`` entries): the face each wild card stands for, in the order of
  the wild cards' faces (2s by suit, then ``BJ``, then ``RJ``).  Wild cards are the 2s
  and jokers of a set of another rank, the jokers of a set of 2s, the jokers of a
  single sequence and the 2s and jokers of a multiple sequence.  Canonical
  declaration: in a set, the wild cards take the suits of its rank that its natural
  cards lack, in suit order S H C D; in a single sequence, a joker is the card of its
  rank in the sequence's suit (spades in a mixed sequence), the black joker at the
  lower rank when there are two; in a multiple sequence, the 2s go one each to the
  ranks short of cards, lowest rank first, the jokers fill the rest from the lowest
  rank up, and each wild card takes the lowest suit its rank still lacks.
"""
from __future__ import annotations

import enum
from typing import Any

from chupai.core.records import BITS_PER_RANK, BLACK_JOKER_BIT, NUM_FACES, RED_JOKER_BIT
from chupai.core.play import RecordPlay, RecordView
from chupai.cards import RANKS, face_name
from chupai.zhengshangyou._movegen import GAME_CLASSES
from chupai.zhengshangyou.rules import PAGAT, Rules

__all__ = [
    "BLACK_JOKER_VALUE",
    "JOKER_PAIR_VALUE",
    "RED_JOKER_VALUE",
    "SUITED_KEY",
    "TWO_VALUE",
    "Play",
    "PlayType",
    "face_value",
    "key_pure",
    "key_suited",
    "key_value",
    "make_key",
    "rank_value",
    "value_name",
]

#: the rank values of the special cards (the game's order: 3..A are 0..11)
TWO_VALUE = 12
BLACK_JOKER_VALUE = 13
RED_JOKER_VALUE = 14
JOKER_PAIR_VALUE = 13
#: what ``suited`` adds to a key (above every ``2 * value + pure``)
SUITED_KEY = 32
RANK_TWO = 0  # rank index of the 2s in the core's layout


class PlayType(enum.IntEnum):
    """The Zheng Shangyou combination types (``docs/rules/zhengshangyou.md``, "Combinations")."""

    SINGLE = 1
    SET = 2
    SEQUENCE = 3
    MULTI_SEQUENCE = 4

    def __str__(self) -> str:
        return self.name


def rank_value(rank: int) -> int:
    """The game-order value of a rank index of the core (0 = 2, 1 = 3, .., 12 = A)."""
    return TWO_VALUE if rank == RANK_TWO else rank - 1


def face_value(face: int) -> int:
    """The game-order value of a face: its rank's value, 13 for ``BJ``, 14 for ``RJ``."""
    if face == BLACK_JOKER_BIT:
        return BLACK_JOKER_VALUE
    if face == RED_JOKER_BIT:
        return RED_JOKER_VALUE
    return rank_value(face // BITS_PER_RANK)


def value_rank(value: int) -> int:
    """The rank index of a value 0..12 (inverse of :func:`rank_value`)."""
    return RANK_TWO if value == TWO_VALUE else value + 1


def make_key(value: int, pure: bool, suited: bool = False) -> int:
    """The comparison key of a play (see the module docstring)."""
    return SUITED_KEY * int(suited) + 2 * value + int(pure)


def key_value(key: int) -> int:
    """The rank value inside a key."""
    return (key % SUITED_KEY) // 2


def key_pure(key: int) -> bool:
    return bool(key & 1)


def key_suited(key: int) -> bool:
    return key >= SUITED_KEY


def value_name(value: int) -> str:
    """The rank character of a value 0..12, or ``BJ`` / ``RJ``."""
    if value == BLACK_JOKER_VALUE:
        return "BJ"
    if value == RED_JOKER_VALUE:
        return "RJ"
    return RANKS[value_rank(value)]


_JOKERS = (1 << BLACK_JOKER_BIT) | (1 << RED_JOKER_BIT)
_TWOS = (1 << BITS_PER_RANK) - 1  # the 2s: rank index 0
_SET_WORDS = {2: "pair", 3: "triple", 4: "four"}
_MULTI_WORDS = {2: "double", 3: "triple", 4: "quadruple"}


def _rank_text(type_: int, key: int) -> str:
    value = key_value(key)
    if type_ == PlayType.SET and value == JOKER_PAIR_VALUE:
        return "JOKER"
    return value_name(value)


def _head_view(type_: int, key: int, length: int, cls: int, _context: object) -> str:
    """The words of ``str(play)`` before the cards."""
    t = PlayType(type_)
    tags = []
    rank = _rank_text(type_, key)
    if t == PlayType.SINGLE:
        return f"single {rank}"
    if t == PlayType.SET:
        head = "pair of jokers" if rank == "JOKER" else f"{_SET_WORDS[cls]} {rank}"
    else:
        top = key_value(key)
        span = f"{value_name(top - length // cls + 1)}-{value_name(top)}"
        if t == PlayType.SEQUENCE:
            head = f"sequence {span}"
            tags.append("suited" if key_suited(key) else "mixed")
        else:
            head = f"{_MULTI_WORDS[cls]} sequence {span}"
    if not key_pure(key):
        tags.append("impure")
    return " ".join([head] + tags)


def _rank_view(type_: int, key: int, _length: int, _cls: int, _context: object) -> str:
    return _rank_text(type_, key)


class Play(RecordPlay):
    """One Zheng Shangyou play: cards, type, comparison key and wild declaration.

    Immutable and hashable; equal plays are the same play in the sense of
    ``docs/rules/cards.md`` (same cards, type and key, and the same multiplicity: the record's
    ``cls``).

    >>> from chupai.zhengshangyou import classify
    >>> [str(p) for p in classify("5S 6D BJ")]
    ['sequence 4-6 mixed impure: 5S 6D BJ(=4S)', 'sequence 5-7 mixed impure: 5S 6D BJ(=7S)']
    """

    __slots__ = ()
    _TYPES = PlayType

    # -- the public view -----------------------------------------------------------
    @property
    def multiplicity(self) -> int:
        """Cards of each rank: 1 (single, single sequence), the set size, or ``m``."""
        return self._cls

    @property
    def shape(self) -> tuple[PlayType, int, int]:
        """(type, number of cards, multiplicity): a follower must have the same shape."""
        return (PlayType(self._type), self._length, self._cls)

    @property
    def num_ranks(self) -> int:
        """The number of ranks of a sequence (1 for singles and sets)."""
        if self._type in (PlayType.SEQUENCE, PlayType.MULTI_SEQUENCE):
            return self._length // self._cls
        return 1

    @property
    def value(self) -> int:
        """The game-order value of the single, the set or the sequence's top."""
        return key_value(self._key)

    @property
    def pure(self) -> bool:
        """No wild card."""
        return key_pure(self._key)

    @property
    def suited(self) -> bool:
        """A single sequence whose natural cards are all of one suit."""
        return key_suited(self._key)

    rank = RecordView(
        _rank_view,
        "The rank that names the play: the card's, the set's ('JOKER' for the pair of jokers) "
        "or the top of the sequence.",
    )
    _head = RecordView(_head_view, "The words of str() before the cards.")

    def _wild_mask(self) -> int:
        """The faces that play as wild cards here: the jokers, and the 2s of a multiple
        sequence or of a set of another rank."""
        if not self._decl:
            return 0
        if self._type == PlayType.MULTI_SEQUENCE or (self._type == PlayType.SET and self.value != TWO_VALUE):
            return _JOKERS | _TWOS
        return _JOKERS

    def wild_faces(self) -> list[int]:
        """The faces of the cards that play as wild cards here, ascending."""
        m = self._lo & self._wild_mask()
        return [f for f in range(m.bit_length()) if m >> f & 1]

    def beats(self, other: Play) -> bool:
        """True if this play may be played on ``other``: the same shape, a higher key."""
        if not isinstance(other, Play):
            raise TypeError(f"expected a Play, not {type(other).__name__}")
        return (
            self._type == other._type
            and self._length == other._length
            and self._cls == other._cls
            and self._key > other._key
        )

    def __str__(self) -> str:
        return f"{self._head}: {self._cards_text()}"

    def to_protocol(self) -> list[Any]:
        """``[type, rank, cards]``: the type's name, :attr:`rank` and the card names.

        A display and interchange form that :func:`~chupai.zhengshangyou.classify.from_protocol` reads back exactly.
        The type of a multiple sequence names its multiplicity (``DOUBLE_SEQUENCE``,
        ``TRIPLE_SEQUENCE``, ``QUADRUPLE_SEQUENCE``), since the same 12 cards may read as
        3 x 4 and 4 x 3 ranks with one top; ``rank`` is the single's, the set's
        (``JOKER`` for the pair of jokers) or the sequence's top.

        >>> from chupai.zhengshangyou import classify
        >>> [p.to_protocol() for p in classify("5S 5H 6S 6D 7S 7D")]
        [['DOUBLE_SEQUENCE', '7', ['5S', '5H', '6S', '6D', '7S', '7D']]]
        """
        ptype = _MULTI_NAMES[self._cls] if self._type == PlayType.MULTI_SEQUENCE else _TYPE_NAMES[self._type]
        return [ptype, self.rank, self._card_names(_FACE_NAMES)]


_TYPE_NAMES = {t.value: t.name for t in PlayType}
_MULTI_NAMES = {m: f"{word.upper()}_SEQUENCE" for m, word in _MULTI_WORDS.items()}
_FACE_NAMES = tuple(face_name(f) for f in range(NUM_FACES))


# the compiled generator and engine make and read these classes (they import nothing
# from this layer: docs/design.md, "Layers")
GAME_CLASSES.bind(Play, Rules, PAGAT)
