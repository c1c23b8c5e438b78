"""Load on the protocol server: T tables (4T connections) of bots playing G games each.

    python bench/guandan/protocol_load.py [--tables 32] [--games 2] [--seed 1]

Runs ``chupai serve guandan`` as a process and 4T websocket clients in this one (each
answers with a seeded random index, reading only the message), then checks that no
message was lost or duplicated — the four seats of a table received the same
notifications in the same order, every request got one answer, the server sent as
many messages as the clients received — and that the server refused nothing.  Prints
the server's decisions/s and its latency per decision (median, p99): the time from a
valid answer to the next request on that table (the engine step, the legal-action
list, JSON, the sends), and the request-answer round trip.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import sys
import time
from collections import Counter
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


async def seat(url: str, seed: int) -> dict[str, Any]:
    """One bot seat: its notifications (as text, in order), requests and answers."""
    rng = random.Random(seed)
    notes: list[str] = []
    counts: Counter[str] = Counter()
    acts = answers = 0
    async with connect(url, max_size=None, open_timeout=60) as ws:
        try:
            async for raw in ws:
                msg = json.loads(raw)
                counts[msg["type"]] += 1
                if msg["type"] == "act":
                    acts += 1
                    await ws.send(json.dumps({"actIndex": rng.randrange(msg["indexRange"] + 1)}))
                    answers += 1
                elif msg["stage"] != "beginning":  # the beginning hands differ per seat
                    notes.append(raw if isinstance(raw, str) else raw.decode())
        except ConnectionClosed:
            pass
    return {"notes": notes, "acts": acts, "answers": answers, "received": sum(counts.values()),
            "result": notes[-1] if notes else None}


async def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=32)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "chupai", "serve", "guandan", "--port", "0", "--tables", str(args.tables),
        "--games", str(args.games), "--seed", str(args.seed), stderr=asyncio.subprocess.PIPE)
    assert server.stderr is not None
    port = None
    log: list[str] = []
    while port is None:
        line = (await server.stderr.readline()).decode()
        if not line:
            raise SystemExit("the server ended before listening:\n" + "".join(log))
        log.append(line)
        m = re.search(r"listening on ws://[\d.]+:(\d+)/", line)
        port = int(m.group(1)) if m else None
    url = f"ws://127.0.0.1:{port}/game/"
    start = time.perf_counter()
    seats = []
    for i in range(4 * args.tables):  # in order: connection i sits at table i // 4, seat i % 4
        seats.append(asyncio.create_task(seat(url + f"bot{i}", args.seed * 1000 + i)))
        await asyncio.sleep(0.002)
    results = await asyncio.gather(*seats)
    rest = (await server.stderr.read()).decode()
    log.extend(rest.splitlines(keepends=True))
    status = await server.wait()
    wall = time.perf_counter() - start
    final = next((x for x in log if "all tables done" in x), "")
    problems = []
    if status != 0:
        problems.append(f"the server exited {status}")
    for t in range(args.tables):
        table = results[4 * t: 4 * t + 4]
        if any(r["notes"] != table[0]["notes"] for r in table):
            problems.append(f"table {t}: the seats' notifications differ (lost or duplicated message)")
        if any(r["acts"] != r["answers"] for r in table):
            problems.append(f"table {t}: a request without exactly one answer")
        plays = sum(1 for n in table[0]["notes"] if '"stage": "play"' in n)
        if sum(r["acts"] for r in table) < plays:
            problems.append(f"table {t}: fewer requests than plays")
        if not table[0]["result"] or '"gameResult"' not in table[0]["result"]:
            problems.append(f"table {t}: no gameResult")
    m = re.search(r"(\d+) messages sent, (\d+) refused", final)
    received = sum(r["received"] for r in results)
    if not m or int(m.group(1)) != received:
        problems.append(f"the server sent {m.group(1) if m else '?'} messages, the clients received {received}")
    if not m or int(m.group(2)) != 0:
        problems.append("the server refused a valid answer")
    print(f"{args.tables} tables ({4 * args.tables} connections) x {args.games} games, seed {args.seed}: "
          f"{wall:.1f} s wall")
    print("server:", final.split("all tables done: ", 1)[-1].strip())
    print("checks:", "OK (no lost or duplicated message, nothing refused)" if not problems else "; ".join(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
