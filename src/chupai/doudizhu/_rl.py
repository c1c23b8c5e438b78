"""Dou Dizhu's RL encoder (``docs/rl.md``): the climbing games' observation layout
(:class:`chupai.encoding.climbing.ClimbingGame`) with its own fields, and its action
space: the play patterns, pass, and the bids of the auction.

Imported when first used (the registry entry names it), so it may import ``chupai.rl``.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from chupai.core.records import NUM_FACES
from chupai.encoding._pack import put_cards
from chupai.encoding.climbing import ClimbingGame
from chupai.encoding.layout import Field, Layout
from chupai.encoding.spaces import Decision, ranged

__all__ = ["DouDizhu"]

#: the most cards a hand holds (the landlord's 17 and the kitty): the longest chains
HAND_LIMIT = 20


class DouDizhu(ClimbingGame):
    """Dou Dizhu: ids are (type, key, number of cards, bomb class) patterns, every one a
    hand of 20 cards can make (one id for every choice of kickers: the concrete choice
    keeps the higher cards); then pass; then ``Bid(0)`` .. ``Bid(3)``."""

    name = "doudizhu"
    phases = ("bid", "play", "over")

    def play_type(self, value: int) -> Any:
        from chupai.doudizhu.play import PlayType

        return PlayType(value)

    def patterns(self) -> list[tuple[int, int, int, int]]:
        from chupai.doudizhu.play import ACE_VALUE, BOMB_CLASS, CHAIN_WIDTH, RED_JOKER_VALUE, ROCKET_CLASS, \
            TWO_VALUE, PlayType as T

        def chain(t: T, least: int) -> tuple[Any, ...]:
            """A chain of ``least`` or more ranks of 3..A whose cards fit in a hand."""
            width = CHAIN_WIDTH[t]
            lengths = [width * r for r in range(least, ACE_VALUE + 2) if width * r <= HAND_LIMIT]
            return (t, lengths, lambda length: range(length // width - 1, ACE_VALUE + 1), lambda length: 0)

        ranks = range(TWO_VALUE + 1)  # 3..2
        return ranged([
            (T.SINGLE, [1], range(RED_JOKER_VALUE + 1), lambda length: 0),
            (T.PAIR, [2], ranks, lambda length: 0),
            (T.TRIO, [3], ranks, lambda length: 0),
            (T.TRIO_SINGLE, [4], ranks, lambda length: 0),
            (T.TRIO_PAIR, [5], ranks, lambda length: 0),
            chain(T.STRAIGHT, 5),
            chain(T.PAIR_SEQUENCE, 3),
            chain(T.AIRPLANE, 2),
            chain(T.AIRPLANE_SINGLES, 2),
            chain(T.AIRPLANE_PAIRS, 2),
            (T.FOUR_TWO_SINGLES, [6], ranks, lambda length: 0),
            (T.FOUR_TWO_PAIRS, [8], ranks, lambda length: 0),
            (T.BOMB, [4], ranks, lambda length: BOMB_CLASS),
            (T.ROCKET, [2], [RED_JOKER_VALUE], lambda length: ROCKET_CLASS),
        ])

    def decisions(self) -> tuple[Decision, ...]:
        from chupai.doudizhu.auction import TOP_BID, Bid

        return (Decision(Bid, "value", TOP_BID + 1),)

    def phase(self, deal: Any) -> str:
        return str(deal.phase)

    def finishing_order(self, deal: Any) -> Sequence[int]:
        w = deal.winner
        return () if w is None else (w,)

    def extra_fields(self, n: int) -> list[Field]:
        from chupai.doudizhu.auction import TOP_BID

        return [
            Field("landlord", n, "one-hot: the landlord's seat (zeros in the auction)"),
            Field("kitty", NUM_FACES, "the kitty, shown to all when the auction ends (zeros before)"),
            Field("bids", n * (TOP_BID + 1), "per seat the bids it made in this auction, a count per value "
                                            "0 (pass) .. 3"),
            Field("base", 1, "the base stake: the auction's so far, then the landlord's"),
            Field("stake", 1, "the stake as it stands (0 in the auction)"),
        ]

    def extra_encode(self, deal: Any, player: int, seats: list[int], out: np.ndarray, layout: Layout) -> None:
        from chupai.doudizhu.auction import TOP_BID

        rel = {s: k for k, s in enumerate(seats)}
        landlord = deal.landlord
        if landlord is not None:
            out[layout.offset("landlord") + rel[landlord]] = 1
            put_cards(out, layout.offset("kitty"), deal.kitty)
        bids_at = layout.offset("bids")
        for seat, bid in deal.bids:
            out[bids_at + rel[seat] * (TOP_BID + 1) + bid.value] += 1
        out[layout.offset("base")] = deal.base
        out[layout.offset("stake")] = deal.stake
