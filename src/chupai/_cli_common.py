"""What every game's part of the ``chupai`` command shares (``<game>/_cli.py``): the
``--previous-type`` spelling, the choice of the one reading of ``--previous``, the
printing of a list of plays and the timed run of ``chupai playout``.

>>> type_member_name("full-house")
'FULL_HOUSE'
>>> print_plays("2 plays to lead:", ["single 3: 3S", "single 4: 4S"], or_pass=False)
2 plays to lead:
  single 3: 3S
  single 4: 4S
0
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from enum import Enum
from typing import Any

__all__ = ["check_type_name", "dump_json", "one_reading", "print_plays", "timed_playouts", "type_member_name"]


def type_member_name(type_name: str) -> str:
    """A ``--previous-type`` value spelled as a ``PlayType`` member name."""
    return type_name.upper().replace("-", "_").replace(" ", "_")


def check_type_name(wanted: str, type_name: str, types: type[Enum]) -> None:
    """``ValueError`` naming ``type_name`` if ``wanted`` is not a member of ``types``."""
    if wanted not in types.__members__:
        raise ValueError(f"unknown play type {type_name!r}; one of {', '.join(types.__members__).lower()}")


def one_reading(cards: str, readings: Sequence[Any]) -> Any:
    """The only play in ``readings`` (of ``--previous`` ``cards``), else ``ValueError``
    listing them."""
    if len(readings) != 1:
        listed = "; ".join(str(p) for p in readings) or "none"
        raise ValueError(f"{cards!r} must be one play (readings: {listed}); say which with --previous-type")
    return readings[0]


def dump_json(obj: Any) -> int:
    """Write ``obj`` as one line of JSON to stdout; 0, the command's exit status."""
    json.dump(obj, sys.stdout)
    print()
    return 0


def print_plays(header: str, plays: Iterable[Any], *, or_pass: bool) -> int:
    """Print ``header``, then each play indented, then ``(or pass)`` when passing is
    allowed; 0, the command's exit status."""
    print(header)
    for p in plays:
        print(f"  {p}")
    if or_pass:
        print("  (or pass)")
    return 0


def timed_playouts(args: argparse.Namespace, playouts: Callable[..., Any], what: str = "", **options: Any) -> Any:
    """Run ``playouts`` as ``chupai playout`` asks (``--deals``, ``--seed``, ``--policy``,
    ``--threads``, ``--quiet``, plus the game's ``options``), print the timing line
    (``what`` follows the number of deals) and return the results."""
    t0 = time.perf_counter()
    r = playouts(args.deals, seed=args.seed, policy=args.policy, threads=args.threads, progress=not args.quiet,
                 **options)
    dt = time.perf_counter() - t0
    print(f"{args.deals} deals{what}, {args.policy} policy, {args.threads} thread(s): "
          f"{dt:.2f} s, {args.deals / dt:,.0f} deals/s")
    return r
