"""A protocol client: a chupai bot (or your own) at any server speaking ``docs/protocol.md``.

>>> from chupai.guandan.protocol import Client
>>> client = Client("ws://127.0.0.1:23456/game/client1", bot="greedy")  # doctest: +SKIP
>>> state = client.run()                                                 # doctest: +SKIP

The client rebuilds its own state from the messages (:class:`ClientState`): its hand,
the levels, the tribute, every play of the deal.  For each ``act`` of the card play
the bot chooses on a :class:`chupai.guandan.Deal` consistent with that state (the
other hands' unseen cards drawn at random: a bot that looks at them sees noise; the
Monte Carlo bot determinizes as usual).  Tribute: the first listed card (they are all
of the highest rank); return: the lowest card in level order.  Subclass and override
:meth:`Client.choose` (``message -> index``) for a bot of your own.

Every message is checked against the shapes of ``docs/protocol.md`` before it is used
(:func:`parse_message`): a server that sends a malformed message (bad JSON, deep
nesting, a missing field, ``myPos`` out of range), a message over
:data:`MAX_SERVER_MESSAGE` bytes, or nothing for ``timeout`` seconds ends the client
with a ``ValueError`` naming it.

A server that refuses the client before any message (every seat taken, close code
1013; a bad name or token, 1008 or HTTP 403) ends :meth:`Client.run` with
:class:`SeatRefused` (a ``ValueError``) naming the server's reason.  A connection lost
during play (no close frame from the server) is taken up again: the client connects
again with the seat token of its ``beginning`` messages (``docs/protocol.md``), the
server resends what it missed, and play goes on.  The time spent taking the seat back
is bounded per game: ``reconnect`` seconds in all, however many times the connection
is lost, and the wait between two attempts grows (from :data:`RETRY_DELAY` to
:data:`MAX_RETRY_DELAY`, doubling) across the reconnections of a game, so a server that
accepts each reconnection and drops it again ends the client with a ``ValueError``.
"""
from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import numpy as np
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from chupai.guandan.protocol._adapter import SEATS, action_key, lowest_return, rebuild_deal
from chupai.guandan.protocol.shapes import MESSAGES, check_message
from chupai.core.validate import check_number, check_positive_int
from chupai.players.search.registry import as_bot

__all__ = ["MAX_RETRY_DELAY", "MAX_SERVER_MESSAGE", "RECONNECT", "RETRY_DELAY", "SERVER_TIMEOUT", "Client",
           "ClientState", "SeatRefused", "parse_message"]

log = logging.getLogger("chupai.guandan.protocol.client")

#: the largest message taken from a server (the longest request, a lead with every
#: wild-card choice of 27 cards, is far smaller)
MAX_SERVER_MESSAGE = 4 << 20
#: seconds without a message from the server before the client gives up
SERVER_TIMEOUT = 300.0
#: seconds a client may spend taking its seat back, in all, during one game
RECONNECT = 30.0
#: seconds before the first attempt to take the seat back; doubled at each attempt of a game
RETRY_DELAY = 0.1
#: the longest wait between two attempts
MAX_RETRY_DELAY = 2.0


class SeatRefused(ValueError):
    """The server refused the client before any message: ``code`` is the close code
    (``None`` for an HTTP refusal), ``reason`` the server's words."""

    def __init__(self, code: int | None, reason: str) -> None:
        self.code = code
        self.reason = reason
        how = f"close code {code}" if code is not None else "at the handshake"
        super().__init__(f"the server refused this client: {reason or 'no reason given'} ({how})")


def parse_message(raw: str | bytes) -> dict[str, Any] | None:
    """A server message, checked (``ValueError`` naming what is wrong); ``None`` for a
    JSON object of a type and stage the protocol does not have (ignored, as bots do)."""
    try:
        msg = json.loads(raw)
    except RecursionError:
        raise ValueError("a message from the server is nested too deeply") from None
    except ValueError as e:  # json.JSONDecodeError, UnicodeDecodeError
        raise ValueError(f"a message from the server is not JSON: {e}") from None
    if not isinstance(msg, dict):
        raise ValueError(f"a message from the server is a JSON object, not {type(msg).__name__}")
    if (msg.get("type"), msg.get("stage")) not in MESSAGES:
        return None
    try:
        check_message(msg)
    except ValueError as e:
        raise ValueError(f"a malformed message from the server: {e}"[:300]) from None
    return msg


