"""The interchange form ``[type, rank, cards]`` of a play, read back (each game's ``from_protocol``).

Every game's ``Play.to_protocol()`` gives a JSON-ready list and its
``from_protocol(entry, ...)`` returns the very play again (equal, same hash): the
round trip is exact.  Guan Dan's form is the competition protocol
(``docs/protocol.md``) and keeps its own card spelling; the other games write card names
(``docs/rules/cards.md``) and read the entry back here: the cards are recognised with the
game's ``classify`` and the reading whose own entry has the same type and rank fields
is the play.  A malformed entry (wrong shape, type or card) raises ``ValueError``:
entries are data read from messages.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from chupai.cards import Cards

__all__ = ["entry_cards", "select_play"]


class _Interchangeable(Protocol):
    def to_protocol(self) -> list[Any]: ...


P = TypeVar("P", bound=_Interchangeable)


def entry_cards(entry: Any) -> Cards:
    """The cards of an entry ``[type, rank, cards]`` (card names).

    ``ValueError`` if it is not a list of two strings and a list of card names.  An
    entry is data from a message, so a malformed one (even of the wrong type) is a
    ``ValueError``, as in Guan Dan's competition protocol.
    """
    if not isinstance(entry, (list, tuple)):
        raise ValueError(f"a protocol play must be a list [type, rank, cards], not {entry!r}")
    if len(entry) != 3:
        raise ValueError(f"a protocol play must be [type, rank, cards], not {entry!r}")
    ptype, prank, cards = entry
    if not isinstance(ptype, str) or not isinstance(prank, str):
        raise ValueError(f"the type and rank of a protocol play must be strings, not {ptype!r} and {prank!r}")
    if not isinstance(cards, (list, tuple)):
        raise ValueError(f"the cards of a protocol play must be a list of card names, not {cards!r}")
    try:
        return Cards(cards)
    except TypeError as e:
        raise ValueError(f"the cards of a protocol play must be card names: {e}") from None


def select_play(entry: Sequence[Any], readings: Sequence[P], game: str) -> P:
    """The reading of the entry's cards whose own entry has the entry's type and rank;
    ``ValueError`` if there is none."""
    for play in readings:
        proto = play.to_protocol()
        if proto[0] == entry[0] and proto[1] == entry[1]:
            return play
    raise ValueError(f"{list(entry)!r} is not a {game} play")
