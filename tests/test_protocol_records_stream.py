"""Large and damaged records: ``/replay.json`` answers every request on a large live
record without holding the tables or the server's memory, ``chupai replay`` reads a
record in memory bounded whatever its size, replays the complete lines of a record whose
last line was cut off, and checks every field it uses.  Real sockets on loopback."""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from chupai.cli import main
from chupai.guandan.protocol import ServerConfig
from chupai.guandan.protocol.records import Record, check_line, print_record
from test_protocol_faults import StallProbe
from test_protocol_games import TIMEOUT, start
from test_protocol_hostile_input import record  # noqa: F401  (the fixture: the lines of one game of four bots)

#: copies of one recorded game in the large record (about 70 kB each)
COPIES = 100


def game_lines(lines: list[dict[str, Any]], copies: int) -> str:
    """The deal and game lines of ``lines`` as games 1..``copies`` of table 0."""
    out = []
    for g in range(1, copies + 1):
        for line in lines:
            if line["type"] in ("deal", "game"):
                out.append(json.dumps({**line, "game": g}))
    return "\n".join(out) + "\n"


def fetch(url: str) -> tuple[int, bytes, str | None]:
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as r:
            return r.status, r.read(), r.headers.get("Retry-After")
    except urllib.error.HTTPError as e:
        return e.code, e.read(), e.headers.get("Retry-After")


def rss_mb() -> float:
    for row in Path("/proc/self/status").read_text().splitlines():
        if row.startswith("VmRSS:"):
            return int(row.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def test_replay_json_answers_every_request_on_a_large_live_record(tmp_path: Path, record: list[dict[str, Any]],
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    """Three requests at once on a live record of 100 games (its replay is over the cap):
    each is answered (200, 413 or 503, the refusals with a reason and a log line), the
    event loop never stalls, and the server's memory does not grow with the record."""
    live = tmp_path / "live.jsonl"

    async def main_() -> tuple[list[tuple[int, bytes, str | None]], tuple[int, bytes, str | None], float, float]:
        # one table whose seats nobody takes: the server wrote the header and waits
        server, task, _ = await start(ServerConfig(port=0, games=1, seed=1, record=live))
        with open(live, "a") as f:  # the games of a long session, as the server appends them
            f.write(game_lines(record, COPIES))
        rss = rss_mb()
        prober = StallProbe()
        url = f"http://127.0.0.1:{server.port}/replay.json"
        answers = await asyncio.gather(*(asyncio.to_thread(fetch, url) for _ in range(3)))
        end = time.monotonic() + TIMEOUT
        final = answers[-1]
        while final[0] == 503 and time.monotonic() < end:  # the build goes on: a later request gets it
            await asyncio.sleep(0.2)
            final = await asyncio.to_thread(fetch, url)
        stall = await prober.stop()
        grown = rss_mb() - rss
        server.stop("the test is over")
        await asyncio.wait_for(task, TIMEOUT)
        return answers, final, stall, grown

    answers, final, stall, grown = asyncio.run(main_())
    for status, body, retry in answers:
        assert status in (200, 413, 503), status
        if status != 200:
            assert json.loads(body)["error"]
        if status == 503:
            assert retry is not None and int(retry) > 0
    assert final[0] == 413 and "over the" in json.loads(final[1])["error"]
    assert "/replay.json" in caplog.text
    assert stall < 0.5, f"the event loop stalled {stall:.2f} s"
    assert grown < 60, f"the server grew by {grown:.0f} MB"


def _peak_rss_mb(args: list[str]) -> tuple[int, float, str]:
    """``chupai ARGS`` in a fresh process: its exit status, peak memory and stderr."""
    code = ("import resource, sys\nfrom chupai.cli import main\nrc = main(sys.argv[1:])\n"
            "print('PEAK', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\nsys.exit(rc)")
    r = subprocess.run([sys.executable, "-c", code, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True, timeout=10 * TIMEOUT)
    peak = next(int(x.split()[1]) for x in r.stderr.splitlines() if x.startswith("PEAK"))
    return r.returncode, peak / 1024, r.stderr


def test_chupai_replay_memory_does_not_grow_with_the_record(tmp_path: Path, record: list[dict[str, Any]]) -> None:
    small, large = tmp_path / "small.jsonl", tmp_path / "large.jsonl"
    header = json.dumps(record[0]) + "\n"
    small.write_text(header + game_lines(record, 1))
    large.write_text(header + game_lines(record, 2 * COPIES))
    assert large.stat().st_size > 5e6
    rc_small, peak_small, _ = _peak_rss_mb(["replay", str(small)])
    rc_large, peak_large, err = _peak_rss_mb(["replay", str(large)])
    assert rc_small == rc_large == 0, err
    assert peak_large - peak_small < 10, (peak_small, peak_large)


def test_a_record_cut_mid_line_replays_its_complete_lines(tmp_path: Path, record: list[dict[str, Any]],
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    whole = json.dumps(record[0]) + "\n" + game_lines(record, 2)
    path = tmp_path / "cut.jsonl"
    path.write_text(whole[:-50])  # the writer stopped inside the last line (a game line)
    lines = whole.count("\n")
    assert main(["replay", str(path)]) == 0
    out, err = capsys.readouterr()
    assert f"chupai: warning: {path}: line {lines} is cut off" in err and f"the {lines - 1} lines before it" in err
    assert "=== table 0 game 1: won by" in out and "=== table 0 game 2\n" in out
    opened = Record.open(path)
    assert opened.cut == lines and opened.lines == lines
    assert len(opened.deals(0, 2)) == sum(x["type"] == "deal" for x in record)  # the game line was the one cut
    assert (0, 2) not in opened.results
    # a line cut in the middle of the record is not a cut-off record: refused, named
    damaged = tmp_path / "damaged.jsonl"
    rows = whole.splitlines()
    damaged.write_text("\n".join(rows[:2] + [rows[2][:100]] + rows[3:]) + "\n")
    assert main(["replay", str(damaged)]) == 2
    assert capsys.readouterr().err.startswith(f"chupai: error: {damaged}:3: not a JSON line")


BAD_FIELDS = [
    ("deal", "level", "X"),
    ("deal", "level", 5),
    ("deal", "restCards", [[0, ["ZZ"]]]),
    ("deal", "restCards", [[7, ["S2"]]]),
    ("deal", "restCards", "none"),
    ("deal", "result", "2-1"),
    ("deal", "result", None),
    ("game", "deals", -1),
    ("game", "deals", "9"),
    ("abort", "game", 0),
    ("abort", "deal", "0"),
    ("abort", "actions", [[0, "play", "x"]]),
]


@pytest.mark.parametrize(("kind", "field", "value"), BAD_FIELDS)
def test_every_field_a_reader_uses_is_checked(tmp_path: Path, record: list[dict[str, Any]], kind: str, field: str,
                                              value: Any, capsys: pytest.CaptureFixture[str]) -> None:
    lines = json.loads(json.dumps(record))
    lines.append({"type": "abort", "table": 0, "reason": "left", "names": ["a", "b", "c", "d"], "game": 1,
                  "deal": 0, "actions": []})
    line = next(x for x in lines if x["type"] == kind)
    line[field] = value
    with pytest.raises(ValueError, match=f"{kind}.{field}"):
        check_line(line)
    path = tmp_path / "bad.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("chupai: error: ") and f"{kind}.{field}" in err and err.count("\n") == 1
    with pytest.raises(ValueError, match=f"{kind}.{field}"):
        print_record(lines, open("/dev/null", "w"))
