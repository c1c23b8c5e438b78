"""A client of OpenGuanDan's server: chupai bots in OpenGuanDan rooms.

OpenGuanDan (GameAI-NJUPT, 2026) is the open Guan Dan platform of the group that ran the
competitions: a websocket server with rooms. Its game messages are those of the
competition protocol (``docs/protocol.md``, "The wire protocol"), so
:class:`~chupai.guandan.protocol.client.ClientState` follows the game and a bot chooses as at a
competition server; what differs is around them:

* a client first creates a room (``CREATE_ROOM`` with a user id, the number of games,
  a seat) or joins one (``JOIN_ROOM`` with the room id); the server answers with
  ``code`` 200 and the room, and a room starts when its four seats are taken;
* an answer names the action itself, not its index: ``PLAY`` (the card play),
  ``TRIBUTE``, ``PAYTRIBUTE`` (the return, with the ``tributePos`` and ``tribute`` of the
  request), each ``{"roomId", "player", "act"}`` with ``act`` an entry of the request's
  ``actionList``, as the server sent it;
* the end is ``gameResult`` with ``victory`` (the winning team) and ``victoryRank``;
* the four-joker bomb is ``["FourKings", "B", cards]`` (the competition's
  ``["Bomb", "JOKER", cards]``: :func:`competition_form`).

The server's action lists are chupai's legal plays under ``Rules.competition()`` but
for one kind of play: a full house whose triple is of the level rank with the two wild
cards as its pair (at level 7, ``C7 D7 S7 H7 H7``), which chupai lists and the server
does not (``bench/guandan/openguandan.py`` counts every difference). A bot that chooses a play
the server did not list plays the server's first entry instead, with a warning
(``unlisted`` counts them; ``strict`` raises).

A reply with a ``code`` other than 200 is a refusal: :class:`OpenGuanDanClient` counts
and logs it (``refused``), and a refused room request ends the client with a
``ValueError`` carrying the server's words.

>>> OpenGuanDanClient("ws://127.0.0.1:8181", bot="greedy", room=1, seat=4)
Traceback (most recent call last):
...
ValueError: seat must be an int 0..3, not 4
"""
from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from chupai.core.validate import check_optional_int, check_positive_int
from chupai.guandan.protocol.client import MAX_SERVER_MESSAGE, SERVER_TIMEOUT, Client, ClientState
from chupai.guandan.protocol.shapes import MESSAGES, check_message

__all__ = ["ANSWERS", "OpenGuanDanClient", "competition_form", "competition_message", "play_room"]

log = logging.getLogger("chupai.guandan.protocol.openguandan")

#: the message type that answers a request of each stage
ANSWERS = {"play": "PLAY", "tribute": "TRIBUTE", "back": "PAYTRIBUTE"}
OK = 200
#: the fields of a game message that hold an action, and the one that holds a list of them
ACTION_FIELDS = ("curAction", "greaterAction")


def competition_form(action: Any) -> Any:
    """A server action in the competition protocol's spelling (the four-joker bomb)."""
    if isinstance(action, list) and len(action) == 3 and action[0] == "FourKings":
        return ["Bomb", "JOKER", action[2]]
    return action


