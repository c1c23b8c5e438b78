"""Argument checks shared by every Python entry point of the library.

One rule for each kind of argument, the same in every game, in ``Deal``/``Match``,
the playouts, the bots and the arena:

* a wrong *type* raises ``TypeError``, a wrong *value* ``ValueError``; both name the
  argument and say what was expected;
* an int is a Python ``int`` or a numpy integer, never a ``bool``;
* a seed is an int in ``[0, 2**64)`` (the C engines take 64-bit seeds: nothing is
  reduced modulo ``2**64``, and negative seeds are refused rather than wrapped);
  ``None`` where a fresh random seed makes sense.

>>> check_seed(2**64 + 5)
Traceback (most recent call last):
...
ValueError: seed must be an int in [0, 2**64), not 18446744073709551621
>>> check_int(True, "n")
Traceback (most recent call last):
...
TypeError: n must be an int, not True
>>> check_seat(4, 4)
Traceback (most recent call last):
...
ValueError: player must be a seat 0-3, not 4
"""
from __future__ import annotations

import math
import operator
from collections.abc import Collection, Mapping, Sequence
from typing import TypeVar

import numpy as np

from chupai.core.seeds import fresh

__all__ = [
    "SEED_LIMIT",
    "as_rng",
    "check_bool",
    "check_choice",
    "check_int",
    "check_number",
    "check_optional_int",
    "check_optional_number",
    "check_players",
    "check_positive_int",
    "check_rules",
    "check_seat",
    "check_seed",
    "is_int",
    "is_number",
    "players_error",
    "set_flags",
]

#: seeds are ints in ``[0, SEED_LIMIT)``
SEED_LIMIT = 1 << 64

R = TypeVar("R")


