"""Named fields of a flat float32 vector: the observation tensors are built from these.

A :class:`Layout` lists fields ``(name, size, meaning)`` in order; :meth:`Layout.pack`
concatenates the values given per field, checking each size, so the documented table
(``docs/rl.md``, generated from the same layout by :meth:`Layout.table`) and the
vector can never disagree.

>>> lay = Layout([Field("hand", 3, "own cards"), Field("turn", 2, "one-hot")])
>>> lay.size, lay.offset("turn")
(5, 3)
>>> lay.pack({"hand": [1, 0, 2], "turn": [0, 1]}).tolist()
[1.0, 0.0, 2.0, 0.0, 1.0]
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["Field", "Layout"]


@dataclass(frozen=True)
class Field:
    """One field of a layout: its name, number of values and what they mean."""

    name: str
    size: int
    meaning: str


class Layout:
    """An ordered list of :class:`Field` making one flat vector."""

    def __init__(self, fields: Sequence[Field]) -> None:
        self.fields = tuple(fields)
        names = [f.name for f in self.fields]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate field names in {names}")
        self._offsets: dict[str, int] = {}
        pos = 0
        for f in self.fields:
            self._offsets[f.name] = pos
            pos += f.size
        self.size = pos

    def offset(self, name: str) -> int:
        """Where field ``name`` starts."""
        return self._offsets[name]

    def slice(self, name: str) -> slice:
        """The slice of field ``name`` in the vector."""
        start = self._offsets[name]
        return slice(start, start + self.field(name).size)

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)

    def pack(self, values: Mapping[str, Any]) -> np.ndarray:
        """The float32 vector of ``values`` (one array-like per field, of its size)."""
        out = np.zeros(self.size, dtype=np.float32)
        for f in self.fields:
            v = np.asarray(values[f.name], dtype=np.float32).ravel()
            if v.size != f.size:
                raise ValueError(f"field {f.name!r} has {v.size} values, expected {f.size}")
            start = self._offsets[f.name]
            out[start:start + f.size] = v
        return out

    def table(self) -> str:
        """The layout as a Markdown table (offset, size, field, meaning)."""
        rows = ["| offset | size | field | meaning |", "|---:|---:|---|---|"]
        for f in self.fields:
            rows.append(f"| {self._offsets[f.name]} | {f.size} | `{f.name}` | {f.meaning} |")
        rows.append(f"| | **{self.size}** | total | |")
        return "\n".join(rows)
