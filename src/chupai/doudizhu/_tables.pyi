"""Type stubs of chupai.doudizhu._tables (see the .pyx)."""
from typing import final

from chupai.rl._tables import Tables

FIELDS: tuple[str, ...]


@final
class DouDizhuTables(Tables):
    def auction(self, bid_id: int, bid_phase: int) -> None: ...