class ClientState:
    """What a client has been told, updated by :meth:`update` with every message.

    Attributes: ``my_pos``, ``hand`` (its cards now, protocol spelling), ``dealt``
    (the cards of ``beginning``), ``ranks`` (``selfRank``, ``oppoRank``,
    ``curRank`` of the last request), ``tribute`` / ``back`` (the transfers of this
    deal), ``anti`` (resisting seats), ``plays`` (every ``(seat, action)`` of the card
    play of this deal), ``episodes`` (the ``episodeOver`` messages of this game),
    ``games`` (``gameOver`` messages), ``result`` (the ``gameResult`` message),
    ``messages`` (how many were received).
    """

    def __init__(self) -> None:
        self.my_pos = -1
        self.hand: list[str] = []
        self.dealt: list[str] = []
        self.ranks: tuple[str, str, str] = ("2", "2", "2")
        self.tribute: list[list[Any]] = []
        self.back: list[list[Any]] = []
        self.anti: list[int] = []
        self.plays: list[tuple[int, list[Any]]] = []
        self.episodes: list[dict[str, Any]] = []
        self.games: list[dict[str, Any]] = []
        self.result: dict[str, Any] | None = None
        self.messages = 0

    def update(self, msg: dict[str, Any]) -> None:
        """Take one server message into account."""
        self.messages += 1
        kind, stage = msg.get("type"), msg.get("stage")
        if kind == "act":
            self.hand = list(msg["handCards"])
            self.ranks = (msg["selfRank"], msg["oppoRank"], msg["curRank"])
            return
        if stage == "beginning":
            self.my_pos = int(msg["myPos"])
            self.hand = list(msg["handCards"])
            self.dealt = list(msg["handCards"])
            self.tribute, self.back, self.anti, self.plays = [], [], [], []
        elif stage == "play":
            self.plays.append((int(msg["curPos"]), list(msg["curAction"])))
            if msg["curPos"] == self.my_pos and msg["curAction"][0] != "PASS":
                for card in msg["curAction"][2]:
                    _discard(self.hand, card)
        elif stage == "tribute":
            self.tribute = [list(t) for t in msg["result"]]
            self._transfer(self.tribute)
        elif stage == "back":
            self.back = [list(t) for t in msg["result"]]
            self._transfer(self.back)
        elif stage == "anti-tribute":
            self.anti = list(msg["antiPos"])
        elif stage == "episodeOver":
            self.episodes.append(msg)
        elif stage == "gameOver":
            self.games.append(msg)
            self.episodes = []
        elif stage == "gameResult":
            self.result = msg

    def _transfer(self, transfers: list[list[Any]]) -> None:
        for giver, taker, card in transfers:
            if giver == self.my_pos:
                _discard(self.hand, card)
            if taker == self.my_pos:
                self.hand.append(card)

    @property
    def levels(self) -> tuple[str, str]:
        """The levels of team 0 and team 1."""
        mine, theirs, _ = self.ranks
        return (mine, theirs) if self.my_pos % 2 == 0 else (theirs, mine)

    def hand_at_play(self) -> list[str]:
        """The client's hand when the card play of this deal started."""
        start = list(self.hand)
        for seat, action in self.plays:
            if seat == self.my_pos and action[0] != "PASS":
                start.extend(action[2])
        return start

    def known(self) -> list[list[str]]:
        """Per seat, the cards known to be in that hand when the card play started."""
        out: list[list[str]] = [[] for _ in range(SEATS)]
        for _giver, taker, card in self.tribute + self.back:
            out[taker].append(card)
        for giver, _taker, card in self.back:
            if card in out[giver]:
                out[giver].remove(card)
        return out

    def deal(self, rng: np.random.Generator | None = None) -> Any:
        """A ``chupai.guandan.Deal`` consistent with this state, at the current decision."""
        leader = self.plays[0][0] if self.plays else self.my_pos
        return rebuild_deal(self.my_pos, self.hand_at_play(), self.plays, leader, self.levels,
                            self.ranks[2], self.known(), rng)


