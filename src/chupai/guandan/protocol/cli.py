"""The protocol's subcommands of ``chupai`` (registered by :func:`register`).

    chupai serve guandan [--host 127.0.0.1] [--port 23456] [--games N] [--seed S]
                         [--tables T] [--seats remote,mc,remote,greedy] [--record FILE]
                         [--view-hands] [--pace SECONDS] [--playouts N] [--move-timeout SECONDS]
                         [--reconnect-grace SECONDS] [--token TOKEN] [--quiet]
    chupai join URL --bot SPEC [--seed S] [--playouts N] [--strict] [--timeout SECONDS]
                [--reconnect SECONDS]
    chupai join URL --protocol openguandan (--bot SPEC [--room R] [--seat S] | --bots A,B,C,D)
                [--games G]
    chupai replay FILE [--table T] [--hands] [--web [--host H] [--port P]]
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import socket
import sys
from typing import Any

__all__ = ["register"]

#: the protocol's default port (``chupai.guandan.protocol.server.DEFAULT_PORT``, not imported here
#: so that ``chupai``'s other commands do not load ``websockets``)
PORT = 23456
#: ``--move-timeout``'s default (``chupai.guandan.protocol.server.MOVE_TIMEOUT``, same reason)
MOVE_TIMEOUT = 30.0
#: ``--timeout``'s default (``chupai.guandan.protocol.client.SERVER_TIMEOUT``)
SERVER_TIMEOUT = 300.0
#: ``--reconnect-grace``'s and ``--reconnect``'s defaults (``chupai.guandan.protocol.server.RECONNECT_GRACE``,
#: ``chupai.guandan.protocol.client.RECONNECT``)
RECONNECT = 30.0
#: ``--tables``' bound (``chupai.guandan.protocol.server.MAX_TABLES``)
MAX_TABLES = 10_000


def _logging(quiet: bool) -> None:
    logging.basicConfig(level=logging.WARNING if quiet else logging.INFO,
                        format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr)


def _cmd_serve(args: argparse.Namespace) -> int:
    from chupai.guandan.protocol.server import ServerConfig, parse_seats, serve_forever

    _logging(args.quiet)
    try:
        socket.getaddrinfo(args.host, None)
    except socket.gaierror as e:
        raise ValueError(f"--host {args.host}: {e.strerror}") from None
    config = ServerConfig(host=args.host, port=args.port, games=args.games, seed=args.seed, tables=args.tables,
                          seats=parse_seats(args.seats), record=args.record, view_hands=args.view_hands,
                          pace=args.pace, playouts=args.playouts,
                          move_timeout=args.move_timeout or None, reconnect_grace=args.reconnect_grace,
                          token=args.token)
    return serve_forever(config, announce=sys.stdout)


def _cmd_join(args: argparse.Namespace) -> int:
    if args.protocol == "openguandan":
        return _join_openguandan(args)
    if args.bots is not None or args.room is not None or args.seat is not None:
        raise ValueError("--bots, --room and --seat go with --protocol openguandan")
    from chupai.guandan.protocol.client import Client

    _logging(args.quiet)
    client = Client(args.url, bot=args.bot, seed=args.seed, playouts=args.playouts, strict=args.strict,
                    timeout=args.timeout, reconnect=args.reconnect)
    try:
        state = client.run()  # SeatRefused (a ValueError): one line, exit 2
    except OSError as e:
        raise ValueError(f"cannot connect to {args.url}: {e}") from None
    if state.result is None:
        why = ("the connection was lost" if client.closed is None else
               f"the server closed the connection ({client.closed[1] or 'no reason given'}, close code {client.closed[0]})")
        print(f"seat {state.my_pos}: {why} after {client.decisions} decisions (no gameResult)")
        return 1
    print(f"seat {state.my_pos}: {client.decisions} decisions; victoryNum {state.result['victoryNum']}, "
          f"draws {state.result['draws']}")
    return 0


def _join_openguandan(args: argparse.Namespace) -> int:
    from chupai.guandan.protocol.openguandan import OpenGuanDanClient, play_room

    _logging(args.quiet)
    try:
        if args.bots is not None:
            if args.room is not None or args.seat is not None:
                raise ValueError("--bots seats four bots in a new room: no --room or --seat with it")
            bots = [b.strip() for b in args.bots.split(",")]
            clients = asyncio.run(play_room(args.url, bots, games=args.games, seed=args.seed,
                                            playouts=args.playouts, strict=args.strict))
        else:
            client = OpenGuanDanClient(args.url, args.bot, room=args.room, games=args.games, seat=args.seat,
                                       seed=args.seed, playouts=args.playouts, strict=args.strict)
            clients = [client]
            client.run()
    except OSError as e:
        raise ValueError(f"cannot connect to {args.url}: {e}") from None
    status = 0
    for c in clients:
        result = c.state.result
        print(f"room {c.room} seat {c.state.my_pos}: {c.decisions} decisions, {len(c.refused)} refused; "
              + (f"team {result.get('victory')} won, levels {result.get('victoryRank')}" if result else
                 "the server closed the connection before gameResult"))
        status |= int(result is None or bool(c.refused))
    return status


def _cmd_replay(args: argparse.Namespace) -> int:
    from chupai.guandan.protocol.records import Record, iter_frames, print_record

    record = Record.open(args.file)
    if record.lines == 0:
        raise ValueError(f"{args.file} is empty: not a record of chupai serve --record")
    if record.cut is not None:
        print(f"chupai: warning: {args.file}: line {record.cut} is cut off (its writer stopped mid-line); "
              f"showing the {record.cut - 1} lines before it", file=sys.stderr)
    tables = record.tables()
    if not tables:
        raise ValueError(f"{args.file} holds no deal (a server's record before its first deal ended)")
    if args.table is not None and args.table not in tables:
        raise ValueError(f"{args.file} has no deal of table {args.table} (its tables: {', '.join(map(str, tables))})")
    if not args.web:
        print_record(record, sys.stdout, table=args.table, hands=args.hands)
        return 0
    for _frame in iter_frames(record, args.table):  # a record that does not replay is refused before serving
        pass
    _logging(False)
    return asyncio.run(_serve_replay(args))


async def _serve_replay(args: argparse.Namespace) -> int:
    from websockets.asyncio.server import ServerConnection, serve
    from websockets.http11 import Request, Response

    from chupai.guandan.protocol.view import HttpConnection, ReplaySource, http_response, redirect

    replay = ReplaySource(args.file, table=args.table)

    async def http(connection: ServerConnection, request: Request) -> Response | None:
        route, _, query = request.path.partition("?")
        if route in ("/", "/index.html") and "replay=" not in query:  # the page plays the record back
            return redirect("/?replay=1" + (f"&{query}" if query else ""))
        return await http_response(request.path, replay)

    async def handler(connection: ServerConnection) -> None:
        await connection.close(1008, "this server only plays back a record")

    try:
        async with serve(handler, args.host, args.port, process_request=http, create_connection=HttpConnection) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            logging.getLogger("chupai.guandan.protocol").info(
                "replay of %s: http://%s:%d/ (Ctrl-C to stop)", args.file, args.host, port)
            await asyncio.Future()
    finally:
        await replay.close()
    return 0


def register(sub: Any) -> None:
    """Add ``serve``, ``join`` and ``replay`` to the ``chupai`` subparsers ``sub``."""
    from chupai.cli.common import BOT_SPECS, DefaultsShown, add_seed, count, int_in, non_negative_int, port, seconds

    shown = DefaultsShown  # every option's default in its help line, as the docs give them
    s = sub.add_parser("serve", help="run a Guan Dan competition-protocol server", formatter_class=shown)
    s.add_argument("game", choices=["guandan"])
    s.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    s.add_argument("--port", type=port, default=PORT, help="0: any free port (printed)")
    s.add_argument("--games", type=count, default=1, help="games (matches to A) per table")
    add_seed(s, default=None, none="drawn and logged")
    s.add_argument("--tables", type=int_in(1, MAX_TABLES), default=1, help="tables played at once (4 seats each)")
    s.add_argument("--seats", help="the four seats, each remote or a bot spec: remote,best,remote,greedy")
    s.add_argument("--record", help="write a JSON-lines record of every deal to this file")
    s.add_argument("--view-hands", action="store_true", help="the table view shows every hand")
    s.add_argument("--pace", type=seconds(), default=0.0, help="seconds to wait after each decision")
    s.add_argument("--playouts", type=count, default=200, help="playouts per decision of mc seats")
    s.add_argument("--move-timeout", type=seconds(), default=MOVE_TIMEOUT, dest="move_timeout",
                   help="seconds a seat has to answer a request; a seat that does not is disconnected "
                        "and its table ends (0: wait forever)")
    s.add_argument("--reconnect-grace", type=seconds(), default=RECONNECT, dest="reconnect_grace",
                   help="seconds a client that lost its connection has to take its seat back with its "
                        "seat token (0: its table ends at once)")
    s.add_argument("--token", help="a shared secret: seats and viewers must add ?token=TOKEN to their URL")
    s.add_argument("--quiet", action="store_true", help="log warnings and errors only")
    s.set_defaults(run=_cmd_serve)
    j = sub.add_parser("join", help="play a chupai bot at a competition-protocol or OpenGuanDan server",
                       formatter_class=shown)
    j.add_argument("url", help="ws://HOST:PORT/game/<name> (competition), ws://HOST:PORT (openguandan)")
    j.add_argument("--protocol", choices=["competition", "openguandan"], default="competition",
                   help="the server's protocol")
    j.add_argument("--bot", default="greedy", help=f"a bot spec: {BOT_SPECS}")
    j.add_argument("--bots", help="openguandan: four bot specs, seats 0..3 of a new room")
    j.add_argument("--room", type=int, help="openguandan: the room to join (default: create one)")
    j.add_argument("--seat", type=int, help="openguandan: the seat to ask for, 0..3")
    j.add_argument("--games", type=count, default=1, help="openguandan: games a created room plays")
    add_seed(j, "the bot's choices")
    j.add_argument("--playouts", type=count, default=200, help="playouts per decision of an mc bot")
    j.add_argument("--strict", action="store_true", help="check every message against the protocol")
    j.add_argument("--timeout", type=seconds(positive=True), default=SERVER_TIMEOUT,
                   help="seconds without a message from the server before giving up")
    j.add_argument("--reconnect", type=seconds(), default=RECONNECT,
                   help="seconds the bot may spend in all, per game, taking its seat back after lost "
                        "connections (0: give up at once)")
    j.add_argument("--quiet", action="store_true", help="log warnings and errors only")
    j.set_defaults(run=_cmd_join)
    r = sub.add_parser("replay", help="show a protocol record (terminal, or the web view)", formatter_class=shown)
    r.add_argument("file")
    r.add_argument("--table", type=non_negative_int, help="the table to show (default: the first)")
    r.add_argument("--hands", action="store_true", help="print the hands")
    r.add_argument("--web", action="store_true", help="serve the table view playing the record back")
    r.add_argument("--host", default="127.0.0.1", help="--web: the address to serve on")
    r.add_argument("--port", type=port, default=8023, help="--web: the port to serve on")
    r.set_defaults(run=_cmd_replay)
