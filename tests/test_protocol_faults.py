"""Hostile and unlucky peers of the protocol server, timed, with real websocket clients
on loopback: a player that never answers, a player or viewer that stops reading, a
client that keeps sending refused messages, ``/replay.json`` on a live record, the
optional token.  Every case is bounded (a few seconds with the short timeouts set here).
"""
from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from chupai.guandan.protocol import ServerConfig, read_record, replay_frames
from chupai.guandan.protocol.server import MOVE_TIMEOUT, exposure_warning
from chupai.guandan.protocol.view import ReplaySource, http_response
from protocol_clients import async_bot
from test_protocol_games import TIMEOUT, seated, start

BOTS = ["greedy", "random", "greedy", "random"]


def stalled_socket(port: int, path: str) -> socket.socket:
    """A websocket client that completes the handshake and then never reads (a tiny
    receive buffer, so that what the server sends piles up on its side)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)  # the 101 answer only, byte by byte: nothing after it is read
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closed ``sock`` (read what piled up, then EOF or a reset)."""
    sock.settimeout(5)
    end = time.monotonic() + 10
    try:
        while sock.recv(1 << 16):
            if time.monotonic() > end:
                return False  # still fed: not closed
    except ConnectionResetError:
        pass
    except TimeoutError:
        return False
    return True


async def until(check: Any, seconds: float, what: str) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not check():
        assert loop.time() < end, what
        await asyncio.sleep(0.02)


def test_the_move_timeout_has_a_competition_default() -> None:
    assert ServerConfig().move_timeout == MOVE_TIMEOUT == 30.0
    assert ServerConfig(move_timeout=None).move_timeout is None
    with pytest.raises(ValueError, match="move_timeout"):
        ServerConfig(move_timeout=0)


def test_a_silent_player_is_dropped_after_the_move_timeout_and_the_record_says_why(tmp_path: Path) -> None:
    """A client that answers pings but never an ``act``: closed (1008) once the move
    timeout passes, its table ends with an abort line (the deal in progress as far as
    it went); a second table plays on to its end."""
    record = tmp_path / "r.jsonl"

    async def main() -> tuple[int, int | None, float, list[int]]:
        server, task, url = await start(ServerConfig(port=0, games=1, seed=4, tables=2, record=record,
                                                     move_timeout=1.0, seats=["remote", "greedy", "random", "greedy"]))
        silent = await connect(url + "silent")
        await seated(server, 1)
        # table 1's seat 0 is a client that plays (it has to take the next free seat)
        player = asyncio.create_task(async_bot(url + "player", "first"))
        await seated(server, 2)
        t0 = time.perf_counter()
        await asyncio.wait_for(silent.wait_closed(), 10)
        waited = time.perf_counter() - t0
        status = await asyncio.wait_for(task, TIMEOUT)
        await player
        return status, silent.close_code, waited, [int(t._aborted is None) for t in server.tables]

    status, code, waited, complete = asyncio.run(main())
    assert code == 1008 and waited < 5
    assert status == 1 and complete == [0, 1]
    lines = read_record(record)
    abort = [x for x in lines if x["type"] == "abort"]
    assert len(abort) == 1 and abort[0]["table"] == 0 and "did not answer within 1 s" in abort[0]["reason"]
    assert abort[0]["game"] == 1 and abort[0]["deal"] == 0 and isinstance(abort[0]["actions"], list)
    assert any(x["type"] == "game" and x["table"] == 1 for x in lines)  # table 1 played to its end


def test_a_player_that_stops_reading_is_closed_and_only_its_table_ends(tmp_path: Path) -> None:
    record = tmp_path / "r.jsonl"

    async def main() -> tuple[int, bool, list[bool]]:
        server, task, url = await start(ServerConfig(port=0, games=1, seed=6, tables=2, record=record,
                                                     move_timeout=1.5, send_timeout=1.0,
                                                     seats=["remote", "greedy", "random", "greedy"]))
        sock = await asyncio.to_thread(stalled_socket, server.port, "/game/stalled")
        await seated(server, 1)
        player = asyncio.create_task(async_bot(url + "player", "first"))
        closed = await asyncio.to_thread(closed_by_server, sock)
        sock.close()
        status = await asyncio.wait_for(task, TIMEOUT)
        await player
        return status, closed, [t._aborted is None for t in server.tables]

    status, closed, complete = asyncio.run(main())
    assert closed and status == 1 and complete == [False, True]
    assert [x["table"] for x in read_record(record) if x["type"] == "abort"] == [0]


