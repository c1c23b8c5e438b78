"""Gan Deng Yan's RL encoder (``docs/rl.md``): the climbing games' observation layout
(:class:`chupai.encoding.climbing.ClimbingGame`) with its own fields, and its action space.

Imported when first used (the registry entry names it), so it may import ``chupai.rl``.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from chupai.encoding.climbing import ClimbingGame
from chupai.encoding.layout import Field, Layout
from chupai.encoding.spaces import ranged

__all__ = ["GanDengYan"]


class GanDengYan(ClimbingGame):
    """Gan Deng Yan: ids are (type, key, number of cards) patterns."""

    name = "gandengyan"

    def play_type(self, value: int) -> Any:
        from chupai.gandengyan.play import PlayType

        return PlayType(value)

    def patterns(self) -> list[tuple[int, int, int, int]]:
        from chupai.gandengyan.play import BOMB_CLASS, JOKER_VALUE, TWO_VALUE, PlayType as T

        top = 12  # sequence tops: ranks 3..A have the values 1..12

        def cls(t: T) -> Any:
            return lambda length: BOMB_CLASS.get(t, 0)

        return ranged([
            (T.SINGLE, [1], range(1, JOKER_VALUE + 1), cls(T.SINGLE)),
            (T.PAIR, [2], range(1, JOKER_VALUE + 1), cls(T.PAIR)),
            (T.SEQUENCE, range(3, top + 1), lambda length: range(length, top + 1), cls(T.SEQUENCE)),
            (T.DOUBLE_SEQUENCE, range(4, 2 * top + 1, 2), lambda length: range(length // 2, top + 1),
             cls(T.DOUBLE_SEQUENCE)),
            (T.TRIPLE, [3], range(1, TWO_VALUE + 1), cls(T.TRIPLE)),
            (T.TRIPLE_SEQUENCE, range(6, 3 * top + 1, 3), lambda length: range(length // 3, top + 1),
             cls(T.TRIPLE_SEQUENCE)),
            (T.THREE_BOMB, [3], range(1, TWO_VALUE + 1), cls(T.THREE_BOMB)),
            (T.FOUR_BOMB, [4], range(1, TWO_VALUE + 1), cls(T.FOUR_BOMB)),
            (T.JOKER_BOMB, [2], [0], cls(T.JOKER_BOMB)),
        ])

    def finishing_order(self, deal: Any) -> Sequence[int]:
        w = deal.winner
        return () if w is None else (w,)

    def extra_fields(self, n: int) -> list[Field]:
        return [
            Field("talon_size", 1, "cards left in the talon"),
            Field("multiplier", 1, "the general multiplier so far (bombs played, with `multipliers`)"),
        ]

    def extra_encode(self, deal: Any, player: int, seats: list[int], out: np.ndarray, layout: Layout) -> None:
        out[layout.offset("talon_size")] = deal.talon_size
        out[layout.offset("multiplier")] = deal.general_multiplier
