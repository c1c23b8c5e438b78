"""JSON-lines records of protocol games, their replay in a terminal and in the view.

A record (``chupai serve guandan --record FILE``) is one JSON object per line:

* ``{"type": "header", "format": "chupai-guandan-record", "version": 1, "rules":
  "competition", "games": N, "seed": S, "tables": T, "seats": [...]}`` first;
* one ``{"type": "deal", ...}`` line per finished deal: ``table``, ``game``
  (1-based), ``deal`` (0-based in the game), ``matchSeed``, ``seed`` (the deal's),
  ``levels`` (team 0, team 1 before the deal), ``declarers``, ``level``,
  ``previous`` (the previous finishing order, or null), ``hands`` (as dealt),
  ``handsAfterTribute``, ``tribute`` / ``back`` (``[from, to, card]``),
  ``antiTribute`` (the resisting seats, or null), ``leader``, ``actions`` (every
  decision as ``[seat, stage, action]``, stage ``tribute``, ``back``, ``lead`` (the
  action is the leading seat) or ``play``, actions in the protocol form), ``order``,
  ``result``, ``levelsAfter``, ``restCards``;
* one ``{"type": "game", ...}`` line per finished game: ``table``, ``game``,
  ``matchSeed``, ``winner`` (team or null for a draw), ``deals``, ``falls``, ``names``;
* one ``{"type": "abort", ...}`` line for a table that ended early: ``table``,
  ``reason``, ``names`` and, once a game started, ``game``, ``deal`` (0-based),
  ``matchSeed`` and ``actions`` (the deal in progress as far as it went).

Lines of different tables interleave.  :func:`load_match` loads a game back into a
:class:`chupai.guandan.Match` (every action re-applied and checked).  Every reader
checks the fields it uses (:func:`check_line`): a malformed record is a ``ValueError``
naming the line's field, never another exception.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

from chupai.protocol._adapter import SEATS, Ask, Notify, ProtocolGame, action_key, replay_game
from chupai.protocol.shapes import check_action, check_card, is_int

__all__ = [
    "FORMAT",
    "check_line",
    "game_deals",
    "header_line",
    "load_match",
    "parse_record",
    "print_record",
    "read_record",
    "replay_frames",
]

FORMAT = "chupai-guandan-record"
VERSION = 1


def header_line(games: int, seed: int, tables: int, seats: Sequence[str]) -> dict[str, Any]:
    """The first line of a record."""
    return {"type": "header", "format": FORMAT, "version": VERSION, "rules": "competition",
            "games": games, "seed": seed, "tables": tables, "seats": list(seats)}


def _no_constant(text: str) -> Any:
    raise ValueError(f"{text} is not a number a record holds")


def _finite(text: str) -> float:
    x = float(text)
    if x != x or x in (float("inf"), float("-inf")):
        raise ValueError(f"{text} is not a finite number")
    return x


def parse_record(text: str, source: str = "record") -> list[dict[str, Any]]:
    """The lines of a record's text (see :func:`read_record`); ``source`` names it in errors."""
    out = []
    for n, row in enumerate(text.splitlines(), 1):
        if not row.strip():
            continue
        try:
            line = json.loads(row, parse_constant=_no_constant, parse_float=_finite)
        except RecursionError:
            raise ValueError(f"{source}:{n}: nested too deeply") from None
        except ValueError as e:  # json.JSONDecodeError and the number checks
            raise ValueError(f"{source}:{n}: not a JSON line: {e}") from None
        if not isinstance(line, dict) or not isinstance(line.get("type"), str):
            raise ValueError(f"{source}:{n}: a record line is an object with a 'type'")
        out.append(line)
    return out


