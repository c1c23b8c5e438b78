"""The live table view: a web page served next to the game websockets.

The page (``static/index.html``, ``view.js``, ``view.css``, package data) shows every
table: seats and teams, levels, cards left, the current trick, the last play of every
seat, and every hand when the server was started with ``--view-hands``.  Live, it
reads ``/watch``, a websocket on which the server sends table snapshots
(:meth:`chupai.protocol._adapter.ProtocolGame.snapshot`) as they change; with
``?replay=1`` it fetches ``/replay.json`` (the snapshots of a record, see
:func:`chupai.protocol.records.replay_frames`) and plays them back.

>>> http_response("/nowhere", None).status_code
404
"""
from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from importlib import resources
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Response

__all__ = ["VIEW_PATHS", "LiveView", "http_response"]

log = logging.getLogger("chupai.protocol")

_STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/view.js": ("view.js", "application/javascript; charset=utf-8"),
    "/view.css": ("view.css", "text/css; charset=utf-8"),
}
#: the paths of the view (besides ``/game/<name>``)
VIEW_PATHS = ("/watch", "/replay.json", *_STATIC)
#: seconds between two updates of a table on the watchers' sockets
UPDATE_INTERVAL = 0.1


def _response(status: int, reason: str, body: bytes, content_type: str) -> Response:
    headers = Headers()
    headers["Content-Type"] = content_type
    headers["Content-Length"] = str(len(body))
    headers["Cache-Control"] = "no-store"
    headers["Connection"] = "close"
    return Response(status, reason, headers, body)


def http_response(path: str, frames: Callable[[], list[dict[str, Any]]] | None) -> Response | None:
    """The HTTP answer for ``path`` (``None``: a websocket path, let the handshake go on).

    ``frames`` gives the replay snapshots for ``/replay.json`` (``None``: no record).
    """
    route = path.split("?", 1)[0]
    if route.startswith("/game/") or route == "/watch":
        return None
    if route in _STATIC:
        name, content_type = _STATIC[route]
        body = resources.files("chupai.protocol").joinpath("static", name).read_bytes()
        return _response(200, "OK", body, content_type)
    if route == "/replay.json":
        if frames is None:
            return _response(404, "Not Found", b'{"error": "no record to replay"}', "application/json")
        return _response(200, "OK", json.dumps(frames()).encode(), "application/json")
    return _response(404, "Not Found", f"no such page: {route}\n".encode(), "text/plain; charset=utf-8")


class LiveView:
    """The watchers of ``/watch`` and the table snapshots they are sent.

    ``snapshot(table)`` builds a table's snapshot; :meth:`touch` marks a table
    changed; :meth:`run` sends the changed tables every :data:`UPDATE_INTERVAL` seconds,
    only while someone watches (snapshots cost nothing without watchers).
    """

    def __init__(self, snapshot: Callable[[int], dict[str, Any] | None], tables: int) -> None:
        self._snapshot = snapshot
        self._tables = tables
        self._watchers: set[ServerConnection] = set()
        self._dirty: set[int] = set()

    def touch(self, table: int) -> None:
        """Table ``table`` changed."""
        if self._watchers:
            self._dirty.add(table)

    def _all(self) -> list[dict[str, Any]]:
        return [s for s in (self._snapshot(t) for t in range(self._tables)) if s is not None]

    async def watch(self, connection: ServerConnection) -> None:
        """Serve one watcher until it leaves (messages from it are ignored)."""
        self._watchers.add(connection)
        log.info("view: watcher connected from %s", _address(connection))
        try:
            await connection.send(json.dumps({"type": "tables", "tables": self._all()}))
            async for _ in connection:
                pass
        except ConnectionClosed:
            pass
        finally:
            self._watchers.discard(connection)

    async def run(self) -> None:
        """Send the changed tables to every watcher, until cancelled."""
        while True:
            await asyncio.sleep(UPDATE_INTERVAL)
            if not self._dirty or not self._watchers:
                continue
            tables, self._dirty = sorted(self._dirty), set()
            payload = json.dumps({"type": "tables", "tables": [
                s for s in (self._snapshot(t) for t in tables) if s is not None]})
            for w in list(self._watchers):
                try:
                    await w.send(payload)
                except ConnectionClosed:
                    self._watchers.discard(w)

    async def close(self) -> None:
        """Send the final state and close every watcher."""
        payload = json.dumps({"type": "tables", "tables": self._all(), "over": True})
        for w in list(self._watchers):
            try:
                await w.send(payload)
                await w.close(1001, "the server is done")
            except ConnectionClosed:
                pass


def _address(connection: ServerConnection) -> str:
    addr = connection.remote_address
    return f"{addr[0]}:{addr[1]}" if isinstance(addr, tuple) and len(addr) >= 2 else str(addr)
