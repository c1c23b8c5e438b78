"""What every game's part of the ``chupai`` command shares (``<game>/_cli.py``): the
choice of the one reading of ``--previous``, the report of a list of plays and of a
``chupai playout`` run, as text or as JSON (``--json``, one shape for every game).

>>> type_member_name("full-house")
'FULL_HOUSE'
>>> plural(1, "play"), plural(2, "play")
('1 play', '2 plays')
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
from collections.abc import Callable, Iterable, Iterator, Sequence
from enum import Enum
from typing import Any, Protocol

from chupai.cards import RANKS

__all__ = [
    "MAX_COUNT",
    "check_type_name",
    "count",
    "output_path",
    "threads",
    "choose_reading",
    "dump_json",
    "int_at_least",
    "level_name",
    "non_negative_int",
    "play_json",
    "plural",
    "positive_int",
    "print_plays",
    "report_playout",
    "report_plays",
    "timed_playouts",
    "type_member_name",
]


class Plays(Protocol):
    """What ``chupai plays`` reports: a ``PlayList`` (sized and iterable)."""

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[Any]: ...


def plural(n: int, noun: str) -> str:
    """``n`` and ``noun``, with an ``s`` unless ``n`` is 1."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def type_member_name(type_name: str) -> str:
    """A ``--previous-type`` value spelled as a ``PlayType`` member name."""
    return type_name.upper().replace("-", "_").replace(" ", "_")


def check_type_name(wanted: str, type_name: str, types: type[Enum]) -> None:
    """``ValueError`` naming ``type_name`` if ``wanted`` is not a member of ``types``."""
    if wanted not in types.__members__:
        raise ValueError(f"unknown play type {type_name!r}; one of {', '.join(types.__members__).lower()}")


def _rank_name(rank: str) -> str:
    r = rank.strip().upper()
    return "T" if r == "10" else r


def choose_reading(
    cards: str, readings: Sequence[Any], types: type[Enum], type_name: str | None, index: int | None,
    where: str = "",
) -> Any:
    """The one reading of ``--previous`` ``cards`` that ``--previous-type`` and
    ``--previous-index`` pick among ``readings`` (the game's ``classify``).

    ``type_name`` is ``TYPE`` or ``TYPE:RANK`` (the play's ``rank``, its top rank for a
    sequence); ``index`` counts from 1 in the readings left after ``type_name``.
    ``ValueError`` lists the readings, numbered, when none or several are left
    (``where``, e.g. ``" at level 7"``, follows "is not a play").
    """
    if type_name is not None:
        wanted, _, rank = type_member_name(type_name).partition(":")
        check_type_name(wanted, type_name, types)
        readings = [p for p in readings if p.type.name == wanted and (not rank or p.rank == _rank_name(rank))]
    if not readings:
        which = f" of type {type_name}" if type_name is not None else ""
        raise ValueError(f"{cards!r} is not a play{which}{where}")
    if index is not None:
        if not 1 <= index <= len(readings):
            raise ValueError(f"--previous-index must be 1..{len(readings)} for {cards!r}, not {index}")
        return readings[index - 1]
    if len(readings) > 1:
        listed = "; ".join(f"{k} = {p}" for k, p in enumerate(readings, 1))
        raise ValueError(f"{cards!r} can be played {len(readings)} ways ({listed}); say which with "
                         "--previous-type TYPE:RANK or --previous-index N")
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


def play_json(play: Any) -> dict[str, Any]:
    """A play as ``chupai plays --json`` writes it, the same keys in every game:
    ``text`` (its ``str``), ``type`` (lower case), ``cards`` (the cards taken from the
    hand) and ``protocol`` (``to_protocol()``, the interchange form every game has)."""
    return {
        "text": str(play),
        "type": play.type.name.lower(),
        "cards": list(play.cards),
        "protocol": play.to_protocol(),
    }


def report_plays(
    args: argparse.Namespace,
    header: str,
    plays: Plays,
    *,
    previous: Any,
    can_pass: bool,
    options: dict[str, Any],
) -> int:
    """Print the plays ``chupai plays`` found: ``header`` and one play a line, or with
    ``--json`` one object ``{game, options, previous, can_pass, collapsed, count,
    plays}`` (``options``: the game's own settings, e.g. the level; ``previous`` and each
    play as :func:`play_json`).  0, the exit status."""
    if args.json:
        return dump_json({
            "game": args.game,
            "options": options,
            "previous": None if previous is None else play_json(previous),
            "can_pass": can_pass,
            "collapsed": bool(args.collapse),
            "count": len(plays),
            "plays": [play_json(p) for p in plays],
        })
    return print_plays(header, plays, or_pass=can_pass)


