"""A server stopped by SIGINT or SIGTERM while its tables play: every table ends with an
``abort`` line, the record is complete, the summary is logged, no traceback."""
from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import pytest

from protocol_clients import sync_bot
from test_protocol_games import TIMEOUT, _port, _serve

TABLES = 3


def _deals(record: Path) -> int:
    if not record.exists():
        return 0
    return sum('"type": "deal"' in line for line in record.read_text().splitlines())


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_signal_stops_bot_and_remote_tables_cleanly(tmp_path: Path, signum: int) -> None:
    record = tmp_path / "r.jsonl"
    proc = _serve("--games", "50", "--seed", "4", "--tables", str(TABLES), "--pace", "0.002",
                  "--seats", "remote,random,random,random", "--record", str(record))
    log: list[str] = []
    clients = []
    try:
        port = _port(proc, log)
        for t in range(TABLES - 1):  # the last table keeps waiting for its client
            clients.append(sync_bot(f"ws://127.0.0.1:{port}/game/c{t}", "random", seed=t))
        end = time.monotonic() + TIMEOUT
        while _deals(record) < 2:  # both playing tables are under way
            assert time.monotonic() < end and proc.poll() is None, "".join(log)
            time.sleep(0.02)
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    log.append(err)
    text = "".join(log)
    assert proc.returncode == 128 + signum, text
    for bad in ("Traceback", "never retrieved", "I/O operation on closed file"):
        assert bad not in text, text
    name = signal.Signals(signum).name
    assert f"the server was stopped by {name}: {TABLES - 1} table(s) interrupted;" in text, text
    assert "decisions in" in text  # the summary
    lines = [json.loads(x) for x in record.read_text().splitlines()]
    aborts = {x["table"]: x for x in lines if x["type"] == "abort"}
    assert sorted(aborts) == list(range(TABLES - 1)), lines[-3:]
    for a in aborts.values():
        assert a["reason"] == f"the server was stopped by {name}" and a["actions"] is not None
    for thread, out in clients:  # the clients were told and have ended
        thread.join(TIMEOUT)
        assert not thread.is_alive() and "failure" not in out, out.get("failure")
