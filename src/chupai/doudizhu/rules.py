"""Dou Dizhu rule options (``docs/rules/doudizhu.md``, "Rule options").

The readings on which the common engines differ are keywords of :class:`Rules`;
``Rules()`` is the game of the rules page, and ``Rules.openspiel()``, ``Rules.rlcard()``
and ``Rules.douzero()`` come as close to those engines' generators as the options go
(the differences that remain are listed on the rules page, each with a position).
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from chupai.core.validate import check_bool, check_choice, check_optional_int, set_flags
from chupai.doudizhu._movegen import (
    FLAG_FOUR_TWO_PAIR,
    FLAG_FOUR_WITH_TWO,
    FLAG_KICKER_ROCKET,
    FLAG_KICKER_SPLITS_BOMB,
    FLAG_KICKER_TRIO_RANK,
    FLAG_REPEAT_KICKERS,
)

__all__ = ["ALL_PASS", "BIDDING", "DEFAULT", "Rules"]

#: the auctions (``Rules.bidding``): one bid of 1-3 each, call and rob, or none
BIDDING = ("once", "rob", "none")
#: what an auction in which nobody bids or calls leads to (``Rules.all_pass``)
ALL_PASS = ("redeal", "void", "first_bidder")


@dataclass(frozen=True)
class Rules:
    """Every option of ``docs/rules/doudizhu.md``, validated; ``Rules()`` is the default game.

    >>> Rules().four_two_pair, Rules.openspiel().four_with_two
    (True, False)
    >>> Rules(kicker_rocket=1)
    Traceback (most recent call last):
    ...
    TypeError: kicker_rocket must be True or False, not 1

    Attributes:
        four_with_two: four of a rank with two single kickers, and with two kicker
            pairs, are combinations (False: a four is only a bomb).
        four_two_pair: the two single kickers of a four with two may be a pair
            (``5555 + 9 9``).
        kicker_rocket: the kickers of one play may be both jokers.
        airplane_repeat_kickers: the single kickers of an airplane may repeat a rank
            (``333444 + 9 9``); False: one kicker of each rank.
        kicker_splits_bomb: a kicker may come from a rank of which the hand holds all
            four cards (breaking the bomb).
        kicker_trio_rank: a single kicker may be the fourth card of one of the play's
            own trios (``333 + 3`` as a trio with a single).
        bidding: the auction (:mod:`chupai.doudizhu.auction`): ``"once"`` (each player
            once, bid 1, 2 or 3 above the bids so far, or pass; 3 ends it), ``"rob"``
            (call and rob: 叫地主 / 抢地主), ``"none"`` (no auction: the first bidder is
            the landlord at a stake of 1, as RLCard's and DouZero's environments).
        all_pass: when nobody bids (or calls): ``"redeal"`` (the deal is void and dealt
            again), ``"void"`` (the deal ends there, every return 0: OpenSpiel's) or
            ``"first_bidder"`` (the first bidder takes the landlord at 1).
        multiplier_cap: the most the doublings (bombs, rocket, spring) may multiply the
            stake by (``None``: no cap).
    """

    four_with_two: bool = True
    four_two_pair: bool = True
    kicker_rocket: bool = False
    airplane_repeat_kickers: bool = False
    kicker_splits_bomb: bool = True
    kicker_trio_rank: bool = False
    bidding: str = "once"
    all_pass: str = "redeal"
    multiplier_cap: int | None = None

    def __post_init__(self) -> None:
        for f in fields(self):
            if f.type == "bool":
                object.__setattr__(self, f.name, check_bool(getattr(self, f.name), f.name))
        object.__setattr__(self, "bidding", check_choice(self.bidding, "bidding", BIDDING))
        object.__setattr__(self, "all_pass", check_choice(self.all_pass, "all_pass", ALL_PASS))
        object.__setattr__(self, "multiplier_cap", check_optional_int(self.multiplier_cap, "multiplier_cap", 1))
        # the options the compiled code reads: the generator's flags, and the auction's
        # rules as indices into BIDDING and ALL_PASS (chupai.doudizhu._engine)
        object.__setattr__(self, "_auction", (BIDDING.index(self.bidding), ALL_PASS.index(self.all_pass)))
        set_flags(self, {
            FLAG_FOUR_WITH_TWO: self.four_with_two,
            FLAG_FOUR_TWO_PAIR: self.four_two_pair,
            FLAG_KICKER_ROCKET: self.kicker_rocket,
            FLAG_REPEAT_KICKERS: self.airplane_repeat_kickers,
            FLAG_KICKER_SPLITS_BOMB: self.kicker_splits_bomb,
            FLAG_KICKER_TRIO_RANK: self.kicker_trio_rank,
        })

    @classmethod
    def standard(cls, **overrides: Any) -> Rules:
        """The rules of ``docs/rules/doudizhu.md`` (the default, ``Rules()``)."""
        return cls(**overrides)

    @classmethod
    def openspiel(cls, **overrides: Any) -> Rules:
        """OpenSpiel's ``dou_dizhu``: no four with two; an airplane's single kickers may
        repeat a rank; a deal in which all three pass ends with no score."""
        return cls(**{"four_with_two": False, "airplane_repeat_kickers": True, "all_pass": "void", **overrides})

    @classmethod
    def rlcard(cls, **overrides: Any) -> Rules:
        """RLCard's ``doudizhu``: an airplane's single kickers may repeat a rank; no
        auction (seat 0 is the landlord)."""
        return cls(**{"airplane_repeat_kickers": True, "bidding": "none", **overrides})

    @classmethod
    def douzero(cls, **overrides: Any) -> Rules:
        """DouZero's ``env``: kickers may repeat a rank and may be both jokers; no
        auction (the landlord's seat is given)."""
        return cls(**{"airplane_repeat_kickers": True, "kicker_rocket": True, "bidding": "none", **overrides})

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated)."""
        return replace(self, **changes)

    def __repr__(self) -> str:
        args = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self))
        return f"Rules({args})"


#: the default rules, ``Rules()``
DEFAULT = Rules()
