"""The phases of a Guan Dan deal: ``Deal.phase``, each history event's ``phase``
(a ``StrEnum``: ``deal.phase == "play"``)."""
from enum import StrEnum

__all__ = ["Phase"]


class Phase(StrEnum):
    """The phases of a Guan Dan deal."""

    #: payments and the take of equal tributes
    TRIBUTE = "tribute"
    #: the receivers return a card each
    RETURN = "return"
    #: after equal tributes, a payer chooses who leads
    LEAD = "lead"
    #: the card play
    PLAY = "play"
    OVER = "over"
