"""The live table view: a web page served next to the game websockets.

The page (``static/index.html``, ``view.js``, ``view.css``, package data) shows every
table: seats and teams, levels, cards left, the current trick, the last play of every
seat, and every hand when the server was started with ``--view-hands``.  Live, it
reads ``/watch``, a websocket on which the server sends table snapshots
(:meth:`chupai.guandan.protocol._adapter.ProtocolGame.snapshot`) as they change; with
``?replay=1`` it fetches ``/replay.json`` (the snapshots of a record, see
:func:`chupai.guandan.protocol.records.replay_frames`) and plays them back.

Every viewer has its own sender: a viewer keeps at most one pending snapshot per table
(a newer one replaces a stale one), and a send that does not finish within the send
deadline drops that viewer, so a viewer that stops reading never delays another one or
a table.  ``/replay.json`` is built in a child process, once per change of the record
(concurrent requests share the build), and refused (413) beyond a size cap.

>>> import asyncio
>>> asyncio.run(http_response("/nowhere", None)).status_code
404
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
from collections.abc import Callable, Hashable
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Response

from chupai.guandan.protocol.replay_json import OVER_LIMIT

__all__ = ["HttpConnection", "LiveView", "ReplaySource", "SlowPeer", "drop", "http_response", "query_token",
           "redirect", "send_within"]

log = logging.getLogger("chupai.guandan.protocol")

_STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/view.js": ("view.js", "application/javascript; charset=utf-8"),
    "/view.css": ("view.css", "text/css; charset=utf-8"),
}
#: seconds between two updates of a table on the watchers' sockets
UPDATE_INTERVAL = 0.1
#: seconds a send to a peer (player or viewer) may take before the peer is dropped
SEND_TIMEOUT = 10.0
#: the largest ``/replay.json`` body served (bytes); a larger record is refused with 413
MAX_REPLAY_BYTES = 32 << 20
#: seconds a ``/replay.json`` request waits for the build (under the handshake timeout)
REPLAY_WAIT = 5.0
#: the seconds a 503 answer to ``/replay.json`` asks the client to wait
RETRY_AFTER = 5


def _response(status: int, reason: str, body: bytes, content_type: str) -> Response:
    headers = Headers()
    headers["Content-Type"] = content_type
    headers["Content-Length"] = str(len(body))
    headers["Cache-Control"] = "no-store"
    headers["Connection"] = "close"
    return Response(status, reason, headers, body)


def redirect(location: str) -> Response:
    """A 302 answer sending the browser to ``location``."""
    response = _response(302, "Found", b"", "text/plain; charset=utf-8")
    response.headers["Location"] = location
    return response


def query_token(path: str) -> str | None:
    """The ``token`` query parameter of a request path (``None`` without one)."""
    values = parse_qs(urlsplit(path).query).get("token")
    return values[0] if values else None


class HttpConnection(ServerConnection):
    """A server connection that lets an HTTP answer (a page, ``/replay.json``) leave
    completely before the transport is closed (websockets aborts the transport of a
    connection that did not become a websocket, dropping what was still buffered).
    The wait is bounded by the server's ``open_timeout``."""

    async def handshake(self, *args: Any, **kwargs: Any) -> None:
        await super().handshake(*args, **kwargs)
        response = self.response
        if response is None or response.status_code == 101:
            return
        while self.transport.get_write_buffer_size() and not self.transport.is_closing():
            await asyncio.sleep(0.005)


