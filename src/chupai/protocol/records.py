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
  ``matchSeed``, ``winner`` (team or null for a draw), ``deals``, ``falls``, ``names``.

Lines of different tables interleave.  :func:`load_match` loads a game back into a
:class:`chupai.guandan.Match` (every action re-applied and checked).
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

from chupai.protocol._adapter import Ask, Notify, ProtocolGame, action_key, replay_game

__all__ = [
    "FORMAT",
    "game_deals",
    "header_line",
    "load_match",
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


def read_record(path: str | Path) -> list[dict[str, Any]]:
    """The lines of a record file; ``ValueError`` naming the line that is not JSON."""
    out = []
    with open(path, encoding="utf-8") as f:
        for n, text in enumerate(f, 1):
            if not text.strip():
                continue
            try:
                line = json.loads(text)
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}:{n}: not a JSON line: {e}") from None
            if not isinstance(line, dict) or "type" not in line:
                raise ValueError(f"{path}:{n}: a record line is an object with a 'type'")
            out.append(line)
    return out


def game_deals(lines: Iterable[dict[str, Any]], table: int = 0, game: int = 1) -> list[dict[str, Any]]:
    """The deal lines of one game, in order."""
    deals = [d for d in lines if d.get("type") == "deal" and d.get("table") == table and d.get("game") == game]
    deals.sort(key=lambda d: int(d["deal"]))
    return deals


def load_match(lines: Iterable[dict[str, Any]], table: int = 0, game: int = 1) -> Any:
    """The ``Match`` of game ``game`` of table ``table``, every recorded action applied.

    ``ValueError`` if the record has no such game or does not replay.
    """
    deals = game_deals(lines, table, game)
    if not deals:
        raise ValueError(f"the record has no deal of table {table} game {game}")
    return replay_game(deals)


def _games(lines: Sequence[dict[str, Any]], table: int | None) -> list[tuple[int, int]]:
    keys = sorted({(int(d["table"]), int(d["game"])) for d in lines if d.get("type") == "deal"})
    if table is None and keys:
        table = keys[0][0]
    return [k for k in keys if k[0] == table]


def replay_frames(lines: Sequence[dict[str, Any]], table: int | None = None, hands: bool = True
                  ) -> list[dict[str, Any]]:
    """The view's snapshots of a record's table (default: the first), one per decision
    and one per deal end, by replaying every game through :class:`ProtocolGame`."""
    frames: list[dict[str, Any]] = []
    names = next((d["names"] for d in lines if d.get("type") == "game"), ["0", "1", "2", "3"])
    games = next((int(d["games"]) for d in lines if d.get("type") == "header"), 1)
    for t, g in _games(lines, table):
        deals = game_deals(lines, t, g)
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
    """A record in readable text: each deal's levels, tribute, tricks and result."""
    head = next((d for d in lines if d.get("type") == "header"), None)
    if head is not None:
        out.write(f"record of {head['tables']} table(s) x {head['games']} game(s), seed {head['seed']}, "
                  f"seats {','.join(head['seats'])}, rules {head['rules']}\n")
    for t, g in _games(lines, table):
        out.write(f"\n=== table {t} game {g}\n")
        for d in game_deals(lines, t, g):
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
        result = next((x for x in lines if x.get("type") == "game" and x["table"] == t and x["game"] == g), None)
        if result is not None:
            won = "a draw" if result["winner"] is None else f"won by team {result['winner']}"
            out.write(f"=== table {t} game {g}: {won} after {result['deals']} deals\n")