def read_record(path: str | Path) -> list[dict[str, Any]]:
    """The lines of a record file; ``ValueError`` naming the line that is not JSON (or
    not an object with a ``type``)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError as e:
        raise ValueError(f"{path}: not UTF-8 text: {e}") from None
    return parse_record(text, str(path))


# -- the fields each reader uses ------------------------------------------------------------
def _int(v: Any, where: str, low: int = 0, high: int | None = None) -> int:
    if not is_int(v) or v < low or (high is not None and v > high):
        span = f"{low}..{high}" if high is not None else f">= {low}"
        raise ValueError(f"{where}: expected an int {span}, not {v!r}")
    return int(v)


def _list(v: Any, where: str, n: int | None = None) -> list[Any]:
    if not isinstance(v, list) or (n is not None and len(v) != n):
        raise ValueError(f"{where}: expected a list{f' of {n}' if n is not None else ''}, not {v!r}"[:200])
    return v


def _str(v: Any, where: str) -> None:
    if not isinstance(v, str):
        raise ValueError(f"{where}: expected a str, not {v!r}"[:200])


def _strs(v: Any, where: str) -> None:
    for i, x in enumerate(_list(v, where)):
        _str(x, f"{where}[{i}]")


def _hands(v: Any, where: str) -> None:
    for s, hand in enumerate(_list(v, where, SEATS)):
        for i, c in enumerate(_list(hand, f"{where}[{s}]")):
            check_card(c, f"{where}[{s}][{i}]")


def _transfers(v: Any, where: str) -> None:
    for i, t in enumerate(_list(v, where)):
        a, b, card = _list(t, f"{where}[{i}]", 3)
        _int(a, f"{where}[{i}][0]", 0, SEATS - 1)
        _int(b, f"{where}[{i}][1]", 0, SEATS - 1)
        check_card(card, f"{where}[{i}][2]")


def _actions(v: Any, where: str) -> None:
    for i, entry in enumerate(_list(v, where)):
        seat, stage, action = _list(entry, f"{where}[{i}]", 3)
        _int(seat, f"{where}[{i}][0]", 0, SEATS - 1)
        if stage == "lead":
            _int(action, f"{where}[{i}][2]", 0, SEATS - 1)
        elif stage in ("tribute", "back", "play"):
            check_action(action, f"{where}[{i}][2]")
        else:
            raise ValueError(f"{where}[{i}][1]: expected tribute, back, lead or play, not {stage!r}"[:200])


def _seats(v: Any, where: str, low: int = 0) -> None:
    for i, x in enumerate(_list(v, where)):
        _int(x, f"{where}[{i}]", low, SEATS - 1)


def _names(v: Any, where: str) -> None:
    _strs(_list(v, where, SEATS), where)


def _levels(v: Any, where: str) -> None:
    _strs(_list(v, where, 2), where)


def _seed(v: Any, where: str) -> None:
    if v is not None:
        _int(v, where)


def _optional(check: Any) -> Any:
    return lambda v, where: None if v is None else check(v, where)


_FIELDS: dict[str, dict[str, Any]] = {
    "header": {"games": _int, "seed": _int, "tables": _int, "seats": _strs, "rules": _str},
    "deal": {"table": _int, "game": lambda v, w: _int(v, w, 1), "deal": _int, "matchSeed": _seed,
             "levels": _levels, "level": _str, "previous": _optional(lambda v, w: _seats(v, w, -1)), "hands": _hands,
             "handsAfterTribute": _hands, "tribute": _transfers, "back": _transfers,
             "antiTribute": _optional(_seats), "leader": lambda v, w: _int(v, w, 0, SEATS - 1),
             "actions": _actions, "order": _seats, "result": lambda v, w: None, "levelsAfter": _levels},
    "game": {"table": _int, "game": lambda v, w: _int(v, w, 1), "matchSeed": _seed,
             "winner": _optional(lambda v, w: _int(v, w, 0, 1)), "deals": _int, "names": _names},
    "abort": {"table": _int, "reason": _str, "names": _names},
}


def check_line(line: dict[str, Any], where: str = "record") -> None:
    """``ValueError`` unless every field the readers use of ``line`` (a header, deal,
    game or abort line; other types are ignored) is present with its shape (a
    header's fields and ``matchSeed`` may be missing)."""
    kind = line.get("type")
    for name, check in _FIELDS.get(kind, {}).items():  # type: ignore[arg-type]
        if name in line:
            check(line[name], f"{where}: {kind}.{name}")
        elif kind != "header" and name != "matchSeed":
            raise ValueError(f"{where}: a {kind} line has no {name!r}")


def _checked(lines: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    out = list(lines)
    for n, line in enumerate(out, 1):
        if not isinstance(line, dict) or not isinstance(line.get("type"), str):
            raise ValueError(f"record line {n}: a record line is an object with a 'type'")
        check_line(line, f"record line {n}")
    return out


def _deals(lines: Sequence[dict[str, Any]], table: int, game: int) -> list[dict[str, Any]]:
    deals = [d for d in lines if d["type"] == "deal" and d["table"] == table and d["game"] == game]
    deals.sort(key=lambda d: int(d["deal"]))
    return deals


def game_deals(lines: Iterable[dict[str, Any]], table: int = 0, game: int = 1) -> list[dict[str, Any]]:
    """The deal lines of one game, in order (``ValueError`` if a line is malformed)."""
    return _deals(_checked(lines), table, game)


def load_match(lines: Iterable[dict[str, Any]], table: int = 0, game: int = 1) -> Any:
    """The ``Match`` of game ``game`` of table ``table``, every recorded action applied.

    ``ValueError`` if the record has no such game or does not replay.
    """
    deals = game_deals(lines, table, game)
    if not deals:
        raise ValueError(f"the record has no deal of table {table} game {game}")
    return replay_game(deals)


def _games(lines: Sequence[dict[str, Any]], table: int | None) -> list[tuple[int, int]]:
    keys = sorted({(int(d["table"]), int(d["game"])) for d in lines if d["type"] == "deal"})
    if table is None and keys:
        table = keys[0][0]
    return [k for k in keys if k[0] == table]


def replay_frames(lines: Sequence[dict[str, Any]], table: int | None = None, hands: bool = True
                  ) -> list[dict[str, Any]]:
    """The view's snapshots of a record's table (default: the first), one per decision
    and one per deal end, by replaying every game through :class:`ProtocolGame`.

    Every game is checked as :func:`load_match` checks it (``ValueError``).
    """
    lines = _checked(lines)
    frames: list[dict[str, Any]] = []
    names = next((d["names"] for d in lines if d["type"] == "game"), ["0", "1", "2", "3"])
    games = next((int(d.get("games", 1)) for d in lines if d["type"] == "header"), 1)
    for t, g in _games(lines, table):
        deals = _deals(lines, t, g)
        if deals[0]["matchSeed"] is None:
            raise ValueError(f"table {t} game {g}: the view replays a record with a matchSeed")
        replay_game(deals)  # the checks of load_match: hands, order and levels of every deal
        actions = [a for d in deals for a in d["actions"] if a[1] != "lead"]
        pg = ProtocolGame(int(deals[0]["matchSeed"]), game=g, games=games, table=t)
        events = pg.events()
        answer: int | None = None
        at = 0
        while True:
            try:
                event = events.send(answer)
            except StopIteration:
                break
            answer = None
            if isinstance(event, Ask):
                if at >= len(actions):
                    break  # the record ends here (a table that ended early)
                seat, _stage, action = actions[at]
                at += 1
                keys = [action_key(a) for a in event.message["actionList"]]
                if seat != event.seat or action_key(action) not in keys:
                    raise ValueError(f"table {t} game {g}: recorded action {at} ({action!r}) is not legal there")
                answer = keys.index(action_key(action))
                frames.append(pg.snapshot(names, hands))
            elif isinstance(event, Notify) and event.message["stage"] == "episodeOver":
                frames.append(pg.snapshot(names, hands))
        if at < len(actions):
            raise ValueError(f"table {t} game {g}: {len(actions) - at} recorded actions left over")
    return frames


_SEAT_MARK = ("S0", "S1", "S2", "S3")


def _action_text(action: Any) -> str:
    if isinstance(action, list) and len(action) == 3:
        if action[0] == "PASS":
            return "pass"
        return f"{action[0]} {action[1]} {' '.join(action[2])}"
    return str(action)


def print_record(lines: Sequence[dict[str, Any]], out: TextIO, table: int | None = None,
                 hands: bool = False) -> None:
    """A record in readable text: each deal's levels, tribute, tricks and result, and
    the reason of a table that ended early (``ValueError`` if a line is malformed)."""
    lines = _checked(lines)
    head = next((d for d in lines if d["type"] == "header"), None)
    if head is not None:
        out.write(f"record of {head.get('tables', '?')} table(s) x {head.get('games', '?')} game(s), "
                  f"seed {head.get('seed', '?')}, seats {','.join(head.get('seats', ['?']))}, "
                  f"rules {head.get('rules', '?')}\n")
    for t, g in _games(lines, table):
        out.write(f"\n=== table {t} game {g}\n")
        for d in _deals(lines, t, g):
            out.write(f"\n-- deal {d['deal']}: level {d['level']} (team 0 at {d['levels'][0]}, "
                      f"team 1 at {d['levels'][1]}), leader seat {d['leader']}\n")
            if hands:
                for s, h in enumerate(d["handsAfterTribute"]):
                    out.write(f"   seat {s}: {' '.join(h)}\n")
            if d.get("antiTribute"):
                out.write(f"   tribute resisted by seat(s) {d['antiTribute']}\n")
            for p, r, c in d["tribute"]:
                out.write(f"   tribute: seat {p} -> seat {r}: {c}\n")
            for r, p, c in d["back"]:
                out.write(f"   back: seat {r} -> seat {p}: {c}\n")
            trick: list[str] = []
            for seat, stage, action in d["actions"]:
                if stage != "play":
                    continue
                trick.append(f"{_SEAT_MARK[seat]} {_action_text(action)}")
                if len(trick) >= 8:
                    out.write("   " + " | ".join(trick) + "\n")
                    trick = []
            if trick:
                out.write("   " + " | ".join(trick) + "\n")
            out.write(f"   result {d['result']}, order {d['order']}, levels after {d['levelsAfter']}\n")
        result = next((x for x in lines if x["type"] == "game" and x["table"] == t and x["game"] == g), None)
        if result is not None:
            won = "a draw" if result["winner"] is None else f"won by team {result['winner']}"
            out.write(f"=== table {t} game {g}: {won} after {result['deals']} deals\n")
    for x in lines:
        if x["type"] == "abort" and (table is None or x["table"] == table):
            where = f" in game {x['game']} deal {x['deal']}" if "game" in x else ""
            out.write(f"\n=== table {x['table']} ended early{where}: {x['reason']}\n")
