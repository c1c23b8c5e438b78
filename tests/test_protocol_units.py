"""The protocol's parts without sockets: the game as messages, shapes, options, records."""
from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from chupai.guandan.protocol import Client, ServerConfig, check_message, print_record
from chupai.guandan.protocol._adapter import Ask, Notify, ProtocolGame, Recorded, action_key, protocol_cards, rebuild_deal
from chupai.players.search.registry import make_bot
from chupai.guandan.protocol.server import parse_seats
from protocol_clients import _key, expected_plays


def run_game(seed: int, choose: Any) -> tuple[ProtocolGame, list[Any]]:
    """Every event of one game, answering each request with ``choose(message, rng)``."""
    game = ProtocolGame(seed)
    rng = np.random.default_rng(seed)
    events = game.events()
    seen: list[Any] = []
    answer = None
    while True:
        try:
            event = events.send(answer)
        except StopIteration as stop:
            seen.append(stop.value)
            return game, seen
        seen.append(event)
        answer = choose(event.message, rng) if isinstance(event, Ask) else None


def random_index(msg: dict[str, Any], rng: np.random.Generator) -> int:
    return int(rng.integers(msg["indexRange"] + 1))


@pytest.mark.parametrize("seed", range(2))
def test_every_request_lists_legal_plays_and_every_message_has_its_shape(seed: int) -> None:
    game, events = run_game(seed, random_index)
    kinds: Counter[str] = Counter()
    for e in events[:-1]:
        if isinstance(e, Recorded):
            continue
        check_message(e.message)
        kinds[f"{e.message['type']}.{e.message['stage']}"] += 1
        if isinstance(e, Ask):
            keys = [_key(a) for a in e.message["actionList"]]
            assert len(set(keys)) == len(keys)
            if e.message["stage"] == "play":
                want = expected_plays(e.message)
                assert keys[:1] == want[:1] and sorted(keys) == sorted(want)
                # the adapter's action i is the message's entry i
                assert [_key(a.to_protocol()) for a in e.actions] == keys
    outcome = events[-1]
    assert outcome.winner == game.match.winner and outcome.deals == game.match.deals_played
    assert kinds["notify.beginning"] == 4 * outcome.deals and kinds["notify.gameOver"] == 1
    assert kinds["act.play"] == kinds["notify.play"]


def test_tribute_messages_across_many_deals() -> None:
    """Tribute, return and resisting, as the protocol describes them."""
    anti = tribute = leads = 0
    for seed in (100, 101, 126, 127):  # 126 and 127 have equal tributes
        _, events = run_game(seed, random_index)
        for e in events[:-1]:
            if isinstance(e, Recorded):
                for seat, stage, action in e.line["actions"]:
                    if stage == "lead":  # equal tributes: the payer after the first finisher leads
                        leads += 1
                        assert action == (e.line["previous"][0] + 1) % 4 == e.line["leader"]
                continue
            m = e.message
            if m["stage"] == "anti-tribute":
                anti += 1
                assert m["antiNums"] == len(m["antiPos"]) >= 1
            if isinstance(e, Ask) and m["stage"] == "tribute":
                tribute += 1
                assert m["curPos"] == -1 and m["curAction"] is None and m["greaterAction"] is None
                level_heart = "H" + m["curRank"]
                assert all(a[0] == "tribute" and a[2][0] != level_heart for a in m["actionList"])
                assert len({a[2][0][1] for a in m["actionList"]}) == 1  # one rank: the highest
            if isinstance(e, Ask) and m["stage"] == "back":
                assert all(a[0] == "back" for a in m["actionList"])
                # at most T in level order (guandan.md); the same as protocol.md's "rank 10 or
                # lower, not the level rank" at every level but T, where only jokers are above T
                order = [r for r in "23456789TJQKA" if r != m["curRank"]] + [m["curRank"]]
                allowed = order[: order.index("T") + 1]
                low = [a for a in m["actionList"] if a[2][0] not in ("SB", "HR") and a[2][0][1] in allowed]
                assert low == m["actionList"]  # a receiver always holds such a card here
    assert tribute > 10 and anti >= 1 and leads >= 1