class ReplaySource:
    """The body of ``/replay.json``: the frames of table ``table`` (default: the first)
    of the record at ``path``, built by :mod:`chupai.guandan.protocol.replay_json` in a child
    process (the tables never wait for it, and its memory is returned when it ends),
    and kept until the record changes (its size or modification time).

    Concurrent requests share one build: a request that finds a build running waits for
    it, up to ``wait`` seconds, and is then answered 503 with ``Retry-After`` (the build
    goes on, and a later request gets it).  A body over ``limit`` bytes is refused
    (413), a record that does not replay too (500, saying why); each refusal is logged.
    """

    def __init__(self, path: str | Path, table: int | None = None, limit: int = MAX_REPLAY_BYTES,
                 wait: float = REPLAY_WAIT) -> None:
        self.path = Path(path)
        self.table = table
        self.limit = limit
        self.wait = wait
        self._cached: tuple[Hashable, Response] | None = None
        self._building: asyncio.Task[tuple[Hashable, Response]] | None = None
        #: how many times the body was built
        self.builds = 0

    def _stamp(self) -> Hashable:
        try:
            st = self.path.stat()
        except OSError:
            return None
        return st.st_size, st.st_mtime_ns

    async def response(self) -> Response:
        """The answer to one request."""
        stamp = self._stamp()
        if self._cached is not None and self._cached[0] == stamp:
            return self._cached[1]
        if self._building is None:
            self.builds += 1
            self._building = asyncio.ensure_future(self._build(stamp))
        building = self._building
        try:
            return (await asyncio.wait_for(asyncio.shield(building), self.wait))[1]
        except TimeoutError:
            log.warning("/replay.json: still building the replay of %s after %g s: answered 503", self.path, self.wait)
            response = _response(503, "Service Unavailable", json.dumps(
                {"error": f"the replay is being built; try again in {RETRY_AFTER} seconds"}).encode(),
                "application/json")
            response.headers["Retry-After"] = str(RETRY_AFTER)
            return response

    async def _build(self, stamp: Hashable) -> tuple[Hashable, Response]:
        table = [] if self.table is None else ["--table", str(self.table)]
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "chupai.guandan.protocol.replay_json", str(self.path), "--limit", str(self.limit), *table,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=_child_env())
        try:
            body, err = await proc.communicate()
        except asyncio.CancelledError:
            proc.kill()
            await proc.wait()
            raise
        finally:
            self._building = None
        if proc.returncode == 0:
            response = _response(200, "OK", body, "application/json")
        elif proc.returncode == OVER_LIMIT:
            log.warning("/replay.json: the replay of %s is over the %d-byte cap: refused", self.path, self.limit)
            response = _response(413, "Content Too Large", json.dumps(
                {"error": f"the replay is over the {self.limit}-byte cap; "
                          "play the record back with chupai replay FILE --web"}).encode(), "application/json")
        else:
            why = err.decode(errors="replace").strip().splitlines()[-1:] or [f"status {proc.returncode}"]
            log.warning("/replay.json: the record does not replay: %s", why[0])
            response = _response(500, "Internal Server Error",
                                 json.dumps({"error": f"the record does not replay: {why[0]}"}).encode(),
                                 "application/json")
        self._cached = (stamp, response)
        return self._cached

    async def close(self) -> None:
        """End a build still running (its child process is killed)."""
        building = self._building
        if building is not None:
            building.cancel()
            await asyncio.gather(building, return_exceptions=True)


def _child_env() -> dict[str, str]:
    """The environment of a child Python that imports this chupai."""
    import chupai

    root = str(Path(chupai.__file__).resolve().parent.parent)
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": root + (os.pathsep + path if path else "")}


async def http_response(path: str, replay: ReplaySource | None, token: str | None = None) -> Response | None:
    """The HTTP answer for ``path`` (``None``: a websocket path, let the handshake go on).

    ``replay`` serves ``/replay.json`` (``None``: no record).  With ``token``, the
    websocket paths and ``/replay.json`` need ``?token=TOKEN`` (403 otherwise).
    """
    route = path.split("?", 1)[0]
    if route in _STATIC:
        name, content_type = _STATIC[route]
        body = resources.files("chupai.guandan.protocol").joinpath("static", name).read_bytes()
        return _response(200, "OK", body, content_type)
    known = route.startswith("/game/") or route in ("/watch", "/replay.json")
    if known and token is not None and query_token(path) != token:
        return _response(403, "Forbidden", b"this server needs ?token=<its shared token>\n", "text/plain; charset=utf-8")
    if route.startswith("/game/") or route == "/watch":
        return None
    if route == "/replay.json":
        if replay is None:
            return _response(404, "Not Found", b'{"error": "no record to replay"}', "application/json")
        return await replay.response()
    return _response(404, "Not Found", b"no such page\n", "text/plain; charset=utf-8")


class SlowPeer(Exception):
    """A peer did not take a message within the send deadline (it was dropped)."""


async def send_within(connection: ServerConnection, text: str, seconds: float) -> None:
    """Send ``text``; a peer that has not taken it within ``seconds`` is dropped (its
    transport aborted) and :class:`SlowPeer` raised."""
    try:
        await asyncio.wait_for(connection.send(text), seconds)
    except TimeoutError:
        connection.transport.abort()
        raise SlowPeer(f"did not read within {seconds:g} s") from None


