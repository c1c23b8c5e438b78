"""Type stubs for the compiled Zheng Shangyou trick engine."""
from typing_extensions import disjoint_base
from collections.abc import Sequence

from chupai.engine.base import Engine, RowField
from chupai.cards import Cards
from chupai.zhengshangyou.play import Play
from chupai.zhengshangyou.rules import Rules

POLICIES: dict[str, int]
ROW: tuple[RowField, ...]
C_CONSTANTS: dict[str, int]
MIN_PLAYERS: int
MAX_PLAYERS: int
PLACE_POINTS: tuple[int, int]

class DealHooks(Engine):
    """The engine hooks that call the game's deal functions (``deal_hooks.pxi``)."""

@disjoint_base
class DealEngine(DealHooks):
    """One deal's card play: hands, trick, finishing order."""

    @staticmethod
    def from_hands(hands: Sequence[Cards | str], *, current: int = 0, rules: Rules | None = None) -> DealEngine: ...
    @staticmethod
    def random(
        seed: int, *, players: int = 4, dealer: int | None = None, rules: Rules | None = None
    ) -> DealEngine: ...
    def clone(self) -> DealEngine: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def last_play(self) -> Play | None: ...
    @property
    def finishing_order(self) -> tuple[int, ...]: ...
    def points(self) -> tuple[int, ...]: ...
    def playout(self, seed: int, policy: str = "random") -> tuple[tuple[int, ...], tuple[int, ...]]: ...
    def policy_choice(self, policy: str = "random", seed: int = 0) -> Play | None: ...