class FakeViewer:
    """A ``/watch`` connection: one that takes every message, or one whose sends never
    finish (a viewer that stopped reading, its buffers full)."""

    def __init__(self, stuck: bool) -> None:
        self.stuck = stuck
        self.got: list[float] = []
        self.remote_address = ("127.0.0.1", 1)
        self.gone = asyncio.Event()
        self.transport = self

    def abort(self) -> None:
        self.gone.set()

    async def send(self, text: str) -> None:
        if self.stuck:
            await asyncio.Event().wait()
        self.got.append(time.perf_counter())

    def __aiter__(self) -> FakeViewer:
        return self

    async def __anext__(self) -> str:
        await self.gone.wait()
        raise StopAsyncIteration


def test_a_viewer_that_stops_reading_never_delays_another() -> None:
    """A viewer whose sends never finish is dropped at the send deadline, while another
    viewer keeps getting every update at the usual pace (each viewer has its own sender
    and at most one pending snapshot per table)."""
    from chupai.guandan.protocol.view import UPDATE_INTERVAL, LiveView

    async def main() -> tuple[list[float], int, bool]:
        view = LiveView(lambda t: {"table": t, "n": time.perf_counter()}, 2, send_timeout=0.5)
        runner = asyncio.create_task(view.run())
        stuck, good = FakeViewer(True), FakeViewer(False)
        watchers = [asyncio.create_task(view.watch(c)) for c in (stuck, good)]  # type: ignore[arg-type]
        end = time.perf_counter() + 2
        while time.perf_counter() < end:
            view.touch(0)
            await asyncio.sleep(0.02)
        good.gone.set()
        runner.cancel()
        await asyncio.gather(runner, *watchers, return_exceptions=True)
        return good.got, view.dropped, stuck.gone.is_set()

    got, dropped, aborted = asyncio.run(main())
    gaps = [b - a for a, b in zip(got, got[1:])]
    assert len(got) > 1 / UPDATE_INTERVAL and max(gaps) < 4 * UPDATE_INTERVAL, gaps
    assert dropped == 1 and aborted


def test_a_client_that_keeps_sending_refused_messages_is_disconnected(caplog: pytest.LogCaptureFixture) -> None:
    async def main() -> tuple[int | None, int]:
        server, task, url = await start(ServerConfig(port=0, games=1, seed=2, max_refused=20,
                                                     seats=["remote", "greedy", "greedy", "greedy"]))
        async with connect(url + "flood") as ws:
            try:
                for _ in range(2000):
                    await ws.send("junk " * 20)
                    await asyncio.sleep(0)
                await asyncio.wait_for(ws.wait_closed(), 5)
            except ConnectionClosed:
                pass
        await asyncio.wait_for(task, TIMEOUT)
        return ws.close_code, server.stats.refused

    with caplog.at_level(logging.WARNING, logger="chupai.guandan.protocol"):
        code, refused = asyncio.run(main())
    assert code == 1008
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("refused from")]
    assert refused == len(lines) and 20 <= refused < 100
    assert max(len(line) for line in lines) < 400  # the message itself is cut to 80 characters


class StallProbe:
    """The longest the event loop it runs on was held up (seconds past a 10 ms sleep)
    until :meth:`stop`."""

    def __init__(self) -> None:
        self.stall = 0.0
        self._done = asyncio.Event()
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while not self._done.is_set():
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            self.stall = max(self.stall, time.perf_counter() - t - 0.01)

    async def stop(self) -> float:
        self._done.set()
        await self._task
        return self.stall


