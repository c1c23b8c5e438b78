"""Stock ws4py 0.6 clients, as the published competition bots are, on a real server.

ws4py 0.6's ``connect()`` reads the handshake response 128 bytes at a time and hands
whatever websocket bytes came in the last read to the parser itself, while the reading
thread it has just started parses the socket too: a table whose first message arrives
with the handshake response of its last client loses that message or kills the client
(``AttributeError: 'NoneType' object has no attribute 'parser'``).  The server pads the
handshake response to whole 128-byte reads (``pad_handshake``), so that read never holds
a message.  These tests use ws4py unrepaired.

On an idle loopback the client reads the response before the table's first message is
written, so the race test puts the clients behind a link that holds the server's first
bytes a moment and delivers them in one burst (:class:`BurstLink`), as a loaded machine
(a client slow to read its handshake) or a network does.
"""
from __future__ import annotations

import asyncio
import socket
from typing import Any

from chupai.guandan.protocol import Server, ServerConfig
from chupai.guandan.protocol.server import HANDSHAKE_CHUNK
from protocol_clients import Ws4pyBot
from test_protocol_games import TIMEOUT, seated, start

#: tables in the race test: each one starts when its fourth client connects
TABLES = 6
#: seconds the link holds the server's first bytes before delivering them in one burst
BURST = 0.05


class _Half(asyncio.Protocol):
    """One direction of the link: what this end receives goes to ``peer``; its first
    bytes are held ``delay`` seconds and delivered as one write (held too until ``peer``
    is there), the rest as they come."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.peer: asyncio.Transport | None = None
        self.transport: asyncio.Transport | None = None
        self.pending = b""
        self.scheduled = False
        self.ended = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.pending += data
        self._schedule()

    def connection_lost(self, exc: Exception | None) -> None:
        self.ended = True
        self._schedule()

    def attach(self, peer: asyncio.Transport) -> None:
        self.peer = peer
        self._schedule()

    def _schedule(self) -> None:
        if not self.scheduled:
            self.scheduled = True
            asyncio.get_running_loop().call_later(self.delay, self._flush)

    def _flush(self) -> None:
        self.scheduled = False
        if self.peer is None:
            return  # attach() schedules again
        self.delay = 0.0
        if self.pending and not self.peer.is_closing():
            self.peer.write(self.pending)
        self.pending = b""
        if self.ended:
            self.peer.close()


class BurstLink:
    """A TCP relay on loopback to ``port``: the server's first bytes on a connection are
    held ``delay`` seconds and delivered in one write; the rest pass as they come."""

    def __init__(self, port: int, delay: float) -> None:
        self.port = port
        self.delay = delay

    async def start(self) -> int:
        """Listen; the relay's port."""
        loop = asyncio.get_running_loop()

        def client_side() -> _Half:
            half = _Half(0.0)
            loop.create_task(self._open(half))
            return half

        relay = await loop.create_server(client_side, "127.0.0.1", 0)
        return int(relay.sockets[0].getsockname()[1])

    async def _open(self, client: _Half) -> None:
        server_side = _Half(self.delay)
        transport, _ = await asyncio.get_running_loop().create_connection(lambda: server_side, "127.0.0.1", self.port)
        assert isinstance(transport, asyncio.Transport) and client.transport is not None
        server_side.attach(client.transport)
        client.attach(transport)


def handshake_bytes(port: int) -> bytes:
    """What the server sends a raw client up to the end of its handshake response, and
    anything that came with it in the same reads."""
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as sock:
        sock.sendall(b"GET /game/raw HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\n"
                     b"Upgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     b"Sec-WebSocket-Version: 13\r\n\r\n")
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(4096)
            assert chunk, "the server closed during the handshake"
            data += chunk
        return data


def test_handshake_response_fills_whole_reads() -> None:
    """The 101 response is a multiple of ws4py's 128-byte read."""

    async def main() -> bytes:
        server, task, _ = await start(ServerConfig(port=0, games=1, seed=1))
        data = await asyncio.to_thread(handshake_bytes, server.port)
        task.cancel()
        return data

    data = asyncio.run(main())
    head = data[:data.index(b"\r\n\r\n") + 4]
    assert head.startswith(b"HTTP/1.1 101 ")
    assert len(head) % HANDSHAKE_CHUNK == 0, len(head)


def test_last_client_of_each_table_connects_into_a_starting_table() -> None:
    """Tables of four stock ws4py bots behind a bursty link; the fourth client of each
    starts its table (the first message follows its handshake response in one burst),
    and every table finishes."""

    async def main() -> tuple[int, Server, list[Ws4pyBot], list[BaseException]]:
        server, task, _ = await start(ServerConfig(port=0, games=1, seed=7, tables=TABLES, move_timeout=10))
        url = f"ws://127.0.0.1:{await BurstLink(server.port, BURST).start()}/game/"
        bots: list[Ws4pyBot] = []
        failures: list[BaseException] = []
        for i in range(4 * TABLES):
            bot = Ws4pyBot(url + f"client{i % 4}", style="first" if i % 2 else "last", seed=i)
            try:
                await asyncio.to_thread(bot.connect)
            except Exception as e:  # the race: the client dies in connect()
                failures.append(e)
            bots.append(bot)
            await seated(server, i + 1)
        status = await asyncio.wait_for(task, 10 * TIMEOUT)
        for bot in bots:
            await asyncio.to_thread(bot.done.wait, 10)
        return status, server, bots, failures

    status, server, bots, failures = asyncio.run(main())
    assert failures == []
    assert [b.failure for b in bots] == [None] * len(bots)
    assert status == 0 and all(t._aborted is None for t in server.tables)
    for bot in bots:
        result: Any = bot.book.result
        assert result is not None and sum(result["victoryNum"][:2]) + result["draws"][0] == 1
        assert bot.book.counts["notify.beginning"] == bot.book.counts["notify.episodeOver"] > 0
