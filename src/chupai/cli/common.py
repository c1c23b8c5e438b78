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
    "BOT_SPECS",
    "DefaultsShown",
    "DEFAULT_SEED",
    "MAX_COUNT",
    "add_seed",
    "check_previous_fits",
    "check_type_name",
    "count",
    "output_path",
    "png_path",
    "threads",
    "choose_reading",
    "dump_json",
    "int_at_least",
    "level_name",
    "non_negative_int",
    "play_json",
    "plays_that",
    "plural",
    "positive_int",
    "print_plays",
    "report_playout",
    "report_plays",
    "seed",
    "timed_playouts",
    "type_member_name",
]

#: the bot specs a subcommand's help lists (chupai.players.search.make_bot reads them)
BOT_SPECS = "random, greedy, heuristic, best, mc[:N], ismcts[:N|:20ms], net:PATH, module:attr"


class Plays(Protocol):
    """What ``chupai plays`` reports: a ``PlayList`` (sized and iterable)."""

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[Any]: ...


def plural(n: int, noun: str) -> str:
    """``n`` and ``noun``, with an ``s`` unless ``n`` is 1."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def plays_that(n: int, verb: str) -> str:
    """``n`` plays and ``verb`` agreeing with them: ``plays_that(1, "beat")`` is
    ``'1 play that beats'``, ``plays_that(2, "beat")`` ``'2 plays that beat'``.

    >>> plays_that(1, "beat"), plays_that(0, "beat")
    ('1 play that beats', '0 plays that beat')
    """
    return f"{plural(n, 'play')} that {verb}{'s' if n == 1 else ''}"


_DECKS = {1: "one deck holds each card once", 2: "two decks hold each card at most twice"}
_TIMES = {1: "once", 2: "twice", 3: "three times", 4: "four times"}


def check_previous_fits(hand: str, previous: str, decks: int) -> None:
    """``ValueError`` unless the cards of ``hand`` and of ``--previous`` ``previous``
    could both come from the game's ``decks`` decks (a card of the play to beat is no
    longer in any hand).  Each is parsed as ``Cards`` first (its own error)."""
    from collections import Counter

    from chupai.cards import Cards

    held = Counter(Cards(hand, decks=decks))
    shown = Counter(Cards(previous, decks=decks))
    for card in sorted(held.keys() & shown.keys()):
        n = held[card] + shown[card]
        if n > decks:
            times = _TIMES.get(n, f"{n} times")
            raise ValueError(f"the hand and --previous hold {card} {times}; "
                             f"{_DECKS.get(decks, f'{decks} decks hold each card {decks} times')}")


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


def threads(text: str) -> int:
    """An argparse type: threads, 1 to :data:`THREADS_PER_CORE` per core of this machine."""
    import os

    value = positive_int(text)
    most = THREADS_PER_CORE * (os.cpu_count() or 1)
    if value > most:
        raise argparse.ArgumentTypeError(f"must be at most {most} ({THREADS_PER_CORE} per core), not {value}")
    return value


#: the highest TCP port
MAX_PORT = 65535


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


class DefaultsShown(argparse.HelpFormatter):
    """A help formatter that ends each option's line with its default, where it has one
    to say (not ``None`` or off, and not already in the line)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if "default" in text or not action.option_strings or action.default is None or action.default is False \
                or action.default == argparse.SUPPRESS:
            return text
        return f"{text} (default: %(default)s)"


def png_path(text: str) -> str:
    """An argparse type: an :func:`output_path` whose name ends in ``.png``, the format the
    plot is written in (a typo caught before the run, not after it)."""
    path = output_path(text)
    if not path.lower().endswith(".png"):
        raise argparse.ArgumentTypeError(f"{text!r} does not end in .png (the plot is written as a PNG file)")
    return path


def int_at_least(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: an int >= ``low`` (and <= ``high`` when given; else argparse's
    usage error, exit status 2)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high}, not {value}")
        return value

    return parse


def int_in(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an int from ``low`` to ``high``."""
    at_least = int_at_least(low)

    def parse(text: str) -> int:
        value = at_least(text)
        if value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high:,}, not {value:,}")
        return value

    return parse


def seconds(positive: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite number of seconds, at least 0 (above 0 with
    ``positive``): :func:`chupai.core.validate.check_number`'s rule, the library's check
    of the same options."""
    from chupai.core.validate import check_number

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid number of seconds: {text!r}") from None
        try:
            return check_number(value, "seconds", 0, above=positive)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e).removeprefix("seconds ")) from None

    return parse


#: argparse types of counts (``--deals``, ``--repeat``, ...)
positive_int = int_at_least(1)
non_negative_int = int_at_least(0)
#: an argparse type: a count of deals, episodes or games, 1..:data:`MAX_COUNT`
count = int_in(1, MAX_COUNT)
#: an argparse type: a TCP port, 0 (any free port) to :data:`MAX_PORT`
port = int_in(0, MAX_PORT)

#: the seed of every command that takes ``--seed`` and is not given one
DEFAULT_SEED = 1


def seed(text: str) -> int:
    """An argparse type: a seed, an int in ``[0, 2**64)`` (:func:`chupai.core.validate.check_seed`,
    the check of every seeded function)."""
    from chupai.core.validate import check_seed

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
    try:
        return check_seed(value, allow_none=False)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an int in [0, 2**64), not {value}") from None


def add_seed(parser: argparse.ArgumentParser, what: str = "the deals", *, default: int | None = DEFAULT_SEED,
             none: str = "") -> None:
    """Offer ``--seed`` on ``parser``: the seed of ``what``, :data:`DEFAULT_SEED` unless
    ``default`` is ``None`` (then ``none`` says what happens without it)."""
    shown = f"default {default}" if default is not None else f"default: {none}"
    parser.add_argument("--seed", type=seed, default=default, help=f"the seed of {what} ({shown})")
