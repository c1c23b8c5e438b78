"""The one type of a decision outside the card play that names a card.

Guan Dan's tribute paid, taken and returned and Zheng Shangyou's exchange (a card paid,
taken or given) are each a :class:`CardDecision` subclass: frozen, its ``card`` in the
canonical spelling (``"10h"`` reads as ``"TH"``), equal only to a decision of the same
class and card, and shown as ``ClassName('TH')``.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, repr=False)
... class Give(CardDecision):
...     '''A card given.'''
>>> Give("10h"), Give("TH") == Give("TH"), Give("TH") == CardDecision("TH")
(Give('TH'), True, False)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chupai.cards import face_name, parse_face

__all__ = ["CardDecision"]


@dataclass(frozen=True, repr=False)
class CardDecision:
    """A decision naming one card (a card string such as ``"7S"``; ``TypeError`` for
    anything but a string, ``ValueError`` for a string that is no card)."""

    card: str

    def __post_init__(self) -> None:
        card: Any = self.card
        if not isinstance(card, str):
            raise TypeError(f"card must be a card string such as '7S', not {card!r}")
        object.__setattr__(self, "card", face_name(parse_face(card)))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.card!r})"
