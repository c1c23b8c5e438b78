"""An open Guan Dan competition server (``docs/protocol.md``) on ``websockets``.

Clients connect to ``ws://HOST:PORT/game/<name>`` and are seated in connection order:
table 0's remote seats first (seat 0, 1, 2, 3 skipping seats given to chupai bots),
then table 1's, and so on; a table starts when its remote seats are taken and plays
``games`` games (matches) under ``Rules.competition()``.  The server exits once every
table is done.  The same port serves the live table view (``/``, see
:mod:`chupai.guandan.protocol.view`).

Decisions this server takes (the rules are silent):

* A message from a seat that is not asked, malformed JSON, anything but
  ``{"actIndex": i}`` with an int ``0 <= i <= indexRange``: refused, logged at WARNING
  (nothing is sent back: bots know only the eleven messages), and the server keeps
  waiting for a valid answer from the seat it asked.  A client refused
  ``max_refused`` times in a row (no valid answer between) is disconnected (close
  code 1008), which ends its table.
* A client that leaves before its table starts frees its seat.  Every ``beginning``
  sent to a client carries an extra field ``seatToken``; a client whose connection is
  lost during play (no close frame from it) may connect again within
  ``reconnect_grace`` seconds to ``/game/<name>?seatToken=TOKEN[&received=N]``
  (``N``: the messages it received so far): it takes its seat back, is sent what it
  missed of the deal in progress (from message ``N``, or from the deal's
  ``beginning``) and the pending request again, and the game goes on; meanwhile the
  table waits when it asks that seat.  A reconnection while the old connection is
  still open replaces it (closed with 1008).  A wrong or stale token is refused
  (1008).  A client that closes its connection itself (a close frame), or is not
  back within the grace, ends its table (logged, an ``abort`` line in the record;
  the other clients of the table are disconnected with code 1001), and the other
  tables go on.
* A seat that does not answer a request within ``move_timeout`` seconds, or does not
  take a message within ``send_timeout`` seconds (it stopped reading), is
  disconnected (1008) and its table ends the same way.
* Connections beyond the seats of every table are refused (close code 1013); a client
  message over 64 KiB closes its connection (1009), like any disconnect.  A client
  name (``/game/<name>``) outside :data:`NAME_PATTERN` is refused (1008).
* No authentication, unless ``token``: then every websocket and ``/replay.json``
  needs ``?token=TOKEN``.  A server bound beyond loopback logs a warning.
"""
from __future__ import annotations

import asyncio
import json
import ipaddress
import logging
import re
import secrets
import signal
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TextIO
from urllib.parse import parse_qs, urlsplit

import numpy as np
from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode
from websockets.http11 import Request, Response

from chupai.core.seeds import match_deal, stream
from chupai.core.validate import (check_int, check_number, check_optional_number, check_positive_int,
                                  check_seed)
from chupai.guandan.protocol._adapter import SEATS, Ask, Notify, ProtocolGame, Recorded
from chupai.players.search.registry import make_bot
from chupai.guandan.protocol.records import header_line
from chupai.guandan.protocol.shapes import is_int
from chupai.guandan.protocol.view import (
    MAX_REPLAY_BYTES,
    SEND_TIMEOUT,
    HttpConnection,
    LiveView,
    ReplaySource,
    SlowPeer,
    drop,
    http_response,
    send_within,
)

__all__ = ["DEFAULT_PORT", "MOVE_TIMEOUT", "NAME_PATTERN", "RECONNECT_GRACE", "ServerConfig", "Server", "exposure_warning",
           "parse_seats", "serve_forever"]

log = logging.getLogger("chupai.guandan.protocol")

#: the protocol's default port
DEFAULT_PORT = 23456
#: largest message a client may send (an answer is a few bytes)
MAX_CLIENT_MESSAGE = 1 << 16
#: seconds a seat has to answer a request (the budget competitions commonly give a move)
MOVE_TIMEOUT = 30.0
#: seconds a client that lost its connection has to take its seat back
RECONNECT_GRACE = 30.0
#: seconds a stopped server gives a table busy in a bot's decision before cancelling it
STOP_GRACE = 2.0
#: refused messages after which a client is disconnected
MAX_REFUSED = 100
#: the most tables one server plays at once
MAX_TABLES = 10_000
#: seconds between two log lines of refused seat tokens (the others are counted)
REFUSAL_LOG_INTERVAL = 1.0
#: a ``received`` count of a reconnection: ASCII digits (``str.isdecimal`` takes others too)
_COUNT = re.compile(r"[0-9]{1,9}")
#: the client names accepted (``/game/<name>``): they reach logs, records and the view
NAME_PATTERN = re.compile(r"[A-Za-z0-9_.\-]{1,32}")
REMOTE = "remote"
#: ws4py 0.6's client (the published competition bots') reads the handshake response in
#: chunks of this many bytes and mishandles websocket bytes read in the same chunk
HANDSHAKE_CHUNK = 128
#: the header that pads the handshake response to a whole number of chunks
PAD_HEADER = "X-Padding"


