"""The published competition bots against each other on ``chupai serve guandan``.

    python bench/guandan/rulebot_tables.py PATH [--tables ai1-ai2,ai3-ai4,ai5-ai6,ai7-ai8]
                                   [--runs 3] [--games 1] [--seed 2026] [--stagger 0.7]
                                   [--timeout 1800] [--logs DIR]

``PATH`` is a checkout of the public repository ``submit-paper/Danzero_plus`` (or its
``wintest`` folder; see ``bench/guandan/rulebots.py``).  A run is what a new user does: start
``chupai serve guandan --port 23456 --games G --tables T`` as a process, then, for each
table ``A-B`` in order, the four clients ``A/client0``, ``B/client1``, ``A/client2``,
``B/client3`` (seats 0 and 2 are bot ``A``'s team), each ``--stagger`` seconds after
the previous one, every bot folder copied to a temporary directory and its scripts run
there unmodified with this Python (stock ws4py).  The last client of each table takes
its last seat, so the table's first message follows its handshake at once.

Prints, per run and table, whether the table played its games to the end (its ``game``
lines in the record, no ``abort`` line), the deals played and the winner, and the
clients that printed a traceback; exits 1 if any table of any run did not finish or
any client printed a traceback.  A benchmark, not a test: the bots are not part of
this repository and CI cannot fetch them.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from rulebots import PORT, ai_clients  # noqa: E402  (this folder's module)

_LISTENING = re.compile(r"serving on ws://")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line, checked (``SystemExit(2)`` with one ``error:`` line)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("path", type=Path, help="a checkout of submit-paper/Danzero_plus (or its wintest folder)")
    p.add_argument("--tables", default="ai1-ai2,ai3-ai4,ai5-ai6,ai7-ai8",
                   help="the tables, comma-separated, each TEAM0-TEAM1 (seats 0+2, seats 1+3)")
    p.add_argument("--runs", type=int, default=3, help="runs in a row (a fresh server each)")
    p.add_argument("--games", type=int, default=1, help="games (matches from level 2) per table")
    p.add_argument("--seed", type=int, default=2026, help="the server's seed of the first run (+1 per run)")
    p.add_argument("--stagger", type=float, default=0.7, help="seconds between two clients' starts")
    p.add_argument("--timeout", type=float, default=1800.0, help="seconds a run may take")
    p.add_argument("--logs", type=Path, help="keep the server's and the clients' output in this folder")
    args = p.parse_args(argv)
    if args.runs < 1 or args.games < 1:
        p.error("--runs and --games must be positive")
    if args.stagger < 0 or args.timeout <= 0:
        p.error("--stagger must be >= 0 and --timeout positive")
    tables = []
    for spec in args.tables.split(","):
        pair = spec.strip().split("-")
        if len(pair) != 2 or not all(pair):
            p.error(f"--tables: {spec!r} is not TEAM0-TEAM1 (e.g. ai1-ai2)")
        tables.append((pair[0], pair[1]))
    args.tables = tables
    try:
        args.clients = {a: ai_clients(args.path, a) for pair in tables for a in pair}
    except ValueError as e:
        p.error(str(e))
    return args


def run_once(args: argparse.Namespace, run: int, workdir: Path) -> list[dict[str, Any]]:
    """One run: the server and every table's clients; a row per table."""
    record = workdir / "record.jsonl"
    server_log = workdir / "server.log"
    with open(server_log, "w") as out:
        server = subprocess.Popen([sys.executable, "-m", "chupai", "serve", "guandan", "--port", str(PORT),
                                   "--games", str(args.games), "--tables", str(len(args.tables)),
                                   "--seed", str(args.seed + run), "--record", str(record)],
                                  stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while not _LISTENING.search(server_log.read_text()):
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            raise RuntimeError(f"the server did not start:\n{server_log.read_text()}")
        time.sleep(0.05)
    clients: list[tuple[int, str, Path, subprocess.Popen[bytes]]] = []
    try:
        for t, pair in enumerate(args.tables):
            for seat in range(4):
                ai = pair[seat % 2]
                folder = workdir / f"table{t}-{ai}"
                if not folder.exists():
                    shutil.copytree(args.clients[ai]["client0"].parent, folder)
                script = args.clients[ai][f"client{seat}"].name
                log = folder / f"{script}.log"
                with open(log, "wb") as out:
                    proc = subprocess.Popen([sys.executable, script], cwd=folder, stdout=out,
                                            stderr=subprocess.STDOUT)
                clients.append((t, f"{ai}/{script}", log, proc))
                time.sleep(args.stagger)
        try:
            server.wait(max(1.0, args.timeout))
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    finally:
        for _t, _name, _log, proc in clients:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if server.poll() is None:
            server.kill()
            server.wait()
    lines = [json.loads(x) for x in record.read_text().splitlines() if x.strip()] if record.exists() else []
    rows = []
    for t, pair in enumerate(args.tables):
        games = [x for x in lines if x.get("type") == "game" and x.get("table") == t]
        aborts = [x["reason"] for x in lines if x.get("type") == "abort" and x.get("table") == t]
        tracebacks = [name for tt, name, log, _p in clients if tt == t and "Traceback" in log.read_text(errors="replace")]
        winners = [pair[g["winner"]] if g["winner"] is not None else "draw" for g in games]
        rows.append({"table": t, "pair": "-".join(pair), "finished": len(games) == args.games and not aborts,
                     "deals": sum(g["deals"] for g in games), "winners": winners, "aborts": aborts,
                     "tracebacks": tracebacks})
    if args.logs is not None:
        dest = args.logs / f"run{run}"
        dest.mkdir(parents=True, exist_ok=True)
        shutil.copy(server_log, dest / "server.log")
        for t, name, log, _p in clients:
            shutil.copy(log, dest / f"table{t}-{name.replace('/', '-')}.log")
    return rows


def main(argv: list[str] | None = None) -> int:
    """Run the check; 0 if every table of every run finished with no client traceback."""
    args = parse_args(argv)
    ok = True
    for run in range(args.runs):
        workdir = Path(tempfile.mkdtemp(prefix="rulebot-tables-"))
        started = time.monotonic()
        try:
            rows = run_once(args, run, workdir)
        except RuntimeError as e:
            print(f"rulebot_tables.py: error: {e}", file=sys.stderr)
            return 2
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        print(f"run {run + 1}/{args.runs} (seed {args.seed + run}, {time.monotonic() - started:.0f} s):", flush=True)
        for r in rows:
            good = r["finished"] and not r["tracebacks"]
            ok &= good
            what = (f"finished, {r['deals']} deals, won by {', '.join(r['winners'])}" if r["finished"]
                    else f"NOT finished: {'; '.join(r['aborts']) or 'no game line'}")
            tb = f"; traceback from {', '.join(r['tracebacks'])}" if r["tracebacks"] else ""
            print(f"  table {r['table']} {r['pair']}: {what}{tb}", flush=True)
    print("every table finished, no client traceback" if ok else "FAILED", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
