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

from chupai._core import NUM_FACES
from chupai.rl._layout import Field, Layout, one_hot
from chupai.rl._spaces import ActionSpace, Decision

__all__ = ["ClimbingGame", "card_matrix"]

def card_matrix(cards: Sequence[Any]) -> np.ndarray:
    """The 54 copy counts of each of several ``Cards`` (float32, one row each), read
    from their mask layers in one pass."""
    depth = max((len(c.layers) for c in cards), default=0)
    masks = np.zeros((len(cards), max(depth, 1)), dtype="<u8")
    for i, c in enumerate(cards):
        for j, m in enumerate(c.layers):
            masks[i, j] = m
    bits = np.unpackbits(masks.view(np.uint8).reshape(len(cards), -1, 8), axis=2, bitorder="little")
    counts: np.ndarray = bits[:, :, :NUM_FACES].sum(axis=1, dtype=np.float32)
    return counts


def _place_of(order: Sequence[int], n: int) -> list[int]:
    """Per seat, its finishing place 0.. (-1 while it still holds cards)."""
    place = [-1] * n
    for i, s in enumerate(order):
        if s >= 0:
            place[s] = i
    return place


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

    def extra_values(self, deal: Any, player: int, seats: list[int]) -> dict[str, Any]:
        return {}

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
        """The observation tensor of ``deal`` seen by seat ``player``."""
        n = len(deal.hand_sizes())
        seats = [(player + k) % n for k in range(n)]
        rel = {s: k for k, s in enumerate(seats)}
        played = deal.played_cards()
        known = deal.known_cards
        sizes = deal.hand_sizes()
        last, last_player, passes = deal.trick
        current = deal.current_player
        place = _place_of(self.finishing_order(deal), n)
        finished = np.zeros((n, n), dtype=np.float32)
        for k, s in enumerate(seats):
            if place[s] >= 0:
                finished[k, place[s]] = 1.0
        sets = [deal.hand(player)] + [played[s] for s in seats] + [known[s] for s in seats]
        if last is not None:
            sets.append(last.cards)
        counts = card_matrix(sets)
        values: dict[str, Any] = {
            "hand": counts[0],
            "played": counts[1:n + 1],
            "known": counts[n + 1:2 * n + 1],
            "hand_sizes": [sizes[s] for s in seats],
            "trick_cards": counts[2 * n + 1] if last is not None else np.zeros(NUM_FACES),
            "trick_player": one_hot(rel[last_player] if last is not None and last_player >= 0 else -1, n),
            "passes": [passes if last is not None else 0],
            "to_act": one_hot(rel[current] if current >= 0 else -1, n),
            "finished": finished,
            "phase": one_hot(self.phases.index(self.phase(deal)), len(self.phases)),
        }
        values.update(self.extra_values(deal, player, seats))
        return layout.pack(values)