def is_int(x: object) -> bool:
    """An int or a numpy integer, not a bool."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def check_int(x: object, name: str, low: int | None = None, high: int | None = None) -> int:
    """``x`` as an int if it is one in ``low..high`` (both included, ``None``: unbounded).

    ``TypeError`` for a non-int (a bool included), ``ValueError`` out of range.
    """
    if not is_int(x):
        raise TypeError(f"{name} must be an int, not {x!r}")
    v = operator.index(x)  # type: ignore[arg-type]
    if (low is not None and v < low) or (high is not None and v > high):
        if high is None:
            want = f"an int >= {low}"
        elif low is None:
            want = f"an int <= {high}"
        else:
            want = f"an int {low}..{high}"
        raise ValueError(f"{name} must be {want}, not {v!r}")
    return v


def check_optional_int(x: object, name: str, low: int | None = None, high: int | None = None) -> int | None:
    """``None``, or ``x`` as an int in ``low..high`` (an option whose ``None`` means "no
    limit" or "the default"); the errors of :func:`check_int`, saying ``None`` is allowed.

    >>> check_optional_int("3", "announce_at")
    Traceback (most recent call last):
    ...
    TypeError: announce_at must be an int or None, not '3'
    """
    if x is None:
        return None
    if not is_int(x):
        raise TypeError(f"{name} must be an int or None, not {x!r}")
    return check_int(x, name, low, high)


def is_number(x: object) -> bool:
    """An int, a float or a numpy number, not a bool."""
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, (bool, np.bool_))


def check_number(x: object, name: str, low: float, *, above: bool = False) -> float:
    """``x`` as a float if it is a finite real number (an int, a float or a numpy number,
    not a bool) at least ``low`` (greater than ``low`` with ``above``).

    ``TypeError`` for a non-number, ``ValueError`` for NaN, an infinity or one out of range.

    >>> check_number(0.0, "seconds", 0, above=True)
    Traceback (most recent call last):
    ...
    ValueError: seconds must be a finite number > 0, not 0.0
    >>> check_number("1", "z", 0)
    Traceback (most recent call last):
    ...
    TypeError: z must be a number, not '1'
    """
    if not is_number(x):
        raise TypeError(f"{name} must be a number, not {x!r}")
    v = float(x)  # type: ignore[arg-type]
    if not (v > low if above else v >= low) or math.isinf(v):
        raise ValueError(f"{name} must be a finite number {'>' if above else '>='} {low:g}, not {x!r}")
    return v


def check_optional_number(x: object, name: str, low: float, *, above: bool = False) -> float | None:
    """``None``, or ``x`` as :func:`check_number` takes it, its ``TypeError`` saying ``None``
    is allowed."""
    if x is None:
        return None
    if not is_number(x):
        raise TypeError(f"{name} must be a number or None, not {x!r}")
    return check_number(x, name, low, above=above)


def check_positive_int(x: object, name: str) -> int:
    """``x`` as an int if it is at least 1."""
    return check_int(x, name, 1)


def check_bool(x: object, name: str) -> bool:
    """``x`` if it is ``True`` or ``False`` (numpy bools included); ``TypeError`` otherwise
    (``"yes"``, ``1`` and ``None`` are not bools)."""
    if not isinstance(x, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, not {x!r}")
    return bool(x)


def check_seed(seed: object, name: str = "seed", *, allow_none: bool = True) -> int:
    """The seed as an int in ``[0, 2**64)``; ``None`` (when allowed) draws a fresh one."""
    if seed is None and allow_none:
        return fresh()
    if not is_int(seed):
        none = " or None" if allow_none else ""
        raise TypeError(f"{name} must be an int{none}, not {seed!r}")
    v = operator.index(seed)  # type: ignore[arg-type]
    if not 0 <= v < SEED_LIMIT:
        raise ValueError(f"{name} must be an int in [0, 2**64), not {v!r}")
    return v


def check_players(players: object, low: int, high: int, name: str = "players") -> int:
    """The number of players as an int if it is one of ``low..high``."""
    return check_int(players, name, low, high)


def players_error(who: str, allowed: Sequence[int], players: object) -> ValueError:
    """The one error of a number of players ``who`` (a game, a variant) is not played
    by: ``"guandan is played by 4 players, not 3"``; ``allowed`` the numbers it is played
    by, in order (a run of them is written ``2 to 8``, else listed: ``2 or 4``).

    >>> str(players_error("zhengshangyou", range(2, 9), 9))
    'zhengshangyou is played by 2 to 8 players, not 9'
    >>> str(players_error("the barraco variant", (2, 4), 3))
    'the barraco variant is played by 2 or 4 players, not 3'
    """
    counts = list(allowed)
    if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
        said = f"{counts[0]} to {counts[-1]}"
    else:
        said = ", ".join(map(str, counts[:-1])) + " or " * (len(counts) > 1) + str(counts[-1])
    return ValueError(f"{who} is played by {said} players, not {players!r}")


def check_seat(player: object, players: int, name: str = "player") -> int:
    """``player`` as an int if it is a seat ``0..players-1`` (``name`` says what the seat
    is: a player, the dealer, ...)."""
    if not is_int(player):
        raise TypeError(f"{name} must be a seat (an int), not {player!r}")
    v = operator.index(player)  # type: ignore[arg-type]
    if not 0 <= v < players:
        raise ValueError(f"{name} must be a seat 0-{players - 1}, not {v!r}")
    return v


def check_rules(rules: object, cls: type[R], game: str) -> R:
    """``rules`` if it is a ``cls`` (``cls()`` for ``None``); ``TypeError`` naming the
    game's rules class otherwise (``rules="pagat"`` included: use ``Rules.pagat()``)."""
    if rules is None:
        return cls()
    if not isinstance(rules, cls):
        raise TypeError(f"rules must be a chupai.{game}.{cls.__name__} or None, not {rules!r}")
    return rules


def check_choice(x: object, name: str, choices: Collection[str]) -> str:
    """``x`` if it is one of the strings ``choices`` (a policy name, a variant, ...)."""
    if not isinstance(x, str):
        raise TypeError(f"{name} must be a str, one of {sorted(choices)}, not {x!r}")
    if x not in choices:
        raise ValueError(f"unknown {name} {x!r}; expected one of {sorted(choices)}")
    return x


def as_rng(rng: object, name: str = "rng") -> np.random.Generator:
    """A numpy ``Generator`` from a ``Generator`` (itself), an int seed (see
    :func:`check_seed`) or ``None`` (fresh entropy)."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None:
        return np.random.default_rng()
    if is_int(rng):
        return np.random.default_rng(check_seed(rng, name))
    raise TypeError(f"{name} must be a numpy Generator, an int seed or None, not {rng!r}")


def set_flags(rules: object, flags: Mapping[int, object]) -> None:
    """Give a frozen ``Rules`` its ``_flags``, the word its compiled code reads: the bit
    of each option that is on (``{FLAG_X: rules.x, ...}``).

    >>> class Frozen: pass
    >>> r = Frozen(); set_flags(r, {1: True, 2: False, 4: True}); r._flags
    5
    """
    word = 0
    for bit, on in flags.items():
        if on:
            word |= bit
    object.__setattr__(rules, "_flags", word)
