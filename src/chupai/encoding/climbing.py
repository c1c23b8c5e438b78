"""Observation tensors and action spaces of the climbing games.

The climbing games share one observation layout (the fields of
:meth:`ClimbingGame.layout`, documented in ``docs/rl.md``), each adding a few fields
of its own; their action spaces list their generators' play patterns.  Seats in a
tensor are always in turn order starting from the observer: row 0 is the observer,
row 1 the next player, and so on.  Card vectors have 54 values, one per card face in
the card core's order (index ``rank*4 + suit``, ranks 2..A, suits S H C D, then
``BJ`` 52 and ``RJ`` 53), each the number of copies (0..2).  Values are raw counts,
not normalized.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from chupai.core.records import NUM_FACES
from chupai.encoding.layout import Field, Layout
from chupai.encoding._pack import put_cards, put_one
from chupai.encoding.spaces import ActionSpace, Decision

__all__ = ["ClimbingGame"]

class ClimbingGame:
    """The encodings a climbing game shares; a subclass names its phases, extra fields,
    play patterns and decisions."""

    name = ""
    phases: tuple[str, ...] = ("play", "over")

    # -- the hooks ------------------------------------------------------------------------
    def patterns(self) -> list[tuple[int, int, int, int]]:
        """Every play pattern ``(type, key, length, cls)``, in id order."""
        raise NotImplementedError

    def decisions(self) -> tuple[Decision, ...]:
        return ()

    def describe(self, pattern: tuple[int, int, int, int]) -> str:
        type_, key, length, cls = pattern
        return f"{self.play_type(type_).name} key {key} length {length} cls {cls}"

    def play_type(self, value: int) -> Any:
        raise NotImplementedError

    def extra_fields(self, n: int) -> list[Field]:
        return []

    def extra_encode(self, deal: Any, player: int, seats: list[int], out: np.ndarray, layout: Layout) -> None:
        """Write the fields of :meth:`extra_fields` into ``out`` (zeros where not written)."""

    def phase(self, deal: Any) -> str:
        return "over" if deal.is_terminal() else "play"

    def finishing_order(self, deal: Any) -> Sequence[int]:
        return tuple(deal.finishing_order)

    # -- shared ---------------------------------------------------------------------------
    def space(self) -> ActionSpace:
        return ActionSpace(self.name, self.patterns(), has_pass=True, decisions=self.decisions(),
                           describe=self.describe)

    def layout(self, n: int) -> Layout:
        """The observation layout for ``n`` players."""
        fields = [
            Field("hand", NUM_FACES, "own hand: copies held of each card face"),
            Field("played", n * NUM_FACES, "cards each seat has played this deal (one row of 54 per seat)"),
            Field("known", n * NUM_FACES, "cards publicly known to be in each seat's hand (received or shown "
                                           "in a tribute or exchange, not played since)"),
            Field("hand_sizes", n, "cards each seat holds"),
            Field("trick_cards", NUM_FACES, "the play to beat (physical cards; zeros when leading)"),
            Field("trick_player", n, "one-hot: the seat that made the play to beat (zeros when leading)"),
            Field("passes", 1, "passes since the play to beat"),
            Field("to_act", n, "one-hot: the seat to decide now (zeros once over)"),
            Field("finished", n * n, "per seat a one-hot of its finishing place (1st, 2nd, ...; "
                                     "zeros while it holds cards)"),
            Field("phase", len(self.phases), "one-hot phase: " + ", ".join(f"`{p}`" for p in self.phases)),
        ]
        return Layout(fields + self.extra_fields(n))

    def encode(self, deal: Any, player: int, layout: Layout) -> np.ndarray:
        """The observation tensor of ``deal`` seen by seat ``player``, written field by
        field into one zeroed vector (``chupai.encoding._pack``)."""
        n = len(deal.hand_sizes())
        out = np.zeros(layout.size, dtype=np.float32)
        at = layout.offset
        seats = [(player + k) % n for k in range(n)]
        rel = {s: k for k, s in enumerate(seats)}
        played = deal.played_cards()
        known = deal.known_cards
        sizes = deal.hand_sizes()
        put_cards(out, at("hand"), deal.hand(player))
        played_at, known_at, sizes_at, finished_at = at("played"), at("known"), at("hand_sizes"), at("finished")
        for k, s in enumerate(seats):
            put_cards(out, played_at + k * NUM_FACES, played[s])
            put_cards(out, known_at + k * NUM_FACES, known[s])
            out[sizes_at + k] = sizes[s]
        for place, s in enumerate(self.finishing_order(deal)):
            if s >= 0:
                put_one(out, finished_at + rel[s] * n, place, n)
        last, last_player, passes = deal.trick
        if last is not None:
            put_cards(out, at("trick_cards"), last.cards)
            put_one(out, at("trick_player"), rel[last_player] if last_player >= 0 else -1, n)
            out[at("passes")] = passes
        current = deal.current_player
        put_one(out, at("to_act"), rel[current] if current >= 0 else -1, n)
        put_one(out, at("phase"), self.phases.index(self.phase(deal)), len(self.phases))
        self.extra_encode(deal, player, seats, out, layout)
        return out
