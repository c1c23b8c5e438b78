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

:meth:`Record.open` reads a record file in one streaming pass (every line checked, the
deal lines indexed by their place in the file) and reads a game's deal lines back when
they are used, so that showing or replaying a record takes memory for one game at a
time, whatever the file's size.  A record whose last line is cut off (its writer
stopped mid-line) is read up to that line (:attr:`Record.cut` names it).
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any, TextIO

from chupai.cards import RANKS
from chupai.guandan.protocol._adapter import SEATS, Ask, Notify, ProtocolGame, action_key, replay_game
from chupai.guandan.protocol.shapes import check_action, check_card, is_int

__all__ = [
    "FORMAT",
    "MAX_LINE",
    "OverLimit",
    "Record",
    "check_line",
    "game_deals",
    "header_line",
    "iter_frames",
    "load_match",
    "parse_record",
    "print_record",
    "read_record",
    "replay_frames",
    "write_frames_json",
]

FORMAT = "chupai-guandan-record"
VERSION = 1
#: the longest record line a reader takes, in bytes (a deal line is a few kB)
MAX_LINE = 1 << 20
#: the level ranks a deal line's ``level`` may hold
_LEVEL_RANKS = frozenset(RANKS)
#: a deal's ``result``
_RESULTS = frozenset({"1-2", "1-3", "1-4"})


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


def _parse_row(row: str | bytes, where: str) -> dict[str, Any]:
    """One line of a record: a JSON object with a ``type`` (``ValueError`` naming ``where``)."""
    try:
        line = json.loads(row, parse_constant=_no_constant, parse_float=_finite)
    except RecursionError:
        raise ValueError(f"{where}: nested too deeply") from None
    except ValueError as e:  # json.JSONDecodeError, UnicodeDecodeError and the number checks
        raise ValueError(f"{where}: not a JSON line: {e}") from None
    if not isinstance(line, dict) or not isinstance(line.get("type"), str):
        raise ValueError(f"{where}: a record line is an object with a 'type'")
    return line


def parse_record(text: str, source: str = "record") -> list[dict[str, Any]]:
    """The lines of a record's text (see :func:`read_record`); ``source`` names it in errors."""
    return [_parse_row(row, f"{source}:{n}") for n, row in enumerate(text.splitlines(), 1) if row.strip()]


def read_record(path: str | Path) -> list[dict[str, Any]]:
    """The lines of a record file, all in memory (:meth:`Record.open` streams a large
    one); ``ValueError`` naming the line that is not JSON (or not an object with a
    ``type``)."""
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


def _one_of(values: frozenset[str]) -> Any:
    def check(v: Any, where: str) -> None:
        if v not in values:
            raise ValueError(f"{where}: expected one of {', '.join(sorted(values))}, not {v!r}"[:200])
    return check


def _rest_cards(v: Any, where: str) -> None:
    for i, entry in enumerate(_list(v, where)):
        seat, cards = _list(entry, f"{where}[{i}]", 2)
        _int(seat, f"{where}[{i}][0]", 0, SEATS - 1)
        for j, c in enumerate(_list(cards, f"{where}[{i}][1]")):
            check_card(c, f"{where}[{i}][1][{j}]")


_FIELDS: dict[str, dict[str, Any]] = {
    "header": {"games": _int, "seed": _int, "tables": _int, "seats": _strs, "rules": _str},
    "deal": {"table": _int, "game": lambda v, w: _int(v, w, 1), "deal": _int,
             "levels": _levels, "level": _one_of(_LEVEL_RANKS), "previous": _optional(lambda v, w: _seats(v, w, -1)), "hands": _hands,
             "handsAfterTribute": _hands, "tribute": _transfers, "back": _transfers,
             "antiTribute": _optional(_seats), "leader": lambda v, w: _int(v, w, 0, SEATS - 1),
             "actions": _actions, "order": _seats, "result": _one_of(_RESULTS), "levelsAfter": _levels,
             "restCards": _rest_cards},
    "game": {"table": _int, "game": lambda v, w: _int(v, w, 1),
             "winner": _optional(lambda v, w: _int(v, w, 0, 1)), "deals": _int, "names": _names},
    "abort": {"table": _int, "reason": _str, "names": _names},
}
#: fields a line may lack (a header's, and an abort line's game before any game started)
_OPTIONAL: dict[str, dict[str, Any]] = {
    "deal": {"matchSeed": _seed},
    "game": {"matchSeed": _seed},
    "abort": {"game": lambda v, w: _int(v, w, 1), "deal": _int, "matchSeed": _seed, "actions": _actions},
}


