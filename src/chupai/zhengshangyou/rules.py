"""Zheng Shangyou rule options (``docs/rules/zhengshangyou.md``), validated."""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from collections.abc import Sequence
from typing import Any

from chupai.core.validate import check_bool, check_choice, check_int, set_flags
from chupai.zhengshangyou._movegen import FLAG_JOKER_PAIR

__all__ = ["FLAG_JOKER_PAIR", "PAGAT", "Rules"]


#: the largest target the match accepts (a deal gives at most 2 points to one player)
MAX_TARGET = 1000

_NEXT_DEALER = ("third_out", "second_last_out")


@dataclass(frozen=True)
class Rules:
    """Every option of ``docs/rules/zhengshangyou.md``, validated; ``Rules()`` is the pagat preset.

    >>> Rules().target
    11
    >>> Rules(joker_pair=False).joker_pair
    False
    >>> Rules(target=0)
    Traceback (most recent call last):
    ...
    ValueError: target must be an int 1..1000, not 0

    Attributes:
        joker_pair: ``BJ RJ`` is a pair of jokers, above every pair of 2s (False: ``BJ RJ``
            is not a pair at all).
        target: the points that end the game at the end of a deal.
        next_dealer: who deals (and leads) the next deal: ``"third_out"`` (the source's
            "the third player to get rid of all his cards ... will be the next dealer";
            with 2 or 3 players, where nobody or only the last player would be third,
            the last player to run out) or ``"second_last_out"`` (the (n-1)th finisher,
            the rules page's wording; the same seat with 4 players).
    """

    joker_pair: bool = True
    target: int = 11
    next_dealer: str = "third_out"

    def __post_init__(self) -> None:
        object.__setattr__(self, "joker_pair", check_bool(self.joker_pair, "joker_pair"))
        object.__setattr__(self, "target", check_int(self.target, "target", 1, MAX_TARGET))
        check_choice(self.next_dealer, "next_dealer", _NEXT_DEALER)
        # the options the compiled generator reads, as its bit flags
        set_flags(self, {FLAG_JOKER_PAIR: self.joker_pair})

    @classmethod
    def pagat(cls, **overrides: Any) -> Rules:
        """The pagat.com rules (the default)."""
        return cls(**overrides)

    def dealer_after(self, finishing_order: Sequence[int]) -> int:
        """The seat that deals the deal after one with this finishing order.

        >>> Rules().dealer_after((4, 2, 0, 1, 3)), Rules(next_dealer="second_last_out").dealer_after((4, 2, 0, 1, 3))
        (0, 1)
        """
        n = len(finishing_order)
        if self.next_dealer == "third_out" and n >= 4:
            return finishing_order[2]
        return finishing_order[n - 2]

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated)."""
        return replace(self, **changes)

    def __repr__(self) -> str:
        args = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self))
        return f"Rules({args})"


PAGAT = Rules()
