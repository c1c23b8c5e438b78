"""chupai bots on OpenGuanDan's own server: a whole room played, every action checked.

    python bench/guandan/openguandan.py PATH/TO/OpenGuanDan [--bots greedy,heuristic,greedy,heuristic]
        [--games 1] [--seed 0] [--java java]

PATH is a checkout of the public OpenGuanDan repository (GameAI-NJUPT); nothing of it is
part of this one. The script starts its server (``guandan-java-1.0.0.jar``, Java 17,
with Debian's netty and jackson: ``apt-get install libnetty-java
libjackson2-databind-java``) on a free loopback port, seats the four bots in a new room
through :func:`chupai.guandan.protocol.openguandan.play_room`, and prints per seat the
decisions, the actions the server refused (the goal: none) and, over every play
request, how the server's ``actionList`` compares with the legal plays chupai lists
for the same position under ``Rules.competition()`` (entries only one side has, by
type). The server is stopped at the end, whatever happens.
"""
from __future__ import annotations

import argparse
import asyncio
import collections
import glob
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from chupai.guandan.protocol._adapter import action_key
from chupai.guandan.protocol.openguandan import OpenGuanDanClient, competition_form, play_room

JAR = "guandan-java-1.0.0.jar"
MAIN = "com.guandan.GuandanServer"
#: the Debian jars the server's classes need (netty-all's parts, jackson)
DEPENDENCIES = ("netty-*.jar", "jackson-core.jar", "jackson-databind.jar", "jackson-annotations.jar")


def classpath(checkout: Path) -> str:
    jar = checkout / JAR
    if not jar.is_file():
        raise ValueError(f"{checkout} has no {JAR}: expected a checkout of the OpenGuanDan repository")
    jars = [str(jar)]
    for pattern in DEPENDENCIES:
        found = sorted(glob.glob(f"/usr/share/java/{pattern}"))
        if not found:
            raise ValueError(f"/usr/share/java has no {pattern}: apt-get install libnetty-java libjackson2-databind-java")
        jars += found
    return ":".join(jars)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_listening(port: int, server: subprocess.Popen[bytes], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the OpenGuanDan server exited with status {server.returncode}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise RuntimeError(f"the OpenGuanDan server did not listen on port {port} within {seconds:g} s")


class Compare:
    """Counts, over every play request, the entries only the server or only chupai lists."""

    def __init__(self) -> None:
        self.requests = 0
        self.equal = 0
        self.only = collections.Counter[tuple[str, str]]()
        self.example: dict[tuple[str, str], Any] = {}

    def take(self, client: OpenGuanDanClient, message: dict[str, Any]) -> None:
        if message.get("type") != "act" or message.get("stage") != "play":
            return
        deal = client.state.deal(client.rng)
        ours = {_text(action_key(list(a.to_protocol()))) for a in deal.legal_actions()}
        theirs = {_text(action_key(competition_form(a))) for a in message["actionList"]}
        self.requests += 1
        self.equal += ours == theirs
        for side, keys in (("server only", theirs - ours), ("chupai only", ours - theirs)):
            for key in keys:
                self.only[side, key.split(" ", 1)[0]] += 1
                self.example.setdefault((side, key.split(" ", 1)[0]), (key, message["curRank"]))


def checked(compare: Compare) -> type[OpenGuanDanClient]:
    """The client class whose every message goes through ``compare`` too."""

    class Checked(OpenGuanDanClient):
        def on_message(self, message: dict[str, Any]) -> None:
            compare.take(self, message)

    return Checked


def _text(key: Any) -> str:
    return " ".join(str(k) for k in key)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkout", help="a checkout of the OpenGuanDan repository")
    ap.add_argument("--bots", default="greedy,heuristic,greedy,heuristic", help="four bot specs, seats 0..3")
    ap.add_argument("--games", type=int, default=1, help="games (matches to A) the room plays (default 1)")
    ap.add_argument("--seed", type=int, default=0, help="the bots' seed (default 0)")
    ap.add_argument("--java", default="java", help="the Java 17+ command (default java)")
    args = ap.parse_args(argv)
    try:
        cp = classpath(Path(args.checkout))
        if shutil.which(args.java) is None:
            raise ValueError(f"no {args.java!r} on PATH: Java 17 or newer is needed")
        bots = [b.strip() for b in args.bots.split(",")]
        if len(bots) != 4 or args.games < 1:
            raise ValueError("--bots takes four bot specs and --games a positive count")
    except ValueError as e:
        print(f"openguandan: error: {e}", file=sys.stderr)
        return 2
    port = free_port()
    # the server writes its game log (log.txt) into its working folder: a temporary one
    workdir = tempfile.mkdtemp(prefix="openguandan-")
    server = subprocess.Popen([args.java, f"-Dserver.port={port}", "-cp", cp, MAIN], cwd=workdir,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    compare = Compare()
    try:
        wait_listening(port, server)
        t = time.perf_counter()
        clients = asyncio.run(play_room(f"ws://127.0.0.1:{port}", bots, games=args.games, seed=args.seed,
                                        client_class=checked(compare)))
        wall = time.perf_counter() - t
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"OpenGuanDan room {clients[0].room}: {args.games} game(s), {wall:.1f} s")
    for c in clients:
        result = c.state.result or {}
        print(f"  seat {c.state.my_pos} {c.bot!r}: {c.decisions} decisions, {len(c.refused)} refused, "
              f"{c.unlisted} plays the server did not list")
    print(f"  result: team {result.get('victory')} won, levels {result.get('victoryRank')}")
    print(f"  play requests: {compare.requests}, actionList equal to chupai's legal plays in {compare.equal}")
    for (side, kind), n in sorted(compare.only.items()):
        key, level = compare.example[side, kind]
        print(f"    {side}: {n} entries of {kind}, e.g. {key} at level {level}")
    return 0 if all(not c.refused and c.state.result for c in clients) else 1


if __name__ == "__main__":
    raise SystemExit(main())
