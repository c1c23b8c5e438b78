"""Type stubs of chupai.guandan._tables (see the .pyx)."""
from typing import final

from chupai.rl._tables import Tables

DEFAULT_FIELDS: tuple[str, ...]
DANZERO_FIELDS: tuple[str, ...]


@final
class GuanDanTables(Tables): ...
