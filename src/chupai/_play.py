"""The machinery the games' ``Play`` classes share (the rules stay in each game).

A game's ``Play`` is an immutable, hashable view of one ``play_t`` record of its
generator (``chupai._core``), built without ``__init__`` by the ``PlayList`` factory
``Play._from_record(lo, hi, type, key, length, cls, decl, context, taken)``.

* :class:`PlayBase`: no public constructor, the ``type`` property, equality and a
  cached hash by the game's ``_identity()``, ``repr``.
* :class:`RecordPlay`: a play that keeps the whole record (cards as masks, type, key,
  number of cards, the game's class field ``cls``, wild declaration, the generator's
  context) with the views every shedding game has: ``key``, ``cards``, ``wilds``,
  ``declared``.  A game names which of its cards stand in for others
  (``_standing_faces``).
* :class:`BombPlay`: a :class:`RecordPlay` whose ``cls`` is the bomb class, with the
  views ``bomb_class`` and ``is_bomb``.
"""
from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any

from chupai.cards import Cards, face_name

__all__ = ["BombPlay", "PlayBase", "RecordPlay"]


class PlayBase:
    """Identity, hash, ``type`` and ``repr`` of a game's ``Play`` (see the module doc).

    A subclass sets ``_TYPES`` (its ``PlayType``) and ``_ORIGIN`` (where plays come
    from, for the constructor's error), has the slots ``_type`` and ``_hash`` and
    defines ``_identity()`` (its ``_from_record`` sets ``_hash = None``): two plays are equal when they are of the same class and
    their identities are equal.
    """

    __slots__ = ()
    _TYPES: type[enum.IntEnum]
    _ORIGIN = "legal_plays() or classify()"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError(f"Play objects come from {self._ORIGIN}")

    @property
    def type(self) -> Any:
        """The combination type (the game's ``PlayType``)."""
        return self._TYPES(self._type)

    def _identity(self) -> tuple[Any, ...]:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        if self._hash is None:  # computed on first use
            self._hash = hash(self._identity())
        return self._hash

    def __repr__(self) -> str:
        return f"<Play {self}>"


class RecordPlay(PlayBase):
    """A play that keeps its whole generator record (see the module doc).

    Equal plays are the same play in the sense of ``spec/cards.md``: the same cards,
    type and key (and the same generator context, e.g. the level in Guan Dan).  A game
    whose ``cls`` tells plays of the same cards, type and key apart widens
    ``_identity`` (Zheng Shangyou: the multiplicity).
    """

    __slots__ = ("_lo", "_hi", "_type", "_key", "_length", "_cls", "_decl", "_context", "_hash")

    @classmethod
    def _from_record(
        cls, lo: int, hi: int, type_: int, key: int, length: int, cls_: int, decl: bytes, context: Any,
        taken: int = 0,
    ) -> Any:
        self = object.__new__(cls)
        self._lo = lo
        self._hi = hi
        self._type = type_
        self._key = key
        self._length = length
        self._cls = cls_
        self._decl = decl
        self._context = context
        self._hash = None
        return self

    def _identity(self) -> tuple[Any, ...]:
        return (self._lo, self._hi, self._type, self._key, self._context)

    def _standing_faces(self) -> list[int]:
        """The faces of the cards that stand in for others, in the order of ``_decl``."""
        raise NotImplementedError

    @property
    def key(self) -> int:
        """The comparison key: within one type, higher beats lower (encoding in the game's
        ``play`` module doc)."""
        return self._key

    @property
    def cards(self) -> Cards:
        """The physical cards, wild cards as themselves."""
        return Cards.from_masks(self._lo, self._hi)

    @property
    def wilds(self) -> tuple[str, ...]:
        """What each wild card stands for, as card names."""
        return tuple(face_name(f) for f in self._decl)

    @property
    def declared(self) -> Cards:
        """The cards with each wild card replaced by the card it stands for."""
        counts = self.cards.counts()
        for wild, face in zip(self._standing_faces(), self._decl):
            counts[wild] -= 1
            counts[face] += 1
        return Cards.from_counts(counts)

    def _cards_text(self, declared_name: Callable[[int], str] = face_name) -> str:
        """The card names, each wild card followed by ``(=what it stands for)``."""
        standing = self._standing_faces()
        decl = self._decl
        parts = []
        i = 0
        for f in self.cards.faces():
            if i < len(standing) and f == standing[i]:
                parts.append(f"{face_name(f)}(={declared_name(decl[i])})")
                i += 1
            else:
                parts.append(face_name(f))
        return " ".join(parts)


class BombPlay(RecordPlay):
    """A :class:`RecordPlay` whose record's ``cls`` is the bomb class (0: no bomb)."""

    __slots__ = ()

    @property
    def bomb_class(self) -> int:
        """0 for ordinary combinations, else the bomb class (the game's ``BOMB_CLASS``): a
        bomb of a higher class beats any bomb of a lower one."""
        return self._cls

    @property
    def is_bomb(self) -> bool:
        return self._cls > 0
