"""Taking a seat back after a lost connection, with real websocket clients on loopback:
the seat token of ``beginning``, the resend of what the client missed, the pending
request again, a wrong token, the grace running out, a reconnection while the old
connection is still open."""
from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from chupai.guandan.protocol import Client, SeatRefused, ServerConfig, load_match, read_record
from chupai.guandan.protocol.records import game_deals
from test_protocol_games import TIMEOUT, seated, start

SEATS = ["remote", "greedy", "greedy", "greedy"]


class Dropper(Client):
    """A chupai client whose connection is cut (its transport aborted: no close frame)
    at the messages numbered in ``drops``: an ``act`` it has not answered, or any other."""

    def __init__(self, url: str, drops: list[int], **kw: Any) -> None:
        super().__init__(url, **kw)
        self.drops = list(drops)
        self.dropped_at: list[tuple[int, str]] = []

    def on_message(self, message: dict[str, Any]) -> None:
        if self.drops and self.received >= self.drops[0]:
            self.drops.pop(0)
            self.dropped_at.append((self.received, message["type"]))
            self.connection.transport.abort()


async def first_act(ws: ClientConnection) -> tuple[int, str, dict[str, Any]]:
    """Read ``ws`` up to its first request: (messages read, the seat token, the request)."""
    n, token = 0, None
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
        n += 1
        token = msg.get("seatToken", token)
        if msg["type"] == "act":
            assert isinstance(token, str)
            return n, token, msg


def test_a_client_that_loses_its_connection_takes_its_seat_back_and_the_game_completes(tmp_path: Path) -> None:
    record = tmp_path / "r.jsonl"

    async def main() -> tuple[int, Dropper, Any]:
        server, task, url = await start(ServerConfig(port=0, games=1, seed=7, record=record, seats=SEATS,
                                                     reconnect_grace=20))
        # cut at message 3 (in the first deal's opening), then at the first request after message 60
        client = Dropper(url + "me", [3, 60], bot="greedy", reconnect=20, strict=True)
        played = asyncio.create_task(client.play())
        status = await asyncio.wait_for(task, TIMEOUT)
        return status, client, await played

    status, client, state = asyncio.run(main())
    assert status == 0, "the table did not play to its end"
    assert state.result is not None and client.reconnections == 2
    assert len(client.dropped_at) == 2
    lines = read_record(record)
    assert not [x for x in lines if x["type"] == "abort"]
    game = next(x for x in lines if x["type"] == "game")
    deals = game_deals(lines)
    assert len(deals) == game["deals"]
    match = load_match(lines)  # every deal complete: the game replays to its end
    assert match.is_terminal() and match.winner == game["winner"]


def test_a_request_cut_before_its_answer_is_sent_again(tmp_path: Path) -> None:
    """The connection is cut when a request arrives, before the answer: the client
    says it received that request, and the server sends it again."""

    class CutAtAct(Dropper):
        def on_message(self, message: dict[str, Any]) -> None:
            if message["type"] == "act" and self.drops and self.received >= self.drops[0]:
                self.drops.pop(0)
                self.dropped_at.append((self.received, "act"))
                self.connection.transport.abort()

    async def main() -> tuple[int, CutAtAct, Any, int]:
        server, task, url = await start(ServerConfig(port=0, games=1, seed=8, seats=SEATS, reconnect_grace=20))
        client = CutAtAct(url + "me", [1, 40], bot="greedy", reconnect=20, strict=True)
        state = await client.play()
        return await asyncio.wait_for(task, TIMEOUT), client, state, server.stats.refused

    status, client, state, refused = asyncio.run(main())
    assert status == 0 and state.result is not None and refused == 0
    assert client.reconnections == 2 and [kind for _, kind in client.dropped_at] == ["act", "act"]


