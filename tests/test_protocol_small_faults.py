"""The server's small faults, with real websocket clients on loopback: no unretrieved
future after a move timeout, one copy of the pending request however often a client
reconnects with the same stale count, ASCII digits only in ``received``, and refused seat
tokens logged at a bounded rate."""
from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from chupai.guandan.protocol import ServerConfig
from test_protocol_games import TIMEOUT, _port, _serve, start
from test_protocol_reconnect import SEATS, first_act


async def drain(ws: ClientConnection, quiet: float = 0.5) -> list[dict[str, Any]]:
    """The messages ``ws`` gets until it is quiet for ``quiet`` seconds."""
    out = []
    while True:
        try:
            out.append(json.loads(await asyncio.wait_for(ws.recv(), quiet)))
        except TimeoutError:
            return out


def test_a_move_timeout_leaves_no_unretrieved_future() -> None:
    """``chupai serve`` drops a client that never answers: its log says why, and has no
    "Future exception was never retrieved"."""
    proc = _serve("--move-timeout", "0.5", "--seats", "remote,greedy,greedy,greedy")
    log: list[str] = []
    try:
        port = _port(proc, log)

        async def silent() -> None:
            async with connect(f"ws://127.0.0.1:{port}/game/silent") as ws:
                with pytest.raises(ConnectionClosed):
                    while True:
                        await asyncio.wait_for(ws.recv(), TIMEOUT)

        asyncio.run(silent())
        _, err = proc.communicate(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    text = "".join(log) + err
    assert proc.returncode == 1 and "did not answer within 0.5 s" in text, text
    assert "never retrieved" not in text and "Traceback" not in text, text


def test_reconnecting_with_the_same_stale_count_gets_the_request_once() -> None:
    """A client that had the request, lost its answer, and reconnects twice with the
    count it had: the request is sent again once each time, never piled up."""

    async def main() -> list[list[dict[str, Any]]]:
        server, task, url = await start(ServerConfig(port=0, games=1, seed=4, seats=SEATS, reconnect_grace=20))
        ws = await connect(url + "me")
        n, token, act = await first_act(ws)
        ws.transport.abort()
        got = []
        for _ in range(3):
            await asyncio.sleep(0.1)  # the server has seen the connection end
            again = await connect(url + f"me?seatToken={token}&received={n}")
            got.append(await drain(again))
            again.transport.abort()
        server.stop("the test is over")
        await asyncio.wait_for(task, TIMEOUT)
        assert all(m == act for batch in got for m in batch)
        return got

    got = asyncio.run(main())
    assert [len(batch) for batch in got] == [1, 1, 1]


def test_received_takes_ascii_digits_only() -> None:
    """``received=１`` (a full-width digit) is no count: the client gets the deal from its
    ``beginning``, as without one; ``received=1`` resends from message 1."""

    async def main(received: str) -> list[dict[str, Any]]:
        server, task, url = await start(ServerConfig(port=0, games=1, seed=4, seats=SEATS, reconnect_grace=20))
        ws = await connect(url + "me")
        n, token, _ = await first_act(ws)
        ws.transport.abort()
        await asyncio.sleep(0.1)
        again = await connect(url + f"me?seatToken={token}&received={received}")
        got = await drain(again)
        server.stop("the test is over")
        await asyncio.wait_for(task, TIMEOUT)
        return got

    assert asyncio.run(main("１"))[0]["stage"] == "beginning"
    assert asyncio.run(main("1"))[0]["stage"] != "beginning"


def test_refused_seat_tokens_are_logged_at_a_bounded_rate(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="chupai.guandan.protocol")
    tries = 40

    async def main() -> list[int | None]:
        server, task, url = await start(ServerConfig(port=0, games=1, seed=1))
        codes = []
        for i in range(tries):
            async with connect(url + f"x?seatToken=guess{i}") as ws:
                with pytest.raises(ConnectionClosed):
                    await ws.recv()
                codes.append(ws.close_code)
        server.stop("the test is over")
        await asyncio.wait_for(task, TIMEOUT)
        return codes

    codes = asyncio.run(main())
    assert codes == [1008] * tries
    lines = [r.getMessage() for r in caplog.records if "refused a reconnection" in r.getMessage()]
    assert 1 <= len(lines) <= 5, lines
