"""Guan Dan rule options (``docs/rules/guandan.md``) and their two presets."""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from chupai.cards import RANKS

__all__ = ["Rules", "parse_rank"]

_EQUAL_TRIBUTE = ("winners_choose", "seat_order")
_EQUAL_TRIBUTE_LEAD = ("payers_choose", "seat_order")
_TRIBUTE_LEAD = ("payer", "receiver")

# flag bits the compiled generator reads (see guandan/_movegen.pxd)
FLAG_SF_AS_STRAIGHT = 1
FLAG_JOKER_PAIR_IN_FULL_HOUSE = 2


def parse_rank(rank: Any, what: str = "rank") -> int:
    """Rank index 0..12 (2..A) of a rank character, ``'10'``, or an int 2..14.

    ``TypeError`` if ``rank`` is neither a string nor an int, ``ValueError`` if it names
    no rank.
    """
    if isinstance(rank, bool) or not isinstance(rank, (str, int)):
        raise TypeError(f"{what} {rank!r} is not a rank; expected a string 2-9, T, J, Q, K, A or an int 2..14")
    if isinstance(rank, int):
        if 2 <= rank <= 14:
            return rank - 2
    elif isinstance(rank, str):
        r = rank.strip().upper()
        if r == "10":
            r = "T"
        if len(r) == 1 and r in RANKS:
            return RANKS.index(r)
    raise ValueError(f"{what} {rank!r} is not a rank; expected 2-9, T, J, Q, K, A")


@dataclass(frozen=True)
class Rules:
    """Every option of ``docs/rules/guandan.md``, validated; ``Rules()`` is the pagat preset.

    >>> Rules().promotion
    (4, 2, 1)
    >>> Rules.competition().return_max_rank
    'T'
    >>> Rules(equal_tribute="coin")
    Traceback (most recent call last):
    ...
    ValueError: equal_tribute must be one of ('winners_choose', 'seat_order'), not 'coin'

    Attributes:
        promotion: levels gained for a 1-2, 1-3 and 1-4 win.
        straight_flush_as_straight: five suited consecutive cards may also be declared
            a plain straight (False: only when a wild card breaks the physical suit).
        joker_pair_in_full_house: ``BJ BJ`` / ``RJ RJ`` may be the pair of a full house.
        return_max_rank: the highest rank (level order) a tribute return may have when
            the receiver holds such a card; ``None`` for no limit.
        equal_tribute: who gets which of two equal tributes after a 1-2:
            ``"winners_choose"`` (a decision) or ``"seat_order"``.
        tribute_lead: which side leads after a tribute: ``"payer"`` (the payer of the
            higher or only tribute; the competition rules and the library's default) or
            ``"receiver"`` (its receiver, as pagat's rules words it).
        equal_tribute_lead: who of the leading side leads after two equal tributes:
            ``"payers_choose"`` (a decision of that side) or ``"seat_order"``.
        ace_attempts: failed deals as declarers at A before dropping to 2 (``None``: never).
        ace_loss_to_aces: declarers at A drop to 2 when an opponent went out first with
            a play made only of aces.
    """

    promotion: tuple[int, int, int] = (4, 2, 1)
    straight_flush_as_straight: bool = True
    joker_pair_in_full_house: bool = True
    return_max_rank: str | None = None
    equal_tribute: str = "winners_choose"
    equal_tribute_lead: str = "payers_choose"
    tribute_lead: str = "payer"
    ace_attempts: int | None = 3
    ace_loss_to_aces: bool = True

    def __post_init__(self) -> None:
        promo = self.promotion
        if (
            not isinstance(promo, (tuple, list))
            or len(promo) != 3
            or not all(isinstance(p, int) and not isinstance(p, bool) and 0 < p <= 12 for p in promo)
        ):
            raise ValueError(f"promotion must be three levels 1..12 for (1-2, 1-3, 1-4), not {promo!r}")
        object.__setattr__(self, "promotion", tuple(promo))
        for name in ("straight_flush_as_straight", "joker_pair_in_full_house", "ace_loss_to_aces"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, not {getattr(self, name)!r}")
        if self.return_max_rank is not None:
            object.__setattr__(
                self, "return_max_rank", RANKS[parse_rank(self.return_max_rank, "return_max_rank")]
            )
        if self.equal_tribute not in _EQUAL_TRIBUTE:
            raise ValueError(f"equal_tribute must be one of {_EQUAL_TRIBUTE}, not {self.equal_tribute!r}")
        if self.equal_tribute_lead not in _EQUAL_TRIBUTE_LEAD:
            raise ValueError(
                f"equal_tribute_lead must be one of {_EQUAL_TRIBUTE_LEAD}, not {self.equal_tribute_lead!r}"
            )
        if not isinstance(self.tribute_lead, str):
            raise TypeError(f"tribute_lead must be a str, one of {_TRIBUTE_LEAD}, not {self.tribute_lead!r}")
        if self.tribute_lead not in _TRIBUTE_LEAD:
            raise ValueError(f"tribute_lead must be one of {_TRIBUTE_LEAD}, not {self.tribute_lead!r}")
        a = self.ace_attempts
        if a is not None and (not isinstance(a, int) or isinstance(a, bool) or a < 1):
            raise ValueError(f"ace_attempts must be a positive int or None, not {a!r}")
        # the options the compiled generator reads, as its bit flags
        object.__setattr__(
            self,
            "_flags",
            (FLAG_SF_AS_STRAIGHT if self.straight_flush_as_straight else 0)
            | (FLAG_JOKER_PAIR_IN_FULL_HOUSE if self.joker_pair_in_full_house else 0),
        )

    @classmethod
    def pagat(cls, **overrides: Any) -> Rules:
        """The pagat.com rules (the default)."""
        return cls(**overrides)

    @classmethod
    def competition(cls, **overrides: Any) -> Rules:
        """The Chinese competition rules."""
        base: dict[str, Any] = dict(
            promotion=(3, 2, 1),
            straight_flush_as_straight=False,
            return_max_rank="T",
            equal_tribute="seat_order",
        )
        base.update(overrides)
        return cls(**base)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated)."""
        return replace(self, **changes)

    def __repr__(self) -> str:
        args = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self))
        return f"Rules({args})"


PAGAT = Rules()
