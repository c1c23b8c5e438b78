"""The phases of a Gan Deng Yan deal: ``Deal.phase``, each history event's ``phase``
(a ``StrEnum``: ``deal.phase == "play"``)."""
from enum import StrEnum

__all__ = ["Phase"]


class Phase(StrEnum):
    """The phases of a Gan Deng Yan deal (there is no phase before the card play)."""

    PLAY = "play"
    OVER = "over"
