"""The phases of a Chinese Ten deal: ``Deal.phase``, each history event's ``phase``
(a ``StrEnum``: ``deal.phase == "play"``)."""
from enum import StrEnum

__all__ = ["Phase"]


class Phase(StrEnum):
    """The phases of a Chinese Ten deal."""

    #: the current player plays a card from the hand
    PLAY = "play"
    #: the current player chooses the capture of the stock card just turned
    TURN = "turn"
    #: the hands and the stock are empty
    OVER = "over"
