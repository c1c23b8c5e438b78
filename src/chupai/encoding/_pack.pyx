"""Writers of observation tensors: card counts and one-hots put straight into a float32
vector at a field's offset (``chupai.encoding.layout.Layout.offset``), with no array made
per field.

Each writer checks that what it writes lies inside ``out`` (``ValueError`` otherwise,
``out`` unchanged), so a wrong offset never writes out of bounds.

>>> import numpy as np
>>> from chupai.cards import Cards
>>> out = np.zeros(60, dtype=np.float32)
>>> put_cards(out, 2, Cards("2S 2S RJ"), 54)
>>> out[2], out[2 + 53]
(np.float32(2.0), np.float32(1.0))
>>> put_one(out, 56, 3, 4); out[59]
np.float32(1.0)
"""
from chupai.core.cardset cimport MAX_LAYERS, Cards
from chupai.core.records cimport N_FACES, lowest_bit, mask_t

__all__ = ["put_cards", "put_one"]


cdef inline int _check_span(Py_ssize_t size, Py_ssize_t at, Py_ssize_t width, str what) except -1:
    if at < 0 or width < 0 or at + width > size:
        raise ValueError(f"{what}: values {at}..{at + width - 1} do not lie inside a vector of {size}")
    return 0


def put_cards(float[::1] out, Py_ssize_t at, Cards cards, Py_ssize_t width=N_FACES):
    """Add the copies of each face of ``cards`` below ``width`` to ``out[at + face]``
    (faces from ``width`` on, such as jokers in a 52-card field, are left out)."""
    cdef Py_ssize_t k, face
    cdef mask_t m
    if width > N_FACES:
        raise ValueError(f"width must be at most {N_FACES}, not {width}")
    _check_span(out.shape[0], at, width, "put_cards")
    for k in range(MAX_LAYERS):
        m = cards.w[k]
        while m:
            face = lowest_bit(m)
            if face >= width:
                break
            out[at + face] += 1.0
            m &= m - 1


def put_one(float[::1] out, Py_ssize_t at, Py_ssize_t index, Py_ssize_t size):
    """Set ``out[at + index]`` to 1: a one-hot of ``size`` values at ``at`` (nothing for
    ``index == -1``, all zeros)."""
    _check_span(out.shape[0], at, size, "put_one")
    if index == -1:
        return
    if not 0 <= index < size:
        raise ValueError(f"index must be -1 or 0..{size - 1}, not {index}")
    out[at + index] = 1.0
