"""``chupai bench``: bad counts are usage errors, ``--deals`` is honoured by every game,
the game is the first argument, ``--json`` has one shape, and the Python-surface paths
are in every game's report.  No timing is asserted here (figures live in ``bench/``)."""
import math
import json
import os
import shutil
import subprocess
import sys

import pytest

from chupai.evaluation.speed import DeterminizeTimer, Surface
from chupai.registry import GAMES
from chupai.cli import main

TINY = ["--deals", "2", "--repeat", "1", "--playouts", "50", "--surface-deals", "2"]
SURFACE_CASES = {
    "random deal, legal_actions() + apply()",
    "Deal(seed=...), the dealing",
    "determinize(player, rng)",
    "observation(player)",
    "MonteCarloBot(200) decision",
    "list(legal_plays()), per Play",
    "Play.type, first read",
    "Play.cards, first read",
    "str(Play)",
    "Play.to_protocol()",
}


def bench_json(capsys, *argv):
    assert main(["bench", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("option", ["--deals", "--repeat", "--playouts", "--surface-deals"])
def test_bench_zero_counts_are_usage_errors(capsys, option):
    assert main(["bench", "guandan", option, "0"]) == 2
    err = capsys.readouterr().err
    assert f"argument {option}: must be at least 1, not 0" in err and "Traceback" not in err


def test_bench_zero_deals_real_process():
    for argv in (["-m", "chupai", "bench", "--deals", "0"], ["-m", "chupai", "bench", "gandengyan", "--repeat", "0"],
                 ["-m", "chupai.gandengyan._bench", "--deals", "0"]):
        p = subprocess.run([sys.executable, *argv], capture_output=True, text=True, timeout=120)
        assert p.returncode == 2, argv
        assert "must be at least 1, not 0" in p.stderr and "Traceback" not in p.stderr


def test_bench_gandengyan_honours_deals(capsys):
    from chupai.gandengyan._bench import positions

    for deals in (1, 3):
        out = bench_json(capsys, "gandengyan", *TINY[:1], str(deals), *TINY[2:], "--no-engine", "--no-surface")
        assert out["info"]["deals"] == deals
        assert out["info"]["notes"][0].startswith(f"{len(positions(deals))} in-game positions of {deals} ")
    assert len(positions(1)) < len(positions(3))


def test_bench_takes_the_game_as_its_argument(capsys):
    assert bench_json(capsys, "zhengshangyou", *TINY, "--no-surface")["game"] == "zhengshangyou"
    assert main(["bench", "--game", "zhengshangyou"]) == 2  # the game is the argument, not an option
    assert "unrecognized arguments: --game" in capsys.readouterr().err
    assert bench_json(capsys, *TINY, "--no-engine", "--no-surface")["game"] == "guandan"  # the default


def test_bench_json_same_shape_and_every_surface_path_in_every_game(capsys):
    shapes = set()
    for g in GAMES:
        out = bench_json(capsys, g, *TINY)
        assert out["game"] == g
        rows = out["rows"]
        shapes.add((tuple(out), *{tuple(r) for r in rows}))
        surface = {r["case"]: r for r in rows if r["section"] == "surface"}
        assert SURFACE_CASES <= set(surface) | {c for c in surface if c.startswith("Cards(text)")}
        assert any(c.startswith("Cards(text), ") for c in surface)
        sections = [r["section"] for r in rows]
        assert sections.index("generator") < sections.index("engine") < sections.index("surface")
        assert "reference" in sections  # OpenSpiel, with or without figure
        for r in rows:
            # a figure, not a speed: a difference of two timings may be noise-negative
            assert r["us"] is None or math.isfinite(r["us"]), r
            assert r["us"] is not None or r["per_second"] is not None or r["note"], r  # else it says why
    assert len(shapes) == 1


def test_bench_calls_keeps_every_single_call_with_its_plays(capsys):
    """``--calls``: each row timed one call at a time holds every call's ``[plays, µs]``,
    the plays those of the game's generator on that position; without it, none."""
    from chupai.guandan import legal_plays
    from chupai.guandan._bench import positions

    out = bench_json(capsys, "guandan", *TINY, "--no-engine", "--no-surface", "--calls")
    lead = next(r for r in out["rows"] if r["case"] == "lead (concrete)")
    assert [c[0] for c in lead["calls"]] == [len(legal_plays(p.hand, p.level)) for p in positions(2)]
    assert all(us > 0 for _, us in lead["calls"]) and 0 < lead["median_call_us"] <= lead["p99_call_us"]
    plain = bench_json(capsys, "guandan", *TINY, "--no-engine", "--no-surface")
    assert all(r["calls"] is None for r in plain["rows"]) and plain["rows"][0]["p99_call_us"] > 0


def test_determinize_timer_counts_only_determinize():
    surface = Surface("guandan", 1)
    state = surface.deal(seed=1)
    original = type(state).determinize
    with DeterminizeTimer(type(state)) as timed:
        assert timed.seconds == 0.0
        state.legal_actions()  # not counted
        assert timed.seconds == 0.0
        world = state.determinize(state.current_player, 1)
    assert world.hand(state.current_player) == state.hand(state.current_player) and timed.seconds > 0
    assert type(state).determinize is original  # the class is restored


def test_surface_positions_reach_later_deals():
    """The determinize positions come from matches, past the first deal (tribute, exchange)."""
    for g in GAMES:
        states = Surface(g, 2).decision_states(1)
        assert len(states) > 10
        assert len({id(s) for s in states}) == len(states)


def _kernel_ab():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "bench" / "kernel_ab.py"
    spec = importlib.util.spec_from_file_location("kernel_ab", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_kernel_ab_checks_its_arguments_and_compares_trees(tmp_path, capsys):
    """``bench/kernel_ab.py``: usage errors before any run; two trees (here the installed
    package twice) give one row per runner row with both medians and their ratio."""
    from pathlib import Path

    import chupai

    kernel_ab = _kernel_ab()
    tree = tmp_path / "tree"
    (tree / "src").mkdir(parents=True)
    (tree / "src" / "chupai").symlink_to(Path(chupai.__file__).resolve().parent)
    good = ["--tree", f"a={tree}", "--tree", f"b={tree}"]
    for bad in (["guandan"], ["guandan", "--tree", f"a={tree}"], ["guandan", "--tree", f"a={tmp_path}", *good[2:]],
                ["guandan", "--tree", str(tree), *good[2:]], ["guandan", "--tree", f"b={tree}", *good[2:]],
                ["guandan", *good, "--rounds", "0"], ["guandan", *good, "--deals", "0"], ["chess", *good]):
        with pytest.raises(SystemExit) as e:
            kernel_ab.parse_args(bad)
        assert e.value.code == 2
    capsys.readouterr()
    assert kernel_ab.main(["guandan", *good, "--rounds", "2", "--repeat", "1", "--deals", "5", "--no-callgrind"]) == 0
    out = capsys.readouterr().out
    assert "| row | a | b | b / a |" in out
    rows = [line for line in out.splitlines() if line.startswith("| ") and not line.startswith("| row")]
    assert any(line.startswith("| lead (concrete) |") for line in rows) and any("follow" in line for line in rows)
    for line in rows:
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert len(cells) == 4 and float(cells[1]) > 0 and float(cells[2]) > 0 and float(cells[3]) > 0
    # the call callgrind counts in: leads in every game, follows where kernel_arrays has
    # the plays to beat
    for game, mode, says in (("guandan", "lead", ""), ("guandan", "follow", ""), ("chinese_ten", "follow", "no follows")):
        done = subprocess.run([sys.executable, "-c", kernel_ab.KERNEL_CALL, game, "5", mode], env=kernel_ab.tree_env(tree),
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0 and done.stdout.strip() == says, done.stderr


@pytest.mark.skipif(shutil.which("valgrind") is None or "asan" in os.environ.get("LD_PRELOAD", ""),
                    reason="needs valgrind, which cannot run beside the sanitizer runtime preloaded")
def test_kernel_ab_counts_the_instructions_inside_the_kernel(tmp_path):
    """``bench/kernel_ab.py``'s callgrind count takes in the whole kernel: a few thousand
    instructions a play, not the handful of the Python entry's own (callgrind toggles at
    every function the pattern matches, so it must match the entry alone)."""
    import argparse
    from pathlib import Path

    import chupai

    kernel_ab = _kernel_ab()
    tree = tmp_path / "tree"
    (tree / "src").mkdir(parents=True)
    (tree / "src" / "chupai").symlink_to(Path(chupai.__file__).resolve().parent)
    for game in ("guandan", "doudizhu"):
        args = argparse.Namespace(game=game, deals=5)
        assert kernel_ab.kernel_instructions(args, tree, str(tmp_path), "lead") > 10_000