def test_a_wrong_seat_token_is_refused_and_the_seat_plays_on() -> None:
    async def main() -> tuple[int | None, int | None, int]:
        server, task, url = await start(ServerConfig(port=0, games=1, seed=3, seats=SEATS, move_timeout=30))
        async with connect(url + "me") as me:
            _, token, _ = await first_act(me)
            async with connect(url + "me?seatToken=" + token[::-1]) as impostor:
                with pytest.raises(ConnectionClosed):
                    await impostor.recv()
            with pytest.raises(SeatRefused) as refused:
                await Client(url + "x?seatToken=nothing", bot="greedy").play()
            assert server.tables[0].remotes[0].connection is not None  # still seated on its connection
        await asyncio.wait_for(task, TIMEOUT)
        return impostor.close_code, refused.value.code, server.stats.decisions

    code, refused, _ = asyncio.run(main())
    assert code == 1008 and refused == 1008


def test_a_client_not_back_within_the_grace_ends_its_table_with_an_abort_line(tmp_path: Path) -> None:
    record = tmp_path / "r.jsonl"

    async def main() -> tuple[int, float]:
        server, task, url = await start(ServerConfig(port=0, games=1, seed=5, record=record, seats=SEATS,
                                                     reconnect_grace=0.5))
        ws = await connect(url + "me")
        await first_act(ws)
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        ws.transport.abort()
        while not server.tables[0].done:
            snap = server.tables[0].snapshot()
            assert snap is not None
            away.append(snap["seats"][0]["away"])
            await asyncio.sleep(0.05)
        status = await asyncio.wait_for(task, TIMEOUT)
        return status, loop.time() - t0

    away: list[bool] = []
    status, waited = asyncio.run(main())
    assert True in away  # the view shows the seat away while the table waits
    assert status == 1 and 0.5 <= waited < 10
    abort = [x for x in read_record(record) if x["type"] == "abort"]
    assert len(abort) == 1
    assert "lost its connection and did not take its seat back within 0.5 s" in abort[0]["reason"]
    assert abort[0]["game"] == 1 and abort[0]["deal"] == 0 and isinstance(abort[0]["actions"], list)


def test_a_stale_token_after_the_grace_is_refused() -> None:
    async def main() -> int | None:
        server, task, url = await start(ServerConfig(port=0, games=1, seed=5, tables=2, seats=SEATS,
                                                     reconnect_grace=0.3))
        ws = await connect(url + "me")
        _, token, _ = await first_act(ws)
        other = asyncio.create_task(Client(url + "other", bot="greedy").play())  # table 1 plays on
        await seated(server, 2)
        ws.transport.abort()
        while server.tables[0]._aborted is None:
            await asyncio.sleep(0.02)
        async with connect(url + "me?seatToken=" + token) as late:
            with pytest.raises(ConnectionClosed):
                await late.recv()
        await asyncio.wait_for(task, TIMEOUT)
        assert (await other).result is not None
        return late.close_code

    assert asyncio.run(main()) == 1008


@pytest.mark.parametrize("had_it", [False, True])
def test_a_reconnection_while_the_old_connection_is_open_replaces_it(had_it: bool) -> None:
    """The server still holds the old connection (a half-open one, say): the token's
    holder takes the seat on the new one, the old one is closed (1008), and the
    pending request is sent on the new one (resent, or sent again if the client says
    it had it)."""

    async def main() -> tuple[int | None, dict[str, Any], dict[str, Any], dict[str, Any]]:
        server, task, url = await start(ServerConfig(port=0, games=1, seed=4, seats=SEATS))
        old = await connect(url + "me")
        n, token, act = await first_act(old)
        received = n if had_it else n - 1
        new = await connect(url + f"me?seatToken={token}&received={received}")
        again = json.loads(await asyncio.wait_for(new.recv(), TIMEOUT))
        await asyncio.wait_for(old.wait_closed(), TIMEOUT)
        await new.send(json.dumps({"actIndex": 0}))
        after = json.loads(await asyncio.wait_for(new.recv(), TIMEOUT))
        await new.close()
        await asyncio.wait_for(task, TIMEOUT)
        return old.close_code, act, again, after

    code, act, again, after = asyncio.run(main())
    assert code == 1008
    assert again == act  # the same request
    assert after["type"] == "notify" and after["stage"] in ("play", "tribute", "back")