def exposure_warning(host: str, token: str | None) -> str | None:
    """The warning a server bound to ``host`` logs (``None`` on loopback)."""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if loopback:
        return None
    guard = ("a client needs the shared token to take a seat or watch" if token is not None
             else "there is no authentication: anyone who reaches it can take a seat, watch and read the record")
    return f"listening on {host}, beyond loopback: {guard}"


def pad_handshake(connection: ServerConnection, request: Request, response: Response) -> Response:
    """``response`` (a 101 handshake answer) padded with a :data:`PAD_HEADER` header to a
    multiple of :data:`HANDSHAKE_CHUNK` bytes, so that a ws4py 0.6 client's last read of
    the handshake ends where the response ends and never holds a message
    (``docs/protocol.md``, "Clients built on ws4py 0.6")."""
    if response.status_code == 101:
        length = len(response.serialize()) + len(f"{PAD_HEADER}: \r\n")
        response.headers[PAD_HEADER] = "-" * ((-length) % HANDSHAKE_CHUNK or HANDSHAKE_CHUNK)
    return response


def parse_seats(spec: str | None) -> list[str]:
    """``"remote,mc,remote,greedy"`` as four seat kinds (default: four remote seats)."""
    if spec is None:
        return [REMOTE] * SEATS
    seats = [s.strip() for s in spec.split(",")]
    if len(seats) != SEATS:
        raise ValueError(f"--seats takes four comma-separated seats, not {spec!r}")
    for seat, s in enumerate(seats):
        if s != REMOTE:
            try:
                make_bot(s)  # an unknown bot is refused before any table starts
            except ValueError as e:
                raise ValueError(f"--seats: seat {seat}: {e}") from None
    return seats


@dataclass
class ServerConfig:
    """What ``chupai serve guandan`` takes.

    ``seed`` ``None`` draws one (logged and written in the record); table ``t``'s game
    ``g`` is dealt from a seed derived from it.  ``pace`` waits that many seconds after
    each decision (for watching bot tables); ``view_hands`` shows every hand on the
    table view; ``playouts`` is the mc bots' budget per decision.  ``move_timeout``
    (seconds, ``None``: wait forever) bounds a seat's answer and ``send_timeout`` a
    send to a peer; ``reconnect_grace`` (seconds, 0: none) is how long a client that
    lost its connection has to take its seat back; ``max_refused`` bounds a client's
    refused messages; ``token`` is the optional shared secret of seats and viewers;
    ``replay_limit`` caps the bytes of ``/replay.json``.
    """

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    games: int = 1
    seed: int | None = None
    tables: int = 1
    seats: list[str] = field(default_factory=lambda: [REMOTE] * SEATS)
    record: str | Path | None = None
    view_hands: bool = False
    pace: float = 0.0
    playouts: int = 200
    move_timeout: float | None = MOVE_TIMEOUT
    send_timeout: float = SEND_TIMEOUT
    reconnect_grace: float = RECONNECT_GRACE
    max_refused: int = MAX_REFUSED
    token: str | None = None
    replay_limit: int = MAX_REPLAY_BYTES

    def __post_init__(self) -> None:
        for name in ("games", "tables", "playouts", "max_refused", "replay_limit"):
            check_positive_int(getattr(self, name), name)
        if self.tables > MAX_TABLES:
            raise ValueError(f"tables must be at most {MAX_TABLES:,}, not {self.tables:,}")
        check_int(self.port, "port", 0, 65535)
        self.seed = check_seed(self.seed)
        self.seats = parse_seats(",".join(self.seats))
        check_number(self.pace, "pace", 0)
        check_optional_number(self.move_timeout, "move_timeout", 0, above=True)
        check_number(self.send_timeout, "send_timeout", 0, above=True)
        check_number(self.reconnect_grace, "reconnect_grace", 0)
        if self.token is not None and (not isinstance(self.token, str) or not self.token):
            raise ValueError(f"token must be a non-empty str or None, not {self.token!r}")


