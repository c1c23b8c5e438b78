"""The live table view and the record playback, rendered by a real headless browser.

Needs Debian's chromium (``apt-get install -y chromium``); CI installs it the same way.
"""
from __future__ import annotations

import asyncio
import json
import logging
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path
from urllib.parse import quote
from typing import Any

from websockets.asyncio.client import connect

from chupai.guandan.protocol import ServerConfig, read_record
from protocol_clients import async_bot
from test_protocol_games import TIMEOUT, seated, start

BROWSER_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=800,560",
                 "--virtual-time-budget=4000"]


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    assert path, "the view tests need Debian's chromium: apt-get install -y chromium"
    return path


async def browse(url: str, *flags: str) -> str:
    """The DOM of ``url`` once its scripts ran (``--dump-dom``), or a screenshot."""
    proc = await asyncio.create_subprocess_exec(
        chromium(), *BROWSER_FLAGS, *flags, url,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    out, _ = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 0, f"chromium exited {proc.returncode}"
    return out.decode()


async def port_of(proc: asyncio.subprocess.Process, pattern: str, what: str) -> int:
    """The port a child names on its stderr, in the first line matching ``pattern``."""
    assert proc.stderr is not None
    while True:
        line = (await asyncio.wait_for(proc.stderr.readline(), 60)).decode()
        assert line, f"{what} ended without saying where it listens"
        m = re.search(pattern, line)
        if m:
            return int(m.group(1))


async def browse_live(url: str, profile: Path, updates: int, until: str = "true") -> str:
    """The DOM of ``url`` once the page has had ``updates`` live updates and the
    JavaScript expression ``until`` holds, in real time: chromium driven over the
    DevTools protocol."""
    proc = await asyncio.create_subprocess_exec(
        chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0",
        "--remote-allow-origins=*", f"--user-data-dir={profile}", url,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    try:
        port = await port_of(proc, r"DevTools listening on ws://[\d.]+:(\d+)/", "chromium")

        def targets() -> list[dict[str, str]]:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as r:
                return list(json.load(r))

        page = next(t for t in await asyncio.to_thread(targets) if t["type"] == "page")
        async with connect(page["webSocketDebuggerUrl"], max_size=None) as devtools:
            ids = iter(range(1, 10**6))

            async def evaluate(expression: str) -> Any:
                n = next(ids)
                await devtools.send(json.dumps({"id": n, "method": "Runtime.evaluate",
                                                "params": {"expression": expression, "returnByValue": True}}))
                while True:
                    reply = json.loads(await devtools.recv())
                    if reply.get("id") == n:
                        return reply["result"]["result"].get("value")

            loop = asyncio.get_running_loop()
            end = loop.time() + 30
            # (the page may still be loading: no body yet)
            while int(await evaluate("(document.body && document.body.dataset.updates) || '0'") or 0) < updates:
                assert loop.time() < end, "the page did not update live"
                await asyncio.sleep(0.1)
            while not await evaluate(until):
                assert loop.time() < end, f"the page never reached {until}"
                await asyncio.sleep(0.1)
            return str(await evaluate("document.documentElement.outerHTML"))
    finally:
        proc.kill()
        await proc.wait()


def seats_shown(dom: str) -> list[tuple[str, str]]:
    return re.findall(r'<div class="name">(\d) · ([^<]+)</div>', dom)


def test_live_view_shows_a_table_as_it_plays(tmp_path: Path) -> None:
    async def main() -> tuple[str, str, int]:
        server, task, url = await start(ServerConfig(port=0, games=1, seed=1, pace=0.01, view_hands=True,
                                                     seats=["remote", "greedy", "random", "greedy"]))
        player = asyncio.create_task(async_bot(url + "watched", "first"))
        await seated(server, 1)
        while server.stats.decisions < 5:
            await asyncio.sleep(0.01)
        assert server.stats.decisions < 300  # still playing while the browser watches
        page = f"http://127.0.0.1:{server.port}/"
        dom = await browse_live(page, tmp_path / "profile", updates=3)
        shot = tmp_path / "live.png"
        await browse(page, f"--screenshot={shot}")
        player.cancel()  # the watched client leaves: its table (and the server) ends
        status = await asyncio.wait_for(task, TIMEOUT)
        return dom, shot.read_bytes()[:8].hex(), status

    dom, png, status = asyncio.run(main())
    assert status == 1  # ended by the client leaving
    assert '<span id="status">live</span>' in dom
    updates = re.search(r'<body data-updates="(\d+)">', dom)
    assert updates and int(updates.group(1)) >= 3, "the page did not update live"
    assert 'id="table-0"' in dom and "game 1/1 · deal " in dom and "levels: seats 0+2 at " in dom
    assert sorted(seats_shown(dom)) == [("0", "watched"), ("1", "greedy"), ("2", "random"), ("3", "greedy")]
    assert dom.count('class="cards hand"') == 4  # every hand (--view-hands)
    assert len(re.findall(r"team [01] · \d+ cards", dom)) == 4
    assert 'class="card' in dom and "current" in dom
    assert png == "89504e470d0a1a0a"  # a PNG was written


async def record_game(record: Path, seed: int) -> None:
    """One game of four built-in bots, recorded to ``record``."""
    _, task, _ = await start(ServerConfig(port=0, games=1, seed=seed, record=record,
                                          seats=["greedy", "random", "greedy", "random"]))
    assert await asyncio.wait_for(task, TIMEOUT) == 0


async def browse_replay(record: Path, pages: list[str]) -> list[str]:
    """The DOM of each of ``pages`` (paths with their query) of ``chupai replay record --web``."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "chupai", "replay", str(record), "--web", "--port", "0",
        stderr=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.DEVNULL)
    try:
        port = await port_of(proc, r"http://[\d.]+:(\d+)/ ", "chupai replay --web")
        return [await browse(f"http://127.0.0.1:{port}{page}", "--dump-dom") for page in pages]
    finally:
        proc.terminate()
        await proc.wait()


def test_replay_view_plays_a_record_back(tmp_path: Path) -> None:
    record = tmp_path / "r.jsonl"

    async def main() -> list[str]:
        await record_game(record, seed=2)
        # (/ is the address it prints)
        return await browse_replay(record, ["/?replay=1&frame=0", "/?replay=1&frame=last", "/"])

    first, last, root = asyncio.run(main())
    deals = [x for x in read_record(record) if x["type"] == "deal"]
    frames = sum(len([a for a in d["actions"] if a[1] != "lead"]) for d in deals) + len(deals)
    assert f"replay · {frames} frames" in last and f"{frames}/{frames}" in last
    assert f"1/{frames}" in first
    # / plays the record back (it is no live view: nothing to connect to)
    assert f"replay · {frames} frames" in root and "disconnected" not in root and len(seats_shown(root)) == 4
    # deals count from 0 as in the record; the levels name their seats
    assert "game 1/1 · deal 0<" in first and f"game 1/1 · deal {deals[-1]['deal']}<" in last
    assert "levels: seats 0+2 at 2, seats 1+3 at 2 · playing 2" in first
    end = deals[-1]["levelsAfter"]
    assert f"levels: seats 0+2 at {deals[-1]['levels'][0]}, seats 1+3 at {deals[-1]['levels'][1]}" in last, end
    assert len(seats_shown(last)) == 4 and len(seats_shown(first)) == 4
    assert "won by team" in last and "out 1" in last  # the end of the game
    assert first.count("· 27 cards") == 4  # the first decision of the first deal
    assert last.count('class="cards hand"') == 4


def test_docs_screenshot_exists() -> None:
    shot = Path(__file__).resolve().parents[1] / "docs" / "protocol_view.png"
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_view_assets_are_package_data() -> None:
    from importlib import resources

    files = {p.name for p in resources.files("chupai.guandan.protocol").joinpath("static").iterdir()}
    assert {"index.html", "view.js", "view.css"} <= files
    assert subprocess.run([chromium(), "--version"], capture_output=True, text=True, timeout=60).returncode == 0


HOSTILE = "<img src=x onerror=\"document.title='pwned'\">"


def test_view_renders_peer_strings_as_text_and_the_handshake_refuses_html_names(tmp_path: Path) -> None:
    """A client named with HTML is refused at the handshake; a peer string that reaches
    a snapshot anyway (here a name planted on the table, in the reason its table ended)
    shows as text in a real browser: no element is injected, no script runs."""

    async def main() -> tuple[str, int | None]:
        server, task, url = await start(ServerConfig(port=0, games=1, seed=1, pace=0.02,
                                                     seats=["remote", "greedy", "greedy", "greedy"]))
        async with connect(url + quote(HOSTILE)) as hostile:
            await asyncio.wait_for(hostile.wait_closed(), TIMEOUT)
        refused = hostile.close_code
        player = asyncio.create_task(async_bot(url + "plain", "first"))
        await seated(server, 1)
        server.tables[0].names[0] = HOSTILE
        page = asyncio.create_task(browse_live(
            f"http://127.0.0.1:{server.port}/", tmp_path / "profile", updates=1,
            until="(document.querySelector('.state') || {}).textContent?.startsWith('ended')"))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        while (not server.view._watchers or server.stats.decisions < 3) and not page.done():
            assert loop.time() < deadline, "the browser never watched the table"
            await asyncio.sleep(0.02)
        if page.done():  # the browser failed before watching: its error, not a wait
            page.result()
        player.cancel()  # it leaves mid-game: its table ends, the reason names the seat
        dom = await asyncio.wait_for(page, TIMEOUT)
        await asyncio.wait_for(task, TIMEOUT)
        return dom, refused

    dom, refused = asyncio.run(main())
    assert refused == 1008
    assert "<title>chupai — Guan Dan tables</title>" in dom and "pwned" not in dom.split("</title>")[0]
    assert "<img" not in dom
    assert "ended: table 0 seat 0 (&lt;img src=x onerror=" in dom


def trick_centre(dom: str) -> str:
    """The text of a table's centre (before the play to beat)."""
    m = re.search(r'<div class="trick">([^<]*)<', dom)
    assert m, "no trick centre"
    return m.group(1)


def seat_element(dom: str, seat: int) -> str:
    """A seat's name, meta and trick play (up to its last play)."""
    m = re.search(rf'<div class="seat s{seat} [^"]*" data-seat="{seat}">(.*?)<div class="cards last-play', dom)
    assert m, f"no seat {seat}"
    return m.group(1)


def test_the_view_says_what_is_happening_outside_the_card_play_and_who_is_to_act(tmp_path: Path) -> None:
    """During the tribute the table's centre names it (not "lead"); the seat to act shows
    that it is to act, not the pass it made earlier in the trick."""
    from chupai.guandan.protocol.records import replay_frames

    record = tmp_path / "r.jsonl"
    asyncio.run(record_game(record, seed=3))
    frames = replay_frames(read_record(record))
    tribute = next(i for i, f in enumerate(frames) if f["stage"] == "tribute")
    passed = next(i for i, f in enumerate(frames) if f["stage"] == "play" and f["current"] >= 0
                  and (f["seats"][f["current"]]["playArea"] or [""])[0] == "PASS")
    lead = next(i for i, f in enumerate(frames) if f["stage"] == "play" and f["greaterPos"] < 0)
    doms = asyncio.run(browse_replay(record, [f"/?replay=1&frame={i}" for i in (tribute, passed, lead)]))
    assert trick_centre(doms[0]).strip() == "tribute"
    seat = frames[passed]["current"]
    assert 'class="cards to-act trick-action">to act<' in seat_element(doms[1], seat)
    assert 'class="pass"' not in seat_element(doms[1], seat)  # (its trick play; its last play follows)
    assert trick_centre(doms[2]).strip() == "lead"


def test_a_page_load_asks_for_nothing_the_server_lacks(tmp_path: Path, caplog: Any) -> None:
    """Loading the view requests only what the server serves: no /favicon.ico 404 in the
    server's log at each load."""

    async def main() -> None:
        server, task, _ = await start(ServerConfig(port=0, games=1, seed=1, pace=0.02,
                                                   seats=["greedy", "random", "greedy", "random"]))
        dom = await browse(f"http://127.0.0.1:{server.port}/", "--dump-dom")
        assert "<title>chupai — Guan Dan tables</title>" in dom  # (the tables come later, live)
        server.stop()
        await asyncio.wait_for(task, TIMEOUT)

    with caplog.at_level(logging.INFO):
        asyncio.run(main())
    sent = [r.getMessage() for r in caplog.records if r.name.startswith("websockets")]
    assert "HTTP response sent (200 OK)" in sent  # (the page itself: the log is read)
    assert not [m for m in sent if m.startswith("HTTP response sent (404")], sent  # (a port may hold 404)
