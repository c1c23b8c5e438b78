"""Type stubs for the compiled Gan Deng Yan deal engine."""
from typing_extensions import disjoint_base
from collections.abc import Iterable, Sequence

from chupai.engine.base import Engine, RowField
from chupai.cards import Cards
from chupai.gandengyan.play import Play
from chupai.gandengyan.rules import Rules

POLICIES: dict[str, int]
ROW: tuple[RowField, ...]
C_CONSTANTS: dict[str, int]
BOMB_KINDS: tuple[str, ...]
MIN_PLAYERS: int
MAX_PLAYERS: int

class DealHooks(Engine):
    """The engine hooks that call the game's deal functions (``deal_hooks.pxi``)."""

@disjoint_base
class DealEngine(DealHooks):
    @staticmethod
    def from_hands(
        hands: Sequence[Cards | str | Iterable[str]],
        *,
        current: int = 0,
        talon: str | Sequence[str] = (),
        rules: Rules | None = None,
    ) -> DealEngine: ...
    @staticmethod
    def random(
        seed: int, *, players: int = 4, dealer: int | None = None, rules: Rules | None = None
    ) -> DealEngine: ...
    def clone(self) -> DealEngine: ...
    def with_cards(self, hands: Sequence[Cards], talon: Sequence[int]) -> DealEngine: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def last_play(self) -> Play | None: ...
    @property
    def dealer(self) -> int: ...
    @property
    def lead_passes(self) -> int: ...
    @property
    def talon_size(self) -> int: ...
    @property
    def talon(self) -> list[str]: ...
    @property
    def winner(self) -> int: ...
    @property
    def tricks(self) -> int: ...
    @property
    def bombs(self) -> tuple[int, ...]: ...
    def playout(self, seed: int, policy: str = "random") -> tuple[int, tuple[float, ...], tuple[int, ...]]: ...
    def policy_choice(self, policy: str = "random", seed: int = 0) -> Play | None: ...
