"""Protocol clients for the tests, written from docs/protocol.md (not from chupai's client).

Each client checks every message it receives (the shapes, and its own bookkeeping of
hands and cards left), checks every play request's ``actionList`` against
``chupai.guandan.legal_plays`` under the competition preset, and answers with an index
chosen by a seeded rule that reads only the message (so a run is reproducible).

* :class:`Ws4pyBot`: ws4py's threaded client, as the published competition bots are;
* :func:`async_bot`: a ``websockets`` asyncio client;
* :func:`sync_bot`: a ``websockets`` synchronous (threaded) client.
"""
from __future__ import annotations

import asyncio
import json
import random
import threading
from collections import Counter
from typing import Any

from websockets.asyncio.client import connect as async_connect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as sync_connect
from ws4py.client.threadedclient import WebSocketClient  # type: ignore[import-untyped]

from chupai.guandan import Rules, from_protocol, legal_plays
from chupai.guandan.protocol.shapes import check_message

RULES = Rules.competition()
PASS = ["PASS", "PASS", "PASS"]
CARD_RANK = "23456789TJQKA"


def _key(action: list[Any]) -> tuple[Any, ...]:
    return (action[0], action[1], tuple(sorted(action[2])) if isinstance(action[2], list) else action[2])


def _chupai_cards(cards: list[str]) -> str:
    """Protocol cards ('S7', 'SB', 'HR') in chupai's notation ('7S', 'BJ', 'RJ')."""
    return " ".join("BJ" if c == "SB" else "RJ" if c == "HR" else c[1] + c[0] for c in cards)


def expected_plays(msg: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The legal actions of a play request, computed with legal_plays (PASS first when following)."""
    level = msg["curRank"]
    previous = None
    if msg["greaterAction"] is not None:
        previous = from_protocol(msg["greaterAction"], level, RULES)
    plays = legal_plays(_chupai_cards(msg["handCards"]), level, previous, rules=RULES)
    keys = [_key(p.to_protocol()) for p in plays]
    return ([_key(PASS)] if previous is not None else []) + keys


class Bookkeeper:
    """One seat's own account of a game, from the messages alone."""

    def __init__(self, style: str, seed: int) -> None:
        self.style = style
        self.rng = random.Random(seed)
        self.my_pos = -1
        self.hand: Counter[str] = Counter()
        self.rest = [27] * 4
        self.counts: Counter[str] = Counter()
        self.acts = 0
        self.result: dict[str, Any] | None = None
        self.errors: list[str] = []

    def take(self, msg: dict[str, Any]) -> int | None:
        """Check and account for ``msg``; the answer index if it is a request."""
        check_message(msg)
        kind, stage = msg["type"], msg["stage"]
        self.counts[f"{kind}.{stage}"] += 1
        if kind == "act":
            return self._act(msg)
        if stage == "beginning":
            self.my_pos = msg["myPos"]
            self.hand = Counter(msg["handCards"])
            self.rest = [27] * 4
            assert len(msg["handCards"]) == 27
        elif stage == "play":
            action = msg["curAction"]
            if action[0] != "PASS":
                self.rest[msg["curPos"]] -= len(action[2])
                if msg["curPos"] == self.my_pos:
                    self.hand -= Counter(action[2])
        elif stage in ("tribute", "back"):
            for giver, taker, card in msg["result"]:
                if giver == self.my_pos:
                    self.hand[card] -= 1
                if taker == self.my_pos:
                    self.hand[card] += 1
        elif stage == "episodeOver":
            rest = {pos: cards for pos, cards in msg["restCards"]}
            assert set(rest) == {s for s in range(4) if self.rest[s]}, (rest, self.rest)
            if self.my_pos in rest:
                assert Counter(rest[self.my_pos]) == +self.hand
        elif stage == "gameResult":
            self.result = msg
        return None

    def _act(self, msg: dict[str, Any]) -> int:
        self.acts += 1
        stage = msg["stage"]
        assert Counter(msg["handCards"]) == +self.hand, "handCards differ from my own account"
        if stage == "play":
            assert [p["rest"] for p in msg["publicInfo"]] == self.rest
            got = [_key(a) for a in msg["actionList"]]
            assert len(set(got)) == len(got), "duplicate entries in actionList"
            want = expected_plays(msg)
            assert got[:1] == want[:1] and sorted(got) == sorted(want), "actionList is not legal_plays"
        n = msg["indexRange"] + 1
        if self.style == "random" or stage != "play":
            return self.rng.randrange(n)
        plays = [i for i, a in enumerate(msg["actionList"]) if a[0] != "PASS"]
        if not plays:
            return 0
        return plays[-1] if self.style == "last" else plays[0]


class Ws4pyBot(WebSocketClient):  # type: ignore[misc]
    """A bot built like the published ones: ws4py's threaded client, stock (nothing of
    ws4py overridden but the three callbacks a bot writes), fields by name."""

    def __init__(self, url: str, style: str = "random", seed: int = 0, junk: bool = False) -> None:
        super().__init__(url)
        self.book = Bookkeeper(style, seed)
        self.junk = junk
        self.done = threading.Event()
        self.failure: BaseException | None = None

    def received_message(self, message: Any) -> None:
        try:
            msg = json.loads(str(message))
            index = self.book.take(msg)
            if index is not None:
                if self.junk:
                    self.send("not json {")
                    self.send(json.dumps({"actIndex": msg["indexRange"] + 1}))
                    self.send(json.dumps({"actIndex": str(index)}))
                self.send(json.dumps({"actIndex": index}))
        except BaseException as e:  # report in the test thread
            self.failure = e
            self.close()

    def closed(self, code: int, reason: str | None = None) -> None:
        self.done.set()


async def async_bot(url: str, style: str = "random", seed: int = 0, junk: bool = False) -> Bookkeeper:
    """A ``websockets`` asyncio client; returns its bookkeeping once the server closes."""
    book = Bookkeeper(style, seed)
    async with async_connect(url, max_size=None) as ws:
        try:
            async for raw in ws:
                msg = json.loads(raw)
                index = book.take(msg)
                if index is None:
                    continue
                if junk:
                    for bad in ("{nope", "[]", json.dumps({"actIndex": -1}), json.dumps({"actIndex": True}),
                                json.dumps({"actIndex": 1.5}), json.dumps({"index": 0}), "null"):
                        await ws.send(bad)
                    await ws.send(b"\x00\xff")
                await ws.send(json.dumps({"actIndex": index}))
        except ConnectionClosed:
            pass
    return book


def sync_bot(url: str, style: str = "first", seed: int = 0) -> tuple[threading.Thread, dict[str, Any]]:
    """A ``websockets`` synchronous client in a thread; ``out["book"]`` when it ends."""
    out: dict[str, Any] = {}

    def run() -> None:
        book = Bookkeeper(style, seed)
        out["book"] = book
        try:
            with sync_connect(url, max_size=None) as ws:
                for raw in ws:
                    index = book.take(json.loads(raw))
                    if index is not None:
                        ws.send(json.dumps({"actIndex": index}))
        except ConnectionClosed:
            pass
        except BaseException as e:
            out["failure"] = e

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, out


async def wait_thread(thread: threading.Thread, timeout: float) -> None:
    """Join ``thread`` without blocking the event loop."""
    await asyncio.to_thread(thread.join, timeout)
    assert not thread.is_alive(), "client thread did not finish"
