"""The checks every generator's two views share (``docs/rules/cards.md``, "One play",
"The suit-collapsed view"), against a game's brute-force reference."""
from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any


def check_views(concrete: list[Any], collapsed: list[Any], reference: set[Any],
                collapse_key: Callable[[Any], Hashable], where: str) -> None:
    """The concrete list is the reference, each play once; the collapsed list holds one
    play per group of the reference, each its group's smallest by (hi, lo) masks (what
    the compiled tables rely on to find a legal id's concrete choice among them)."""
    assert len(concrete) == len(set(concrete)), f"{where}: a play is listed twice"
    missing = reference - set(concrete)
    extra = set(concrete) - reference
    assert not missing and not extra, (
        f"{where}: missing {sorted(map(str, missing))[:5]}, extra {sorted(map(str, extra))[:5]}"
    )
    keys = [collapse_key(p) for p in collapsed]
    assert len(keys) == len(set(keys)), f"{where}: a collapsed group is listed twice"
    assert set(keys) == {collapse_key(p) for p in reference}
    assert set(collapsed) <= reference
    smallest = _smallest(reference, collapse_key)
    for p, k in zip(collapsed, keys):
        assert _masks(p) == smallest[k], f"{where}: {p} is not the smallest play of its group"


def _masks(play: Any) -> tuple[int, int]:
    return play.cards.hi, play.cards.lo


def _smallest(plays: Iterable[Any], collapse_key: Callable[[Any], Hashable]) -> dict[Hashable, tuple[int, int]]:
    out: dict[Hashable, tuple[int, int]] = {}
    for p in plays:
        k = collapse_key(p)
        out[k] = min(out.get(k, _masks(p)), _masks(p))
    return out
