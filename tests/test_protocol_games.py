"""Complete games through the protocol server, over real sockets on loopback.

Four clients of our own (ws4py, websockets asyncio, websockets sync) check every message
against docs/protocol.md and every play request against legal_plays (competition
preset); chupai's own Client plays a full game; records load back into a Match.
"""
from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chupai.guandan.protocol import Client, Server, ServerConfig, load_match, read_record, replay_frames
from protocol_clients import Ws4pyBot, async_bot, sync_bot, wait_thread

TIMEOUT = 60


async def seated(server: Server, n: int) -> None:
    """Wait until ``n`` clients are seated (so that seats follow our connection order)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + TIMEOUT
    while sum(len(t.remotes) for t in server.tables) < n:
        if loop.time() > end:
            raise AssertionError(f"{n} clients were not seated")
        await asyncio.sleep(0.005)


async def start(config: ServerConfig) -> tuple[Server, asyncio.Task[int], str]:
    server = Server(config)
    task = asyncio.create_task(server.run())
    await asyncio.wait_for(server.ready.wait(), TIMEOUT)
    return server, task, f"ws://127.0.0.1:{server.port}/game/"


async def ws4py_connect(url: str, **kw: Any) -> Ws4pyBot:
    bot = Ws4pyBot(url, **kw)
    await asyncio.to_thread(bot.connect)
    return bot


def test_four_own_clients_play_two_complete_games(tmp_path: Path) -> None:
    record = tmp_path / "games.jsonl"

    async def main() -> tuple[Server, int, list[Any]]:
        server, task, url = await start(ServerConfig(port=0, games=2, seed=11, record=record))
        a = await ws4py_connect(url + "client1", style="random", seed=1)
        await seated(server, 1)
        b = asyncio.create_task(async_bot(url + "client2", "random", seed=2))
        await seated(server, 2)
        c_thread, c = sync_bot(url + "client3", "first", seed=3)
        await seated(server, 3)
        d = await ws4py_connect(url + "client4", style="last", seed=4)
        status = await asyncio.wait_for(task, TIMEOUT)
        book_b = await b
        await wait_thread(c_thread, 10)
        await asyncio.to_thread(a.done.wait, 10)
        await asyncio.to_thread(d.done.wait, 10)
        for bot in (a, d):
            assert bot.failure is None, bot.failure
        assert "failure" not in c, c.get("failure")
        return server, status, [a.book, book_b, c["book"], d.book]

    server, status, books = asyncio.run(main())
    assert status == 0
    assert [b.my_pos for b in books] == [0, 1, 2, 3]
    results = [b.result for b in books]
    assert all(r == results[0] for r in results) and results[0] is not None
    victory = results[0]["victoryNum"]
    assert victory[0] == victory[2] and victory[1] == victory[3] and victory[0] + victory[1] + results[0]["draws"][0] == 2
    deals = books[0].counts["notify.episodeOver"]
    for b in books:
        assert b.counts["notify.gameOver"] == 2 and b.counts["notify.gameResult"] == 1
        assert b.counts["notify.beginning"] == b.counts["notify.episodeOver"] == deals
        assert b.counts["notify.play"] == books[0].counts["notify.play"]
    assert sum(b.acts for b in books) == server.stats.decisions == books[0].counts["notify.play"] + sum(
        b.counts["act.tribute"] + b.counts["act.back"] for b in books)
    assert server.stats.refused == 0
    # the record: one line per deal and per game, each game loads back into a Match
    lines = read_record(record)
    assert sum(1 for x in lines if x["type"] == "deal") == deals
    for g in (1, 2):
        match = load_match(lines, table=0, game=g)
        result = next(x for x in lines if x["type"] == "game" and x["game"] == g)
        assert match.is_terminal() and match.winner == result["winner"] and match.deals_played == result["deals"]


def test_record_reproduces_the_states(tmp_path: Path) -> None:
    """A game recorded by the server loads back into a Match with the same states."""
    record = tmp_path / "r.jsonl"

    async def main() -> Server:
        server, task, _ = await start(ServerConfig(port=0, games=1, seed=5, record=record,
                                                   seats=["greedy", "random", "greedy", "random"]))
        assert await asyncio.wait_for(task, TIMEOUT) == 0
        return server

    server = asyncio.run(main())
    original = server.tables[0].game
    assert original is not None
    lines = read_record(record)
    match = load_match(lines)
    assert match.history == original.match.history
    assert match.deals == original.match.deals
    assert match.levels == original.match.levels and match.winner == original.match.winner
    deals = [x for x in lines if x["type"] == "deal"]
    # deal by deal: the recorded actions, fed to a fresh game, give the same deal lines
    assert rerecord(deals) == deals
    for d in deals:
        assert sorted(sum(d["handsAfterTribute"], [])) == sorted(sum(d["hands"], []))
    frames = replay_frames(lines)
    decisions = sum(len([a for a in d["actions"] if a[1] != "lead"]) for d in deals)
    assert len(frames) == decisions + len(deals)
    assert frames[-1]["stage"] == "episodeOver" and frames[-1]["winner"] == match.winner
    # a record without its seeds (e.g. written by another server) replays from its hands
    unseeded = [{k: v for k, v in x.items() if k not in ("matchSeed", "seed")} for x in lines]
    from_hands = load_match(unseeded)
    assert from_hands.history == original.match.history
    assert from_hands.levels == original.match.levels and from_hands.winner == original.match.winner
    # a record altered by one card no longer replays
    bad = [dict(x) for x in lines]
    first = next(x for x in bad if x["type"] == "deal")
    first["actions"] = first["actions"][:-1]
    with pytest.raises(ValueError):
        load_match(bad)


def rerecord(deals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The deal lines a fresh ProtocolGame writes when given the recorded answers."""
    from chupai.guandan.protocol._adapter import Ask, ProtocolGame, Recorded, action_key

    game = ProtocolGame(deals[0]["matchSeed"])
    answers = iter([a for d in deals for a in d["actions"] if a[1] != "lead"])
    out: list[dict[str, Any]] = []
    events = game.events()
    answer = None
    while True:
        try:
            event = events.send(answer)
        except StopIteration:
            return out
        answer = None
        if isinstance(event, Ask):
            seat, _stage, action = next(answers)
            assert seat == event.seat
            answer = [action_key(a) for a in event.message["actionList"]].index(action_key(action))
        elif isinstance(event, Recorded):
            out.append(json.loads(json.dumps(event.line)))