def competition_message(msg: dict[str, Any]) -> dict[str, Any]:
    """A game message of the server in the competition protocol's spelling, checked as
    :func:`chupai.guandan.protocol.shapes.check_message` checks a competition server's
    (``ValueError``); the game's result, whose fields differ, as it is."""
    if msg.get("stage") == "gameResult":
        if msg.get("victory") not in (0, 1):
            raise ValueError(f"a malformed gameResult from the server: victory {msg.get('victory')!r}")
        return msg
    out = dict(msg)
    for field in ACTION_FIELDS:
        if field in out:
            out[field] = competition_form(out[field])
    if isinstance(out.get("actionList"), list):
        out["actionList"] = [competition_form(a) for a in out["actionList"]]
    if isinstance(out.get("publicInfo"), list):
        # OpenGuanDan's entries hold the cards left only; the trick's plays come with the
        # play notifications
        out["publicInfo"] = [{"playArea": None, **e} if isinstance(e, dict) else e for e in out["publicInfo"]]
    checked = out
    if out.get("type") == "act" and out.get("stage") in ("tribute", "back") and "publicInfo" not in out:
        # OpenGuanDan's tribute and return requests carry no publicInfo (nor the trick's
        # fields, which the competition sends as -1 and null there): checked without them
        checked = {"publicInfo": [{"rest": 0, "playArea": None}] * 4, "curPos": -1, "curAction": None,
                   "greaterPos": -1, "greaterAction": None, **out}
    elif out.get("type") == "notify" and out.get("stage") == "play" and out.get("greaterPos") == -1:
        # after every other seat passed, OpenGuanDan names no seat holding the trick
        checked = {**out, "greaterPos": out.get("curPos"), "greaterAction": out.get("curAction")}
    try:
        check_message(checked)
    except ValueError as e:
        raise ValueError(f"a malformed message from the server: {e}"[:300]) from None
    return out


class OpenGuanDanClient(Client):
    """Plays one seat of an OpenGuanDan room: creates it (``room=None``) or joins it.

    Args:
        url: the server, ``ws://HOST:PORT`` (OpenGuanDan's default port is 8181).
        bot: a bot spec or a bot object, as :class:`~chupai.guandan.protocol.client.Client`.
        room: the room to join; ``None`` creates one (its id is then :attr:`room`).
        games: the games (matches to A) a created room plays.
        seat: the seat to ask for (0..3; ``None``: the server's choice).
        user: the user id, unique at the server (default ``chupai-<seat or room>``).
        seed, playouts, strict, timeout: as :class:`~chupai.guandan.protocol.client.Client`.

    Attributes: ``room`` (the room id once the server gave it), ``refused`` (the
    server's refusals of this client's answers), ``decisions``, ``state``.
    """

    def __init__(self, url: str, bot: Any = "greedy", *, room: int | None = None, games: int = 1,
                 seat: int | None = None, user: str | None = None, seed: int = 0, playouts: int = 200,
                 strict: bool = False, timeout: float = SERVER_TIMEOUT) -> None:
        super().__init__(url, bot, seed=seed, playouts=playouts, strict=strict, timeout=timeout)
        if room is not None:
            room = check_positive_int(room, "room")
        seat = check_optional_int(seat, "seat", 0, 3)
        if user is not None and (not isinstance(user, str) or not user):
            raise ValueError(f"user must be a non-empty str or None, not {user!r}")
        self.room = room
        self.create = room is None
        self.games = check_positive_int(games, "games")
        self.seat = seat
        self.user = user if user is not None else f"chupai-{'new' if room is None else room}-{seat}"
        self.refused: list[dict[str, Any]] = []
        self.unlisted = 0
        self.room_ready: asyncio.Future[int] | None = None

    def choose(self, message: dict[str, Any]) -> int:
        """The index into the request's ``actionList`` (``message`` in the competition
        spelling); the first entry, with a warning, for a play of the bot's that the
        server did not list (module doc)."""
        try:
            return super().choose(message)
        except ValueError as e:
            if self.strict or "is not in list" not in str(e):
                raise
            self.unlisted += 1
            log.warning("seat %d: the bot chose a play the server did not list; playing its first entry",
                        self.state.my_pos)
            return 0

    def greeting(self) -> dict[str, Any]:
        """The room request this client opens with."""
        data: dict[str, Any] = {"userId": self.user}
        if self.create:
            data["round"] = self.games
        else:
            data["roomId"] = self.room
        if self.seat is not None:
            data["seatNum"] = self.seat
        return {"type": "CREATE_ROOM" if self.create else "JOIN_ROOM", "data": data}

    def answer(self, message: dict[str, Any], index: int) -> dict[str, Any]:
        """The reply to a request ``message``: its ``actionList[index]`` by name."""
        stage = message.get("stage")
        if stage not in ANSWERS:
            raise ValueError(f"a request of stage {stage!r}; expected one of {tuple(ANSWERS)}")
        data: dict[str, Any] = {"roomId": self.room, "player": self.state.my_pos, "act": message["actionList"][index]}
        if stage == "back":
            data["tributePos"] = message["tributePos"]
            data["tribute"] = message["tribute"]
        return {"type": ANSWERS[stage], "data": data}

    def _reply(self, msg: dict[str, Any]) -> None:
        """Take the server's reply to a request of this client (a room, an action)."""
        code = msg.get("code")
        if msg.get("type") in ("CREATE_ROOM", "JOIN_ROOM"):
            if code != OK:
                raise ValueError(f"the server refused {msg.get('type')}: {json.dumps(msg)[:500]}")
            self.room = int(msg["data"]["roomId"])
            if self.room_ready is not None and not self.room_ready.done():
                self.room_ready.set_result(self.room)
        elif code is not None and code != OK:
            self.refused.append(msg)
            log.warning("the server refused an answer of seat %d: %s", self.state.my_pos, json.dumps(msg)[:500])

    async def play(self) -> ClientState:
        """Connect, take a room, and play until ``gameResult`` or the server closes."""
        async with connect(self.url, max_size=MAX_SERVER_MESSAGE, ping_interval=20, ping_timeout=60) as ws:
            await ws.send(json.dumps(self.greeting()))
            try:
                while True:
                    try:
                        raw = await asyncio.wait_for(ws.recv(), self.timeout)
                    except TimeoutError:
                        raise ValueError(f"the server at {self.url} sent nothing for {self.timeout:g} s") from None
                    try:
                        sent = json.loads(raw)
                    except (RecursionError, ValueError):
                        raise ValueError(f"a message from the server is not JSON: {raw[:80]!r}") from None
                    if not isinstance(sent, dict):
                        raise ValueError(f"a message from the server is a JSON object, not {type(sent).__name__}")
                    if (sent.get("type"), sent.get("stage")) not in MESSAGES:
                        self._reply(sent)  # a room's or an answer's reply
                        continue
                    msg = competition_message(sent)
                    if msg["stage"] == "gameResult":
                        self.state.result = msg
                        break
                    self.state.update(msg)
                    self.on_message(msg)
                    if msg["type"] == "act":
                        index = await asyncio.to_thread(self.choose, msg)
                        self.decisions += 1
                        await ws.send(json.dumps(self.answer(sent, index)))
            except ConnectionClosed as e:
                log.info("connection closed: %s", e)
        return self.state


