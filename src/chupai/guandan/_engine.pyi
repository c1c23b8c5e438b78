"""Type stubs for the compiled Guan Dan trick engine."""
from typing_extensions import disjoint_base
from collections.abc import Sequence

from chupai.engine.base import Engine, RowField
from chupai.cards import Cards
from chupai.guandan.play import Play
from chupai.guandan.rules import Rules

RESULT_NONE: int
RESULT_12: int
RESULT_13: int
RESULT_14: int
POLICIES: dict[str, int]
ROW: tuple[RowField, ...]
C_CONSTANTS: dict[str, int]

class DealHooks(Engine):
    """The engine hooks that call the game's deal functions (``deal_hooks.pxi``)."""

@disjoint_base
class DealEngine(DealHooks):
    @staticmethod
    def from_hands(
        hands: Sequence[Cards | str], *, current: int = 0, level: str | int = "2", rules: Rules | None = None
    ) -> DealEngine: ...
    @staticmethod
    def random(seed: int, *, level: str | int = "2", rules: Rules | None = None) -> DealEngine: ...
    def clone(self) -> DealEngine: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def last_play(self) -> Play | None: ...
    @property
    def level(self) -> int: ...
    @property
    def finishing_order(self) -> tuple[int, ...]: ...
    @property
    def result(self) -> int: ...
    @property
    def first_out_with_aces(self) -> bool: ...
    def playout(self, seed: int, policy: str = "random") -> tuple[tuple[int, ...], int]: ...
    def policy_choice(self, policy: str = "random", seed: int = 0) -> Play | None: ...
