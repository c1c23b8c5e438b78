"""Guan Dan rule options (``docs/rules/guandan.md``) and their two presets."""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from chupai.core.validate import check_bool, check_choice, check_int, check_optional_int, set_flags
from chupai.cards import RANKS
from chupai.guandan._movegen import FLAG_JOKER_PAIR_IN_FULL_HOUSE, FLAG_SF_AS_STRAIGHT, parse_rank

__all__ = ["Rules", "parse_rank"]

_EQUAL_TRIBUTE = ("winners_choose", "seat_order")
_EQUAL_TRIBUTE_LEAD = ("payers_choose", "seat_order")
_TRIBUTE_LEAD = ("payer", "receiver")

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
    ValueError: unknown equal_tribute 'coin'; expected one of ['seat_order', 'winners_choose']
    >>> Rules(joker_pair_in_full_house="yes")
    Traceback (most recent call last):
    ...
    TypeError: joker_pair_in_full_house must be True or False, not 'yes'

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
        if not isinstance(promo, (tuple, list)) or len(promo) != 3:
            raise TypeError(f"promotion must be a tuple of three ints (1-2, 1-3, 1-4), not {promo!r}")
        object.__setattr__(
            self, "promotion", tuple(check_int(p, f"promotion[{i}]", 1, 12) for i, p in enumerate(promo))
        )
        for name in ("straight_flush_as_straight", "joker_pair_in_full_house", "ace_loss_to_aces"):
            object.__setattr__(self, name, check_bool(getattr(self, name), name))
        if self.return_max_rank is not None:
            if not isinstance(self.return_max_rank, str):
                raise TypeError(f"return_max_rank must be a rank (a str such as 'T') or None, not {self.return_max_rank!r}")
            object.__setattr__(
                self, "return_max_rank", RANKS[parse_rank(self.return_max_rank, "return_max_rank")]
            )
        check_choice(self.equal_tribute, "equal_tribute", _EQUAL_TRIBUTE)
        check_choice(self.equal_tribute_lead, "equal_tribute_lead", _EQUAL_TRIBUTE_LEAD)
        check_choice(self.tribute_lead, "tribute_lead", _TRIBUTE_LEAD)
        object.__setattr__(self, "ace_attempts", check_optional_int(self.ace_attempts, "ace_attempts", 1))
        # the options the compiled generator reads, as its bit flags
        set_flags(self, {
            FLAG_SF_AS_STRAIGHT: self.straight_flush_as_straight,
            FLAG_JOKER_PAIR_IN_FULL_HOUSE: self.joker_pair_in_full_house,
        })

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