def timed_playouts(args: argparse.Namespace, playouts: Callable[..., Any], **options: Any) -> tuple[Any, float]:
    """Run ``playouts`` as ``chupai playout`` asks (``--deals``, ``--seed``, ``--policy``,
    ``--threads``, ``--quiet``, plus the game's ``options``); the results and the
    seconds they took (wall clock: ``--threads`` runs in parallel)."""
    t0 = time.perf_counter()
    r = playouts(args.deals, seed=args.seed, policy=args.policy, threads=args.threads,
                 progress=not (args.quiet or args.json), **options)
    return r, time.perf_counter() - t0


def report_playout(
    args: argparse.Namespace,
    seconds: float,
    *,
    what: str,
    players: int,
    mean_returns: Sequence[float],
    details: dict[str, Any],
    lines: Iterable[str],
) -> int:
    """Print a ``chupai playout`` run: the timing line (``what`` follows the number of
    deals) and the game's ``lines``, or with ``--json`` one object ``{game, deals,
    players, seed, policy, threads, seconds, deals_per_second, mean_returns, details}``
    (``mean_returns``: per seat; ``details``: the game's own figures).  0, the exit status."""
    rate = args.deals / seconds if seconds > 0 else 0.0
    if args.json:
        return dump_json({
            "game": args.game,
            "deals": args.deals,
            "players": players,
            "seed": args.seed,
            "policy": args.policy,
            "threads": args.threads,
            "seconds": seconds,
            "deals_per_second": rate,
            "mean_returns": [float(x) for x in mean_returns],
            "details": details,
        })
    print(f"{plural(args.deals, 'deal')}{what}, {args.policy} policy, {plural(args.threads, 'thread')}: "
          f"{seconds:.2f} s, {rate:,.0f} deals/s")
    for line in lines:
        print(f"  {line}")
    return 0


def level_name(level: str) -> str:
    """A level rank as printed: ``'a'`` -> ``'A'``, ``'10'`` -> ``'T'`` (``ValueError``
    for a non-rank, naming ``--level``)."""
    r = _rank_name(level)
    if len(r) != 1 or r not in RANKS:
        raise ValueError(f"--level {level!r} is not a rank; expected 2-9, T, J, Q, K, A")
    return r


#: the most deals, episodes or games one command plays (beyond it the results would not
#: fit in memory: a playout keeps a few dozen bytes a deal)
MAX_COUNT = 10**8
#: the most threads per core a command starts
THREADS_PER_CORE = 4


def count(text: str) -> int:
    """An argparse type: a count of deals, 1..:data:`MAX_COUNT`."""
    value = positive_int(text)
    if value > MAX_COUNT:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_COUNT:,}, not {value:,}")
    return value


def threads(text: str) -> int:
    """An argparse type: threads, 1 to :data:`THREADS_PER_CORE` per core of this machine."""
    import os

    value = positive_int(text)
    most = THREADS_PER_CORE * (os.cpu_count() or 1)
    if value > most:
        raise argparse.ArgumentTypeError(f"must be at most {most} ({THREADS_PER_CORE} per core), not {value}")
    return value


def output_path(text: str) -> str:
    """An argparse type: a file to write, whose folder exists and is writable and which
    is not a folder itself (checked before any work, so a long run never ends in a
    failed write)."""
    import os

    folder = os.path.dirname(os.path.abspath(text)) or "."
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text!r} is a folder, not a file")
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError(f"the folder of {text!r} does not exist")
    if not os.access(folder, os.W_OK) or (os.path.exists(text) and not os.access(text, os.W_OK)):
        raise argparse.ArgumentTypeError(f"{text!r} is not writable")
    return text


def int_at_least(low: int) -> Callable[[str], int]:
    """An argparse type: an int >= ``low`` (else argparse's usage error, exit status 2)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        return value

    return parse


#: argparse types of counts (``--deals``, ``--repeat``, ...) and of seeds
positive_int = int_at_least(1)
non_negative_int = int_at_least(0)