def check_line(line: dict[str, Any], where: str = "record") -> None:
    """``ValueError`` unless every field the readers use of ``line`` (a header, deal,
    game or abort line; other types are ignored) is present with its shape (a
    header's fields, ``matchSeed``, and an abort line's ``game``, ``deal`` and
    ``actions`` may be missing, and are checked when present)."""
    kind = line.get("type")
    optional = _OPTIONAL.get(kind, {})  # type: ignore[arg-type]
    for name, check in [*_FIELDS.get(kind, {}).items(), *optional.items()]:  # type: ignore[arg-type]
        if name in line:
            check(line[name], f"{where}: {kind}.{name}")
        elif kind != "header" and name not in optional:
            raise ValueError(f"{where}: a {kind} line has no {name!r}")


class Record:
    """A record's lines as the readers use them: the header, the deal lines of each
    game (kept, or read back from the file when used), each game's result line, the
    abort lines (without the actions they carry).

    :meth:`open` reads a file in one streaming pass, :meth:`from_lines` takes lines in
    memory; either checks every line (:func:`check_line`, ``ValueError`` naming it).
    """

    def __init__(self, source: str) -> None:
        #: what errors name (the file's path, or ``"record"``)
        self.source = source
        #: the header line (``None`` if the record has none)
        self.header: dict[str, Any] | None = None
        #: ``(table, game)`` -> that game's ``game`` line
        self.results: dict[tuple[int, int], dict[str, Any]] = {}
        #: the ``abort`` lines, in record order, without their ``actions``
        self.aborts: list[dict[str, Any]] = []
        #: the seat names of the first ``game`` line (``None`` before one)
        self.names: list[str] | None = None
        #: the number of lines read (blank ones included)
        self.lines = 0
        #: the number of the last line when it was cut off mid-line and left out, else ``None``
        self.cut: int | None = None
        #: ``(table, game)`` -> ``(deal, line or offset in the file)`` of its deal lines
        self._deals: dict[tuple[int, int], list[tuple[int, Any]]] = {}
        self._path: Path | None = None

    @classmethod
    def from_lines(cls, lines: Iterable[dict[str, Any]]) -> Record:
        """The record of ``lines`` (parsed lines, e.g. :func:`read_record`'s)."""
        record = cls("record")
        for n, line in enumerate(lines, 1):
            if not isinstance(line, dict) or not isinstance(line.get("type"), str):
                raise ValueError(f"record line {n}: a record line is an object with a 'type'")
            check_line(line, f"record line {n}")
            record._take(line, line)
            record.lines = n
        return record

    @classmethod
    def open(cls, path: str | Path) -> Record:
        """The record in file ``path``, read line by line: memory for its index only
        (a few numbers per deal).  A last line that is cut off (no newline, not JSON) is
        left out and named in :attr:`cut`; a line over :data:`MAX_LINE` bytes, or any
        other malformed line, is a ``ValueError`` naming it."""
        record = cls(str(path))
        record._path = Path(path)
        with open(path, "rb") as f:
            while True:
                offset = f.tell()
                row = f.readline(MAX_LINE + 1)
                if not row:
                    break
                record.lines += 1
                where = f"{path}:{record.lines}"
                if len(row) > MAX_LINE:
                    raise ValueError(f"{where}: a line over {MAX_LINE} bytes is not a record line")
                if not row.strip():
                    continue
                try:
                    line = _parse_row(row, where)
                except ValueError:
                    if row.endswith(b"\n"):
                        raise
                    record.cut = record.lines  # the writer stopped mid-line
                    break
                check_line(line, where)
                record._take(line, offset)
        return record

    def _take(self, line: dict[str, Any], ref: Any) -> None:
        kind = line["type"]
        if kind == "header" and self.header is None:
            self.header = line
        elif kind == "deal":
            self._deals.setdefault((line["table"], line["game"]), []).append((line["deal"], ref))
        elif kind == "game":
            self.results[line["table"], line["game"]] = line
            if self.names is None:
                self.names = line["names"]
        elif kind == "abort":
            self.aborts.append({k: v for k, v in line.items() if k != "actions"})

    def tables(self) -> list[int]:
        """The tables with at least one deal line, in order."""
        return sorted({t for t, _ in self._deals})

    def games(self, table: int | None = None) -> list[tuple[int, int]]:
        """The ``(table, game)`` pairs of ``table`` (default: the first) that have deals."""
        keys = sorted(self._deals)
        if table is None and keys:
            table = keys[0][0]
        return [k for k in keys if k[0] == table]

    def deals(self, table: int, game: int) -> list[dict[str, Any]]:
        """The deal lines of one game, in deal order (read back from the file)."""
        refs = sorted(self._deals.get((table, game), []), key=lambda r: int(r[0]))
        if self._path is None:
            return [line for _, line in refs]
        out = []
        with open(self._path, "rb") as f:
            for _, offset in refs:
                f.seek(offset)
                out.append(_parse_row(f.readline(MAX_LINE + 1), f"{self.source} (byte {offset})"))
        return out


