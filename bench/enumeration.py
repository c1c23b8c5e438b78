"""The enumeration benchmark page: every game's generator and engine, perft counts, and
the peer engines that play a game of ours, measured in one run and written as
``docs/benchmarks.md``.

    python bench/enumeration.py [--out docs/benchmarks.md] [--deals 1000] [--repeat 5]
                                [--peer-positions 1000] [--no-peers]

Per registered game (its registry entry's runner, ``chupai bench GAME --json
--no-surface``): plays per call, CPU µs per lead and per follow call (the mean over
the seeded positions of the median of ``--repeat`` timed loops, and the median single
call), plays a second, the bare kernel, and whole random deals a second played in C
(one thread; two threads in wall time).  Per game, perft: the action sequences of its
seeded deal to its registry depth (``perft.full``) and the sequences a second.  Per
game with peer benches of its own (``bench/GAME/plays.py``: legal plays per call on
each peer engine's own positions against chupai's on the same positions;
``bench/GAME/deals.py``: random deals a second; the peers from the package index, the
``parity`` extra), their output as they print it.  The machine, the versions and the
commands are recorded on the page.  CPU time; the machine is shared: run it alone.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib.metadata
import importlib.util
import io
import json
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # numpy's BLAS threads would count in CPU time

from chupai.evaluation.perft import deal_of, perft  # noqa: E402
from chupai.registry import GAMES  # noqa: E402

HERE = Path(__file__).resolve().parent
PERFT_SEED = 0
#: a game's peer benches (bench/GAME/...) and the options of each beyond --repeat
PEER_BENCHES = (("plays.py", ("--positions",)), ("deals.py", ("--deals",)))


def captured(main: Any, argv: list[str]) -> str:
    """What ``main(argv)`` prints (its exit status checked)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(argv)
    if status:
        raise RuntimeError(f"{main.__module__}.main({argv}) exited with {status}")
    return out.getvalue()


def game_report(name: str, deals: int, repeat: int) -> dict[str, Any]:
    """The game's benchmark runner's report (JSON), without the Python surface sections."""
    argv = ["--deals", str(deals), "--repeat", str(repeat), "--no-surface", "--json"]
    report: dict[str, Any] = json.loads(captured(GAMES[name].bench_module().main, argv))
    return report


def perft_row(name: str) -> tuple[int, int, float]:
    """(depth, sequences, CPU s) of the game's deal of seed ``PERFT_SEED`` to its registry depth."""
    depth = GAMES[name].perft.full
    state = deal_of(name, PERFT_SEED)
    start = time.process_time()
    n = perft(state, depth)
    return depth, n, time.process_time() - start


def peer_output(script: str, argv: list[str]) -> str:
    """A peer bench of ``bench/`` run in this process, its printed table."""
    sys.path.insert(0, str(HERE / Path(script).parent))
    try:
        spec = importlib.util.spec_from_file_location(Path(script).stem, HERE / script)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return captured(module.main, argv)
    finally:
        sys.path.pop(0)


def parity_packages() -> list[str]:
    """The packages of chupai's ``parity`` extra (the peer engines), as this source tree's
    ``pyproject.toml`` declares them (before Python 3.11, as the installed metadata)."""
    try:
        import tomllib
    except ModuleNotFoundError:
        extra = [req for req in importlib.metadata.requires("chupai") or [] if req.endswith('extra == "parity"')]
    else:
        with open(HERE.parent / "pyproject.toml", "rb") as f:
            extra = tomllib.load(f)["project"]["optional-dependencies"]["parity"]
    return [re.split(r"[<>=!~\[; ]", req, maxsplit=1)[0] for req in extra]


