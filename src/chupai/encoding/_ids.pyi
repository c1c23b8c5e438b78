"""Type stubs of chupai.encoding._ids (see the .pyx)."""
from typing import Any, final

__all__ = ["PatternIds"]

@final
class PatternIds:
    """Pattern code -> action id of one space."""

    def __init__(self, codes: Any, ids: Any, capture_type: int = -1) -> None: ...
    def fill(self, plays: Any, out: Any) -> int: ...
    def mark(self, plays: Any, mask: Any) -> int: ...