def _record(lines: Iterable[dict[str, Any]] | Record) -> Record:
    return lines if isinstance(lines, Record) else Record.from_lines(lines)


def game_deals(lines: Iterable[dict[str, Any]] | Record, table: int = 0, game: int = 1) -> list[dict[str, Any]]:
    """The deal lines of one game, in order (``ValueError`` if a line is malformed)."""
    return _record(lines).deals(table, game)


def load_match(lines: Iterable[dict[str, Any]] | Record, table: int = 0, game: int = 1) -> Any:
    """The ``Match`` of game ``game`` of table ``table``, every recorded action applied.

    ``ValueError`` if the record has no such game or does not replay.
    """
    deals = game_deals(lines, table, game)
    if not deals:
        raise ValueError(f"the record has no deal of table {table} game {game}")
    return replay_game(deals)


def iter_frames(record: Record, table: int | None = None, hands: bool = True) -> Iterator[dict[str, Any]]:
    """The view's snapshots of a record's table (default: the first), one per decision
    and one per deal end, by replaying every game through :class:`ProtocolGame`, one
    game at a time.

    Every game is checked as :func:`load_match` checks it (``ValueError``).
    """
    names = record.names or ["0", "1", "2", "3"]
    games = int(record.header.get("games", 1)) if record.header is not None else 1
    for t, g in record.games(table):
        deals = record.deals(t, g)
        if deals[0].get("matchSeed") is None:
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
                yield pg.snapshot(names, hands)
            elif isinstance(event, Notify) and event.message["stage"] == "episodeOver":
                yield pg.snapshot(names, hands)
        if at < len(actions):
            raise ValueError(f"table {t} game {g}: {len(actions) - at} recorded actions left over")


def replay_frames(lines: Iterable[dict[str, Any]] | Record, table: int | None = None, hands: bool = True
                  ) -> list[dict[str, Any]]:
    """:func:`iter_frames` as a list."""
    return list(iter_frames(_record(lines), table, hands))


class OverLimit(ValueError):
    """The JSON of a replay is larger than the limit it was written under."""


