"""The Guan Dan competition protocol (``docs/protocol.md``): an open server, a client
for chupai bots (and your own), JSON-lines records and a live table view.

* :class:`Server` / :class:`ServerConfig` (``chupai serve guandan``);
* :class:`Client` (``chupai join URL --bot mc``), :class:`ClientState`,
  :class:`SeatRefused`;
* :func:`read_record`, :func:`load_match`, :func:`print_record`
  (``chupai replay FILE``);
* :func:`check_message`: the shapes of the eleven messages.

Only :mod:`chupai.guandan.protocol._adapter` touches the Guan Dan state machines.  The names
are imported on first use, so that ``chupai``'s other commands do not load
``websockets``.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chupai.guandan.protocol.client import Client as Client
    from chupai.guandan.protocol.client import ClientState as ClientState
    from chupai.guandan.protocol.client import SeatRefused as SeatRefused
    from chupai.guandan.protocol.records import load_match as load_match
    from chupai.guandan.protocol.records import print_record as print_record
    from chupai.guandan.protocol.records import read_record as read_record
    from chupai.guandan.protocol.records import replay_frames as replay_frames
    from chupai.guandan.protocol.server import DEFAULT_PORT as DEFAULT_PORT
    from chupai.guandan.protocol.server import Server as Server
    from chupai.guandan.protocol.server import ServerConfig as ServerConfig
    from chupai.guandan.protocol.server import serve_forever as serve_forever
    from chupai.guandan.protocol.shapes import check_message as check_message

_WHERE = {
    "Client": "client",
    "ClientState": "client",
    "SeatRefused": "client",
    "load_match": "records",
    "print_record": "records",
    "read_record": "records",
    "replay_frames": "records",
    "DEFAULT_PORT": "server",
    "Server": "server",
    "ServerConfig": "server",
    "serve_forever": "server",
    "check_message": "shapes",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'chupai.guandan.protocol' has no attribute {name!r}")
    return getattr(importlib.import_module(f"chupai.guandan.protocol.{_WHERE[name]}"), name)
