"""Guan Dan legal plays per call: chupai against OpenGuanDan's Java move generator.

    python bench/guandan/plays.py [--positions 1000] [--repeat 9] [--checkout PATH]
                                  [--java java] [--warmup 20]

The positions are ``chupai bench guandan``'s reference positions (``chupai.guandan._bench
.positions``: a 27-card hand of a seeded deal, a random level, and a play to beat drawn
from another hand's leads), each timed as a lead and as a follow, under the competition
rules (``Rules.competition()``, what OpenGuanDan plays).  chupai: ``legal_plays`` one
position a call (concrete plays, every choice of suits and wild cards), and the same in
the suit-collapsed view.  OpenGuanDan (``--checkout``: a checkout of the public
repository GameAI-NJUPT/OpenGuanDan; nothing of it is part of this one):
``com.guandan.engine.ActionEngine.getFirstActions`` / ``getSecondActions`` of its
``guandan-java/guandan-java-action.jar``, called in-process by a harness of ours
(``OpenGuanDanPlays.java``, compiled against that jar into a temporary folder; Java 17)
after ``--warmup`` untimed passes, so its JIT has compiled the generator.

Per side and kind, the plays listed a call, the mean CPU µs a call (the median of
``--repeat`` timed passes; thread CPU time in Java, process CPU time here) and the
median and 99th percentile of single calls (wall clock), and OpenGuanDan's mean over
chupai's.  The machine is shared: run it alone.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from chupai.cards import Cards
from chupai.evaluation.timing import per_call
from chupai.guandan import Rules, legal_plays
from chupai.guandan._bench import positions
from chupai.guandan.protocol._adapter import protocol_cards

HERE = Path(__file__).resolve().parent
HARNESS = HERE / "OpenGuanDanPlays.java"
JAR = Path("guandan-java") / "guandan-java-action.jar"
#: OpenGuanDan's hand format: per rank (2 .. A, then the black and the red joker) a mask,
#: bit s for the first copy of suit s and bit s + 4 for the second, suits in this order
MASK_RANKS = "23456789TJQKA"
MASK_SUITS = "HSCD"


def rank_masks(cards: Cards) -> list[int]:
    """The 15 rank masks of OpenGuanDan's action engine for ``cards``."""
    out = [0] * 15
    for card in protocol_cards(cards):
        if card in ("SB", "HR"):  # the jokers: a column each, the first suit's bits
            col, row = (13 if card == "SB" else 14), 0
        else:
            col, row = MASK_RANKS.index(card[1]), MASK_SUITS.index(card[0])
        out[col] |= (1 << (row + 4)) if out[col] & (1 << row) else (1 << row)
    return out


def engine_input(pos: list, follow: bool) -> str:
    """The harness's input lines for ``pos`` as leads or as follows."""
    lines = []
    for p in pos:
        wild = sum(1 for c in protocol_cards(p.hand) if c == f"H{p.level}")
        fields = ["second" if follow else "first", ",".join(map(str, rank_masks(p.hand))), str(wild), p.level]
        if follow:
            kind, rank, cards = p.previous.to_protocol()
            fields += [kind, rank, " ".join(cards)]
        lines.append("\t".join(fields))
    return "\n".join(lines) + "\n"


def openguandan(checkout: Path, java: str, pos: list, repeat: int, warmup: int) -> dict[str, tuple[float, ...]]:
    """Per kind (lead, follow): (entries a call, mean CPU µs, median µs, p99 µs) of
    OpenGuanDan's generator on ``pos``, and per kind the distinct plays a call (its
    lists may hold a play twice, its cards in two orders, and a follow's lists the pass
    entry, which chupai's do not list)."""
    jar = checkout / JAR
    javac = shutil.which("javac")
    assert javac is not None  # checked by main before any work
    out: dict[str, tuple[float, ...]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([javac, "-cp", str(jar), "-d", tmp, str(HARNESS)], check=True)
        for kind, follow in (("lead", False), ("follow", True)):
            run = subprocess.run([java, "-cp", f"{tmp}:{jar}", "OpenGuanDanPlays", str(repeat), str(warmup)],
                                 input=engine_input(pos, follow), capture_output=True, text=True, check=True)
            _, calls, plays, distinct, mean, median, p99 = run.stdout.split("\t")
            out[kind] = (int(plays) / int(calls), float(mean), float(median), float(p99))
            out[kind + ", distinct"] = (int(distinct) / int(calls),)
    return out


def chupai_side(pos: list, repeat: int, collapse: bool) -> dict[str, tuple[float, ...]]:
    """Per kind: (plays a call, mean CPU µs, median µs, p99 µs) of ``legal_plays``."""
    rules = Rules.competition()
    out: dict[str, tuple[float, ...]] = {}
    def fn(hand: Cards, level: str, previous: Any = None) -> Any:
        return legal_plays(hand, level, previous, rules=rules, collapse_suits=collapse)

    for kind in ("lead", "follow"):
        arglists = [(p.hand, p.level) if kind == "lead" else (p.hand, p.level, p.previous) for p in pos]
        mean, calls = per_call(fn, arglists, repeat)
        out[kind] = (sum(size or 0 for size in calls.sizes) / len(pos), mean, calls.median, calls.p99)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=1000, help="reference positions (chupai bench guandan's)")
    ap.add_argument("--repeat", type=int, default=9, help="timed passes (the median)")
    ap.add_argument("--checkout", type=Path, help="a checkout of GameAI-NJUPT/OpenGuanDan")
    ap.add_argument("--java", default="java")
    ap.add_argument("--warmup", type=int, default=20, help="untimed passes before OpenGuanDan's timed ones")
    args = ap.parse_args(argv)
    if min(args.positions, args.repeat) < 1 or args.warmup < 0:
        ap.error("--positions and --repeat must be at least 1, --warmup at least 0")
    if args.checkout is not None:
        if not (args.checkout / JAR).is_file():
            ap.error(f"--checkout: {args.checkout} has no {JAR}: expected a checkout of OpenGuanDan")
        if shutil.which("javac") is None or shutil.which(args.java) is None:
            ap.error(f"--checkout: the OpenGuanDan side needs a JDK on the PATH (javac and {args.java})")
    pos = positions(args.positions)
    sides = {"chupai": chupai_side(pos, args.repeat, False),
             "chupai, collapsed": chupai_side(pos, args.repeat, True)}
    if args.checkout is not None:
        sides["OpenGuanDan (Java)"] = openguandan(args.checkout, args.java, pos, args.repeat, args.warmup)
    print(f"Guan Dan legal plays on {len(pos)} reference positions, competition rules: plays a call, CPU µs a call "
          f"(median of {args.repeat} passes), single calls µs (median, p99, wall clock)")
    print(f"{'engine':>20} {'kind':>6} {'plays':>8} {'mean µs':>9} {'median':>8} {'p99':>8} {'/ chupai':>9}")
    for name, figures in sides.items():
        for kind, (plays, *times) in figures.items():
            if not times:
                print(f"{name:>20} {kind.split(',')[0]:>6} {plays:>8.1f} distinct plays a call (no pass)")
                continue
            mean, median, p99 = times
            ratio = mean / sides["chupai"][kind][1]
            print(f"{name:>20} {kind:>6} {plays:>8.1f} {mean:>9.3f} {median:>8.3f} {p99:>8.3f} {ratio:>8.2f}x",
                  flush=True)
    if args.checkout is None:
        print("OpenGuanDan: not run (--checkout PATH of a GameAI-NJUPT/OpenGuanDan checkout)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