def write_frames_json(record: Record, out: IO[bytes], table: int | None = None, limit: int | None = None) -> int:
    """Write the JSON array of :func:`iter_frames` to ``out`` frame by frame; the bytes
    written.  :class:`OverLimit` as soon as it would pass ``limit`` bytes."""
    written = 0
    for i, frame in enumerate(iter_frames(record, table, hands=True)):
        chunk = (b"," if i else b"[") + json.dumps(frame, separators=(",", ":")).encode()
        written += len(chunk)
        if limit is not None and written + 1 > limit:
            raise OverLimit(f"the replay is over {limit} bytes")
        out.write(chunk)
    out.write(b"]" if written else b"[]")
    return written + (1 if written else 2)


def _cards_text(cards: Iterable[str]) -> str:
    """Protocol cards (suit first: ``S2``) in chupai's notation (rank first: ``2S``), as
    ``chupai plays`` and ``Cards`` read them."""
    from chupai.cards import face_name
    from chupai.guandan.play import parse_protocol_card

    return " ".join(face_name(parse_protocol_card(c)) for c in cards)


def _action_text(action: Any) -> str:
    if isinstance(action, list) and len(action) == 3:
        if action[0] == "PASS":
            return "pass"
        return f"{action[0]} {action[1]} {_cards_text(action[2])}"
    return str(action)


def print_record(lines: Iterable[dict[str, Any]] | Record, out: TextIO, table: int | None = None,
                 hands: bool = False) -> None:
    """A record in readable text: each deal's levels, tribute, tricks and result, and
    the reason of a table that ended early (``ValueError`` if a line is malformed).  The
    cards are in chupai's notation, rank first (``2S``, as ``chupai plays`` reads them),
    not the record's protocol spelling (``S2``)."""
    record = _record(lines)
    head = record.header
    if head is not None:
        out.write(f"record of {head.get('tables', '?')} table(s) x {head.get('games', '?')} game(s), "
                  f"seed {head.get('seed', '?')}, seats {','.join(head.get('seats', ['?']))}, "
                  f"rules {head.get('rules', '?')}\n")
    for t, g in record.games(table):
        out.write(f"\n=== table {t} game {g}\n")
        for d in record.deals(t, g):
            out.write(f"\n-- deal {d['deal']}: level {d['level']} (team 0 at {d['levels'][0]}, "
                      f"team 1 at {d['levels'][1]}), leader seat {d['leader']}\n")
            if hands:
                for s, h in enumerate(d["handsAfterTribute"]):
                    out.write(f"   seat {s}: {_cards_text(h)}\n")
            if d.get("antiTribute"):
                out.write(f"   tribute resisted by seat(s) {d['antiTribute']}\n")
            for p, r, c in d["tribute"]:
                out.write(f"   tribute: seat {p} -> seat {r}: {_cards_text([c])}\n")
            for r, p, c in d["back"]:
                out.write(f"   back: seat {r} -> seat {p}: {_cards_text([c])}\n")
            trick: list[str] = []
            for seat, stage, action in d["actions"]:
                if stage != "play":
                    continue
                trick.append(f"seat {seat}: {_action_text(action)}")
                if len(trick) >= 8:
                    out.write("   " + " | ".join(trick) + "\n")
                    trick = []
            if trick:
                out.write("   " + " | ".join(trick) + "\n")
            out.write(f"   result {d['result']}, order {d['order']}, levels after {d['levelsAfter']}\n")
        result = record.results.get((t, g))
        if result is not None:
            won = "a draw" if result["winner"] is None else f"won by team {result['winner']}"
            out.write(f"=== table {t} game {g}: {won} after {result['deals']} deals\n")
    for x in record.aborts:
        if table is None or x["table"] == table:
            where = f" in game {x['game']} deal {x['deal']}" if "game" in x else ""
            out.write(f"\n=== table {x['table']} ended early{where}: {x['reason']}\n")
