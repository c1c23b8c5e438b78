"""The phases of a Zheng Shangyou deal: ``Deal.phase``, each history event's ``phase``
(a ``StrEnum``: ``deal.phase == "play"``)."""
from enum import StrEnum

__all__ = ["Phase"]


class Phase(StrEnum):
    """The phases of a Zheng Shangyou deal."""

    #: the card exchange after the previous deal (:mod:`chupai.zhengshangyou.exchange`)
    EXCHANGE = "exchange"
    PLAY = "play"
    OVER = "over"