async def play_room(url: str, bots: list[Any], *, games: int = 1, seed: int = 0, playouts: int = 200,
                    strict: bool = False, client_class: type[OpenGuanDanClient] = OpenGuanDanClient,
                    ) -> list[OpenGuanDanClient]:
    """Four chupai bots in one new OpenGuanDan room, seats 0..3 in the order of ``bots``:
    the first creates the room, the others join it once the server named it (each a
    ``client_class``, seeded ``seed + seat``)."""
    if len(bots) != 4:
        raise ValueError(f"bots must be four bot specs or bots (seats 0..3), not {len(bots)}")
    first = client_class(url, bots[0], games=games, seat=0, user=f"chupai-{seed}-0", seed=seed,
                              playouts=playouts, strict=strict)
    first.room_ready = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(first.play())
    ready: asyncio.Future[Any] = first.room_ready
    await asyncio.wait([task, ready], return_when=asyncio.FIRST_COMPLETED)
    if not first.room_ready.done():
        await task  # the creator ended before it had a room: its error, if any
        raise ValueError(f"the server at {url} gave no room")
    room = first.room_ready.result()
    others = [client_class(url, bot, room=room, seat=s, user=f"chupai-{seed}-{s}", seed=seed + s,
                                playouts=playouts, strict=strict) for s, bot in enumerate(bots[1:], 1)]
    await asyncio.gather(task, *(c.play() for c in others))
    return [first, *others]
