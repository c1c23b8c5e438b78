"""The live table view and the record playback, rendered by a real headless browser.

Needs Debian's chromium (``apt-get install -y chromium``); CI installs it the same way.
"""
from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
import sys
from pathlib import Path

from chupai.protocol import ServerConfig, read_record
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
        page = f"http://127.0.0.1:{server.port}/"
        dom = await browse(page, "--dump-dom")
        shot = tmp_path / "live.png"
        await browse(page, f"--screenshot={shot}")
        player.cancel()  # the watched client leaves: its table (and the server) ends
        status = await asyncio.wait_for(task, TIMEOUT)
        return dom, shot.read_bytes()[:8].hex(), status

    dom, png, status = asyncio.run(main())
    assert status == 1  # ended by the client leaving
    assert '<span id="status">live</span>' in dom
    assert 'id="table-0"' in dom and "game 1/1" in dom and "levels " in dom
    assert sorted(seats_shown(dom)) == [("0", "watched"), ("1", "greedy"), ("2", "random"), ("3", "greedy")]
    assert dom.count('class="cards hand"') == 4  # every hand (--view-hands)
    assert len(re.findall(r"team [01] · \d+ cards", dom)) == 4
    assert 'class="card' in dom and "current" in dom
    assert png == "89504e470d0a1a0a"  # a PNG was written


def test_replay_view_plays_a_record_back(tmp_path: Path) -> None:
    record = tmp_path / "r.jsonl"

    async def main() -> tuple[str, str]:
        _, task, _ = await start(ServerConfig(port=0, games=1, seed=2, record=record,
                                              seats=["greedy", "random", "greedy", "random"]))
        assert await asyncio.wait_for(task, TIMEOUT) == 0
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "chupai", "replay", str(record), "--web", "--port", "0",
            stderr=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.DEVNULL)
        try:
            assert proc.stderr is not None
            port = None
            while port is None:
                line = (await asyncio.wait_for(proc.stderr.readline(), 60)).decode()
                assert line, "chupai replay --web ended without saying where it listens"
                m = re.search(r"http://[\d.]+:(\d+)/\?replay=1", line)
                port = int(m.group(1)) if m else None
            base = f"http://127.0.0.1:{port}/?replay=1"
            last = await browse(base + "&frame=last", "--dump-dom")
            first = await browse(base + "&frame=0", "--dump-dom")
        finally:
            proc.terminate()
            await proc.wait()
        return first, last

    first, last = asyncio.run(main())
    deals = [x for x in read_record(record) if x["type"] == "deal"]
    frames = sum(len([a for a in d["actions"] if a[1] != "lead"]) for d in deals) + len(deals)
    assert f"replay · {frames} frames" in last and f"{frames}/{frames}" in last
    assert f"1/{frames}" in first
    assert len(seats_shown(last)) == 4 and len(seats_shown(first)) == 4
    assert "won by team" in last and "out 1" in last  # the end of the game
    assert first.count("· 27 cards") == 4  # the first decision of the first deal
    assert last.count('class="cards hand"') == 4


def test_docs_screenshot_exists() -> None:
    shot = Path(__file__).resolve().parents[1] / "docs" / "protocol_view.png"
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_view_assets_are_package_data() -> None:
    from importlib import resources

    files = {p.name for p in resources.files("chupai.protocol").joinpath("static").iterdir()}
    assert {"index.html", "view.js", "view.css"} <= files
    assert subprocess.run([chromium(), "--version"], capture_output=True, text=True, timeout=60).returncode == 0
