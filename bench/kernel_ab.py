"""Before and after in one run: a game's generator rows timed in two or more builds of
chupai, alternating, beside the instructions its bare kernel executes in each.

    python bench/kernel_ab.py GAME --tree NAME=PATH --tree NAME=PATH [--rounds 5]
                              [--repeat 5] [--deals N] [--no-callgrind]

Each ``PATH`` is a checkout of chupai with its extensions built in place (``git clone
. /tmp/before && git -C /tmp/before checkout REV && (cd /tmp/before && python setup.py
build_ext --inplace)``).  A round runs ``chupai bench GAME --json --no-engine
--no-surface`` once in every tree (its ``src`` first on ``PYTHONPATH``), the trees in
turn, the first tree of each round the next one, so that a drift of the machine reaches
every tree alike; each row's figure is the median over the rounds of the runner's CPU µs
per call (itself the median of ``--repeat`` timed loops over the game's seeded
positions).  Then, where valgrind is installed, the instructions executed inside the
game's ``kernel_count`` in each tree under callgrind, over the runner's positions
(``_bench.positions``, ``_bench.kernel_arrays``: the same hands in every tree), once
leading and once following where the tree's ``kernel_arrays`` gives the plays to beat
(a 2-D array): machine-independent, so a change's effect is seen apart from the noise of
a shared machine.  Run it alone on the machine.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from chupai.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="kernel_ab.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("game", choices=sorted(GAMES), help="the game whose generator is compared")
    ap.add_argument("--tree", action="append", default=[], metavar="NAME=PATH",
                    help="a built checkout of chupai and its name in the table (two or more)")
    ap.add_argument("--rounds", type=int, default=5, help="runs per tree, alternating (default 5)")
    ap.add_argument("--repeat", type=int, default=5, help="the runner's timed loops per figure (default 5)")
    ap.add_argument("--deals", type=int, default=None, help="the runner's seeded positions (default: the game's)")
    ap.add_argument("--no-callgrind", action="store_true", help="skip the instruction counts")
    args = ap.parse_args(argv)
    trees: dict[str, Path] = {}
    for given in args.tree:
        name, sep, path = given.partition("=")
        if not sep or not name or name in trees:
            ap.error(f"--tree must be NAME=PATH with a new NAME, not {given!r}")
        folder = Path(path).expanduser().resolve()
        if not (folder / "src" / "chupai" / "__init__.py").is_file():
            ap.error(f"--tree {name}: {folder} is not a checkout of chupai (no src/chupai/__init__.py)")
        if not any((folder / "src" / "chupai" / args.game).glob("_movegen.*.so")) and not any(
                (folder / "src" / "chupai" / args.game).glob("_movegen.*.pyd")):
            ap.error(f"--tree {name}: {folder} has no built {args.game} generator; run python setup.py "
                     "build_ext --inplace there")
        trees[name] = folder
    if len(trees) < 2:
        ap.error("give at least two --tree NAME=PATH to compare")
    for option in ("rounds", "repeat", "deals"):
        value = getattr(args, option)
        if value is not None and value < 1:
            ap.error(f"--{option} must be at least 1, not {value}")
    args.trees = trees
    return args


def bench_argv(args: argparse.Namespace, repeat: int) -> list[str]:
    """The runner's command line (after the interpreter)."""
    argv = ["-m", "chupai", "bench", args.game, "--json", "--no-engine", "--no-surface", "--repeat", str(repeat)]
    if args.deals is not None:
        argv += ["--deals", str(args.deals)]
    return argv


