"""Gan Deng Yan rule options (``docs/rules/gandengyan.md``, "Rule options").

Every variant of the spec is a keyword of :class:`Rules`, by its name in the spec;
``Rules()`` (also ``Rules.pagat()``) is the base game.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from chupai.core.validate import check_bool, check_int, check_optional_int, set_flags
from chupai.gandengyan._entry import DECKS
from chupai.gandengyan._movegen import FLAG_FOLLOW_SAME_RANK, FLAG_JOKER_AS_TWO, FLAG_JOKER_LEAD_OUT, FLAG_TRIPLES_ARE_BOMBS, FLAG_TRIPLE_SEQUENCES

__all__ = ["ACE_MULTIPLIERS", "PAGAT", "Rules"]


#: the ordinary ranks 3..A: the most ranks a sequence can span
MAX_RANKS = 12
#: the least ranks of a sequence; ``max_sequence_ranks`` may not go below it
MIN_SEQUENCE_RANKS = 3
#: the values ``ace_multiplier`` may take
ACE_MULTIPLIERS = (2, 3, 4)
#: cards in one deck (52 and two jokers)
DECK_CARDS = 54
#: the largest ``max_payment`` (exact in the playouts' doubles)
MAX_PAYMENT = 2**53


@dataclass(frozen=True)
class Rules:
    """Every option of ``docs/rules/gandengyan.md``, validated; ``Rules()`` is the base game.

    >>> Rules().decks, Rules(decks=2).decks
    (1, 2)
    >>> Rules(triple_sequences=True)
    Traceback (most recent call last):
    ...
    ValueError: triple_sequences=True needs triples_are_bombs=False (triple sequences are ordinary combinations)

    Attributes:
        decks: 1 (54 cards) or 2 (108 cards).
        triples_are_bombs: three of a kind is a bomb (False: an ordinary "aeroplane",
            followed one rank higher or by 2-2-2).
        triple_sequences: 3-3-3-4-4-4(-5-5-5 ...) is a combination (needs
            ``triples_are_bombs=False``).
        max_sequence_ranks: the most ranks of a sequence or double sequence (3..12);
            ``None``: no limit but the ranks 3..A.
        joker_as_two: a joker may stand for a 2.
        joker_lead_out: a player on lead whose only cards are a joker (or, with two
            decks, two identical jokers) may lead them and go out; False: they may not,
            and the lead passes to the next player.
        follow_same_rank: an ordinary combination may also be followed by one of the
            same type, length and rank.
        min_talon_to_win: a player cannot win while more than this many cards remain in
            the talon; ``None``: no limit.
        ace_multiplier: each ace left in a loser's hand multiplies their payment by this
            (2, 3 or 4), compounding; ``None``: aces are plain cards.
        multipliers: the general (bombs played) and the loser's own multipliers.
        joker_bombs_in_hand: with ``multipliers``, the bombs left in a loser's hand
            count jokers: every bomb the hand can form (``BJ RJ``, ``5S 5H BJ``), split
            for the largest factor (False: natural bombs only).
        max_payment: the most one loser pays in one deal; ``None``: no limit.
        soft_bombs: with ``multipliers``, a bomb containing a joker counts x2 and a
            natural one x4 (the double-joker bomb stays x8).
        positive_only: the winner scores what the losers would pay; nobody scores
            negative.
        announce_at: players holding at most this many cards are flagged in
            observations; ``None``: no announcement.
    """

    decks: int = DECKS[0]
    triples_are_bombs: bool = True
    triple_sequences: bool = False
    max_sequence_ranks: int | None = None
    joker_as_two: bool = True
    joker_lead_out: bool = True
    follow_same_rank: bool = False
    min_talon_to_win: int | None = None
    ace_multiplier: int | None = None
    multipliers: bool = False
    joker_bombs_in_hand: bool = True
    max_payment: int | None = None
    soft_bombs: bool = False
    positive_only: bool = False
    announce_at: int | None = None

    # max_sequence_ranks resolved on construction (not an option of its own)
    _max_ranks: int = field(init=False, repr=False, compare=False, default=0)

    def __post_init__(self) -> None:
        decks = check_int(self.decks, "decks", DECKS[0], DECKS[-1])
        object.__setattr__(self, "decks", decks)
        for name in (
            "triples_are_bombs",
            "triple_sequences",
            "joker_as_two",
            "joker_lead_out",
            "follow_same_rank",
            "multipliers",
            "joker_bombs_in_hand",
            "soft_bombs",
            "positive_only",
        ):
            object.__setattr__(self, name, check_bool(getattr(self, name), name))
        if self.triple_sequences and self.triples_are_bombs:
            raise ValueError(
                "triple_sequences=True needs triples_are_bombs=False (triple sequences are ordinary combinations)"
            )
        m = check_optional_int(self.max_sequence_ranks, "max_sequence_ranks", MIN_SEQUENCE_RANKS, MAX_RANKS)
        object.__setattr__(self, "max_sequence_ranks", m)
        object.__setattr__(
            self, "min_talon_to_win", check_optional_int(self.min_talon_to_win, "min_talon_to_win", 0, DECK_CARDS * decks)
        )
        a = check_optional_int(self.ace_multiplier, "ace_multiplier")
        if a is not None and a not in ACE_MULTIPLIERS:
            raise ValueError(f"ace_multiplier must be None or one of {ACE_MULTIPLIERS}, not {a!r}")
        object.__setattr__(self, "ace_multiplier", a)
        if self.soft_bombs and not self.multipliers:
            raise ValueError("soft_bombs=True needs multipliers=True (it changes the bomb multipliers)")
        object.__setattr__(self, "max_payment", check_optional_int(self.max_payment, "max_payment", 1, MAX_PAYMENT))
        object.__setattr__(self, "announce_at", check_optional_int(self.announce_at, "announce_at", 1))
        # the options the compiled code reads
        set_flags(self, {
            FLAG_TRIPLES_ARE_BOMBS: self.triples_are_bombs,
            FLAG_TRIPLE_SEQUENCES: self.triple_sequences,
            FLAG_JOKER_AS_TWO: self.joker_as_two,
            FLAG_JOKER_LEAD_OUT: self.joker_lead_out,
            FLAG_FOLLOW_SAME_RANK: self.follow_same_rank,
        })
        object.__setattr__(self, "_max_ranks", MAX_RANKS if m is None else m)

    @classmethod
    def pagat(cls, **overrides: Any) -> Rules:
        """The base game of pagat.com (the default), with any options changed."""
        return cls(**overrides)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated)."""
        return replace(self, **changes)

    def __repr__(self) -> str:
        args = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.init)
        return f"Rules({args})"


PAGAT = Rules()
