"""Guan Dan's RL encoder (``docs/rl.md``): the climbing games' observation layout
(:class:`chupai.encoding.climbing.ClimbingGame`) with its own fields, and its action space.

Imported when first used (the registry entry names it), so it may import ``chupai.rl``.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from chupai.core.records import NUM_FACES
from chupai.encoding.climbing import ClimbingGame
from chupai.encoding.layout import Field, Layout
from chupai.encoding._pack import put_one
from chupai.encoding.spaces import Decision, ranged

__all__ = ["GuanDan"]

#: the level ranks 2..A
NUM_LEVELS = 13


class GuanDan(ClimbingGame):
    """Guan Dan: ids are (type, key, number of cards) patterns (``docs/rl.md``)."""

    name = "guandan"
    phases = ("tribute", "return", "lead", "play", "over")

    def play_type(self, value: int) -> Any:
        from chupai.guandan.play import PlayType

        return PlayType(value)

    def patterns(self) -> list[tuple[int, int, int, int]]:
        from chupai.guandan.play import BOMB_CLASS, PlayType as T

        def cls(t: T) -> Any:
            return lambda length: BOMB_CLASS.get((t, length), 0)

        return ranged([
            (T.SINGLE, [1], range(15), cls(T.SINGLE)),
            (T.PAIR, [2], range(15), cls(T.PAIR)),
            (T.TRIPLE, [3], range(13), cls(T.TRIPLE)),
            (T.FULL_HOUSE, [5], range(13), cls(T.FULL_HOUSE)),
            (T.STRAIGHT, [5], range(10), cls(T.STRAIGHT)),
            (T.TUBE, [6], range(12), cls(T.TUBE)),
            (T.PLATE, [6], range(13), cls(T.PLATE)),
            (T.BOMB, range(4, 11), range(13), cls(T.BOMB)),
            (T.STRAIGHT_FLUSH, [5], range(10), cls(T.STRAIGHT_FLUSH)),
            (T.FOUR_JOKERS, [4], [0], cls(T.FOUR_JOKERS)),
        ])

    def decisions(self) -> tuple[Decision, ...]:
        from chupai.guandan.game import ChooseLeader, PayTribute, ReturnCard, TakeTribute

        return (Decision(PayTribute, "card", NUM_FACES), Decision(TakeTribute, "card", NUM_FACES),
                Decision(ReturnCard, "card", NUM_FACES), Decision(ChooseLeader, "seat", 4))

    def phase(self, deal: Any) -> str:
        return str(deal.phase)

    def extra_fields(self, n: int) -> list[Field]:
        return [
            Field("own_level", NUM_LEVELS, "one-hot level of the observer's team (2..A)"),
            Field("opponent_level", NUM_LEVELS, "one-hot level of the other team"),
            Field("level", NUM_LEVELS, "one-hot level rank played in this deal"),
            Field("declarers", 3, "one-hot: the declarers are the observer's team, the other team, "
                                  "none yet (a first deal)"),
        ]

    def extra_encode(self, deal: Any, player: int, seats: list[int], out: np.ndarray, layout: Layout) -> None:
        from chupai.cards import RANKS

        team = player % 2
        levels = deal.levels
        decl = deal.declarers
        at = layout.offset
        put_one(out, at("own_level"), RANKS.index(levels[team]), NUM_LEVELS)
        put_one(out, at("opponent_level"), RANKS.index(levels[1 - team]), NUM_LEVELS)
        put_one(out, at("level"), RANKS.index(deal.level), NUM_LEVELS)
        put_one(out, at("declarers"), 2 if decl is None else (0 if decl == team else 1), 3)
