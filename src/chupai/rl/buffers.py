"""The output arrays of :class:`chupai.rl.VectorEnv`: fresh at every call, or the env's own.

With ``copy=True`` (Gymnasium's default) every call returns new arrays, which the caller
owns.  With ``copy=False`` the env writes every call's outputs into the same memory, a
buffer per output name, and returns views of it: valid until the next ``reset`` or
``step``, which overwrites them (or, where an output grows, such as the action
features of a batch with more rows than any before, moves it to a larger buffer).  The
worker threads then write the memory they wrote the step before instead of new memory
at every step.

>>> import numpy as np
>>> out = Outputs(copy=False)
>>> a = out.empty("x", (2, 3), np.float32)
>>> b = out.empty("x", (2, 3), np.float32)
>>> np.shares_memory(a, b), Outputs(copy=True).zeros("x", (2,), np.int8).tolist()
(True, [0, 0])
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["Outputs"]


class Outputs:
    """Where a VectorEnv's outputs go: ``copy=True`` new arrays at every call,
    ``copy=False`` one buffer per name, reused (module doc)."""

    def __init__(self, copy: bool) -> None:
        if not isinstance(copy, bool):
            raise TypeError(f"copy must be a bool, not {type(copy).__name__}")
        self.copy = copy
        self._flat: dict[str, np.ndarray] = {}
        self._views: dict[str, tuple[tuple[int, ...], Any, np.ndarray]] = {}

    def empty(self, name: str, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
        """An uninitialised C-contiguous array of ``shape`` for the output ``name``."""
        if self.copy:
            return np.empty(shape, dtype=dtype)
        last = self._views.get(name)
        if last is not None and last[0] == shape and last[1] is dtype:
            return last[2]
        size = math.prod(shape)
        flat = self._flat.get(name)
        if flat is None or flat.size < size or flat.dtype != np.dtype(dtype):
            flat = self._flat[name] = np.empty(size, dtype=dtype)
        view = flat[:size].reshape(shape)
        self._views[name] = (shape, dtype, view)
        return view

    def full(self, name: str, shape: tuple[int, ...], value: Any, dtype: Any) -> np.ndarray:
        """An array of ``shape`` for the output ``name``, every element ``value``."""
        out = self.empty(name, shape, dtype)
        out.fill(value)
        return out

    def zeros(self, name: str, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
        """An array of ``shape`` for the output ``name``, all zeros (new: the system's
        zero pages, touched only where written)."""
        return np.zeros(shape, dtype=dtype) if self.copy else self.full(name, shape, 0, dtype)
