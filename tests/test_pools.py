"""Local process pools never hang: a worker that dies fails the run within seconds, and a
script without the ``__main__`` guard fails at once naming it.

Each case runs a script in a subprocess with a hard timeout, as a user would run theirs
(a hung pool would otherwise hang the test run).
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import chupai
from chupai.engine.backends import MAIN_GUARD

#: seconds any case may take; a pool that hangs is killed here and the test fails
HARD_TIMEOUT = 90
#: where the scripts import chupai from: the same chupai as this test run (an installed
#: wheel or a source tree built in place)
SRC = str(Path(chupai.__file__).resolve().parents[1])
#: the environment a script runs in: this run's, with chupai's source first on the path
#: (keeps what the run depends on, such as a sanitizer build's preloaded runtime)
ENV = {**os.environ, "PYTHONPATH": SRC}


def run_script(path: Path, text: str) -> tuple[subprocess.CompletedProcess[str], float]:
    path.write_text(text)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=HARD_TIMEOUT,
                          cwd=path.parent, env=ENV)
    return proc, time.perf_counter() - start


def test_a_script_without_the_main_guard_fails_at_once_naming_it(tmp_path: Path) -> None:
    proc, seconds = run_script(tmp_path / "noguard.py", (
        "import chupai\n"
        "from chupai.players.bots import RandomBot\n"
        "chupai.arena('guandan', [RandomBot(), RandomBot()], 8, 0, workers=2, max_workers=2, progress=False)\n"))
    assert proc.returncode != 0
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("RuntimeError: a worker process died") and MAIN_GUARD in last, proc.stderr[-2000:]
    assert proc.stderr.count("Traceback") <= 3  # the parent's and the first workers': no respawn loop


def test_a_worker_killed_mid_run_fails_the_run_within_seconds(tmp_path: Path) -> None:
    proc, seconds = run_script(tmp_path / "killed.py", (
        "import os, signal, time\n"
        "from chupai.engine.backends import run_batch\n"
        "def work(x):\n"
        "    if x == 5:\n"
        "        os.kill(os.getpid(), signal.SIGKILL)\n"
        "    time.sleep(0.01)\n"
        "    return x\n"
        "if __name__ == '__main__':\n"
        "    print(run_batch(work, list(range(40)), workers=2, chunk_size=1))\n"))
    assert proc.returncode != 0 and proc.stdout == ""
    assert proc.stderr.strip().splitlines()[-1].startswith("RuntimeError: a worker process died"), proc.stderr[-2000:]
    assert seconds < 30


def test_a_guarded_pool_still_gives_every_result(tmp_path: Path) -> None:
    proc, _ = run_script(tmp_path / "ok.py", (
        "from chupai.engine.backends import run_batch\n"
        "if __name__ == '__main__':\n"
        "    print(run_batch(abs, [-3, 1, -2, 7, -9], workers=2, chunk_size=2))\n"))
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "[3, 1, 2, 7, 9]"
