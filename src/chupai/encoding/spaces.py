"""Fixed action-id spaces: one per game, the same machinery for all four.

An :class:`ActionSpace` numbers every action a game can ever offer:

* **plays**: each play record of the game's generator has a *pattern*, a code made of
  record fields (by default ``(type, key, length, cls)``; Chinese Ten uses
  ``(type, card, captured card)``), read in C from a ``PlayList``'s own records
  (:class:`chupai.encoding._ids.PatternIds`).  The space lists every pattern the rules can
  produce, in a documented order, and a play's id is its pattern's position.  Plays of
  one pattern are one id; when several legal plays share a pattern (suits, or which
  natural cards the wild cards replace), the id stands for the *concrete choice*:
  the one with the fewest wild cards, then the smallest ``hi`` mask, then the
  smallest ``lo`` mask (the card core's bit masks as unsigned integers: at the
  highest card face where two candidates differ, the choice lacks it, so it keeps
  the higher cards in hand).
* **pass** (climbing games): one id.
* **decisions** outside the card play (tribute, exchange, an auction's bid): one id per
  (kind, card face) or (kind, value of an int field: a seat, a bid).

The ids are laid out plays first, then pass, then the decision kinds in their listed
order.  ``num_distinct_actions`` is the total.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from chupai.actions import PASS
from chupai.encoding._ids import PatternIds

__all__ = ["ActionSpace", "Decision", "pattern_code"]

# widths of the fields packed into a pattern code (each field is below its bound)
_KEY_BOUND = 256
_LENGTH_BOUND = 64
_CLS_BOUND = 256


def pattern_code(type_: Any, key: Any, length: Any, cls: Any) -> Any:
    """The integer code of ``(type, key, length, cls)`` (ints or numpy arrays)."""
    return ((np.asarray(type_, np.int64) * _KEY_BOUND + key) * _LENGTH_BOUND + length) * _CLS_BOUND + cls


@dataclass(frozen=True)
class Decision:
    """One kind of non-play action: the class and which of its fields numbers it.

    ``field`` is ``"card"`` (a card face 0..53 as its canonical name) or the name of an
    int field numbered 0..``count``-1 (Guan Dan's ``ChooseLeader.seat``, Dou Dizhu's
    ``Bid.value``)."""

    cls: type
    field: str
    count: int


class ActionSpace:
    """The fixed action ids of one game (see the module doc).

    Args:
        game: the game's registry name.
        patterns: every play pattern as ``(type, key, length, cls)`` (or the game's own
            4-tuple read by ``codes``), in id order.
        has_pass: the game has a pass action.
        decisions: the non-play decision kinds, in id order.
        capture_type: the record type whose patterns are ``(type, card, captured card,
            0)``, the captured card the lowest face of ``taken``, every other record's
            ``(type, key, 0, 0)`` (Chinese Ten); ``None``: ``(type, key, length, cls)``.
        describe: a readable name of a pattern (for errors and docs).
    """

    def __init__(
        self,
        game: str,
        patterns: Sequence[tuple[int, int, int, int]],
        *,
        has_pass: bool,
        decisions: Sequence[Decision] = (),
        capture_type: int | None = None,
        describe: Callable[[tuple[int, int, int, int]], str] = str,
    ) -> None:
        self.game = game
        self.patterns = tuple(patterns)
        arr = np.array(self.patterns, dtype=np.int64).reshape(-1, 4)
        pcodes = pattern_code(arr[:, 0], arr[:, 1], arr[:, 2], arr[:, 3])
        if len(np.unique(pcodes)) != len(pcodes):
            raise ValueError(f"{game}: duplicate play patterns")
        order = np.argsort(pcodes)
        #: the record type read as (type, card, captured card, 0), or -1
        self.capture_type = -1 if capture_type is None else capture_type
        self._ids = PatternIds(pcodes[order], order.astype(np.int64), self.capture_type)
        self._describe = describe
        self.num_plays = len(self.patterns)
        self.pass_id = self.num_plays if has_pass else -1
        base = self.num_plays + (1 if has_pass else 0)
        self.decisions = tuple(decisions)
        self._decision_base: dict[type, tuple[int, Decision]] = {}
        for d in self.decisions:
            self._decision_base[d.cls] = (base, d)
            base += d.count
        self.size = base

    # -- plays --------------------------------------------------------------------------
    def play_ids(self, plays: Any, out: np.ndarray) -> None:
        """Write the id of each record of ``plays`` (a ``PlayList``) to the first
        ``len(plays)`` entries of ``out`` (int64); ``ValueError`` for a pattern outside
        the space."""
        self._check(plays, self._ids.fill(plays, out))

    def mark_plays(self, plays: Any, mask: np.ndarray) -> None:
        """Set ``mask[id]`` (int8) to 1 for the id of each record of ``plays``."""
        self._check(plays, self._ids.mark(plays, mask))

    def _check(self, plays: Any, bad: int) -> None:
        if bad >= 0:
            raise ValueError(f"{self.game}: play {plays[bad]!r} has no action id (pattern outside the space)")

    @staticmethod
    def concrete_order(rec: np.ndarray, ids: np.ndarray) -> np.ndarray:
        """Record indices sorted by (id, nwild, hi, lo): the first of each id is its
        concrete choice."""
        names = rec.dtype.names or ()
        nwild = rec["nwild"] if "nwild" in names else np.zeros(len(rec), np.uint8)
        return np.lexsort((rec["lo"], rec["hi"], nwild, ids))

    def describe(self, action_id: int) -> str:
        """A readable name of ``action_id``."""
        if 0 <= action_id < self.num_plays:
            return self._describe(self.patterns[action_id])
        if action_id == self.pass_id:
            return "PASS"
        for cls, (base, d) in self._decision_base.items():
            if base <= action_id < base + d.count:
                return f"{cls.__name__}({action_id - base})"
        raise ValueError(f"action id {action_id!r} is outside 0..{self.size - 1} ({self.game})")

    # -- decisions ----------------------------------------------------------------------
    def decision_id(self, action: Any) -> int:
        """The id of a non-play action (pass or a decision); ``ValueError`` otherwise."""
        if action is PASS and self.pass_id >= 0:
            return self.pass_id
        entry = self._decision_base.get(type(action))
        if entry is None:
            raise ValueError(f"{action!r} is not an action of {self.game}")
        base, d = entry
        if d.field == "card":
            from chupai.cards import parse_face

            return base + parse_face(action.card)
        return base + int(getattr(action, d.field))


#: a block of patterns: (type, lengths, keys or keys-of-length, cls-of-length)
Block = tuple[int, Iterable[int], "Iterable[int] | Callable[[int], Iterable[int]]", Callable[[int], int]]


def ranged(blocks: Iterable[Any]) -> list[tuple[int, int, int, int]]:
    """Patterns from blocks ``(type, lengths, keys-of-length, cls-of-length)``: each
    ``keys`` is a callable of the length or an iterable used for every length."""
    out: list[tuple[int, int, int, int]] = []
    block: Block
    for block in blocks:
        type_, lengths, keys, cls_of = block
        for length in lengths:
            ks = keys(length) if callable(keys) else keys
            for key in ks:
                out.append((int(type_), int(key), int(length), int(cls_of(length))))
    return out