@dataclass
class Stats:
    """What a server counted: decisions, their latency, refused messages, messages sent."""

    decisions: int = 0
    refused: int = 0
    #: per decision, seconds from a valid answer to the next request sent on that table
    turnaround: list[float] = field(default_factory=list)
    #: per decision, seconds from the request sent to its valid answer
    roundtrip: list[float] = field(default_factory=list)
    sent: int = 0
    #: ``time.perf_counter()`` when the first table started and when the last one ended
    started: float = 0.0
    ended: float = 0.0
    #: the server process's CPU seconds (``time.process_time()``) at the same moments
    cpu_started: float = 0.0
    cpu_ended: float = 0.0

    def summary(self) -> str:
        """One line: decisions, decisions/s while tables played, latency, refusals."""
        wall = max(self.ended - self.started, 1e-9)
        cpu = max(self.cpu_ended - self.cpu_started, 1e-9)
        text = (f"{self.decisions} decisions in {wall:.1f} s ({self.decisions / wall:.0f} decisions/s; "
                f"server CPU {cpu:.1f} s, {self.decisions / cpu:.0f} decisions per CPU second), "
                f"{self.sent} messages sent, {self.refused} refused")
        if self.turnaround:
            t = np.array(self.turnaround) * 1e3
            r = np.array(self.roundtrip) * 1e3
            text += (f"; server latency per decision median {np.median(t):.2f} ms, p99 {np.percentile(t, 99):.2f} ms"
                     f"; request-answer round trip median {np.median(r):.2f} ms, p99 {np.percentile(r, 99):.2f} ms")
        return text


class RateLimitedLog:
    """Warnings to ``logger`` at most one per ``interval`` seconds; the next line that
    is written says how many were left out meanwhile."""

    def __init__(self, logger: logging.Logger, interval: float) -> None:
        self.logger = logger
        self.interval = interval
        self._last = -float("inf")
        #: lines left out since the last one written
        self.suppressed = 0

    def warning(self, msg: str, *args: Any) -> None:
        """Log ``msg % args`` unless a line was logged less than ``interval`` seconds ago."""
        now = time.monotonic()
        if now - self._last < self.interval:
            self.suppressed += 1
            return
        self._last = now
        if self.suppressed:
            msg += f" ({self.suppressed} more like it since the last line, not logged)"
            self.suppressed = 0
        self.logger.warning(msg, *args)


class TableAborted(Exception):
    """A table ends early (a client left)."""


class _Remote:
    """A seat played by a websocket client (``connection`` ``None`` while it is away)."""

    def __init__(self, connection: ServerConnection, name: str) -> None:
        self.connection: ServerConnection | None = connection
        self.name = name
        #: the messages addressed to the seat so far (the index of the next one)
        self.sent = 0
        #: messages refused since its last valid answer
        self.refused = 0
        #: the secret that takes the seat back after a lost connection
        self.token = secrets.token_urlsafe(16)
        #: the messages from the latest ``beginning`` on (message ``log_start`` first),
        #: resent to a client that takes its seat back
        self.log: list[str] = []
        self.log_start = 0
        #: set (and replaced) whenever ``connection`` changes
        self.changed = asyncio.Event()
        #: one sender at a time (a resend and the table's messages stay in order)
        self.lock = asyncio.Lock()
        self.grace: asyncio.Task[None] | None = None

    def connect(self, connection: ServerConnection | None) -> None:
        """The seat's connection is now ``connection`` (``None``: away)."""
        self.connection = connection
        self.changed.set()
        self.changed = asyncio.Event()


