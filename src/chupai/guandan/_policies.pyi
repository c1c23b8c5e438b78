"""Type stubs for Guan Dan's compiled playout policies (the hand planner)."""

def _plan(lo: int, hi: int, level: int, nodes: int | None = None,
          slack: int | None = None) -> tuple[int, int, list[tuple[int, tuple[int, ...]]], int]: ...
