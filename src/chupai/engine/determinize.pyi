"""Type stubs for the compiled determinization the climbing games share (what each
function does: the docstrings of ``engine/determinize.pyx``)."""
from collections.abc import Sequence
from typing import Any

from chupai.cards import Cards

__all__ = ["MUST_TRIES", "deal", "redeal_hands"]

__pyx_capi__: dict[str, Any]
__test__: dict[str, str]

MUST_TRIES: int

def deal(
    pool: Sequence[int],
    need: Sequence[int],
    forbid: Sequence[int] | None = None,
    must: Sequence[int] | None = None,
    *,
    seed: int,
    tries: int = ...,
) -> list[list[int]]: ...
def redeal_hands(
    hands: Sequence[Cards | int],
    player: int,
    known: Sequence[Cards | int],
    forbid: Sequence[int] | None,
    must: Sequence[int] | None,
    seed: int,
) -> list[Cards]: ...
