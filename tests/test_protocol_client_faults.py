"""chupai's protocol client against servers that misbehave, over real sockets on loopback:
a server that accepts every reconnection and drops it again, a server whose
``actionList`` lacks the bot's play."""
from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve

from chupai.guandan.protocol import Client
from chupai.guandan.protocol.client import MAX_RETRY_DELAY

HAND = ["S2", "H2", "C2", "D2", "S3", "H3", "C3", "D3", "S4", "H4", "C4", "D4", "S5", "H5", "C5", "D5",
        "S6", "H6", "C6", "D6", "S7", "H7", "C7", "D7", "S8", "H8", "C8"]


async def flapping_server(connections: list[str]) -> tuple[Any, int]:
    """A server that seats the first client (a ``beginning`` with a seat token), then
    cuts every connection without a close frame, the reconnections at once."""

    async def handler(ws: ServerConnection) -> None:
        path = ws.request.path if ws.request is not None else ""
        connections.append(path)
        if "seatToken" not in path:
            await ws.send(json.dumps({"type": "notify", "stage": "beginning", "handCards": HAND, "myPos": 0,
                                      "seatToken": "T"}))
            await asyncio.sleep(0.05)
        ws.transport.abort()

    server = await serve(handler, "127.0.0.1", 0)
    return server, int(next(iter(server.sockets)).getsockname()[1])


def test_join_gives_up_when_every_reconnection_is_dropped_again() -> None:
    budget = 3.0

    async def main() -> tuple[float, list[str], Client, BaseException]:
        connections: list[str] = []
        server, port = await flapping_server(connections)
        client = Client(f"ws://127.0.0.1:{port}/game/me", bot="random", reconnect=budget)
        started = time.monotonic()
        with pytest.raises(ValueError) as info:
            await asyncio.wait_for(client.play(), 10 * budget)  # a loop that never ends times out here
        server.close()
        return time.monotonic() - started, connections, client, info.value

    took, connections, client, error = asyncio.run(main())
    assert "could not keep the seat" in str(error) and f"the budget is {budget:g} s" in str(error)
    assert took < budget + MAX_RETRY_DELAY + 2
    # the seat was taken back each time, and the waits grew across those reconnections
    assert client.reconnections == len(connections) - 1 >= 3
    assert all("seatToken=T" in p for p in connections[1:])
    assert len(connections) < 12


class PairBot:
    """Leads a pair, whatever the server lists."""

    def choose(self, state: Any, rng: Any) -> Any:
        return next(a for a in state.legal_actions() if str(a).startswith("pair"))


def test_a_play_missing_from_the_servers_list_is_named(caplog: pytest.LogCaptureFixture) -> None:
    """The server lists two singles; the bot leads a pair: a warning naming the play and
    entry 0 (strict: the list is refused as not the state's legal plays)."""
    request = {"type": "act", "stage": "play", "handCards": HAND,
               "publicInfo": [{"rest": 27, "playArea": None} for _ in range(4)],
               "selfRank": "2", "oppoRank": "2", "curRank": "2", "curPos": -1, "curAction": None,
               "greaterPos": -1, "greaterAction": None,
               "actionList": [["Single", "3", ["S3"]], ["Single", "4", ["S4"]]], "indexRange": 1}
    answers: list[Any] = []

    async def handler(ws: ServerConnection) -> None:
        await ws.send(json.dumps({"type": "notify", "stage": "beginning", "handCards": HAND, "myPos": 0}))
        await ws.send(json.dumps(request))
        answers.append(json.loads(await ws.recv()))
        await ws.send(json.dumps({"type": "notify", "stage": "gameResult", "victoryNum": [0, 0, 0, 0],
                                  "draws": [0, 0, 0, 0]}))
        await ws.wait_closed()

    async def main(strict: bool) -> None:
        async with serve(handler, "127.0.0.1", 0) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            await Client(f"ws://127.0.0.1:{port}/game/me", bot=PairBot(), strict=strict).play()

    with pytest.raises(ValueError, match=r"actionList \(2 entries\) differs from the rebuilt state's"):
        asyncio.run(main(True))
    assert answers == []
    asyncio.run(main(False))
    assert answers == [{"actIndex": 0}]
    assert "the server's actionList (2 entries) lacks the bot's play [\"Pair\"" in caplog.text