def test_passes_come_first_and_leading_has_no_pass() -> None:
    _, events = run_game(3, random_index)
    for e in events:
        if isinstance(e, Ask) and e.message["stage"] == "play":
            passes = [i for i, a in enumerate(e.message["actionList"]) if a[0] == "PASS"]
            assert passes == ([] if e.message["greaterPos"] == -1 else [0])


def test_episode_over_lists_the_four_seats_and_the_cards_left() -> None:
    _, events = run_game(5, random_index)
    overs = [e.message for e in events if isinstance(e, Notify) and e.message["stage"] == "episodeOver"]
    records = [e.line for e in events if isinstance(e, Recorded)]
    assert len(overs) == len(records) > 0
    for m, r in zip(overs, records):
        assert sorted(m["order"]) == [0, 1, 2, 3] and m["order"] == r["order"]
        assert m["curRank"] == r["level"]
        holders = {pos for pos, _ in m["restCards"]}
        assert m["order"][0] not in holders and all(cards for _, cards in m["restCards"])


def test_check_message_names_the_wrong_field() -> None:
    good: dict[str, Any] = {"type": "notify", "stage": "play", "curPos": 1, "curAction": ["Single", "2", ["S2"]],
            "greaterPos": 1, "greaterAction": ["Single", "2", ["S2"]]}
    check_message(good)
    cases: list[tuple[dict[str, Any], str]] = [
        ({"curPos": "1"}, "play.curPos: expected an int"),
        ({"curAction": ["Single", "2", ["2S"]]}, "play.curAction.cards[0]"),
        ({"curAction": ["Boom", "2", ["S2"]]}, "unknown action type 'Boom'"),
        ({"greaterPos": 4}, "play.greaterPos: expected a seat"),
        ({"stage": "beginning"}, "beginning: field 'handCards' is missing"),
        ({"type": "hello"}, "unknown message type/stage"),
    ]
    for change, words in cases:
        with pytest.raises(ValueError, match=words.replace("[", r"\[").replace("]", r"\]")):
            check_message({**good, **change})
    with pytest.raises(ValueError):
        check_message(["not", "a", "dict"])


def test_options_are_checked() -> None:
    assert parse_seats("remote, mc,remote,greedy") == ["remote", "mc", "remote", "greedy"]
    for bad in ("remote,mc", "remote,remote,remote,human"):
        with pytest.raises(ValueError, match="seat"):
            parse_seats(bad)
    bad_values: list[dict[str, Any]] = [{"games": 0}, {"tables": -1}, {"tables": 10**6}, {"port": 70000},
                                        {"pace": -1.0}]
    for kw in bad_values:
        with pytest.raises(ValueError, match=next(iter(kw))):
            ServerConfig(**kw)
    for kw in ({"seed": "x"}, {"games": True}, {"playouts": 2.0}):
        with pytest.raises(TypeError, match=next(iter(kw))):
            ServerConfig(**kw)
    assert ServerConfig().seed is not None  # drawn, so that the record says it
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("alphago")
    with pytest.raises(ValueError, match="cannot be loaded"):
        make_bot("no_such_module_xyz:Bot")
    with pytest.raises(ValueError, match="zero-argument"):
        make_bot("json:dumps")
    with pytest.raises(ValueError, match="no choose"):
        make_bot("json:JSONDecoder")
    assert type(make_bot("chupai.players.bots:GreedyBot")).__name__ == "GreedyBot"
    with pytest.raises(TypeError):
        make_bot(3)  # type: ignore[arg-type]  # noqa
    with pytest.raises(ValueError, match="ws://"):
        Client("http://127.0.0.1:23456/game/x")


