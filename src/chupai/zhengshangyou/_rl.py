"""Zheng Shangyou's RL encoder (``docs/rl.md``): the climbing games' observation layout
(:class:`chupai.encoding.climbing.ClimbingGame`) with its own fields, and its action space.

Imported when first used (the registry entry names it), so it may import ``chupai.rl``.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from chupai.core.records import NUM_FACES
from chupai.encoding.climbing import ClimbingGame
from chupai.encoding.layout import Field, Layout
from chupai.encoding.spaces import Decision, ranged

__all__ = ["ZhengShangyou"]


class ZhengShangyou(ClimbingGame):
    """Zheng Shangyou: ids are (type, key, number of cards, multiplicity) patterns; the
    key holds the rank, the purity and the suited class (``chupai.zhengshangyou.play``)."""

    name = "zhengshangyou"
    phases = ("exchange", "play", "over")

    def play_type(self, value: int) -> Any:
        from chupai.zhengshangyou.play import PlayType

        return PlayType(value)

    def patterns(self) -> list[tuple[int, int, int, int]]:
        from chupai.zhengshangyou.play import SUITED_KEY, PlayType as T

        top = 12  # top rank values of sequences: 3..A are 0..11
        out = ranged([
            (T.SINGLE, [1], [2 * v + p for v in range(15) for p in (0, 1)], lambda length: 1),
            (T.SEQUENCE, range(3, top + 1),
             lambda length: [SUITED_KEY * s + 2 * t + p for s in (0, 1) for t in range(length - 1, top) for p in (0, 1)],
             lambda length: 1),
        ])
        for m in (2, 3, 4):
            out += ranged([(T.SET, [m], [2 * v + p for v in range(14) for p in (0, 1)], lambda length, m=m: m)])
        for m in (2, 3, 4):
            out += ranged([(T.MULTI_SEQUENCE, [m * r for r in range(3, top + 1)],
                            lambda length, m=m: [2 * t + p for t in range(length // m - 1, top) for p in (0, 1)],
                            lambda length, m=m: m)])
        return out

    def decisions(self) -> tuple[Decision, ...]:
        from chupai.zhengshangyou.game import GiveCard, PayCard, TakeCard

        return (Decision(PayCard, "card", NUM_FACES), Decision(TakeCard, "card", NUM_FACES),
                Decision(GiveCard, "card", NUM_FACES))

    def phase(self, deal: Any) -> str:
        return str(deal.phase)

    def extra_fields(self, n: int) -> list[Field]:
        return [
            Field("table", NUM_FACES, "cards lying face up in the exchange"),
            Field("points", n, "points each seat scored in this deal so far (2 first out, 1 second)"),
        ]

    def extra_encode(self, deal: Any, player: int, seats: list[int], out: np.ndarray, layout: Layout) -> None:
        from chupai.cards import parse_face

        table_at, points_at = layout.offset("table"), layout.offset("points")
        for _seat, card in deal.table:
            out[table_at + parse_face(card)] += 1
        points = deal.points
        for k, s in enumerate(seats):
            out[points_at + k] = points[s]
