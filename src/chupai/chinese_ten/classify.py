"""Recognition of captures, independent of the generator (used by the brute-force tests).

``classify(card, captured)`` reads the capture rule of ``docs/rules/chinese_ten.md`` directly:
a card A(=1)..9 takes one card making exactly ten with it, T/J/Q/K take one card of
their own rank, and the fourth card of a rank that captures itself (5, T, J, Q, K)
takes three of that rank at once.  Whether the play is legal in a position (the
triple must be the whole of that rank on the layout, forced capture) is the
generator's and the reference's business.

``classify`` returns the plays (as every game's ``classify``): one, or none.

>>> classify("7S", "3H"), classify("QD", "QS"), classify("AS", "AD")
([<Play 7S takes 3H>], [<Play QD takes QS>], [])
>>> classify("5C", "5S 5H 5D"), classify("9H", "")
([<Play 5C takes 5S 5H 5D>], [<Play 9H to the layout>])
>>> classify_faces(parse_card("7S"), [parse_card("3H")])
<PlayType.CAPTURE: 1>
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chupai.core.records import BITS_PER_RANK
from chupai.cards import RANKS, Cards
from chupai.chinese_ten.play import Play, PlayType, parse_card, parse_cards

__all__ = ["classify", "from_protocol", "classify_faces", "pip_value", "MAX_CAPTURED", "SELF_CAPTURING", "SUM"]

#: a numeral capture makes exactly this sum
SUM = 10
#: the ranks that capture a card of their own rank (and so can form the opening triple)
SELF_CAPTURING = frozenset(RANKS.index(r) for r in "5TJQK")
_PICTURES = frozenset(RANKS.index(r) for r in "TJQK")
_TRIPLE = 3
#: no card captures more than this many cards (the triple)
MAX_CAPTURED = _TRIPLE


def pip_value(rank: int) -> int:
    """The capturing value of a rank index: A 1, 2..9 their pips, T 10, J 11, Q 12, K 13."""
    name = RANKS[rank]
    if name == "A":
        return 1
    return "TJQK".index(name) + 10 if rank in _PICTURES else int(name)


def classify(card: Any, captured: Any) -> list[Play]:
    """The plays of ``card`` taking ``captured`` (cards or a string): the one play, or
    ``[]`` if that card cannot take those cards.  ``captured`` empty: the card joins the
    layout."""
    face = parse_card(card)
    taken = parse_cards(captured, "captured")
    if (taken >> face) & 1:
        raise ValueError(f"card {card!r} cannot capture itself")
    kind = classify_faces(face, [f for f in range(taken.bit_length()) if taken >> f & 1])
    if kind is None:
        return []
    return [Play._from_record(1 << face, 0, int(kind), face, taken.bit_count(), 0, b"", None, taken)]


def classify_faces(face: int, captured: Sequence[int]) -> PlayType | None:
    """:func:`classify` on face numbers (distinct, not ``face``), for the brute force."""
    rank = face // BITS_PER_RANK
    ranks = [f // BITS_PER_RANK for f in captured]
    if not ranks:
        return PlayType.DISCARD
    if len(ranks) == 1:
        (other,) = ranks
        if rank in _PICTURES or other in _PICTURES:
            return PlayType.CAPTURE if other == rank else None
        return PlayType.CAPTURE if pip_value(rank) + pip_value(other) == SUM else None
    if len(ranks) == _TRIPLE and rank in SELF_CAPTURING and all(r == rank for r in ranks):
        return PlayType.TRIPLE
    return None


def from_protocol(obj: Sequence[Any]) -> Play:
    """The play an entry ``[type, card, captured]`` of :meth:`Play.to_protocol` names.

    ``ValueError`` if it is not a list of a type name, a card name and a list of card
    names (entries are data from messages), or if that card cannot take those cards
    that way.  Whether the
    play is legal in a position (the layout, forced capture) is the state's business.
    """

    if not isinstance(obj, (list, tuple)):
        raise ValueError(f"a protocol play must be a list [type, card, captured], not {obj!r}")
    if len(obj) != 3:
        raise ValueError(f"a protocol play must be [type, card, captured], not {obj!r}")
    ptype, card, captured = obj
    if not isinstance(ptype, str) or not isinstance(card, str):
        raise ValueError(f"the type and card of a protocol play must be strings, not {ptype!r} and {card!r}")
    if not isinstance(captured, (list, tuple)):
        raise ValueError(f"the captured cards of a protocol play must be a list of card names, not {captured!r}")
    try:
        taken = Cards(captured)
    except TypeError as e:
        raise ValueError(f"the captured cards of a protocol play must be card names: {e}") from None
    for play in classify(card, taken):
        if play.type.name == ptype:
            return play
    raise ValueError(f"{list(obj)!r} is not a Chinese Ten play")