async def drop(connection: ServerConnection, code: int, reason: str, grace: float = 1.0) -> None:
    """Close ``connection`` with ``code``; a peer that does not complete the closing
    handshake within ``grace`` seconds (it stopped reading) has its transport aborted."""
    try:
        await asyncio.wait_for(asyncio.shield(connection.close(code, reason)), grace)
    except TimeoutError:
        connection.transport.abort()


class _Watcher:
    """One viewer: its pending snapshots (one per table, the latest) and its sender."""

    def __init__(self, connection: ServerConnection) -> None:
        self.connection = connection
        self.pending: dict[int, str] = {}
        self.ready = asyncio.Event()


class LiveView:
    """The watchers of ``/watch`` and the table snapshots they are sent.

    ``snapshot(table)`` builds a table's snapshot; :meth:`touch` marks a table
    changed; :meth:`run` hands the changed tables to every watcher every
    :data:`UPDATE_INTERVAL` seconds, only while someone watches (snapshots cost
    nothing without watchers); each watcher's own task sends them.
    """

    def __init__(self, snapshot: Callable[[int], dict[str, Any] | None], tables: int,
                 send_timeout: float = SEND_TIMEOUT) -> None:
        self._snapshot = snapshot
        self._tables = tables
        self._watchers: dict[ServerConnection, _Watcher] = {}
        self._dirty: set[int] = set()
        self.send_timeout = send_timeout
        #: viewers dropped for not reading
        self.dropped = 0

    def touch(self, table: int) -> None:
        """Table ``table`` changed."""
        if self._watchers:
            self._dirty.add(table)

    def _encoded(self, tables: range | list[int]) -> dict[int, str]:
        out = {}
        for t in tables:
            snap = self._snapshot(t)
            if snap is not None:
                out[t] = json.dumps(snap)
        return out

    @staticmethod
    def _payload(snaps: dict[int, str], over: bool = False) -> str:
        end = ', "over": true}' if over else "}"
        return '{"type": "tables", "tables": [' + ", ".join(snaps[t] for t in sorted(snaps)) + "]" + end

    async def watch(self, connection: ServerConnection) -> None:
        """Serve one watcher until it leaves or stops reading (messages from it are ignored)."""
        watcher = _Watcher(connection)
        log.info("view: watcher connected from %s", _address(connection))
        try:
            await send_within(connection, self._payload(self._encoded(range(self._tables))), self.send_timeout)
        except ConnectionClosed:
            return
        except SlowPeer as e:
            self.dropped += 1
            log.warning("view: dropped watcher %s: it %s", _address(connection), e)
            return
        self._watchers[connection] = watcher
        sender = asyncio.create_task(self._send_loop(watcher))
        try:
            async for _ in connection:
                pass
        except ConnectionClosed:
            pass
        finally:
            sender.cancel()
            self._watchers.pop(connection, None)

    async def _send_loop(self, watcher: _Watcher) -> None:
        try:
            while True:
                await watcher.ready.wait()
                watcher.ready.clear()
                snaps, watcher.pending = watcher.pending, {}
                if snaps:
                    await send_within(watcher.connection, self._payload(snaps), self.send_timeout)
        except ConnectionClosed:
            self._watchers.pop(watcher.connection, None)
        except SlowPeer as e:
            self._watchers.pop(watcher.connection, None)
            self.dropped += 1
            log.warning("view: dropped watcher %s: it %s", _address(watcher.connection), e)

    async def run(self) -> None:
        """Hand the changed tables to every watcher, until cancelled."""
        while True:
            await asyncio.sleep(UPDATE_INTERVAL)
            if not self._dirty or not self._watchers:
                continue
            tables, self._dirty = sorted(self._dirty), set()
            snaps = self._encoded(tables)
            for w in self._watchers.values():
                w.pending.update(snaps)  # a stale snapshot of a table is replaced
                w.ready.set()

    async def close(self) -> None:
        """Send the final state and close every watcher (each within the send deadline)."""
        payload = self._payload(self._encoded(range(self._tables)), over=True)

        async def last(w: ServerConnection) -> None:
            try:
                await send_within(w, payload, self.send_timeout)
                await drop(w, 1001, "the server is done")
            except (ConnectionClosed, SlowPeer):
                pass

        await asyncio.gather(*(last(w) for w in list(self._watchers)))


def _address(connection: ServerConnection) -> str:
    addr = connection.remote_address
    return f"{addr[0]}:{addr[1]}" if isinstance(addr, tuple) and len(addr) >= 2 else str(addr)
