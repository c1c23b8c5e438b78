"""Observation tensors and action spaces of the three climbing games.

Guan Dan, Zheng Shangyou and Gan Deng Yan share one observation layout (the fields of
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
from chupai.rl._spaces import ActionSpace, Decision, ranged

__all__ = ["ClimbingGame", "GanDengYan", "GuanDan", "ZhengShangyou", "card_matrix"]

NUM_LEVELS = 13


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


# --- Guan Dan -------------------------------------------------------------------------------
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

    def extra_values(self, deal: Any, player: int, seats: list[int]) -> dict[str, Any]:
        from chupai.cards import RANKS

        team = player % 2
        levels = deal.levels
        decl = deal.declarers
        return {
            "own_level": one_hot(RANKS.index(levels[team]), NUM_LEVELS),
            "opponent_level": one_hot(RANKS.index(levels[1 - team]), NUM_LEVELS),
            "level": one_hot(RANKS.index(deal.level), NUM_LEVELS),
            "declarers": one_hot(2 if decl is None else (0 if decl == team else 1), 3),
        }


# --- Zheng Shangyou -------------------------------------------------------------------------
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

    def extra_values(self, deal: Any, player: int, seats: list[int]) -> dict[str, Any]:
        from chupai.cards import parse_face

        table = np.zeros(NUM_FACES, dtype=np.float32)
        for _seat, card in deal.table:
            table[parse_face(card)] += 1
        points = deal.points
        return {"table": table, "points": [points[s] for s in seats]}


# --- Gan Deng Yan ---------------------------------------------------------------------------
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

    def extra_values(self, deal: Any, player: int, seats: list[int]) -> dict[str, Any]:
        return {"talon_size": [deal.talon_size], "multiplier": [deal.general_multiplier]}