def fetch(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def test_replay_json_on_a_live_record_is_complete_and_never_stalls_the_tables(tmp_path: Path) -> None:
    """Table 0 (bots, fast) has played its games into the record; while table 1 plays on,
    three requests at once are answered with complete JSON (the frames of table 0),
    built off the event loop (once per change of the record); the loop never stalls."""
    record = tmp_path / "r.jsonl"

    async def main() -> tuple[list[tuple[int, bytes]], float, int, int, int]:
        server, task, _ = await start(ServerConfig(port=0, games=1, seed=3, tables=2, record=record, seats=BOTS))
        slow = server.tables[1]
        slow_pace = asyncio.Event()  # table 1 keeps playing slowly: it waits on every decision
        original = slow._ask

        async def paced(ask: Any) -> int:
            await asyncio.sleep(0.01)
            return await original(ask)

        slow._ask = paced  # type: ignore[method-assign]
        await until(lambda: server.tables[0].done, TIMEOUT, "table 0 did not finish")
        prober = StallProbe()
        before = server.stats.decisions
        url = f"http://127.0.0.1:{server.port}/replay.json"
        answers = await asyncio.gather(*(asyncio.to_thread(fetch, url) for _ in range(3)))
        played = server.stats.decisions - before
        slow_pace.set()
        stall = await prober.stop()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        assert server.replay is not None
        return answers, stall, played, server.replay.builds, server.stats.decisions

    answers, stall, played, builds, _ = asyncio.run(main())
    expected = replay_frames([x for x in read_record(record) if x.get("table", 0) == 0 or x["type"] == "header"],
                             table=0)
    for status, body in answers:
        assert status == 200
        assert json.loads(body) == json.loads(json.dumps(expected))
    assert played > 0, "table 1 did not play while the replay was built"
    assert stall < 0.5, f"the event loop stalled {stall:.2f} s"
    assert 1 <= builds <= 3


def test_replay_json_over_the_cap_is_refused_whole(tmp_path: Path) -> None:
    record = tmp_path / "r.jsonl"

    async def main() -> None:
        _, task, _ = await start(ServerConfig(port=0, games=1, seed=2, record=record, seats=BOTS))
        assert await asyncio.wait_for(task, TIMEOUT) == 0

    asyncio.run(main())
    response = asyncio.run(http_response("/replay.json", ReplaySource(record, limit=5000, wait=TIMEOUT)))
    assert response is not None and response.status_code == 413
    assert "over the 5000-byte cap" in json.loads(response.body)["error"]
    whole = asyncio.run(http_response("/replay.json", ReplaySource(record, wait=TIMEOUT)))
    assert whole is not None and whole.status_code == 200
    assert json.loads(whole.body) == json.loads(json.dumps(replay_frames(read_record(record))))


def test_the_shared_token_guards_seats_viewers_and_the_record(tmp_path: Path) -> None:
    record = tmp_path / "r.jsonl"

    async def main() -> tuple[int, int, int, int]:
        server, task, url = await start(ServerConfig(port=0, games=1, seed=1, token="s3cret", record=record,
                                                     seats=["remote", "greedy", "greedy", "greedy"]))
        base = f"ws://127.0.0.1:{server.port}"
        refused = []
        for path in ("/game/nope", "/game/nope?token=wrong", "/watch"):
            with pytest.raises(InvalidStatus) as e:
                async with connect(base + path):
                    pass
            refused.append(e.value.response.status_code)
        status, _ = await asyncio.to_thread(fetch, f"http://127.0.0.1:{server.port}/replay.json")
        page, _ = await asyncio.to_thread(fetch, f"http://127.0.0.1:{server.port}/")
        async with connect(base + "/watch?token=s3cret") as viewer:
            await viewer.recv()
        player = asyncio.create_task(async_bot(url + "me?token=s3cret", "first"))
        await seated(server, 1)
        player.cancel()  # seated with the token; leaving ends the table
        code = await asyncio.wait_for(task, TIMEOUT)
        assert refused == [403, 403, 403]
        return status, page, code, len(server.tables[0].names[0])

    status, page, code, _ = asyncio.run(main())
    assert status == 403 and page == 200 and code == 1


def test_a_server_beyond_loopback_warns_that_there_is_no_authentication() -> None:
    assert exposure_warning("127.0.0.1", None) is None and exposure_warning("::1", None) is None
    assert exposure_warning("localhost", None) is None
    warning = exposure_warning("0.0.0.0", None)
    assert warning is not None and "no authentication" in warning
    assert "shared token" in (exposure_warning("192.168.1.5", "t") or "")
