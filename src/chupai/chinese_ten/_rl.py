"""Observation tensor and action space of Chinese Ten (a fishing game).

Card vectors have 52 values (no jokers), one per face ``rank*4 + suit`` (ranks 2..A,
suits S H C D), 1 for a card present.  Seats are in turn order from the observer.
An action id is exact: (card played or turned, the card it captures); every legal
play has its own id.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from chupai.core.records import BITS_PER_RANK, NUM_RANKS
from chupai.encoding.layout import Field, Layout
from chupai.encoding._pack import put_cards, put_one
from chupai.encoding.spaces import ActionSpace

__all__ = ["ChineseTen"]

_RANK_T = 8  # rank index of T (ranks 2..A are 0..12)
#: the 52 card faces of the game (no jokers)
CARDS = NUM_RANKS * BITS_PER_RANK


def _value(rank: int) -> int:
    """The capture value of a rank index: A 1, 2..9 face value (T..K capture by rank)."""
    return 1 if rank == 12 else rank + 2


def _partners(face: int) -> list[int]:
    """The layout faces a card can capture (sum of ten, or the same rank for T..K)."""
    rank = face // BITS_PER_RANK
    if _RANK_T <= rank <= 11:
        ranks = [rank]
    else:
        ranks = [r for r in list(range(8)) + [12] if _value(r) + _value(rank) == 10]
    return [r * BITS_PER_RANK + s for r in ranks for s in range(BITS_PER_RANK) if r * BITS_PER_RANK + s != face]


class ChineseTen:
    """Chinese Ten's encodings (``docs/rl.md``)."""

    name = "chinese_ten"
    phases = ("play", "turn", "over")

    def patterns(self) -> list[tuple[int, int, int, int]]:
        from chupai.chinese_ten.play import PlayType as T

        out = [(int(T.CAPTURE), f, t, 0) for f in range(CARDS) for t in _partners(f)]
        out += [(int(T.TRIPLE), f, 0, 0) for f in range(CARDS)]
        out += [(int(T.DISCARD), f, 0, 0) for f in range(CARDS)]
        return out

    def space(self) -> ActionSpace:
        from chupai.cards import face_name
        from chupai.chinese_ten.play import PlayType

        def describe(p: tuple[int, int, int, int]) -> str:
            t = PlayType(p[0])
            what = {PlayType.CAPTURE: f" takes {face_name(p[2])}", PlayType.TRIPLE: " takes the triple",
                    PlayType.DISCARD: " to the layout"}[t]
            return face_name(p[1]) + what

        return ActionSpace(self.name, self.patterns(), has_pass=False, capture_type=int(PlayType.CAPTURE),
                           describe=describe)

    def layout(self, n: int) -> Layout:
        c = CARDS
        return Layout([
            Field("hand", c, "own hand (1 per card held)"),
            Field("layout", c, "the face-up layout"),
            Field("turned", c, "one-hot: the turned stock card whose capture is being chosen (phase `turn`)"),
            Field("piles", n * c, "cards each seat has captured (one row of 52 per seat)"),
            Field("scores", n, "points of each seat's captured cards so far"),
            Field("hand_sizes", n, "cards each seat holds"),
            Field("stock_size", 1, "cards left in the stock"),
            Field("to_act", n, "one-hot: the seat to decide now (zeros once over)"),
            Field("phase", len(self.phases), "one-hot phase: " + ", ".join(f"`{p}`" for p in self.phases)),
        ])

    def encode(self, deal: Any, player: int, layout: Layout) -> np.ndarray:
        """The observation tensor of ``deal`` seen by seat ``player``, written field by
        field into one zeroed vector (``chupai.encoding._pack``)."""
        from chupai.cards import parse_face

        n = deal.players
        out = np.zeros(layout.size, dtype=np.float32)
        at = layout.offset
        seats = [(player + k) % n for k in range(n)]
        put_cards(out, at("hand"), deal.hand(player), CARDS)
        put_cards(out, at("layout"), deal.layout, CARDS)
        turned = deal.turned
        put_one(out, at("turned"), parse_face(turned) if turned is not None else -1, CARDS)
        piles = deal.piles
        scores = deal.scores()
        sizes = deal.hand_sizes()
        piles_at, scores_at, sizes_at = at("piles"), at("scores"), at("hand_sizes")
        for k, s in enumerate(seats):
            put_cards(out, piles_at + k * CARDS, piles[s], CARDS)
            out[scores_at + k] = scores[s]
            out[sizes_at + k] = sizes[s]
        out[at("stock_size")] = deal.stock_size
        current = deal.current_player
        put_one(out, at("to_act"), seats.index(current) if current >= 0 else -1, n)
        put_one(out, at("phase"), self.phases.index(deal.phase), len(self.phases))
        return out
