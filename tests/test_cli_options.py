"""The ``chupai`` command: game options, readings of --previous, JSON, grammar, Ctrl-C.
Each case runs through ``chupai.cli.main([...])``; the
exit-status cases also run as a real ``python -m chupai`` process."""
import fcntl
import json
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time

import pytest

from chupai import cli
from chupai.cli.options import options, taken
from chupai.registry.entry import COMMANDS, LIKE_ARENA, SHARED_OPTIONS
from chupai.registry import GAMES
from chupai.cli import main

FULL_HOUSE = ["plays", "guandan", "3D 9S 9D 9C AS AD", "--level", "2", "--previous", "8S 8D 2H KS KD",
              "--previous-type", "full-house"]


def run(*argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -m chupai argv`` as a real process."""
    return subprocess.run([sys.executable, "-m", "chupai", *argv], capture_output=True, text=True, timeout=timeout)


def json_out(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


# --- --previous with several readings -------------------------------------------------------
def test_previous_full_house_two_readings_listed_with_numbers(capsys):
    assert main(FULL_HOUSE) == 2
    err = capsys.readouterr().err
    assert "1 = full house 8: 2H(=8H) 8S 8D KS KD" in err and "2 = full house K: 2H(=KH) 8S 8D KS KD" in err
    assert "--previous-type TYPE:RANK" in err and "--previous-index N" in err and "Traceback" not in err


def test_previous_full_house_picked_by_rank_or_by_index(capsys):
    by_rank = json_out(capsys, [*FULL_HOUSE[:-1], "full-house:K", "--json"])
    by_index = json_out(capsys, [*FULL_HOUSE, "--previous-index", "2", "--json"])
    assert by_rank == by_index
    assert by_rank["previous"]["text"] == "full house K: 2H(=KH) 8S 8D KS KD"
    eights = json_out(capsys, [*FULL_HOUSE[:-1], "full-house:8", "--json"])
    assert eights["previous"]["text"].startswith("full house 8")
    # 9-9-9 with A-A beats the eights-full reading but not the kings-full one
    assert "full house 9: 9S 9C 9D AS AD" in [p["text"] for p in eights["plays"]]
    assert "full house 9: 9S 9C 9D AS AD" not in [p["text"] for p in by_rank["plays"]]


def test_previous_reading_errors(capsys):
    assert main([*FULL_HOUSE, "--previous-index", "3"]) == 2
    assert "--previous-index must be 1..2" in capsys.readouterr().err
    assert main([*FULL_HOUSE[:-1], "full-house:Q"]) == 2
    assert "is not a play of type full-house:Q at level 2" in capsys.readouterr().err
    from chupai import zhengshangyou

    readings = zhengshangyou.classify("5S 6D BJ")
    assert len(readings) > 1
    for k, reading in enumerate(readings, 1):
        assert main(["plays", "zhengshangyou", "7S", "--previous", "5S 6D BJ", "--previous-index", str(k)]) == 0
        assert f"plays that beat {reading}:" in capsys.readouterr().out


def test_previous_index_in_every_game_that_follows(capsys):
    for g in GAMES:
        assert ("previous_index" in taken(g, "plays")) == ("previous" in taken(g, "plays"))


# --- options that do not apply to the game ----------------------------------------------------
def test_level_refused_for_zhengshangyou_and_decks_for_guandan(capsys):
    assert main(["plays", "zhengshangyou", "3D 4D", "--level", "7"]) == 2
    assert "--level does not apply to zhengshangyou" in capsys.readouterr().err
    assert main(["playout", "guandan", "--decks", "2", "--deals", "10"]) == 2
    assert "--decks does not apply to guandan" in capsys.readouterr().err
    p = run("playout", "guandan", "--decks", "2", "--deals", "10")
    assert p.returncode == 2 and "--decks does not apply to guandan" in p.stderr and "Traceback" not in p.stderr


_VALUES = {"players": "4", "level": "7", "rules": "competition", "previous": "7S", "previous_type": "single",
           "previous_index": "1", "layout": "3S", "variant": "pagat", "decks": "2"}
_BASE = {"plays": ["3S"], "playout": ["--deals", "5", "--quiet"], "arena": ["--deals", "1", "--bots", "random,random"],
         "ladder": ["--deals", "1", "--bots", "random,greedy", "--quiet"],
         "generate": ["--episodes", "1", "--out", "/nonexistent/never-written", "--quiet"], "perft": ["--depth", "1"]}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("game_name", list(GAMES))
def test_every_foreign_option_refused(capsys, command, game_name):
    """Every option of the table that ``game_name`` does not take in ``command`` (and that
    another game takes there) is refused, naming the option and the game."""
    own = taken(game_name, command)
    offered = {o for g in GAMES for o in taken(g, command)}
    foreign = sorted(offered - set(own))
    assert foreign, "each game lacks some option another game has"
    for name in foreign:
        option = options()[name]
        argv = [command, game_name, *_BASE[command], option.flag]
        if not option.switch:
            argv.append(str(option.choices[0]) if option.choices else _VALUES[name])
        assert main(argv) == 2, argv
        assert f"{option.flag} does not apply to {game_name}" in capsys.readouterr().err


def test_players_bounded_by_the_registry(capsys):
    assert main(["playout", "guandan", "--players", "4", "--deals", "5"]) == 2
    assert "--players does not apply to guandan" in capsys.readouterr().err
    assert main(["arena", "gandengyan", "--players", "7", "--deals", "1"]) == 2
    assert "gandengyan is played by 2 to 6 players, not 7" in capsys.readouterr().err
    assert main(["playout", "zhengshangyou", "--players", "1", "--deals", "5"]) == 2
    assert "zhengshangyou is played by 2 to 8 players, not 1" in capsys.readouterr().err
    assert main(["playout", "gandengyan", "--players", "6", "--deals", "5", "--quiet"]) == 0


def test_every_table_option_is_spelt_once():
    """An entry's cli_options name only its own options and the shared ones; its own
    options are named by some command and none respells a shared one."""
    for g, entry in GAMES.items():
        own = {o.dest for o in entry.options}
        assert not own & set(SHARED_OPTIONS), g
        named = set()
        for command in COMMANDS:
            assert set(taken(g, command)) <= own | set(SHARED_OPTIONS), (g, command)
            named |= set(taken(g, command))
        assert own <= named, g
        assert {c for c, _ in entry.cli_options} <= set(COMMANDS), g


def test_option_choices_and_defaults_are_the_rules():
    """An option with choices defaults to the first, and its default is what the game's
    ``rules_of`` reads when the option is not given (``Rules()``'s field of that name,
    for the options that are a Rules field)."""
    import argparse

    for g, entry in GAMES.items():
        blank = argparse.Namespace(**{name: None for name in options()})
        assert entry.cli_module().rules_of(blank) == entry.rules_class(), g
        for o in entry.options:
            if o.choices is not None:
                assert o.default == o.choices[0], (g, o.flag)
            if hasattr(entry.rules_class(), o.dest):
                assert getattr(entry.rules_class(), o.dest) == o.default, (g, o.flag)


def test_ladder_generate_perft_take_the_option_table(capsys):
    """``chupai ladder``, ``generate`` and ``perft`` take a game's options exactly as arena
    does, and each option appears in their help."""
    for command in LIKE_ARENA:
        for g in GAMES:
            assert taken(g, command) == taken(g, "arena"), (command, g)
        assert main([command, "guandan", *_BASE[command], "--decks", "2"]) == 2
        assert "--decks does not apply to guandan" in capsys.readouterr().err
        assert main([command, "--help"]) == 0
        shown = capsys.readouterr().out
        assert all(options()[o].flag in shown for g in GAMES for o in taken(g, "arena")), command


def test_game_options_reach_the_rules_of_generate_and_perft(tmp_path, capsys):
    """The options given are the rules played: generate's manifest records them, perft
    counts another deal (Gan Deng Yan with two decks, Zheng Shangyou with 3 players)."""
    out = tmp_path / "run"
    assert main(["generate", "guandan", "--rules", "competition", "--episodes", "1", "--out", str(out),
                 "--quiet"]) == 0
    said = capsys.readouterr().out
    assert said.startswith("1 guandan deal, ") and " in 1 shard under " in said, said
    manifest = json.loads((out / "manifest.json").read_text())
    from chupai.guandan import Rules

    assert manifest["rules"] == repr(Rules.competition()) != repr(Rules())
    counts = {}
    for extra in ([], ["--decks", "2"]):
        record = json_out(capsys, ["perft", "gandengyan", "--depth", "2", "--json", *extra])
        counts[tuple(extra)] = record["counts"]
    assert counts[()] != counts[("--decks", "2")]
    three = json_out(capsys, ["perft", "zhengshangyou", "--depth", "1", "--players", "3", "--json"])
    assert "3 players" in three["deal"]


def test_variant_player_counts_read_as_english(capsys):
    assert main(["playout", "chinese_ten", "--variant", "taiwanese", "--players", "3", "--deals", "5"]) == 2
    assert "the taiwanese variant is played by 4 players, not 3" in capsys.readouterr().err
    assert main(["playout", "chinese_ten", "--variant", "barraco", "--players", "3", "--deals", "5"]) == 2
    assert "played by 2 or 4 players" in capsys.readouterr().err


def test_bad_numbers_are_usage_errors(capsys):
    for argv in (["playout", "guandan", "--deals", "0"], ["playout", "guandan", "--threads", "0"],
                 ["arena", "guandan", "--workers", "0"], ["playout", "guandan", "--seed", "-1"],
                 ["arena", "guandan", "--deals", "x"]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith(f"chupai: error: {argv[0]}: argument") and err.count("\n") == 1, err


# --- grammar --------------------------------------------------------------------------------
def test_one_play_and_level_in_capitals(capsys):
    assert main(["plays", "guandan", "3D", "--level", "a"]) == 0
    assert capsys.readouterr().out.startswith("1 play to lead (level A, pagat rules):")
    assert main(["plays", "guandan", "3D", "--level", "10"]) == 0
    assert "(level T," in capsys.readouterr().out
    assert main(["plays", "guandan", "3D", "--level", "1"]) == 2
    assert "--level '1' is not a rank" in capsys.readouterr().err
    assert main(["plays", "gandengyan", "3D 3S"]) == 0
    assert "(1 deck)" in capsys.readouterr().out
    assert main(["playout", "zhengshangyou", "--deals", "1", "--quiet"]) == 0
    assert capsys.readouterr().out.startswith("1 deal (4 players), random policy, 1 thread:")


# --- --json: one shape per subcommand ---------------------------------------------------------
def test_plays_json_same_shape_in_every_game(capsys):
    shapes = set()
    for g, entry in GAMES.items():
        argv = entry.sample_plays
        out = json_out(capsys, ["plays", g, *argv, "--json"])
        assert out["game"] == g and out["count"] == len(out["plays"]) > 0
        assert out["can_pass"] == ("--previous" in argv)
        shapes.add((tuple(out), *{tuple(p) for p in out["plays"]}))
        assert all(isinstance(p["cards"], list) and p["text"] for p in out["plays"])
    assert len(shapes) == 1, shapes
    lead = json_out(capsys, ["plays", "guandan", "3D 3S", "--level", "2", "--json"])
    assert lead["can_pass"] is False and lead["previous"] is None
    assert lead["plays"][0]["protocol"] == ["Single", "3", ["S3"]]


def test_playout_and_arena_json_same_shape_in_every_game(capsys):
    playout_keys, arena_keys = set(), set()
    for g in GAMES:
        out = json_out(capsys, ["playout", g, "--deals", "50", "--json"])
        assert out["deals"] == 50 and len(out["mean_returns"]) == out["players"] == GAMES[g].default_players
        playout_keys.add(tuple(out))
        out = json_out(capsys, ["arena", g, "--bots", "greedy,random", "--deals", "2", "--json"])
        assert out["games"] == 2 and 0 <= out["wins"] <= 2
        arena_keys.add(tuple(out))
    assert len(playout_keys) == 1 and len(arena_keys) == 1


@pytest.mark.parametrize("g", sorted(GAMES))
def test_playout_takes_every_compiled_policy(capsys, g):
    """``--policy`` offers each compiled policy; the policies play the same deals differently."""
    outs = {pol: json_out(capsys, ["playout", g, "--deals", "200", "--seed", "3", "--policy", pol, "--json"])
            for pol in ("random", "greedy", "heuristic")}
    assert all(o["deals"] == 200 for o in outs.values())
    assert outs["heuristic"]["mean_returns"] != outs["random"]["mean_returns"]
    assert outs["heuristic"]["mean_returns"] != outs["greedy"]["mean_returns"]


def test_json_is_a_single_line_without_progress_bar():
    p = run("playout", "gandengyan", "--deals", "20", "--json")
    assert p.returncode == 0 and p.stderr == "" and len(p.stdout.splitlines()) == 1
    assert json.loads(p.stdout)["game"] == "gandengyan"


# --- Ctrl-C -------------------------------------------------------------------------------------
def test_ctrl_c_in_main_is_quiet_130(capsys, monkeypatch):
    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_cmd_playout", interrupted)
    assert main(["playout", "guandan", "--deals", "5"]) == 130
    err = capsys.readouterr().err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err


def _default_sigint() -> None:
    """In the child before exec: Ctrl-C's default disposition.  A process started in the
    background of a non-interactive shell (as a CI runner may start the tests) inherits
    SIGINT ignored, and Python then keeps ignoring it: the test would see no Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_real_process_exits_130_without_traceback():
    """SIGINT to the process group, as a terminal's Ctrl-C, in the middle of an arena
    (after its first chunk of deals: the play is under way)."""
    # deals enough that the arena cannot end before the signal (40 MonteCarloBot deals
    # take about 3 s since determinize is compiled)
    # stderr a terminal (a pseudo-terminal), as where Ctrl-C is typed: the progress bar
    # is drawn there (never into a pipe or a log), and it tells when the play is under way
    fd, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # 24 x 100 (a new one is 0 x 0)
    proc = subprocess.Popen([sys.executable, "-m", "chupai", "arena", "guandan", "--bots", "mc,mc", "--deals", "4000",
                             "--chunk-size", "5"],
                            stdout=subprocess.PIPE, stderr=terminal, start_new_session=True,
                            preexec_fn=_default_sigint)
    os.close(terminal)

    def read_for(seconds: float, until: bytes | None = None) -> bytes:
        got, deadline = b"", time.monotonic() + seconds
        while time.monotonic() < deadline and (until is None or until not in got):
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:  # the terminal closed: the process has exited
                    break
                if not chunk:
                    break
                got += chunk
            elif until is None and proc.poll() is not None:
                break
        return got

    try:
        seen = read_for(120, b"5/4000")
        assert b"5/4000" in seen, f"the arena did not get going: {seen[-300:]!r}"
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            pytest.fail(f"no exit 60 s after SIGINT: {(seen + read_for(1))[-2000:]!r}")
        err = (seen + read_for(5)).decode(errors="replace")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(fd)
    assert proc.returncode == 130, err[-2000:]
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
