"""Type stubs for the compiled card core (see records.pxd for the bit layout)."""
from collections.abc import Iterator, Sequence
from typing import Any, Generic, TypeVar, overload

import numpy as np
from typing_extensions import disjoint_base

RANKS: str
SUITS: str
NUM_RANKS: int
NUM_SUITS: int
NUM_FACES: int
BITS_PER_RANK: int
BLACK_JOKER_BIT: int
RED_JOKER_BIT: int
MAX_WILD_CARDS: int
PLAY_DTYPE: np.dtype[Any]

def table_deal_seed(seed: int, table: int, episode: int) -> int: ...
def match_deal_seed(seed: int, index: int) -> int: ...

@disjoint_base
class PlayMaker:
    """The compiled factory of a game's Play objects (subclassed in chupai.core.play)."""

    def __reduce_cython__(self) -> Any: ...
    def __setstate_cython__(self, __pyx_state: Any) -> Any: ...

@disjoint_base
class GameClasses:
    """The Python classes a game's compiled modules use, bound once by its play module."""

    game: str
    play: type | None
    rules: type | None
    pagat: Any
    factory: Any
    pagat_flags: int
    def __init__(self, game: str) -> None: ...
    @property
    def bound(self) -> bool: ...
    def bind(self, play: type, rules: type, pagat: Any) -> None: ...
    def __reduce_cython__(self) -> Any: ...
    def __setstate_cython__(self, __pyx_state: Any) -> Any: ...

#: the game's Play class a PlayList holds
_P = TypeVar("_P", covariant=True)

@disjoint_base
class PlayList(Generic[_P]):
    """An immutable sequence of plays backed by a C array of records (of one game's
    ``Play`` class: ``PlayList[guandan.Play]``)."""

    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int, /) -> _P: ...
    @overload
    def __getitem__(self, index: slice, /) -> list[_P]: ...
    def __iter__(self) -> Iterator[_P]: ...
    def __bool__(self) -> bool: ...
    def take(self, indices: Sequence[int]) -> PlayList[_P]: ...
    def to_numpy(self) -> np.ndarray: ...
    def to_protocol(self) -> list[list[Any]]: ...