class Table:
    """One table: four seats, ``games`` games, its own events and log lines."""

    def __init__(self, server: Server, index: int) -> None:
        cfg = server.config
        self.server = server
        self.index = index
        self.kinds = list(cfg.seats)
        self.remotes: dict[int, _Remote] = {}
        self.bots = {s: make_bot(k, playouts=cfg.playouts) for s, k in enumerate(self.kinds) if k != REMOTE}
        self.names = list(self.kinds)
        self.started = False
        self.done = False
        self.game: ProtocolGame | None = None
        self._pending: tuple[int, int, asyncio.Future[int]] | None = None
        #: the latest request to a remote seat: seat, its index in the seat's messages, text
        self._asked: tuple[int, int, str] | None = None
        self._aborted: str | None = None
        self._answered = 0.0
        seed = match_deal(int(cfg.seed or 0), index)
        self._rngs = {s: stream(seed, s) for s in self.bots}
        self._seed = seed

    @property
    def free_seats(self) -> list[int]:
        return [s for s, k in enumerate(self.kinds) if k == REMOTE and s not in self.remotes]

    def label(self, seat: int) -> str:
        return f"table {self.index} seat {seat} ({self.names[seat]})"

    # -- messages from clients ------------------------------------------------------------------
    def on_message(self, seat: int, raw: str | bytes, connection: ServerConnection | None = None) -> None:
        """A message from ``seat`` (on ``connection``): the answer it was asked for, or
        refused and logged.  A message on a connection the seat no longer uses is ignored."""
        remote = self.remotes.get(seat)
        if connection is not None and remote is not None and remote.connection is not connection:
            return
        reason = self._check(seat, raw)
        if reason is None:
            if remote is not None:
                remote.refused = 0
            return
        self.server.stats.refused += 1
        more = f" ({len(raw)} long)" if len(raw) > 80 else ""
        log.warning("refused from %s: %s: %r%s", self.label(seat), reason, raw[:80], more)
        if remote is not None:
            remote.refused += 1
            if remote.refused == self.server.config.max_refused and remote.connection is not None:
                log.error("%s: %d refused messages in a row: disconnected", self.label(seat), remote.refused)
                task = asyncio.get_running_loop().create_task(
                    drop(remote.connection, 1008, f"{remote.refused} refused messages in a row"))
                self.server._tasks.add(task)

    def _check(self, seat: int, raw: str | bytes) -> str | None:
        pending = self._pending
        if pending is None or pending[0] != seat:
            return "out of turn (this seat is not asked to act)"
        try:
            msg = json.loads(raw)
        except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
            return "malformed JSON"
        if not isinstance(msg, dict) or "actIndex" not in msg:
            return 'expected {"actIndex": i}'
        index = msg["actIndex"]
        if not is_int(index):
            return f"actIndex must be an int, not {type(index).__name__}"
        if not 0 <= index <= pending[1]:
            return f"actIndex {index} out of range 0..{pending[1]}"
        self._pending = None
        pending[2].set_result(index)
        return None

    def on_disconnect(self, seat: int, connection: ServerConnection, why: str = "disconnected",
                      lost: bool = False) -> None:
        """``seat``'s ``connection`` ended: before the start the seat is free again; in
        play a ``lost`` connection waits for the client to take its seat back (within
        the grace), any other end (the client closed, or was dropped: ``why``) ends the
        table.  Nothing happens for a connection the seat no longer uses."""
        remote = self.remotes.get(seat)
        if self.done or remote is None or remote.connection is not connection:
            return
        if not self.started:
            del self.remotes[seat]
            log.info("%s left before the table started; the seat is free again", self.label(seat))
            self.names[seat] = REMOTE
            return
        remote.connect(None)
        grace = self.server.config.reconnect_grace
        if self._aborted is not None:
            return
        if lost and grace > 0:
            log.warning("%s lost its connection: the table waits up to %g s for it to take its seat back",
                        self.label(seat), grace)
            self.server.view.touch(self.index)
            remote.grace = asyncio.get_running_loop().create_task(self._grace(seat, remote, grace))
            return
        self.abort(f"{self.label(seat)} {why}")

    def abort(self, reason: str) -> None:
        """End the table early for ``reason`` (the first reason is kept; the table's task
        logs it once, as it ends)."""
        if self._aborted is None:
            self._aborted = reason
        if self._pending is not None and not self._pending[2].done():
            self._pending[2].set_exception(TableAborted(self._aborted))
        self._pending = None  # an answer that comes now is out of turn

    async def _grace(self, seat: int, remote: _Remote, grace: float) -> None:
        await asyncio.sleep(grace)
        if remote.connection is None and not self.done:
            self.abort(f"{self.label(seat)} lost its connection and did not take its seat back within {grace:g} s")

    def take_back(self, seat: int, connection: ServerConnection, received: int | None) -> list[str]:
        """``connection`` is ``seat``'s now (its client presented the seat token): the
        messages to resend, from message ``received`` (clamped to the messages kept:
        from the deal's ``beginning``), then the pending request again if the client
        had it already."""
        remote = self.remotes[seat]
        if remote.grace is not None:
            remote.grace.cancel()
            remote.grace = None
        remote.connect(connection)
        remote.refused = 0
        start = remote.log_start if received is None else min(max(received, remote.log_start), remote.sent)
        texts = remote.log[start - remote.log_start:]
        asked = self._asked
        pending = self._pending
        if asked is not None and asked[0] == seat and asked[1] < start and pending is not None and pending[0] == seat:
            remote.log.append(asked[2])  # a new message of the seat's sequence
            remote.sent += 1
            texts.append(asked[2])
            # its latest copy: a client that reconnects again with the same count gets this one
            self._asked = (seat, remote.sent - 1, asked[2])
        return texts

    async def resend(self, seat: int, connection: ServerConnection, texts: list[str]) -> None:
        """Send ``texts`` to ``seat`` on ``connection`` (before any newer message)."""
        remote = self.remotes[seat]
        async with remote.lock:
            for text in texts:
                if remote.connection is not connection:
                    return
                try:
                    await send_within(connection, text, self.server.config.send_timeout)
                except ConnectionClosed:
                    return  # the seat's handler sees the end
                except SlowPeer as e:
                    self.abort(f"{self.label(seat)} {e}")
                    return
                self.server.stats.sent += 1

    # -- the game ---------------------------------------------------------------------------------
    async def run(self) -> None:
        """Play every game of the table, then close its connections."""
        cfg = self.server.config
        if not self.server.stats.started:
            self.server.stats.started = time.perf_counter()
            self.server.stats.cpu_started = time.process_time()
        wins = [0, 0]
        draws = 0
        try:
            for g in range(cfg.games):
                game = ProtocolGame(match_deal(self._seed, g), game=g + 1, games=cfg.games, table=self.index)
                self.game = game
                events = game.events()
                answer: int | None = None
                while True:
                    try:
                        event = events.send(answer)
                    except StopIteration as stop:
                        outcome = stop.value
                        break
                    answer = None
                    if isinstance(event, Notify):
                        await self._notify(event.to, event.message)
                    elif isinstance(event, Ask):
                        answer = await self._ask(event)
                        self.server.view.touch(self.index)
                        if cfg.pace:
                            await asyncio.sleep(cfg.pace)
                    elif isinstance(event, Recorded):
                        self.server.write_record(event.line)
                if outcome.winner is None:
                    draws += 1
                    what = f"a draw ({outcome.falls} falls from A)"
                else:
                    wins[outcome.winner] += 1
                    w = outcome.winner
                    what = f"won by team {w} ({self.names[w]}, {self.names[w + 2]})"
                log.info("table %d game %d/%d: %s after %d deals", self.index, g + 1, cfg.games, what, outcome.deals)
                self.server.write_record({"type": "game", "table": self.index, "game": g + 1,
                                          "matchSeed": game.seed, "winner": outcome.winner,
                                          "deals": outcome.deals, "falls": outcome.falls, "names": self.names})
            victory = [wins[s % 2] for s in range(SEATS)]
            await self._notify(tuple(range(SEATS)), {"type": "notify", "stage": "gameResult",
                                                     "victoryNum": victory, "draws": [draws] * SEATS})
            log.info("table %d done: victoryNum %s, draws %d", self.index, victory, draws)
        except TableAborted as e:
            log.error("table %d ended early: %s", self.index, e)
            self._write_abort(str(e))
        except asyncio.CancelledError:  # the server stops (Server.stop)
            self._aborted = self._aborted or "cancelled"
            log.error("table %d ended early: %s", self.index, self._aborted)
            self._write_abort(self._aborted)
            raise
        except Exception:
            log.exception("table %d ended by an internal error", self.index)
            self._aborted = self._aborted or "an internal error"
            self._write_abort(self._aborted)
        finally:
            self.done = True
            self._pending = None
            for r in self.remotes.values():
                if r.grace is not None:
                    r.grace.cancel()
            self.server.stats.ended = time.perf_counter()
            self.server.stats.cpu_ended = time.process_time()
            self.server.table_done()
            self.server.view.touch(self.index)
            code, why = (1000, "the table is done") if self._aborted is None else (1001, self._aborted)
            await asyncio.gather(*(drop(r.connection, code, why[:120]) for r in self.remotes.values()
                                   if r.connection is not None))

    def _write_abort(self, reason: str) -> None:
        """The record's ``abort`` line: the reason and the deal in progress as far as it went."""
        game = self.game
        line: dict[str, Any] = {"type": "abort", "table": self.index, "reason": reason, "names": self.names}
        if game is not None:
            line.update({"game": game.game, "deal": len(game.match.deals), "matchSeed": game.seed,
                         "actions": game.deal_actions()})
        self.server.write_record(line)

    async def _notify(self, to: Sequence[int], message: dict[str, Any]) -> None:
        """Send ``message`` to the remote seats of ``to`` (kept for a seat that is away)."""
        if self._aborted is not None:
            raise TableAborted(self._aborted)
        text = json.dumps(message)
        beginning = message.get("stage") == "beginning"
        for seat in to:
            remote = self.remotes.get(seat)
            if remote is None:
                continue
            if beginning:
                text = json.dumps({**message, "seatToken": remote.token})
                if remote.connection is not None:  # an away client still needs the deal before
                    remote.log, remote.log_start = [], remote.sent
            remote.log.append(text)
            remote.sent += 1
            if message["type"] == "act":
                self._asked = (seat, remote.sent - 1, text)
            connection = remote.connection
            if connection is None:
                continue
            async with remote.lock:
                if remote.connection is not connection:
                    continue  # taken back meanwhile: the resend has this message
                try:
                    await send_within(connection, text, self.server.config.send_timeout)
                except ConnectionClosed:
                    self.on_disconnect(seat, connection, lost=_lost(connection))
                    if self._aborted is not None:
                        raise TableAborted(self._aborted) from None
                    continue
                except SlowPeer as e:
                    self.abort(f"{self.label(seat)} {e}")
                    raise TableAborted(self._aborted) from None
            self.server.stats.sent += 1

    async def _ask(self, ask: Ask) -> int:
        if self._aborted is not None:
            raise TableAborted(self._aborted)
        stats = self.server.stats
        seat = ask.seat
        if seat in self.bots:
            index = await asyncio.to_thread(self._bot_index, seat, ask)
        else:
            loop = asyncio.get_running_loop()
            future: asyncio.Future[int] = loop.create_future()
            self._pending = (seat, ask.message["indexRange"], future)
            await self._notify((seat,), ask.message)
            if self._answered:
                stats.turnaround.append(time.perf_counter() - self._answered)
            sent = time.perf_counter()
            index = await self._answer(seat, future)
            self._answered = time.perf_counter()
            stats.roundtrip.append(self._answered - sent)
        stats.decisions += 1
        return index

    async def _answer(self, seat: int, future: asyncio.Future[int]) -> int:
        """The answer of ``seat``: the move timeout runs while it is connected (afresh on
        each connection); while it is away the table waits (its grace timer may end it)."""
        remote = self.remotes[seat]
        timeout = self.server.config.move_timeout
        while True:
            changed = asyncio.ensure_future(remote.changed.wait())
            connection = remote.connection
            try:
                waits: set[asyncio.Future[Any]] = {future, changed}
                done, _ = await asyncio.wait(waits, timeout=None if connection is None else timeout,
                                             return_when=asyncio.FIRST_COMPLETED)
            finally:
                changed.cancel()
            if future.done():
                return future.result()
            if changed in done:
                continue
            assert connection is not None
            why = f"did not answer within {timeout:g} s"
            future.cancel()  # nobody awaits it any more (abort forgets it)
            self.abort(f"{self.label(seat)} {why}")
            await drop(connection, 1008, why)
            raise TableAborted(self._aborted)

    def _bot_index(self, seat: int, ask: Ask) -> int:
        if ask.actions[0] is None:  # a forced payment
            return 0
        assert self.game is not None
        action = self.bots[seat].choose(self.game.match, self._rngs[seat])
        for i, a in enumerate(ask.actions):
            if a is action or a == action:
                return i
        raise RuntimeError(f"bot {self.kinds[seat]} chose {action!r}, not one of the legal actions")

    def snapshot(self) -> dict[str, Any] | None:
        """The table for the view (``None`` before its first game)."""
        if self.game is None:
            return None
        snap = self.game.snapshot(self.names, hands=self.server.config.view_hands)
        snap["done"] = self.done
        snap["aborted"] = self._aborted
        for s, seat in enumerate(snap["seats"]):
            remote = self.remotes.get(s)
            seat["away"] = remote is not None and remote.connection is None  # it may take its seat back
        return snap


