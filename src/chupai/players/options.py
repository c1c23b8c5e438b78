"""What a bot's ``repr`` says of its options: every option that differs from its default,
so that two bots a report lists (``chupai arena``, ``chupai ladder``) read apart.

>>> class Bot:
...     def __init__(self, *, policy: str = "greedy", z: float = 2.0) -> None:
...         self.policy, self.z = policy, z
>>> changed_options(Bot(z=1.5), {"policy": "greedy", "z": 1.5})
', z=1.5'
"""
from __future__ import annotations

import inspect
from typing import Any

__all__ = ["changed_options"]


def changed_options(bot: Any, values: dict[str, Any]) -> str:
    """``", key=value"`` for each of ``values`` (a bot's options, by the name of its
    constructor's argument) that differs from that argument's default."""
    defaults = {k: p.default for k, p in inspect.signature(type(bot).__init__).parameters.items()}
    return "".join(f", {k}={v!r}" for k, v in values.items() if k not in defaults or v != defaults[k])