def test_chupai_join_client_plays_a_full_game() -> None:
    async def main() -> tuple[int, Any, Client]:
        server, task, url = await start(ServerConfig(port=0, games=1, seed=21,
                                                     seats=["remote", "greedy", "random", "greedy"]))
        client = Client(url + "chupai", bot="mc", playouts=8, seed=1, strict=True)
        state = await client.play()
        return await asyncio.wait_for(task, TIMEOUT), state, client

    status, state, client = asyncio.run(main())
    assert status == 0
    assert state.result is not None and state.my_pos == 0
    assert len(state.games) == 1 and client.decisions > 20


def _serve(*args: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "chupai", "serve", "guandan", "--port", "0", *args],
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env)


def _port(proc: subprocess.Popen[str], log: list[str]) -> int:
    assert proc.stderr is not None
    for line in proc.stderr:
        log.append(line)
        m = re.search(r"listening on ws://[\d.]+:(\d+)/", line)
        if m:
            return int(m.group(1))
    raise AssertionError("the server did not say where it listens:\n" + "".join(log))


def test_chupai_serve_process_with_ws4py_bots_and_chupai_seats(tmp_path: Path) -> None:
    """``chupai serve`` as a process; two ws4py bots and two chupai bot seats."""
    record = tmp_path / "serve.jsonl"
    proc = _serve("--games", "1", "--seed", "3", "--seats", "remote,greedy,remote,random", "--record", str(record))
    log: list[str] = []
    try:
        port = _port(proc, log)
        url = f"ws://127.0.0.1:{port}/game/"
        a = Ws4pyBot(url + "client1", style="first", seed=1)
        a.connect()
        b = Ws4pyBot(url + "client2", style="random", seed=2)
        b.connect()
        assert a.done.wait(TIMEOUT) and b.done.wait(TIMEOUT)
        assert proc.wait(TIMEOUT) == 0
        log.extend(proc.stderr.read().splitlines(keepends=True))  # type: ignore[union-attr]
    finally:
        proc.kill()
    assert a.failure is None and b.failure is None
    assert (a.book.my_pos, b.book.my_pos) == (0, 2)
    assert a.book.result == b.book.result is not None
    text = "".join(log)
    assert "connected 'client1'" in text and "table 0 seat 2" in text and "table 0 game 1/1: won by team" in text
    header = json.loads(record.read_text().splitlines()[0])
    assert header["seats"] == ["remote", "greedy", "remote", "random"] and header["seed"] == 3


