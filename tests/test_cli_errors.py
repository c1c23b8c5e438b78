"""The command line as a new user meets it: every failure one line ``chupai: error:
...`` with exit status 2, checked before any work or side effect; counts and threads
bounded; output paths checked before a run; ``--version``; an unknown option told by
its subcommand.  Each case runs through ``chupai.cli.main`` (and one as a process)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from chupai.cli import main

HUGE = "1000000000000"


def fails(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2, argv
    err = capsys.readouterr().err
    assert err.startswith("chupai: error: ") and err.count("\n") == 1, err
    assert words in err, err
    return err


@pytest.mark.parametrize("argv", [
    ["playout", "guandan", "--deals", HUGE, "--quiet"],
    ["arena", "guandan", "--bots", "random,random", "--deals", HUGE],
    ["ladder", "guandan", "--bots", "random,greedy", "--deals", HUGE],
    ["generate", "guandan", "--episodes", HUGE, "--out", "unused"],
])
def test_huge_counts_are_refused_before_any_work(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    fails(argv, "must be at most 100,000,000", capsys)


def test_threads_are_bounded_by_the_cores(capsys: pytest.CaptureFixture[str]) -> None:
    fails(["playout", "guandan", "--threads", "1000", "--deals", "5"], "per core", capsys)


@pytest.mark.parametrize("depth", ["0", "-1"])
def test_perft_depth_is_at_least_one(depth: str, capsys: pytest.CaptureFixture[str]) -> None:
    fails(["perft", "guandan", "--depth", depth], "--depth: must be at least 1", capsys)


def test_perft_bench_of_one_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "gandengyan", "--bench", "--depth", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and lines[1].startswith("gandengyan ")


@pytest.mark.parametrize("option", ["--json", "--png"])
def test_ladder_output_paths_are_checked_before_the_ladder(option: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    base = ["ladder", "guandan", "--bots", "random,greedy", "--deals", "100000"]
    fails([*base, option, "/nonexistent/dir/x"], "does not exist", capsys)
    fails([*base, option, str(tmp_path)], "is a folder", capsys)


def test_generate_refuses_before_writing_anything(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    fails(["generate", "guandan", "--players", "3", "--out", str(out), "--episodes", "2"], "4 players", capsys)
    fails(["generate", "guandan", "--workers", "0", "--out", str(out), "--episodes", "2"], "--workers", capsys)
    assert not out.exists()
    taken = tmp_path / "file"
    taken.write_text("x")
    fails(["generate", "guandan", "--out", str(taken), "--episodes", "2"], str(taken), capsys)


def test_an_unknown_option_is_told_by_its_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    fails(["plays", "guandan", "3S", "--level", "2", "--bogus"], "plays: unrecognized arguments: --bogus", capsys)
    fails(["arena", "guandan", "--bogus"], "see: chupai arena --help", capsys)


def test_arena_quiet_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "guandan", "--bots", "random,greedy", "--deals", "2", "--quiet"]) == 0
    captured = capsys.readouterr()
    assert "2 games" in captured.out and captured.err == ""
    assert main(["--version"]) == 0 and capsys.readouterr().out.startswith("chupai ")


def test_a_process_ends_with_one_line_and_status_two(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    run = subprocess.run([sys.executable, "-m", "chupai", "ladder", "guandan", "--bots", "random,greedy",
                          "--json", str(tmp_path / "no" / "x.json")], capture_output=True, text=True, env=env,
                         timeout=120)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("chupai: error: ladder: argument --json")
