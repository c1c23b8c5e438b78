"""The enumeration benchmark page: every game's generator and engine, perft counts, and
the peer engines that play a game of ours, measured in one run and written as
``docs/benchmarks.md``.

    python bench/enumeration.py [--out docs/benchmarks.md] [--deals 1000] [--repeat 5]
                                [--surface-deals 200] [--peer-positions 1000] [--no-peers]
                                [--checkout GAME=PATH ...]

Per registered game (its registry entry's runner, ``chupai bench GAME --json
--calls``): plays per call, CPU µs per lead and per follow call (the mean over the
seeded positions of the median of ``--repeat`` timed loops; the median and the 99th
percentile of the single calls, wall clock), plays a second, the bare kernel, and
whole random deals a second played in C (one thread; two threads in wall time) and
driven from Python (the runner's Python surface section over ``--surface-deals``
seeded deals: the dealing plus the deal's actions through ``legal_actions()`` and
``apply()``, or ``apply_index()``; its other rows are on the page too).  The single
calls of every game are plotted, µs against the plays the call returned
(``docs/benchmarks_calls.png``, where matplotlib is installed).  Per game, perft: the action sequences of its
seeded deal to its registry depth (``perft.full``) and the sequences a second.  Per
game with peer benches of its own (``bench/GAME/plays.py``: legal plays per call on
each peer engine's own positions against chupai's on the same positions;
``bench/GAME/deals.py``: random deals a second; the peers from the package index, the
``parity`` extra, or a public repository checked out outside this one and given as
``--checkout GAME=PATH``, which that game's peer benches get as ``--checkout PATH``),
their output as they print it.  The machine, the versions and the
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


def runner_argv(deals: int, repeat: int, surface_deals: int) -> list[str]:
    """The options of every game's runner (``chupai bench GAME ...``)."""
    return ["--deals", str(deals), "--repeat", str(repeat), "--surface-deals", str(surface_deals), "--json", "--calls"]


def game_report(name: str, argv: list[str]) -> dict[str, Any]:
    """The game's benchmark runner's report (JSON), with its single calls."""
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


#: the Python surface's rows (``chupai.evaluation.speed``, the same in every game) that
#: make a whole deal driven from Python: its actions, by either path, and the dealing
PY_ACTIONS = ("random deal, legal_actions() + apply()", "random deal, apply_index()")
PY_DEALING = "Deal(seed=...), the dealing"


def python_deals(report: dict[str, Any]) -> list[tuple[str, float]]:
    """Whole random deals a second driven from Python, per path: one over (the deal's
    actions times µs an action, plus the dealing)."""
    rows = {row["case"]: row for row in report["rows"] if row["section"] == "surface"}
    actions = report["info"].get("actions_per_deal")
    if actions is None or PY_DEALING not in rows:
        return []
    return [(f"Python, {case.split(', ', 1)[1]} ({actions:.0f} actions a deal, dealing included)",
             1e6 / (rows[case]["us"] * actions + rows[PY_DEALING]["us"])) for case in PY_ACTIONS if case in rows]


def game_section(report: dict[str, Any], perft_figures: tuple[int, int, float]) -> list[str]:
    name = report["game"]
    lines = [f"## {GAMES[name].title}", ""]
    lines += [f"{note}." for note in report["info"].get("notes", [])]
    lines += ["", "| call | plays a call | µs a call (mean) | single call µs: median | p99 | plays/s |",
              "|---|---|---|---|---|---|"]
    for row in report["rows"]:
        if row["section"] == "generator" and row["unit"] == "plays" and row["us"] is not None:
            plays = row["per_second"] * row["us"] / 1e6
            lines.append(f"| {row['case']} | {fmt(plays, 1)} | {fmt(row['us'])} | {fmt(row['median_call_us'])} "
                         f"| {fmt(row['p99_call_us'])} | {fmt(row['per_second'], 0)} |")
    lines += ["", "| whole random deals | deals/s |", "|---|---|"]
    lines += [f"| {row['case']} | {fmt(row['per_second'], 0)} |" for row in report["rows"]
              if row["section"] == "engine" and row["unit"] == "deals" and row["per_second"] is not None]
    lines += [f"| {case} | {fmt(rate, 0)} |" for case, rate in python_deals(report)]
    surface = [row for row in report["rows"] if row["section"] in ("surface", "reference") and row["us"] is not None]
    if surface:
        lines += ["", f"Python surface ({report['info'].get('surface_deals')} seeded deals; the runner's section):", "",
                  "| case | µs | per second | note |", "|---|---|---|---|"]
        lines += [f"| {row['case']} | {fmt(row['us'])} | {fmt(row['per_second'], 0)} {row['unit']} | {row['note']} |"
                  for row in surface]
    depth, n, cpu = perft_figures
    lines += ["", f"perft (`chupai perft {name} --seed {PERFT_SEED} --depth {depth}`): {n:,} action sequences, "
              f"{cpu:.2f} s CPU, {n / cpu if cpu else 0:,.0f} sequences/s.", ""]
    return lines


