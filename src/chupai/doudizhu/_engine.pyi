"""Type stubs for the compiled Dou Dizhu trick engine."""
from typing_extensions import disjoint_base
from collections.abc import Sequence

from chupai.engine.base import Engine, RowField
from chupai.cards import Cards
from chupai.doudizhu.play import Play
from chupai.doudizhu.rules import Rules

POLICIES: dict[str, int]
ROW: tuple[RowField, ...]
SEATS: int
MAX_REDEALS: int
MAX_BASE: int
C_CONSTANTS: dict[str, int]

class DealHooks(Engine):
    """The engine hooks that call the game's deal functions (``deal_hooks.pxi``)."""

@disjoint_base
class DealEngine(DealHooks):
    """One deal's card play after the auction: hands, trick, landlord, base stake."""

    @staticmethod
    def from_hands(
        hands: Sequence[Cards | str],
        *,
        current: int | None = None,
        landlord: int = 0,
        base: int = 1,
        kitty: Cards | str | None = None,
        rules: Rules | None = None,
    ) -> DealEngine: ...
    @staticmethod
    def random(seed: int, *, landlord: int | None = None, base: int = 1, rules: Rules | None = None) -> DealEngine: ...
    def clone(self) -> DealEngine: ...
    def with_hands(self, hands: list[Cards] | tuple[Cards, ...]) -> DealEngine: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def last_play(self) -> Play | None: ...
    @property
    def landlord(self) -> int: ...
    @property
    def base(self) -> int: ...
    @property
    def kitty(self) -> Cards: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def doublings(self) -> int: ...
    @property
    def plays_made(self) -> tuple[int, int, int]: ...
    @property
    def stake(self) -> int: ...
    def playout(self, seed: int, policy: str = "random") -> tuple[int, int | None, int, tuple[float, ...]]: ...
    def policy_choice(self, policy: str = "random", seed: int = 0) -> Play | None: ...
