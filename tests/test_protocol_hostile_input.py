"""Hostile input to the record readers and to ``chupai join``: a clear ``ValueError``
(``chupai: error:``, exit status 2, on the command line), never another exception, a
size limit on server messages and a timeout on a silent server.  Loopback only."""
from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve

from chupai.cli import main
from chupai.guandan.protocol import ServerConfig, load_match, print_record, read_record, replay_frames
from chupai.guandan.protocol.client import MAX_SERVER_MESSAGE
from test_protocol_games import TIMEOUT, start

BOTS = ["greedy", "random", "greedy", "random"]


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    path = tmp_path_factory.mktemp("rec") / "r.jsonl"

    async def play() -> None:
        _, task, _ = await start(ServerConfig(port=0, games=1, seed=5, record=path, seats=BOTS))
        assert await asyncio.wait_for(task, TIMEOUT) == 0

    asyncio.run(play())
    return read_record(path)


def _deal(lines: list[dict[str, Any]]) -> dict[str, Any]:
    return next(x for x in lines if x["type"] == "deal")


BAD_TEXT = ["[" * 100000, '{"type": "deal", "x": 1e400}', '{"type": "deal", "x": NaN}', "[1, 2]", '{"no": "type"}']


@pytest.mark.parametrize("text", BAD_TEXT, ids=["nesting", "1e400", "nan", "list", "no-type"])
def test_unreadable_records_are_a_value_error_and_exit_2(tmp_path: Path, text: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(text + "\n")
    with pytest.raises(ValueError, match="bad.jsonl:1"):
        read_record(path)
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err.startswith("chupai: error: ")


def _mutations() -> Iterator[tuple[str, Any]]:
    yield "matchSeed", 1.5
    yield "actions", [[0, "play", "x"]]
    yield "actions", [[9, "play", ["PASS", "PASS", "PASS"]]]
    yield "actions", "nope"
    yield "hands", [["S2"]]
    yield "leader", 7
    yield "table", "0"
    yield "order", None


@pytest.mark.parametrize(("field", "value"), list(_mutations()))
def test_malformed_deal_lines_are_a_value_error_in_every_reader(record: list[dict[str, Any]], field: str,
                                                                value: Any) -> None:
    lines = json.loads(json.dumps(record))
    _deal(lines)[field] = value
    for reader in (load_match, replay_frames, lambda x: print_record(x, open("/dev/null", "w"))):
        with pytest.raises(ValueError):
            reader(lines)


def test_a_missing_field_is_named(record: list[dict[str, Any]]) -> None:
    lines = json.loads(json.dumps(record))
    del _deal(lines)["actions"]
    with pytest.raises(ValueError, match="no 'actions'"):
        replay_frames(lines)


def test_replay_frames_checks_what_load_match_checks(record: list[dict[str, Any]]) -> None:
    lines = json.loads(json.dumps(record))
    _deal(lines)["levelsAfter"] = ["A", "A"]  # the actions still replay, the result does not
    with pytest.raises(ValueError, match="order or levels"):
        load_match(lines)
    with pytest.raises(ValueError, match="order or levels"):
        replay_frames(lines)


def hostile_server(messages: list[str]) -> tuple[int, threading.Event]:
    """A server on loopback that sends ``messages`` to a client, then stays silent."""
    ready, stop, port = threading.Event(), threading.Event(), [0]

    async def handler(ws: ServerConnection) -> None:
        for m in messages:
            await ws.send(m)
        await asyncio.to_thread(stop.wait, 30)

    async def run() -> None:
        async with serve(handler, "127.0.0.1", 0, max_size=None) as server:
            port[0] = next(iter(server.sockets)).getsockname()[1]
            ready.set()
            await asyncio.to_thread(stop.wait, 30)

    threading.Thread(target=lambda: asyncio.run(run()), daemon=True).start()
    ready.wait(10)
    return port[0], stop


ACT = {"type": "act", "stage": "play", "handCards": ["S2"], "publicInfo": [{"rest": 1, "playArea": None}] * 4,
       "selfRank": "2", "oppoRank": "2", "curRank": "2", "curPos": -1, "curAction": None, "greaterPos": -1,
       "greaterAction": None, "actionList": [["Single", "2", ["S2"]]], "indexRange": 0}
HOSTILE = {
    "nesting": ["[" * 100000 + "]" * 100000],
    "no-actionList": [json.dumps({k: v for k, v in ACT.items() if k != "actionList"})],
    "myPos-99": [json.dumps({"type": "notify", "stage": "beginning", "handCards": ["S2"], "myPos": 99})],
    "huge": ["x" * (MAX_SERVER_MESSAGE + 1)],
    "silent": [],
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_join_against_a_hostile_server_is_a_clear_error(case: str, capsys: pytest.CaptureFixture[str]) -> None:
    port, stop = hostile_server(HOSTILE[case])
    try:
        status = main(["join", f"ws://127.0.0.1:{port}/game/me", "--timeout", "1", "--quiet"])
    finally:
        stop.set()
    err = capsys.readouterr().err
    assert status == 2 and err.startswith("chupai: error: ") and err.count("\n") == 1, err
