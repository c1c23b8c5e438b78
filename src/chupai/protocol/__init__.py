"""The Guan Dan competition protocol (``spec/protocol.md``): an open server, a client
for chupai bots (and your own), JSON-lines records and a live table view.

* :class:`Server` / :class:`ServerConfig` (``chupai serve guandan``);
* :class:`Client` (``chupai join URL --bot mc``), :class:`ClientState`;
* :func:`read_record`, :func:`load_match`, :func:`print_record`
  (``chupai replay FILE``);
* :func:`check_message`: the shapes of the eleven messages.

Only :mod:`chupai.protocol._adapter` touches the Guan Dan state machines.
"""
from chupai.protocol.client import Client, ClientState
from chupai.protocol.records import load_match, print_record, read_record, replay_frames
from chupai.protocol.server import DEFAULT_PORT, Server, ServerConfig, serve_forever
from chupai.protocol.shapes import check_message

__all__ = [
    "DEFAULT_PORT",
    "Client",
    "ClientState",
    "Server",
    "ServerConfig",
    "check_message",
    "load_match",
    "print_record",
    "read_record",
    "replay_frames",
    "serve_forever",
]