def test_a_rebuilt_deal_gives_the_same_legal_plays() -> None:
    """What a client rebuilds from the messages has the server's legal plays, at every
    decision of a deal, whoever acts (the hidden cards drawn at random)."""
    game = ProtocolGame(9)
    events = game.events()
    answer = None
    plays: list[tuple[int, list[Any]]] = []
    start: list[list[str]] | None = None
    leader = -1
    rng = np.random.default_rng(0)
    checked = 0
    while checked < 60:
        event = events.send(answer)
        answer = None
        if isinstance(event, Notify) and event.message["stage"] == "play":
            plays.append((event.message["curPos"], event.message["curAction"]))
        elif isinstance(event, Notify) and event.message["stage"] == "episodeOver":
            break
        elif isinstance(event, Ask):
            m = event.message
            if start is None:  # the hands when the card play starts
                start = [protocol_cards(game.match.deal.hand(s)) for s in range(4)]
                leader = event.seat
            seat = event.seat
            mine = list(start[seat])
            levels = (m["selfRank"], m["oppoRank"]) if seat % 2 == 0 else (m["oppoRank"], m["selfRank"])
            rebuilt = rebuild_deal(seat, mine, plays, leader, levels, m["curRank"], rng=rng)
            got = sorted(action_key(a.to_protocol()) for a in rebuilt.legal_actions())
            assert got == sorted(action_key(a) for a in m["actionList"])
            assert list(rebuilt.hand_sizes()) == [p["rest"] for p in m["publicInfo"]]
            checked += 1
            answer = random_index(m, rng)
    assert checked >= 20


def test_print_record(tmp_path: Path) -> None:
    _, events = run_game(2, random_index)
    lines = [{"type": "header", "format": "chupai-guandan-record", "version": 1, "rules": "competition",
              "games": 1, "seed": 2, "tables": 1, "seats": ["remote"] * 4}]
    lines += [json.loads(json.dumps(e.line)) for e in events if isinstance(e, Recorded)]
    out = io.StringIO()
    print_record(lines, out, hands=True)
    text = out.getvalue()
    assert "=== table 0 game 1" in text and "-- deal 0: level 2" in text and "seat 0:" in text
    assert text.count("result 1-") == len(lines) - 1



def test_falls_from_a_to_2_make_a_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    """The draw rule, with the limit of 50 falls lowered to 1: the game stops at the
    first fall from A back to 2, without a winner."""
    import chupai.guandan.protocol._adapter as adapter

    _, events = run_game(6, random_index)  # this game has falls from A
    full = events[-1]
    assert full.falls >= 1 and full.winner is not None
    monkeypatch.setattr(adapter, "DRAW_FALLS", 1)
    game, events = run_game(6, random_index)
    short = events[-1]
    assert short.falls == 1 and short.winner is None and short.deals < full.deals
    assert not game.match.is_terminal()  # stopped by the rule, not by the match
    last = [e for e in events[:-1] if isinstance(e, Notify)][-1].message
    assert last == {"type": "notify", "stage": "gameOver", "curTimes": 1, "settingTimes": 1}


def test_client_choices_outside_the_bots() -> None:
    """Tribute avoids the heart of the level, the return is the lowest card, and a play
    request whose state cannot be rebuilt is answered with entry 0 (or refused when strict)."""
    client = Client("ws://127.0.0.1:1/game/x", bot="greedy")
    tribute = {"stage": "tribute", "curRank": "5", "actionList": [["tribute", "tribute", ["H5"]],
                                                                    ["tribute", "tribute", ["S5"]]]}
    assert client.choose(tribute) == 1
    back = {"stage": "back", "curRank": "5", "actionList": [["back", "back", [c]] for c in ("ST", "S3", "H9")]}
    assert client.choose(back) == 1
    client.state.my_pos, client.state.ranks = 0, ("2", "2", "2")
    client.state.hand = ["S3"]
    client.state.plays = [(1, ["Single", "4", ["S4"]])] * 30  # seat 1 played more than a hand holds
    play = {"stage": "play", "curRank": "2", "actionList": [["PASS", "PASS", "PASS"], ["Single", "3", ["S3"]]]}
    assert client.choose(play) == 0
    client.strict = True
    with pytest.raises(ValueError):
        client.choose(play)
