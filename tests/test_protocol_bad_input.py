"""Bad input to the protocol server: refused and logged, nothing else changes; a client
that leaves ends only its table; a fuzzing client does not bring the server down."""
from __future__ import annotations

import asyncio
import json
import logging
import random
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from chupai.guandan.protocol import Server, ServerConfig, read_record
from protocol_clients import Ws4pyBot, async_bot
from test_protocol_games import TIMEOUT, seated, start, ws4py_connect


SEED = 2


def _play(record: Path, junk: bool) -> Server:
    async def main() -> Server:
        server, task, url = await start(ServerConfig(port=0, games=1, seed=SEED, record=record,
                                                     seats=["remote", "greedy", "remote", "greedy"]))
        a = asyncio.create_task(async_bot(url + "a", "last", seed=1, junk=junk))
        await seated(server, 1)
        b = await ws4py_connect(url + "b", style="random", seed=2, junk=junk)
        status = await asyncio.wait_for(task, TIMEOUT)
        await a
        await asyncio.to_thread(b.done.wait, 10)
        assert b.failure is None, b.failure
        assert status == 0, f"the server exited {status}"
        return server

    return asyncio.run(main())


def test_bad_answers_are_refused_logged_and_change_nothing(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    clean = _play(tmp_path / "clean.jsonl", junk=False)
    assert clean.stats.refused == 0
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="chupai.guandan.protocol"):
        noisy = _play(tmp_path / "noisy.jsonl", junk=True)
    refused = [r.getMessage() for r in caplog.records if r.getMessage().startswith("refused from")]
    assert noisy.stats.refused == len(refused) > 0
    text = "\n".join(refused)
    for reason in ("malformed JSON", "out of range", "actIndex must be an int, not str",
                   "actIndex must be an int, not bool", "actIndex must be an int, not float",
                   'expected {"actIndex": i}'):
        assert reason in text, reason
    # the same answers after the junk: the very same game
    assert read_record(tmp_path / "clean.jsonl") == read_record(tmp_path / "noisy.jsonl")
    assert clean.stats.decisions == noisy.stats.decisions


def test_speaking_out_of_turn_is_refused_and_changes_nothing(caplog: pytest.LogCaptureFixture) -> None:
    """While one seat is asked, the three others send valid-looking answers: each is
    refused and logged, the table state stays as it was, and the asked seat's answer
    is then taken."""

    async def main() -> tuple[int, Server, int]:
        server, task, url = await start(ServerConfig(port=0, games=1, seed=3))
        sockets = []
        for i in range(4):
            sockets.append(await connect(url + f"s{i}", max_size=None))
            await seated(server, i + 1)
        inbox: asyncio.Queue[tuple[int, dict[str, Any]]] = asyncio.Queue()

        async def read(seat: int) -> None:
            try:
                async for raw in sockets[seat]:
                    await inbox.put((seat, json.loads(raw)))
            except ConnectionClosed:
                pass

        readers = [asyncio.create_task(read(s)) for s in range(4)]
        game = server.tables[0]
        checked = 0
        while checked < 12:
            seat, msg = await inbox.get()
            if msg["type"] != "act":
                continue
            assert game.game is not None
            before = (game.game.match.history, game.game.snapshot(game.names, hands=True))
            refused = server.stats.refused
            for other in range(4):
                if other != seat:
                    await sockets[other].send(json.dumps({"actIndex": 0}))
            while server.stats.refused < refused + 3:
                await asyncio.sleep(0.001)
            assert (game.game.match.history, game.game.snapshot(game.names, hands=True)) == before
            await sockets[seat].send(json.dumps({"actIndex": msg["indexRange"]}))
            checked += 1
        for ws in sockets:
            await ws.close()
        for r in readers:
            await r
        return await asyncio.wait_for(task, TIMEOUT), server, checked

    with caplog.at_level(logging.WARNING, logger="chupai.guandan.protocol"):
        status, server, checked = asyncio.run(main())
    assert server.stats.decisions >= checked and server.stats.refused == 3 * checked
    assert caplog.text.count("out of turn (this seat is not asked to act)") == 3 * checked
    assert status == 1  # the clients left before the end


def test_a_client_that_leaves_ends_its_table_only(caplog: pytest.LogCaptureFixture) -> None:
    class Leaver(Ws4pyBot):
        def received_message(self, message: Any) -> None:
            if json.loads(str(message))["type"] == "act" and self.book.acts >= 5:
                self.close()
                return
            super().received_message(message)

    async def main() -> tuple[int, Server, list[Any]]:
        server, task, url = await start(ServerConfig(port=0, games=1, seed=9, tables=2,
                                                     seats=["remote", "greedy", "remote", "greedy"]))
        leaver = Leaver(url + "leaver", style="random", seed=1)
        await asyncio.to_thread(leaver.connect)
        await seated(server, 1)
        rest = []
        for i in range(3):
            rest.append(asyncio.create_task(async_bot(url + f"c{i}", "first", seed=i)))
            await seated(server, i + 2)
        status = await asyncio.wait_for(task, TIMEOUT)
        return status, server, [await r for r in rest]

    with caplog.at_level(logging.INFO, logger="chupai.guandan.protocol"):
        status, server, books = asyncio.run(main())
    assert status == 1  # not every table played to the end
    text = caplog.text
    # one line says why, once
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == ["table 0 ended early: table 0 seat 0 (leaver) disconnected"]
    assert "table 1 done: victoryNum" in text
    assert books[0].result is None  # the leaver's partner: table 0 ended without a result
    assert books[1].result is not None and books[2].result is not None


