"""The shapes of the protocol's messages, written from ``docs/protocol.md``.

:func:`check_message` raises ``ValueError`` naming the first field that is missing or
of the wrong shape; the tests run every message a server sends through it, and the
:class:`~chupai.guandan.protocol.Client` can too (``strict=True``).

>>> check_message({"type": "notify", "stage": "gameOver", "curTimes": 1, "settingTimes": 2})
>>> check_message({"type": "notify", "stage": "gameOver", "curTimes": "1", "settingTimes": 2})
Traceback (most recent call last):
...
ValueError: gameOver.curTimes: expected an int, not '1'
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from chupai.cards import RANKS

__all__ = ["ACTION_TYPES", "MESSAGES", "check_action", "check_card", "check_message", "is_int"]

#: the action types of ``docs/protocol.md``, "Cards and actions"
ACTION_TYPES = frozenset({"Single", "Pair", "Trips", "ThreePair", "ThreeWithTwo", "TwoTrips", "Straight",
                          "StraightFlush", "Bomb", "PASS", "tribute", "back"})
_RANKS = frozenset("A23456789TJQKBR")
_LEVELS = frozenset(RANKS)
_CARD = re.compile(r"^(?:[SHCD][A2-9TJQK]|SB|HR)$")


def is_int(x: Any) -> bool:
    """An int that is not a bool (JSON numbers without a fraction)."""
    return isinstance(x, int) and not isinstance(x, bool)


def check_card(card: Any, where: str) -> None:
    """A card: suit then rank, or ``SB`` / ``HR``."""
    if not isinstance(card, str) or not _CARD.match(card):
        raise ValueError(f"{where}: expected a card such as 'S2', 'HT', 'SB', 'HR', not {card!r}")


def _cards(value: Any, where: str) -> None:
    if not isinstance(value, list):
        raise ValueError(f"{where}: expected a list of cards, not {value!r}")
    for i, c in enumerate(value):
        check_card(c, f"{where}[{i}]")


def check_action(action: Any, where: str) -> None:
    """An action ``[type, rank, cards]`` (``docs/protocol.md``, "Cards and actions")."""
    if not isinstance(action, list) or len(action) != 3:
        raise ValueError(f"{where}: expected an action [type, rank, cards], not {action!r}")
    kind, rank, cards = action
    if kind not in ACTION_TYPES:
        raise ValueError(f"{where}: unknown action type {kind!r}")
    if kind in ("PASS", "tribute", "back"):
        if rank != kind:
            raise ValueError(f"{where}: a {kind} action has rank {kind!r}, not {rank!r}")
        if kind == "PASS":
            if cards != "PASS":
                raise ValueError(f"{where}: a pass is ['PASS', 'PASS', 'PASS'], not {action!r}")
            return
        _cards(cards, f"{where}.cards")
        if len(cards) != 1:
            raise ValueError(f"{where}: a {kind} action gives one card, not {cards!r}")
        return
    if rank == "JOKER":
        if kind != "Bomb" or sorted(cards) != ["HR", "HR", "SB", "SB"]:
            raise ValueError(f"{where}: rank JOKER is the four-joker bomb only, not {action!r}")
        return
    if rank not in _RANKS:
        raise ValueError(f"{where}: rank must be one of A 2..9 T J Q K B R or JOKER, not {rank!r}")
    _cards(cards, f"{where}.cards")
    if not cards:
        raise ValueError(f"{where}: a play has cards")


def _int(v: Any, where: str) -> None:
    if not is_int(v):
        raise ValueError(f"{where}: expected an int, not {v!r}")


def _pos(v: Any, where: str, lead: bool = False) -> None:
    _int(v, where)
    if not (0 <= v <= 3 or (lead and v == -1)):
        raise ValueError(f"{where}: expected a seat 0..3{' or -1' if lead else ''}, not {v!r}")


def _level(v: Any, where: str) -> None:
    if v not in _LEVELS:
        raise ValueError(f"{where}: expected a level rank character (2..9 T J Q K A), not {v!r}")


def _four_ints(v: Any, where: str) -> None:
    if not isinstance(v, list) or len(v) != 4:
        raise ValueError(f"{where}: expected a list of 4 ints, not {v!r}")
    for i, x in enumerate(v):
        _int(x, f"{where}[{i}]")


def _transfers(v: Any, where: str) -> None:
    if not isinstance(v, list):
        raise ValueError(f"{where}: expected a list of [from, to, card], not {v!r}")
    for i, t in enumerate(v):
        if not isinstance(t, list) or len(t) != 3:
            raise ValueError(f"{where}[{i}]: expected [from, to, card], not {t!r}")
        _pos(t[0], f"{where}[{i}][0]")
        _pos(t[1], f"{where}[{i}][1]")
        check_card(t[2], f"{where}[{i}][2]")


def _optional_action(v: Any, where: str) -> None:
    if v is not None:
        check_action(v, where)


def _public_info(v: Any, where: str) -> None:
    if not isinstance(v, list) or len(v) != 4:
        raise ValueError(f"{where}: expected four entries, not {v!r}")
    for i, e in enumerate(v):
        if not isinstance(e, dict) or not {"rest", "playArea"} <= set(e):
            raise ValueError(f"{where}[{i}]: expected {{'rest': n, 'playArea': action or null}}, not {e!r}")
        _int(e["rest"], f"{where}[{i}].rest")
        _optional_action(e["playArea"], f"{where}[{i}].playArea")


def _order(v: Any, where: str) -> None:
    if not isinstance(v, list) or sorted(v) != [0, 1, 2, 3] or not all(is_int(x) for x in v):
        raise ValueError(f"{where}: expected the four seats in finishing order, not {v!r}")


def _rest_cards(v: Any, where: str) -> None:
    if not isinstance(v, list):
        raise ValueError(f"{where}: expected [[pos, cards], ...], not {v!r}")
    for i, e in enumerate(v):
        if not isinstance(e, list) or len(e) != 2:
            raise ValueError(f"{where}[{i}]: expected [pos, cards], not {e!r}")
        _pos(e[0], f"{where}[{i}][0]")
        _cards(e[1], f"{where}[{i}][1]")


def _anti_pos(v: Any, where: str) -> None:
    if not isinstance(v, list):
        raise ValueError(f"{where}: expected a list of seats, not {v!r}")
    for i, x in enumerate(v):
        _pos(x, f"{where}[{i}]")


def _action_list(v: Any, where: str) -> None:
    if not isinstance(v, list) or not v:
        raise ValueError(f"{where}: expected a non-empty list of actions, not {v!r}")
    for i, a in enumerate(v):
        check_action(a, f"{where}[{i}]")


_Check = Callable[[Any, str], None]
_ACT_FIELDS: dict[str, _Check] = {
    "handCards": _cards,
    "publicInfo": _public_info,
    "selfRank": _level,
    "oppoRank": _level,
    "curRank": _level,
    "curPos": lambda v, w: _pos(v, w, lead=True),
    "curAction": _optional_action,
    "greaterPos": lambda v, w: _pos(v, w, lead=True),
    "greaterAction": _optional_action,
    "actionList": _action_list,
    "indexRange": _int,
}

#: the eleven messages: (type, stage) -> the fields and the check of each
MESSAGES: dict[tuple[str, str], dict[str, _Check]] = {
    ("notify", "beginning"): {"handCards": _cards, "myPos": _pos},
    ("notify", "play"): {"curPos": _pos, "curAction": check_action,
                         "greaterPos": _pos, "greaterAction": check_action},
    ("notify", "tribute"): {"result": _transfers},
    ("notify", "anti-tribute"): {"antiNums": _int, "antiPos": _anti_pos},
    ("notify", "back"): {"result": _transfers},
    ("notify", "episodeOver"): {"order": _order, "curRank": _level, "restCards": _rest_cards},
    ("notify", "gameOver"): {"curTimes": _int, "settingTimes": _int},
    ("notify", "gameResult"): {"victoryNum": _four_ints, "draws": _four_ints},
    ("act", "play"): _ACT_FIELDS,
    ("act", "tribute"): _ACT_FIELDS,
    ("act", "back"): _ACT_FIELDS,
}


def check_message(msg: Any) -> None:
    """``ValueError`` unless ``msg`` is one of the eleven server messages, every field
    present with its shape (extra fields are allowed, as bots tolerate them)."""
    if not isinstance(msg, dict):
        raise ValueError(f"a message is a JSON object, not {msg!r}")
    key = (msg.get("type"), msg.get("stage"))
    fields = MESSAGES.get(key)  # type: ignore[arg-type]
    if fields is None:
        raise ValueError(f"unknown message type/stage {key!r}")
    where = key[1] if key[0] == "notify" else f"act.{key[1]}"
    for name, check in fields.items():
        if name not in msg:
            raise ValueError(f"{where}: field {name!r} is missing")
        check(msg[name], f"{where}.{name}")
    if key[0] == "act":
        if msg["indexRange"] != len(msg["actionList"]) - 1:
            raise ValueError(f"{where}: indexRange {msg['indexRange']} is not len(actionList) - 1")
        if len(msg["publicInfo"]) != 4:
            raise ValueError(f"{where}: publicInfo has four entries")
        lead = msg["curPos"] == -1
        if lead != (msg["curAction"] is None) or (msg["greaterPos"] == -1) != (msg["greaterAction"] is None):
            raise ValueError(f"{where}: curPos/greaterPos -1 go with a null action")
        kinds = {a[0] for a in msg["actionList"]}
        if key[1] == "play" and kinds & {"tribute", "back"}:
            raise ValueError(f"{where}: a play request lists only plays and PASS")
        if key[1] in ("tribute", "back") and kinds != {key[1]}:
            raise ValueError(f"{where}: a {key[1]} request lists only {key[1]} actions")
        passes = [i for i, a in enumerate(msg["actionList"]) if a[0] == "PASS"]
        if key[1] == "play" and passes != ([] if msg["greaterPos"] == -1 else [0]):
            raise ValueError(f"{where}: PASS is entry 0 when following and absent when leading")
