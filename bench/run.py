"""Plain benchmark runner: µs per call and plays per second (same as ``chupai bench``).

    python bench/run.py [--deals 1000] [--repeat 5] [--json]    (= chupai bench guandan; other games: chupai bench GAME)
"""
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # keep numpy's BLAS threads off the cores

from chupai.guandan._bench import main  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(main())