def test_a_seat_freed_before_the_start_and_connections_beyond_the_seats() -> None:
    async def main() -> tuple[int, Server, Any]:
        server, task, url = await start(ServerConfig(port=0, games=1, seed=2,
                                                     seats=["remote", "greedy", "greedy", "remote"]))
        async with connect(url + "early"):
            await seated(server, 1)
        for _ in range(200):
            if not server.tables[0].remotes:
                break
            await asyncio.sleep(0.01)
        assert server.tables[0].remotes == {} and not server.tables[0].started
        a = asyncio.create_task(async_bot(url + "a", "first", seed=1))
        await seated(server, 1)
        b = asyncio.create_task(async_bot(url + "b", "first", seed=2))
        await seated(server, 2)
        async with connect(url + "late") as late:
            with pytest.raises(ConnectionClosed) as refused:
                await late.recv()
        status = await asyncio.wait_for(task, TIMEOUT)
        await a
        await b
        return status, server, refused.value

    status, server, refused = asyncio.run(main())
    assert status == 0 and server.tables[0].names == ["a", "greedy", "greedy", "b"]
    assert refused.rcvd is not None and refused.rcvd.code == 1013


def test_unknown_http_paths_are_404() -> None:
    async def main() -> None:
        server, task, url = await start(ServerConfig(port=0, seats=["greedy"] * 3 + ["remote"]))
        base = f"http://127.0.0.1:{server.port}"

        def get(path: str) -> int:
            try:
                with urllib.request.urlopen(base + path, timeout=10) as r:
                    return int(r.status)
            except urllib.error.HTTPError as e:
                return int(e.code)

        assert await asyncio.to_thread(get, "/etc/passwd") == 404
        assert await asyncio.to_thread(get, "/replay.json") == 404  # no record
        assert await asyncio.to_thread(get, "/") == 200
        bot = asyncio.create_task(async_bot(url + "x", "first"))
        assert await asyncio.wait_for(task, TIMEOUT) == 0
        await bot

    asyncio.run(main())


FUZZ_SECONDS = 3.0


def _junk(rng: random.Random, index_range: int) -> str | bytes:
    choices: list[Any] = [
        lambda: rng.randbytes(rng.randrange(0, 64)),
        lambda: "".join(chr(rng.randrange(1, 0x2FFF)) for _ in range(rng.randrange(0, 40))),
        lambda: json.dumps({"actIndex": rng.randrange(-10**6, 10**6)}),
        lambda: json.dumps({"actIndex": rng.choice([None, [], {}, "0", 0.0, True, 1e308, -0.0])}),
        lambda: json.dumps(rng.choice([[], {}, None, 0, "actIndex", [{"actIndex": 0}]])),
        lambda: json.dumps({"actIndex": index_range + rng.randrange(1, 5)}),
        lambda: '{"actIndex": ' + "9" * rng.randrange(1, 400) + "}",
        lambda: "[" * rng.randrange(1, 2000),
        lambda: json.dumps({"actIndex": 0, "x": "y" * rng.randrange(0, 60000)}),
    ]
    return str(rng.choice(choices)())


def test_a_fuzzing_client_does_not_bring_the_server_down() -> None:
    """For a bounded time a client sends random messages (and valid answers now and
    then); the server refuses the junk, and the other table plays to the end."""

    async def fuzzer(url: str, seed: int) -> int:
        rng = random.Random(seed)
        sent = 0
        loop = asyncio.get_running_loop()
        end = loop.time() + FUZZ_SECONDS
        async with connect(url, max_size=None) as ws:
            index_range = 0
            while loop.time() < end:
                try:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 0.01))
                    if msg["type"] == "act":
                        index_range = msg["indexRange"]
                        for _ in range(rng.randrange(0, 6)):
                            await ws.send(_junk(rng, index_range))
                            sent += 1
                        await ws.send(json.dumps({"actIndex": rng.randrange(index_range + 1)}))
                except (asyncio.TimeoutError, TimeoutError):
                    await ws.send(_junk(rng, index_range))
                    sent += 1
                except ConnectionClosed:
                    break
        return sent

    async def main() -> tuple[int, Server, int, Any]:
        server, task, url = await start(ServerConfig(port=0, games=1, seed=6, tables=2,
                                                     seats=["remote", "random", "random", "random"]))
        fuzz = asyncio.create_task(fuzzer(url + "fuzz", 1))
        await seated(server, 1)
        other = asyncio.create_task(async_bot(url + "steady", "first", seed=2))
        sent = await fuzz
        status = await asyncio.wait_for(task, TIMEOUT)
        return status, server, sent, await other

    status, server, sent, book = asyncio.run(main())
    assert sent > 50 and server.stats.refused > 0
    assert book.result is not None  # the other table played to the end
    assert server.tables[0].done and server.tables[1].done
    assert status in (0, 1)  # 1 when the fuzzer left before its game ended
