"""Type stubs of chupai.zhengshangyou._tables (see the .pyx)."""
from typing import final

from chupai.rl._tables import Tables

FIELDS: tuple[str, ...]


@final
class ZhengShangyouTables(Tables): ...