def tree_env(folder: Path) -> dict[str, str]:
    """The environment that imports chupai from ``folder``'s sources."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(folder / "src"), *filter(None, [env.get("PYTHONPATH")])])
    return env


def run_rows(args: argparse.Namespace, folder: Path, scratch: str) -> dict[str, float]:
    """One runner run in ``folder``: CPU µs per call by row."""
    done = subprocess.run([sys.executable, *bench_argv(args, args.repeat)], env=tree_env(folder), cwd=scratch,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"kernel_ab.py: error: the runner failed in {folder}: {done.stderr.strip()[-400:]}")
    report = json.loads(done.stdout)
    return {row["case"]: float(row["us"]) for row in report["rows"]}


# One kernel_count call over the runner's positions: its arguments are kernel_arrays'
# (the hands, 1-D; the plays to beat, 2-D, passed only when following).
KERNEL_CALL = """
import importlib, sys
game, deals, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
runner = importlib.import_module(f"chupai.{game}._bench")
movegen = importlib.import_module(f"chupai.{game}._movegen")
arrays = runner.kernel_arrays(runner.positions(deals) if deals else runner.positions())
hands = [a for a in arrays if a.ndim == 1]
rows = [a for a in arrays if a.ndim == 2]
if mode == "follow" and not rows:
    print("no follows")
else:
    movegen.kernel_count(*hands, *(rows[:1] if mode == "follow" else []))
"""


def kernel_instructions(args: argparse.Namespace, folder: Path, scratch: str, mode: str) -> int | None:
    """The instructions callgrind counts inside the game's ``kernel_count`` over the
    runner's positions, leading or following (``None``: the tree has no follow rows)."""
    out = Path(scratch) / "callgrind.out"
    python = os.path.realpath(sys.executable)
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
           # the Python entry alone: callgrind toggles at every function the pattern matches,
           # so a match nested in it (the implementation, where the C compiler did not
           # inline it into its entry) would switch the count off
           f"--toggle-collect=__pyx_pw_*{args.game}*_movegen*kernel_count*", python, "-c", KERNEL_CALL, args.game,
           str(args.deals or 0), mode]
    done = subprocess.run(cmd, env=tree_env(folder), cwd=scratch, capture_output=True, text=True, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"kernel_ab.py: error: callgrind failed in {folder}: {done.stderr.strip()[-400:]}")
    return None if "no follows" in done.stdout else int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    names = list(args.trees)
    times: dict[str, list[dict[str, float]]] = {name: [] for name in names}
    with tempfile.TemporaryDirectory() as scratch:
        for r in range(args.rounds):
            for name in names[r % len(names):] + names[: r % len(names)]:
                times[name].append(run_rows(args, args.trees[name], scratch))
        counts: dict[str, dict[str, int | None]] = {}
        if not args.no_callgrind and shutil.which("valgrind"):
            counts = {mode: {name: kernel_instructions(args, args.trees[name], scratch, mode) for name in names}
                      for mode in ("lead", "follow")}
    cases = [case for case in times[names[0]][0] if all(case in run for n in names for run in times[n])]
    median: dict[str, dict[str, Any]] = {
        n: {case: statistics.median(run[case] for run in times[n]) for case in cases} for n in names}
    first = names[0]
    print(f"{args.game}: CPU µs per call, the median of {args.rounds} alternating runs of `chupai bench "
          f"{args.game}` (--repeat {args.repeat}{'' if args.deals is None else f', --deals {args.deals}'}) per tree")
    print()
    print("| row | " + " | ".join(names) + " | " + " | ".join(f"{n} / {first}" for n in names[1:]) + " |")
    print("|---|" + "---|" * (2 * len(names) - 1))
    for case in cases:
        cells = [f"{median[n][case]:.3f}" for n in names]
        ratios = [f"{median[n][case] / median[first][case]:.3f}" for n in names[1:]]
        print(f"| {case} | " + " | ".join(cells + ratios) + " |")
    if counts:
        print()
        print("Instructions inside kernel_count over the runner's positions (callgrind):")
        for mode, by_tree in counts.items():
            base = by_tree[first]
            cells = [f"{n} {c:,}" + ("" if base is None or n == first else f" ({c / base:.4f} of {first})")
                     if c is not None else f"{n} -" for n, c in by_tree.items()]
            print(f"  {'leading' if mode == 'lead' else 'following'}: " + ", ".join(cells))
    elif not args.no_callgrind:
        print()
        print("(valgrind is not installed: no instruction counts)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
