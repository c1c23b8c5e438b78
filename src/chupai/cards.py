"""Card faces, parsing and printing, and the immutable multiset ``Cards``.

The text notation is that of ``docs/rules/cards.md``: ranks ``2 3 4 5 6 7 8 9 T J Q K A``
(``10`` and lower case accepted), suits ``S H C D`` (``♠ ♥ ♣ ♦`` accepted), jokers
``BJ`` and ``RJ``.  A face is an integer 0..53: ``rank * 4 + suit`` for the suited
cards (ranks 2..A -> 0..12, suits S H C D -> 0..3), 52 for ``BJ`` and 53 for ``RJ``,
the bit numbers of the core's masks.  ``Cards`` and the parser are compiled
(``chupai.core.cardset``): a 27-card hand parses in well under a microsecond.

>>> parse_face("7s"), face_name(20), face_of("T", "H")
(20, '7S', 33)
>>> Cards(None)
Traceback (most recent call last):
...
TypeError: cards must be Cards, a card string or an iterable of card strings, not None
"""
from __future__ import annotations

from chupai.core.cardset import Cards, face_name, face_of, parse_face
from chupai.core.records import RANKS, SUITS

__all__ = ["Cards", "face_of", "face_name", "parse_face", "RANKS", "SUITS"]