def test_tables_play_at_once_seated_in_arrival_order() -> None:
    async def main() -> tuple[int, list[Any], Server]:
        server, task, url = await start(ServerConfig(port=0, games=1, seed=8, tables=2,
                                                     seats=["remote", "greedy", "remote", "greedy"]))
        bots = []
        for i in range(4):
            bots.append(asyncio.create_task(async_bot(url + f"c{i}", "first", seed=i)))
            await seated(server, i + 1)
        status = await asyncio.wait_for(task, TIMEOUT)
        return status, [await b for b in bots], server

    status, books, server = asyncio.run(main())
    assert status == 0
    assert [b.my_pos for b in books] == [0, 2, 0, 2]
    assert [t.names for t in server.tables] == [["c0", "greedy", "c1", "greedy"], ["c2", "greedy", "c3", "greedy"]]
    assert all(b.result is not None for b in books)


def test_chupai_join_command_and_replay_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``chupai join`` as a process plays a full game; ``chupai replay`` prints the record."""
    record = tmp_path / "join.jsonl"

    async def main() -> tuple[int, int, str]:
        server, task, url = await start(ServerConfig(port=0, games=1, seed=13, record=record,
                                                     seats=["greedy", "remote", "random", "greedy"]))
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "chupai", "join", url + "joiner", "--bot", "greedy", "--strict", "--quiet",
            stdout=asyncio.subprocess.PIPE)
        out, _ = await asyncio.wait_for(proc.communicate(), TIMEOUT)
        return await asyncio.wait_for(task, TIMEOUT), proc.returncode or 0, out.decode()

    status, code, out = asyncio.run(main())
    assert status == 0 and code == 0
    assert re.match(r"seat 1: \d+ decisions; victoryNum \[\d, \d, \d, \d\], draws \[0, 0, 0, 0\]", out), out
    from chupai.cli import main as chupai_main

    assert chupai_main(["replay", str(record), "--hands"]) == 0
    text = capsys.readouterr().out
    deals = sum(1 for x in read_record(record) if x["type"] == "deal")
    assert text.count("-- deal ") == deals and "=== table 0 game 1: won by team" in text
    assert "seats greedy,remote,random,greedy" in text
    # the cards in chupai's notation (what chupai plays and Cards read), seats by number
    from chupai.cards import Cards

    hand = re.search(r"   seat 0: (.*)\n", text)
    assert hand and len(Cards(hand.group(1))) == 27
    assert re.search(r"seat [0-3]: (Single|Pair|Trips|Bomb|Straight)", text) and not re.search(r"\bS[0-3] ", text)


def test_serve_quiet_prints_its_port_and_join_says_why_it_was_refused() -> None:
    """``chupai serve --port 0 --quiet`` prints the address it took (one stdout line);
    ``chupai join`` refused because every seat is taken: one line with the server's
    reason, exit status 2."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "chupai", "serve", "guandan", "--port", "0", "--quiet",
                             "--seats", "greedy,greedy,greedy,remote", "--seed", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        m = re.fullmatch(r"chupai: serving on ws://127\.0\.0\.1:(\d+)/game/<name>; table view http://127\.0\.0\.1:\1/\n",
                         line)
        assert m, line
        url = f"ws://127.0.0.1:{m.group(1)}/game/"

        async def main() -> subprocess.CompletedProcess[str]:
            from websockets.asyncio.client import connect

            async with connect(url + "holder") as holder:  # takes the one seat, answers nothing
                await asyncio.wait_for(holder.recv(), TIMEOUT)
                return await asyncio.to_thread(
                    subprocess.run, [sys.executable, "-m", "chupai", "join", url + "late", "--quiet"],
                    capture_output=True, text=True, timeout=TIMEOUT)

        late = asyncio.run(main())
        assert proc.wait(TIMEOUT) == 1  # the holder left: its table ended early
        _, err = proc.communicate()
    finally:
        proc.kill()
    assert late.returncode == 2 and late.stdout == ""
    assert late.stderr == ("chupai: error: the server refused this client: every seat is taken "
                           "(close code 1013)\n"), late.stderr
    assert "listening on" not in err  # --quiet: the log keeps to warnings and errors