class Server:
    """The server: tables, seating, the record, the view.  See :func:`serve_forever`."""

    def __init__(self, config: ServerConfig, announce: TextIO | None = None) -> None:
        self.config = config
        #: where the address is printed once the port is bound (one line, even when quiet)
        self.announce = announce
        self.stats = Stats()
        self.tables = [Table(self, t) for t in range(config.tables)]
        self.view = LiveView(self._snapshot, config.tables, config.send_timeout)
        self.replay = ReplaySource(config.record, limit=config.replay_limit) if config.record is not None else None
        self._record: IO[str] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        #: seat token -> its table and seat (the remote seats of every table that started)
        self._seat_tokens: dict[str, tuple[Table, int]] = {}
        self.port = config.port
        self.ready = asyncio.Event()
        self._all_done = asyncio.Event()
        #: why the server was stopped before its tables were done (``None``: it was not)
        self.stopped: str | None = None
        #: the exit status :meth:`run` returns when stopped (``128 + signal`` for a signal)
        self._stop_status = 1
        #: the log of refused seat tokens (anyone may send them: at most one line a second)
        self._refusals = RateLimitedLog(log, REFUSAL_LOG_INTERVAL)

    def stop(self, reason: str = "the server was stopped", status: int = 1) -> None:
        """Stop serving before every table is done: :meth:`run` aborts each table still
        playing (its ``abort`` line names ``reason``), awaits it, closes the record and
        returns ``status``.  Safe to call more than once (the first reason is kept)."""
        if self.stopped is None:
            self.stopped = reason
            self._stop_status = status
            log.warning("%s: ending the tables still playing", reason)
        self._all_done.set()

    def on_signal(self, signum: int) -> None:
        """:meth:`stop` for a received signal (``SIGINT``, ``SIGTERM``): status ``128 + signum``."""
        self.stop(f"the server was stopped by {signal.Signals(signum).name}", 128 + signum)

    def table_done(self) -> None:
        """A table finished (or ended early): the server ends once every table has."""
        if all(t.done for t in self.tables):
            self._all_done.set()

    def _snapshot(self, table: int) -> dict[str, Any] | None:
        return self.tables[table].snapshot()

    def write_record(self, line: dict[str, Any]) -> None:
        """Append one JSON line to the record (if any)."""
        if self._record is not None:
            self._record.write(json.dumps(line) + "\n")
            self._record.flush()

    async def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        return await http_response(request.path, self.replay, self.config.token)

    async def _handler(self, connection: ServerConnection) -> None:
        path = connection.request.path if connection.request is not None else ""
        route = path.split("?", 1)[0]
        if route == "/watch":
            await self.view.watch(connection)
            return
        name = route[len("/game/"):]
        if not NAME_PATTERN.fullmatch(name):
            log.warning("refused connection from %s: bad name %r", _peer(connection), name[:40])
            await connection.close(1008, "the name must be 1-32 of A-Z a-z 0-9 _ . -")
            return
        query = parse_qs(urlsplit(path).query)
        if "seatToken" in query:
            await self._take_back(connection, query)
            return
        table = next((t for t in self.tables if not t.started and t.free_seats), None)
        if table is None:
            log.warning("refused connection %r from %s: every seat is taken", name, _peer(connection))
            await connection.close(1013, "every seat is taken")
            return
        seat = table.free_seats[0]
        table.remotes[seat] = _Remote(connection, name)
        table.names[seat] = name
        log.info("connected %r from %s: table %d seat %d", name, _peer(connection), table.index, seat)
        if not table.free_seats:
            table.started = True
            for s, r in table.remotes.items():
                self._seat_tokens[r.token] = (table, s)
            log.info("table %d starts: %s", table.index, ", ".join(f"{s}={n}" for s, n in enumerate(table.names)))
            task = asyncio.create_task(table.run())
            self._tasks.add(task)
        await self._seat(table, seat, connection)

    async def _seat(self, table: Table, seat: int, connection: ServerConnection, resend: list[str] | None = None) -> None:
        """Read ``seat``'s messages on ``connection`` (after resending ``resend``) until it ends."""
        try:
            if resend:
                await table.resend(seat, connection, resend)
            async for raw in connection:
                table.on_message(seat, raw, connection)
        except ConnectionClosed:
            pass
        finally:
            table.on_disconnect(seat, connection, lost=_lost(connection))

    async def _take_back(self, connection: ServerConnection, query: dict[str, list[str]]) -> None:
        """A client presenting a seat token: its seat back, or refused (1008)."""
        found = self._seat_tokens.get(query["seatToken"][0])
        if found is None or found[0].done or found[0]._aborted is not None:
            self._refusals.warning("refused a reconnection from %s: no seat to take back with that seat token",
                                   _peer(connection))
            await connection.close(1008, "no seat to take back with this seat token (unknown, or its table is over)")
            return
        table, seat = found
        raw = query.get("received", [""])[0]
        received = int(raw) if _COUNT.fullmatch(raw) else None
        old = table.remotes[seat].connection
        texts = table.take_back(seat, connection, received)
        if old is not None:
            log.warning("%s took its seat back on a new connection from %s; the old one is closed",
                        table.label(seat), _peer(connection))
            task = asyncio.get_running_loop().create_task(drop(old, 1008, "replaced by a new connection to this seat"))
            self._tasks.add(task)
        else:
            log.warning("%s took its seat back from %s (%d message(s) resent)", table.label(seat),
                        _peer(connection), len(texts))
        self.view.touch(table.index)
        await self._seat(table, seat, connection, texts)

    async def run(self) -> int:
        """Serve until every table is done; 0 if every table played to the end, else 1."""
        cfg = self.config
        if cfg.record is not None:
            self._record = open(cfg.record, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
            self.write_record(header_line(cfg.games, int(cfg.seed or 0), cfg.tables, cfg.seats))
        for t in self.tables:
            if not t.free_seats:  # a table of bots only
                t.started = True
                self._tasks.add(asyncio.create_task(t.run()))
        viewer = asyncio.create_task(self.view.run())
        try:
            async with serve(self._handler, cfg.host, cfg.port, process_request=self._http,
                             process_response=pad_handshake, create_connection=HttpConnection, max_size=MAX_CLIENT_MESSAGE,
                             ping_interval=20, ping_timeout=60) as ws:
                self.port = _bound_port(ws, cfg.port)
                log.info("chupai serve guandan: %d table(s) x %d game(s), seed %d, seats %s",
                         cfg.tables, cfg.games, cfg.seed, ",".join(cfg.seats))
                log.info("listening on ws://%s:%d/game/<name>; table view http://%s:%d/",
                         cfg.host, self.port, cfg.host, self.port)
                warning = exposure_warning(cfg.host, cfg.token)
                if warning is not None:
                    log.warning("%s", warning)
                if self.announce is not None:
                    print(f"chupai: serving on ws://{cfg.host}:{self.port}/game/<name>; "
                          f"table view http://{cfg.host}:{self.port}/", file=self.announce, flush=True)
                self.ready.set()
                await self._all_done.wait()
                if self.stopped is not None:
                    await self._end_tables(self.stopped)
                await asyncio.gather(*self._tasks, return_exceptions=True)
                await self.view.close()
        finally:
            viewer.cancel()
            if self.replay is not None:
                await self.replay.close()
            if self._record is not None:
                self._record.close()
                self._record = None
        complete = all(t._aborted is None for t in self.tables)
        if self.stopped is not None:
            interrupted = sum(t.started and t._aborted == self.stopped for t in self.tables)
            log.warning("%s: %d table(s) interrupted; %s", self.stopped, interrupted, self.stats.summary())
            return self._stop_status
        log.info("all tables done: %s", self.stats.summary())
        return 0 if complete else 1

    async def _end_tables(self, reason: str) -> None:
        """Abort every table still playing and wait for each to write its ``abort`` line
        and close its connections (a table busy in a bot's decision is cancelled)."""
        for t in self.tables:
            if t.started and not t.done:
                t.abort(reason)  # a table waiting for a client's answer ends at once
            t.done = t.done or not t.started
        tasks = [task for task in self._tasks if not task.done()]
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=STOP_GRACE)
            for task in late:
                task.cancel()