def plot_calls(reports: list[dict[str, Any]], path: Path) -> bool:
    """Every game's single calls, µs against the plays each returned, one panel a game
    and a colour a row; ``False`` (nothing written) without matplotlib."""
    try:
        import matplotlib
    except ModuleNotFoundError:
        return False
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = min(3, len(reports))
    rows = -(-len(reports) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 4.4 * rows), squeeze=False)
    for ax in axes.flat[len(reports):]:
        ax.set_visible(False)
    for ax, report in zip(axes.flat, reports):
        for row in report["rows"]:
            calls = [(size, us) for size, us in row.get("calls") or [] if size]
            if row["section"] != "generator" or not calls:
                continue
            ax.scatter([c[0] for c in calls], [c[1] for c in calls], s=3, alpha=0.4, label=row["case"])
        ax.set(xscale="log", yscale="log", xlabel="plays the call returned", title=GAMES[report["game"]].title)
        ax.set_ylabel("µs a call (wall clock, timed alone)")
        ax.legend(fontsize=7, markerscale=3)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=HERE.parent / "docs" / "benchmarks.md")
    ap.add_argument("--deals", type=int, default=1000, help="seeded positions per game")
    ap.add_argument("--repeat", type=int, default=5, help="timed loops per figure (the median)")
    ap.add_argument("--surface-deals", type=int, default=200, help="seeded deals of each game's Python surface section")
    ap.add_argument("--peer-positions", type=int, default=1000,
                    help="positions (or random deals) of each peer bench")
    ap.add_argument("--no-peers", action="store_true", help="skip the peer engines")
    ap.add_argument("--checkout", action="append", default=[], metavar="GAME=PATH",
                    help="a checkout of a peer engine, passed to GAME's peer benches as --checkout PATH")
    args = ap.parse_args(argv)
    checkouts: dict[str, Path] = {}
    for given in args.checkout:
        name, _, path = given.partition("=")
        if name not in GAMES or not path or not Path(path).is_dir():
            ap.error(f"--checkout must be GAME=PATH, a registered game and a folder, not {given!r}")
        checkouts[name] = Path(path)
    if min(args.deals, args.repeat, args.surface_deals, args.peer_positions) < 1:
        ap.error("--deals, --repeat, --surface-deals and --peer-positions must be at least 1")
    command = (f"python bench/enumeration.py --deals {args.deals} --repeat {args.repeat} --surface-deals "
               f"{args.surface_deals} --peer-positions {args.peer_positions}" + (" --no-peers" if args.no_peers else "")
               + "".join(f" --checkout {name}=PATH/TO/{path.name}" for name, path in checkouts.items()))
    runner = runner_argv(args.deals, args.repeat, args.surface_deals)
    lines = ["# Benchmarks", "",
             f"Generated by `{command}` on {time.strftime('%Y-%m-%d')}; every figure below is from that one "
             "run, CPU time (`time.process_time`) unless it says wall.", ""]
    lines += machine() + [""]
    lines += [f"Per game: `chupai bench GAME {' '.join(runner)}` (its seeded positions, each call the "
              "generator applied to one position's prepared arguments, the loop's own cost one tuple unpacked; "
              "the median of the timed loops; each call also timed alone) and perft.", ""]
    intro = len(lines)
    plot = args.out.with_name(args.out.stem + "_calls.png")
    reports = []
    for name in GAMES:
        print(f"[enumeration] {name}", file=sys.stderr)
        reports.append(game_report(name, runner))
        lines += game_section(reports[-1], perft_row(name))
    if plot_calls(reports, plot):
        lines[intro:intro] = [f"![µs a call against the plays it returned, every game's single calls]({plot.name})", ""]
    for name in [] if args.no_peers else GAMES:
        for script, options in PEER_BENCHES:
            if not (HERE / name / script).is_file():
                continue
            peer_argv = ["--repeat", str(args.repeat)]
            for option in options:
                peer_argv += [option, str(args.peer_positions)]
            shown = list(peer_argv)  # the page names a checkout by its folder's name only
            if name in checkouts:
                peer_argv += ["--checkout", str(checkouts[name])]
                shown += ["--checkout", f"PATH/TO/{checkouts[name].name}"]
            print(f"[enumeration] bench/{name}/{script}", file=sys.stderr)
            lines += [f"## {GAMES[name].title}: peer engines, `python bench/{name}/{script} {' '.join(shown)}`",
                      "", "```", peer_output(f"{name}/{script}", peer_argv).rstrip(), "```", ""]
    args.out.write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")
    print(f"[enumeration] wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
