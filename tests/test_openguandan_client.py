"""The OpenGuanDan client against a scripted server on loopback: the room request, the
answers by name for each stage (PLAY, TRIBUTE, PAYTRIBUTE with the request's tribute),
the four-joker bomb's spelling, refusals counted, a refused room an error.

The real OpenGuanDan server is not part of the repository: ``bench/guandan/openguandan.py``
plays whole rooms on it, given the path of its checkout."""
from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve

from chupai.guandan import Deal, Rules
from chupai.guandan.protocol._adapter import protocol_cards
from chupai.guandan.protocol.openguandan import OpenGuanDanClient, competition_form, play_room

TIMEOUT = 20


def position() -> tuple[list[str], list[list[Any]]]:
    """Seat 0's hand of a competition first deal and its leads, in protocol form, the
    four-joker bomb spelled as OpenGuanDan spells it."""
    for seed in range(200):
        deal = Deal(seed=seed, rules=Rules.competition())
        if deal.current_player == 0:
            plays = [list(p.to_protocol()) for p in deal.legal_actions() if hasattr(p, "to_protocol")]
            plays = [["FourKings", "B", a[2]] if a[:2] == ["Bomb", "JOKER"] else a for a in plays]
            return protocol_cards(deal.hand(0)), plays
    raise AssertionError("no deal led by seat 0")


async def scripted(answers: list[dict[str, Any]], *, refuse_room: bool = False) -> int:
    """A server that seats one client, asks it for each kind of decision, refuses one
    answer and ends the game; every client message lands in ``answers``."""
    hand, leads = position()

    async def handler(ws: ServerConnection) -> None:
        hello = json.loads(await ws.recv())
        answers.append(hello)
        if refuse_room:
            await ws.send(json.dumps({"type": hello["type"], "code": 404, "data": {"msg": "no such room"}}))
            return
        await ws.send(json.dumps({"type": hello["type"], "code": 200, "data": {"roomId": 7, "userNum": 0}}))
        await ws.send(json.dumps({"type": "notify", "stage": "beginning", "handCards": hand, "myPos": 0}))
        common = {"type": "act", "handCards": hand, "selfRank": "2", "oppoRank": "2", "curRank": "2"}
        await ws.send(json.dumps({**common, "stage": "tribute", "actionList": [["tribute", "tribute", [hand[-1]]]],
                                  "indexRange": 0}))
        answers.append(json.loads(await ws.recv()))
        backs = [["back", "back", [c]] for c in hand[:3]]
        await ws.send(json.dumps({**common, "stage": "back", "tributePos": 3, "tribute": "SA", "actionList": backs,
                                  "indexRange": len(backs) - 1}))
        answers.append(json.loads(await ws.recv()))
        await ws.send(json.dumps({**common, "stage": "play", "curPos": -1, "curAction": None, "greaterPos": -1,
                                  "greaterAction": None, "publicInfo": [{"rest": 27}] * 4,
                                  "actionList": leads, "indexRange": len(leads) - 1}))
        answers.append(json.loads(await ws.recv()))
        await ws.send(json.dumps({"type": "PLAY", "code": 400, "data": {"msg": "not your turn"}}))
        await ws.send(json.dumps({"type": "notify", "stage": "gameResult", "victory": 0, "victoryRank": ["A", "5"]}))
        await ws.wait_closed()

    async with serve(handler, "127.0.0.1", 0) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        client = OpenGuanDanClient(f"ws://127.0.0.1:{port}", "greedy", games=2, seat=0, user="u0", strict=True)
        await asyncio.wait_for(client.play(), TIMEOUT)
        assert client.room == 7 and client.decisions == 3 and len(client.refused) == 1
        assert client.state.result == {"type": "notify", "stage": "gameResult", "victory": 0,
                                       "victoryRank": ["A", "5"]}
        return port


def test_a_room_and_an_answer_by_name_for_each_stage() -> None:
    answers: list[dict[str, Any]] = []
    asyncio.run(scripted(answers))
    hello, tribute, back, play = answers
    assert hello == {"type": "CREATE_ROOM", "data": {"userId": "u0", "round": 2, "seatNum": 0}}
    hand, leads = position()
    assert tribute == {"type": "TRIBUTE", "data": {"roomId": 7, "player": 0, "act": ["tribute", "tribute", [hand[-1]]]}}
    assert back["type"] == "PAYTRIBUTE" and back["data"]["tributePos"] == 3 and back["data"]["tribute"] == "SA"
    assert back["data"]["act"] in [["back", "back", [c]] for c in hand[:3]]
    assert play["type"] == "PLAY" and play["data"]["roomId"] == 7 and play["data"]["act"] in leads


def test_a_refused_room_is_an_error_with_the_servers_words() -> None:
    with pytest.raises(ValueError, match="refused CREATE_ROOM.*no such room"):
        asyncio.run(scripted([], refuse_room=True))


def test_the_joker_bomb_and_the_arguments() -> None:
    cards = ["SB", "SB", "HR", "HR"]
    assert competition_form(["FourKings", "B", cards]) == ["Bomb", "JOKER", cards]
    assert competition_form(["Single", "5", ["D5"]]) == ["Single", "5", ["D5"]]
    join = OpenGuanDanClient("ws://127.0.0.1:8181", "heuristic", room=3, seat=1)
    assert join.greeting() == {"type": "JOIN_ROOM", "data": {"userId": "chupai-3-1", "roomId": 3, "seatNum": 1}}
    for bad, words in (({"room": 0}, "room"), ({"seat": 4}, "seat"), ({"games": 0}, "games"), ({"user": ""}, "user")):
        with pytest.raises(ValueError, match=words):
            OpenGuanDanClient("ws://127.0.0.1:8181", "greedy", **bad)
    with pytest.raises(ValueError, match="unknown bot"):
        OpenGuanDanClient("ws://127.0.0.1:8181", "alphago")
    with pytest.raises(ValueError, match="four bot specs"):
        asyncio.run(play_room("ws://127.0.0.1:8181", ["greedy"] * 3))