def _bound_port(ws: WsServer, default: int) -> int:
    for sock in ws.sockets:
        return int(sock.getsockname()[1])
    return default


def _lost(connection: ServerConnection) -> bool:
    """Whether ``connection`` was lost (no close frame from the peer, and none from the
    server but the one of a keepalive timeout: the peer vanished or stopped answering
    pings) rather than closed by the client or dropped by the server."""
    protocol = connection.protocol
    sent = protocol.close_sent
    return protocol.close_rcvd is None and (sent is None or sent.code == CloseCode.INTERNAL_ERROR)


def _peer(connection: ServerConnection) -> str:
    addr = connection.remote_address
    return f"{addr[0]}:{addr[1]}" if isinstance(addr, tuple) and len(addr) >= 2 else str(addr)


def serve_forever(config: ServerConfig, announce: TextIO | None = None) -> int:
    """Run a server until every table is done (``chupai serve guandan``); the exit
    status.  ``announce``: a stream to print the address on once the port is bound.
    ``SIGINT`` and ``SIGTERM`` stop it cleanly (:meth:`Server.stop`): status ``128 +
    signal``."""

    async def main() -> int:
        server = Server(config, announce)
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, server.on_signal, signum)
        try:
            return await server.run()
        finally:
            for signum in (signal.SIGINT, signal.SIGTERM):
                loop.remove_signal_handler(signum)

    return asyncio.run(main())