class Client:
    """Plays one seat: connects to ``url``, answers every ``act`` until ``gameResult``.

    Args:
        url: ``ws://HOST:PORT/game/<name>``.
        bot: a bot spec (:mod:`chupai.players.search.registry`: ``"greedy"``, ``"mc:50"``,
            ``"ismcts:20ms"``, ``"net:PATH"``, ``"module:attr"`` ...) or a bot object
            (``choose(state, rng)``); ``None`` only in a subclass overriding
            :meth:`choose`.
        seed: the bot's random generator seed.
        playouts: the Monte Carlo bot's playouts per decision.
        strict: refuse a message of a type the protocol does not have, and check
            every play request's ``actionList`` against the rebuilt state's legal plays
            (``ValueError``).
        timeout: seconds without a message from the server before giving up
            (``ValueError``).
        reconnect: seconds the client may spend, in all during one game, taking its
            seat back (with the seat token) after the connection is lost during play;
            0: give up at once.

    :meth:`run` raises :class:`SeatRefused` if the server refuses the client before
    any message; after the table ended early it returns the state without ``result``
    (``closed`` is the server's close code and reason).
    """

    def __init__(self, url: str, bot: Any = "greedy", *, seed: int = 0, playouts: int = 200,
                 strict: bool = False, timeout: float = SERVER_TIMEOUT, reconnect: float = RECONNECT) -> None:
        if not isinstance(url, str) or not url.startswith(("ws://", "wss://")):
            raise ValueError(f"url must be a ws:// or wss:// address, not {url!r}")
        self.timeout = check_number(timeout, "timeout", 0, above=True)
        self.reconnect = check_number(reconnect, "reconnect", 0)
        #: the seat token of the latest ``beginning`` (``None`` before one)
        self.seat_token: str | None = None
        #: every message received (the ``received`` count of a reconnection)
        self.received = 0
        #: how many times the seat was taken back after a lost connection
        self.reconnections = 0
        #: seconds spent taking the seat back in the current game, and the next wait
        self._away = 0.0
        self._delay = RETRY_DELAY
        #: the server's close code and reason (``None`` until it closed the connection)
        self.closed: tuple[int | None, str] | None = None
        #: the websocket in use (``None`` between connections)
        self.connection: Any = None
        self.url = url
        self.bot = as_bot(bot, playouts=check_positive_int(playouts, "playouts"))
        self.rng = np.random.default_rng(seed)
        self.strict = strict
        self.state = ClientState()
        self.decisions = 0

    def choose(self, message: dict[str, Any]) -> int:
        """The ``actIndex`` to answer a request ``message`` with (after ``state`` took it).

        Tribute: the first card that is not the heart of the level (a server may list
        it); return: the lowest card.  Play: the bot's choice on the rebuilt state; if
        the state cannot be rebuilt or the ``actionList`` lacks the bot's play (a server
        whose rules differ from the competition preset), a warning naming it and the
        first entry (a pass when following); ``strict``: a ``ValueError`` instead.
        """
        actions = message["actionList"]
        stage = message["stage"]
        if stage == "back":
            return lowest_return(actions, message["curRank"])
        if stage == "tribute":
            wild = "H" + message["curRank"]
            return next((i for i, a in enumerate(actions) if a[2] != [wild]), 0)
        if len(actions) == 1:
            return 0
        try:
            deal = self.state.deal(self.rng)
        except ValueError as e:
            if self.strict:
                raise
            log.warning("cannot rebuild the deal from the messages (%s); answering with entry 0", e)
            return 0
        keys = [action_key(a) for a in actions]
        if self.strict:
            legal = sorted(action_key(_form(a)) for a in deal.legal_actions())
            if legal != sorted(keys):
                raise ValueError(f"actionList ({len(keys)} entries) differs from the rebuilt state's "
                                 f"{len(legal)} legal plays")
        if self.bot is None:
            raise ValueError("a Client without a bot must override choose()")
        play = _form(self.bot.choose(deal, self.rng))
        key = action_key(play)
        if key not in keys:  # not when strict: the list was checked above
            log.warning("the server's actionList (%d entries) lacks the bot's play %s (the server's rules "
                        "differ from the competition preset); answering with entry 0", len(keys), json.dumps(play))
            return 0
        return keys.index(key)

    def on_message(self, message: dict[str, Any]) -> None:
        """A hook called with every message after ``state`` took it."""

    def _url(self) -> str:
        """The address to connect to: with the seat token and the count of messages
        received once the client has a seat to take back."""
        if self.seat_token is None:
            return self.url
        parts = urlsplit(self.url)
        query = [(k, v) for k, v in parse_qsl(parts.query) if k not in ("seatToken", "received")]
        query += [("seatToken", self.seat_token), ("received", str(self.received))]
        return urlunsplit(parts._replace(query=urlencode(query)))

    async def play(self) -> ClientState:
        """Connect and play until the server sends ``gameResult`` or closes; a lost
        connection is taken up again (see ``reconnect``)."""
        lost_at: float | None = None
        while True:
            url = self._url()
            try:
                async with connect(url, max_size=MAX_SERVER_MESSAGE, ping_interval=20, ping_timeout=60) as ws:
                    if lost_at is not None:
                        self.reconnections += 1
                        self._away += time.monotonic() - lost_at
                        log.info("took the seat back after %.1f s", time.monotonic() - lost_at)
                    lost_at = None
                    self.connection = ws
                    try:
                        await self._session(ws)
                    finally:
                        self.connection = None
                    return self.state
            except ConnectionClosed as e:
                if 1009 in (e.sent.code if e.sent else None, e.rcvd.code if e.rcvd else None):
                    raise ValueError(f"a message from the server is over {MAX_SERVER_MESSAGE} bytes") from None
                if e.rcvd is not None:  # the server closed the connection
                    self.closed = (e.rcvd.code, e.rcvd.reason)
                    if self.received == 0:
                        raise SeatRefused(e.rcvd.code, e.rcvd.reason) from None
                    log.info("connection closed: %s", e)
                    return self.state
                if self.seat_token is None or not self.reconnect:
                    log.info("connection lost: %s", e)
                    return self.state
                log.warning("connection lost (%s): taking the seat back", e)
                lost_at = time.monotonic()
            except InvalidStatus as e:
                if lost_at is None:
                    raise SeatRefused(None, f"HTTP {e.response.status_code}") from None
            except (OSError, TimeoutError):
                if lost_at is None:
                    raise
            away = self._away + time.monotonic() - lost_at
            if away + self._delay > self.reconnect:
                raise ValueError(f"lost the connection and could not keep the seat: {away:.1f} s spent taking it "
                                 f"back in this game ({self.reconnections} time(s)), the budget is "
                                 f"{self.reconnect:g} s")
            await asyncio.sleep(self._delay)
            self._delay = min(2 * self._delay, MAX_RETRY_DELAY)

    async def _session(self, ws: Any) -> None:
        """Answer every request on ``ws`` until ``gameResult`` (``ConnectionClosed`` if it ends first)."""
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), self.timeout)
            except TimeoutError:
                raise ValueError(f"the server sent nothing for {self.timeout:g} s") from None
            self.received += 1
            msg = parse_message(raw)
            if msg is None:
                if self.strict:
                    raise ValueError(f"a message of no protocol type/stage from the server: {raw[:80]!r}")
                continue
            token = msg.get("seatToken")
            if isinstance(token, str) and msg.get("stage") == "beginning":
                self.seat_token = token
            self.state.update(msg)
            self.on_message(msg)
            if msg.get("type") == "act":
                index = await asyncio.to_thread(self.choose, msg)
                await ws.send(json.dumps({"actIndex": index}))
                self.decisions += 1
            elif msg.get("stage") == "gameOver":  # a new game: a new reconnection budget
                self._away, self._delay = 0.0, RETRY_DELAY
            elif msg.get("stage") == "gameResult":
                return

    def run(self) -> ClientState:
        """:meth:`play` in a new event loop (blocking)."""
        return asyncio.run(self.play())


def _discard(cards: list[str], card: str) -> None:
    # the next request's handCards is the server's word: a card not found is not an error here
    if card in cards:
        cards.remove(card)


def _form(action: Any) -> list[Any]:
    to_protocol = getattr(action, "to_protocol", None)
    if to_protocol is None:
        raise ValueError(f"the bot chose {action!r}, which has no protocol form")
    return list(to_protocol())
