"""A chupai bot against the eight rule-based bots of the 2020 Guan Dan AI competition.

    python bench/guandan/rulebots.py PATH [--bot best] [--deals 100] [--ais ai1,...,ai8]
                             [--seed 2026] [--timeout 120] [--logs DIR]

``PATH`` is a checkout of the public repository ``submit-paper/Danzero_plus`` (or its
``wintest`` folder): its folders ``wintest/ai1`` .. ``ai8`` each hold a bot's own
ws4py clients, hard-coded to ``ws://127.0.0.1:23456/game/clientN``.  Nothing of that
code is copied into this repository: each run copies the bot's folder to a temporary
directory (some bots write files next to their code) and starts two of its clients
there, with this Python, against a :class:`chupai.guandan.protocol.server.Server` listening on
``127.0.0.1:23456`` whose other two seats the chupai bot ``--bot`` (a spec of
:func:`chupai.players.search.make_bot`) plays.

The figure is the competition's: the share of **first deals** won (both teams at
level 2, no tribute; won by the team of the first player out).  Each game of the
server is cut to its first deal (a match capped at one deal), so a table of ``N``
games is ``N`` first deals.  Half of the deals are played with the outside bot in
seats 1 and 3, the other half with the same deals (same seed) and the outside bot in
seats 0 and 2, so both sides play both hands of every deal dealt twice.

Prints, per outside bot, the deals played, the chupai bot's win share with its 95%
Wilson interval, and whether it is beaten (lower bound above 50%).  A benchmark, not
a test: the bots are not part of this repository and CI cannot fetch them.
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import math
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: where the outside clients connect (hard-coded in them)
HOST, PORT = "127.0.0.1", 23456
AIS = tuple(f"ai{i}" for i in range(1, 9))
_URL = re.compile(r"""^[^#\n]*['"]ws://127\.0\.0\.1:23456/game/(client\d)['"]""", re.MULTILINE)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a share ``wins / n`` (95% for ``z = 1.96``)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    den = 1 + z * z / n
    return (centre - half) / den, (centre + half) / den


def ai_clients(root: Path, name: str) -> dict[str, Path]:
    """The client scripts of bot ``name`` under ``root`` (a checkout or its ``wintest``),
    by the name they connect as (``client0`` .. ``client3``); ``ValueError`` naming what
    is missing."""
    wintest = root / "wintest" if (root / "wintest").is_dir() else root
    folder = wintest / name
    if not folder.is_dir():
        raise ValueError(f"{folder} is not a directory: PATH must be a checkout of submit-paper/Danzero_plus "
                         "(with wintest/ai1 .. ai8) or its wintest folder")
    clients: dict[str, Path] = {}
    for script in sorted(folder.glob("client*.py")):
        m = _URL.search(script.read_text(encoding="utf-8", errors="replace"))
        if m is not None:
            clients.setdefault(m.group(1), script)
    missing = [c for c in ("client0", "client1", "client2", "client3") if c not in clients]
    if missing:
        raise ValueError(f"{folder}: no client script connecting as {', '.join(missing)} "
                         f"(expected clientN.py files with ws://{HOST}:{PORT}/game/clientN)")
    return clients


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line, checked: the path holds every bot asked for, the bot spec
    parses (``SystemExit(2)`` with one ``error:`` line otherwise)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("path", type=Path, help="a checkout of submit-paper/Danzero_plus (or its wintest folder)")
    p.add_argument("--bot", default="best", help="the chupai bot spec (chupai.players.search.make_bot)")
    p.add_argument("--deals", type=int, default=100, help="first deals against each bot (even: both seat pairs)")
    p.add_argument("--ais", default=",".join(AIS), help="the outside bots, comma-separated")
    p.add_argument("--seed", type=int, default=2026, help="the deals' seed")
    p.add_argument("--timeout", type=float, default=120.0,
                   help="seconds without a decision before a table is given up (a stuck client)")
    p.add_argument("--logs", type=Path, help="keep the outside clients' output in this folder")
    args = p.parse_args(argv)
    if args.deals < 2 or args.deals % 2:
        p.error(f"--deals must be an even number >= 2 (half in each seat pair), not {args.deals}")
    if args.timeout <= 0:
        p.error(f"--timeout must be positive, not {args.timeout}")
    args.ais = [a.strip() for a in args.ais.split(",") if a.strip()]
    if not args.ais:
        p.error("--ais names no bot")
    try:
        args.clients = {a: ai_clients(args.path, a) for a in args.ais}
    except ValueError as e:
        p.error(str(e))
    from chupai.players.search import make_bot

    try:
        make_bot(args.bot)
    except (TypeError, ValueError) as e:
        p.error(f"--bot: {e}")
    return args


@dataclass
class Tally:
    """First deals won by the chupai bot against one outside bot."""

    wins: int = 0
    deals: int = 0
    stuck: list[str] = field(default_factory=list)

    def row(self, name: str) -> str:
        lo, hi = wilson(self.wins, self.deals)
        share = self.wins / self.deals if self.deals else 0.0
        verdict = "beaten" if lo > 0.5 else "not beaten"
        extra = f"; {len(self.stuck)} table(s) given up" if self.stuck else ""
        return (f"{name:>4}  {self.deals:5d}  {100 * share:5.1f}%  [{100 * lo:5.1f}%, {100 * hi:5.1f}%]  "
                f"{verdict}{extra}")


def _first_deal_server(spec: str, chupai_seats: tuple[int, ...], games: int, seed: int,
                       on_deal: Any) -> Any:
    """A protocol server of one table whose games end after their first deal, the
    seats ``chupai_seats`` played by ``spec``; ``on_deal(line)`` gets each deal's record."""
    from chupai.guandan import Match
    from chupai.guandan.protocol import server as server_module
    from chupai.guandan.protocol._adapter import ProtocolGame, competition_rules

    class FirstDeal(ProtocolGame):
        """A protocol game capped at its first deal."""

        def __init__(self, seed: int, **kwargs: Any) -> None:
            super().__init__(seed, **kwargs)
            self.match = Match(seed=self.seed, rules=competition_rules(), max_deals=1)
            self.deal = self.match.deal

    class FirstDealServer(server_module.Server):
        def write_record(self, line: dict[str, Any]) -> None:
            if line["type"] == "deal":
                on_deal(line)

    # the server's tables build their games by this module name
    server_module.ProtocolGame = FirstDeal  # type: ignore[attr-defined]
    seats = [spec if s in chupai_seats else "remote" for s in range(4)]
    return FirstDealServer(server_module.ServerConfig(host=HOST, port=PORT, games=games, seed=seed, seats=seats))


def play_half(args: argparse.Namespace, ai: str, ai_seats: tuple[int, int], games: int, seed: int,
              tally: Tally, bar: Any) -> None:
    """``games`` first deals of ``args.bot`` against ``ai`` seated at ``ai_seats``."""
    chupai_seats = tuple(s for s in range(4) if s not in ai_seats)
    team = chupai_seats[0] % 2
    progress = {"at": time.monotonic()}

    def on_deal(line: dict[str, Any]) -> None:
        tally.deals += 1
        tally.wins += line["order"][0] % 2 == team
        progress["at"] = time.monotonic()
        bar.update(1)

    srv = _first_deal_server(args.bot, chupai_seats, games, seed, on_deal)
    status: dict[str, Any] = {}

    def serve() -> None:
        try:
            status["rc"] = asyncio.run(srv.run())
        except BaseException as e:  # reported by the main thread
            status["error"] = e
            srv.ready.set()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    while not srv.ready.is_set() and thread.is_alive():
        time.sleep(0.05)
    if "error" in status:
        raise RuntimeError(f"the server cannot listen on {HOST}:{PORT}: {status['error']}")
    workdir = Path(tempfile.mkdtemp(prefix=f"rulebots-{ai}-"))
    folder = workdir / ai
    shutil.copytree(args.clients[ai]["client0"].parent, folder)
    procs: list[subprocess.Popen[bytes]] = []
    table = srv.tables[0]
    try:
        for k, s in enumerate(ai_seats):
            script = args.clients[ai][f"client{s}"].name
            log = open(workdir / f"{script}.log", "wb")  # noqa: SIM115 (closed with the process)
            procs.append(subprocess.Popen([sys.executable, script], cwd=folder, stdout=log, stderr=subprocess.STDOUT))
            log.close()
            deadline = time.monotonic() + args.timeout
            while len(table.remotes) <= k:  # seated in connection order: wait for this one
                if procs[-1].poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{ai}'s {script} did not connect (see {workdir / (script + '.log')})")
                time.sleep(0.05)
        progress["at"] = time.monotonic()
        last_decisions = -1
        stuck = False
        while thread.is_alive():
            thread.join(0.5)
            if srv.stats.decisions != last_decisions:
                last_decisions = srv.stats.decisions
                progress["at"] = time.monotonic()
            elif time.monotonic() - progress["at"] > args.timeout:
                tally.stuck.append(f"seats {ai_seats} after {tally.deals} deals: no decision in {args.timeout:g} s")
                for p in procs:  # their connections close: the table ends
                    p.kill()
                thread.join(30)
                stuck = True
                break
        if status.get("rc", 0) != 0 and not stuck:
            tally.stuck.append(f"seats {ai_seats} after {tally.deals} deals: a client left (see --logs)")
    finally:
        for p in procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        if args.logs is not None:
            args.logs.mkdir(parents=True, exist_ok=True)
            for f in workdir.glob("*.log"):
                shutil.copy(f, args.logs / f"{ai}-seats{ai_seats[0]}{ai_seats[1]}-{f.name}")
        shutil.rmtree(workdir, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; print one row per outside bot."""
    args = parse_args(argv)
    from tqdm import tqdm

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(message)s", stream=sys.stderr)
    half = args.deals // 2
    tallies = {a: Tally() for a in args.ais}
    with tqdm(total=args.deals * len(args.ais), unit="deal", file=sys.stderr) as bar:
        for ai in args.ais:
            bar.set_description(ai)
            for ai_seats in ((1, 3), (0, 2)):
                done = tallies[ai].deals
                # a given-up table goes on with fresh deals (a new seed for the rest)
                attempt = 0
                while tallies[ai].deals - done < half and attempt < 3:
                    left = half - (tallies[ai].deals - done)
                    try:
                        play_half(args, ai, ai_seats, left, args.seed + 7919 * attempt, tallies[ai], bar)
                    except RuntimeError as e:  # the port is taken, a client cannot start
                        print(f"rulebots.py: error: {e}", file=sys.stderr)
                        return 2
                    attempt += 1
    print(f"{args.bot} against the 2020 competition bots, first deals (seed {args.seed}):")
    print("  bot  deals    won  95% interval")
    for ai in args.ais:
        print(tallies[ai].row(ai))
        for s in tallies[ai].stuck:
            print(f"      given up: {s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