def version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def machine() -> list[str]:
    """The machine and the versions, one line each."""
    model = "unknown"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    try:
        rev = subprocess.run(["git", "-C", str(HERE), "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        rev = "unknown"
    return [f"- machine: {platform.machine()}, {model}, {os.cpu_count()} cores, {platform.system()} "
            f"{platform.release()}",
            f"- Python {platform.python_version()}, numpy {version('numpy')}, chupai {version('chupai')} "
            f"(commit {rev})",
            "- peers (the parity extra): " + ", ".join(f"{p} {version(p)}" for p in parity_packages())]


def fmt(x: float | None, digits: int = 2) -> str:
    return "" if x is None else f"{x:,.{digits}f}"


def game_section(report: dict[str, Any], perft_figures: tuple[int, int, float]) -> list[str]:
    name = report["game"]
    lines = [f"## {GAMES[name].title}", ""]
    lines += [f"{note}." for note in report["info"].get("notes", [])]
    lines += ["", "| call | plays a call | µs a call (mean) | median single call µs | plays/s |",
              "|---|---|---|---|---|"]
    for row in report["rows"]:
        if row["section"] == "generator" and row["unit"] == "plays" and row["us"] is not None:
            plays = row["per_second"] * row["us"] / 1e6
            lines.append(f"| {row['case']} | {fmt(plays, 1)} | {fmt(row['us'])} | {fmt(row['median_call_us'])} "
                         f"| {fmt(row['per_second'], 0)} |")
    lines += ["", "| whole random deals | deals/s |", "|---|---|"]
    lines += [f"| {row['case']} | {fmt(row['per_second'], 0)} |" for row in report["rows"]
              if row["unit"] == "deals" and row["per_second"] is not None]
    depth, n, cpu = perft_figures
    lines += ["", f"perft (`chupai perft {name} --seed {PERFT_SEED} --depth {depth}`): {n:,} action sequences, "
              f"{cpu:.2f} s CPU, {n / cpu if cpu else 0:,.0f} sequences/s.", ""]
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=HERE.parent / "docs" / "benchmarks.md")
    ap.add_argument("--deals", type=int, default=1000, help="seeded positions per game")
    ap.add_argument("--repeat", type=int, default=5, help="timed loops per figure (the median)")
    ap.add_argument("--peer-positions", type=int, default=1000,
                    help="positions (or random deals) of each peer bench")
    ap.add_argument("--no-peers", action="store_true", help="skip the peer engines")
    args = ap.parse_args(argv)
    if args.deals < 1 or args.repeat < 1 or args.peer_positions < 1:
        ap.error("--deals, --repeat and --peer-positions must be at least 1")
    command = (f"python bench/enumeration.py --deals {args.deals} --repeat {args.repeat} "
               f"--peer-positions {args.peer_positions}" + (" --no-peers" if args.no_peers else ""))
    lines = ["# Benchmarks", "",
             f"Generated by `{command}` on {time.strftime('%Y-%m-%d')}; every figure below is from that one "
             "run, CPU time (`time.process_time`) unless it says wall.", ""]
    lines += machine() + [""]
    lines += [f"Per game: `chupai bench GAME --deals {args.deals} --repeat {args.repeat} --no-surface --json` "
              "(its seeded positions; the median of the timed loops) and perft.", ""]
    for name in GAMES:
        print(f"[enumeration] {name}", file=sys.stderr)
        lines += game_section(game_report(name, args.deals, args.repeat), perft_row(name))
    for name in [] if args.no_peers else GAMES:
        for script, options in PEER_BENCHES:
            if not (HERE / name / script).is_file():
                continue
            peer_argv = ["--repeat", str(args.repeat)]
            for option in options:
                peer_argv += [option, str(args.peer_positions)]
            print(f"[enumeration] bench/{name}/{script}", file=sys.stderr)
            lines += [f"## {GAMES[name].title}: peer engines, `python bench/{name}/{script} {' '.join(peer_argv)}`",
                      "", "```", peer_output(f"{name}/{script}", peer_argv).rstrip(), "```", ""]
    args.out.write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")
    print(f"[enumeration] wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
