"""Run one fuzz target of ``fuzz/targets.py`` under atheris (libFuzzer options pass through).

    python fuzz/run.py --list
    python fuzz/run.py TARGET [CORPUS_DIR ...] [-max_total_time=60] [-runs=N] [...]

With no corpus directory the target's seed corpus ``fuzz/corpus/TARGET`` is read (and
new inputs are not written into it: give a writable directory first to keep them).
"""
from __future__ import annotations

import os
import sys

import atheris

HERE = os.path.dirname(os.path.abspath(__file__))


def main(argv: list[str]) -> None:
    sys.path.insert(0, HERE)
    with atheris.instrument_imports(include=["chupai", "targets"]):
        import targets
    if len(argv) < 2 or argv[1] in ("-h", "--help", "--list"):
        print(__doc__.strip() + "\n\ntargets: " + " ".join(targets.TARGETS))
        sys.exit(0 if len(argv) >= 2 else 2)
    name = argv[1]
    if name not in targets.TARGETS:
        sys.exit(f"unknown target {name!r}; expected one of {' '.join(targets.TARGETS)}")
    args = [argv[0]] + argv[2:]
    if not any(not a.startswith("-") for a in argv[2:]):
        args.append(os.path.join(HERE, "corpus", name))
    atheris.Setup(args, targets.TARGETS[name])
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
