"""The phases of a Dou Dizhu deal: ``Deal.phase``, each history event's ``phase`` (a
``StrEnum``: ``deal.phase == "play"``)."""
from enum import StrEnum

__all__ = ["Phase"]


class Phase(StrEnum):
    """The phases of a Dou Dizhu deal: the auction, the card play, the end."""

    BID = "bid"
    PLAY = "play"
    OVER = "over"
