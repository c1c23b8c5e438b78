"""Type stubs for the compiled Guan Dan generator's kernel (C functions only; its Python
entries are chupai.guandan._movegen's)."""
from typing import Any

__pyx_capi__: dict[str, Any]
__test__: dict[str, str]
