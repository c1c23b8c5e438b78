"""The command line as a new user meets it: every failure one line ``chupai: error:
...`` with exit status 2, checked before any work or side effect; counts and threads
bounded; output paths checked before a run; ``--version``; an unknown option told by
its subcommand.  Each case runs through ``chupai.cli.main`` (and one as a process)."""
from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from chupai.registry import GAMES
from chupai.cli import _subparser, build_parser, main

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


@pytest.mark.parametrize(("argv", "words"), [
    (["serve", "guandan", "--pace", "nan"], "argument --pace: must be a finite number >= 0, not nan"),
    (["serve", "guandan", "--move-timeout", "inf"], "argument --move-timeout: must be a finite number >= 0"),
    (["serve", "guandan", "--reconnect-grace=-1"], "argument --reconnect-grace: must be a finite number >= 0"),
    (["join", "ws://127.0.0.1:1/game/me", "--timeout", "0"], "argument --timeout: must be a finite number > 0"),
    (["join", "ws://127.0.0.1:1/game/me", "--reconnect", "soon"], "argument --reconnect: invalid number of seconds"),
])
def test_seconds_options_name_the_option(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    fails(argv, words, capsys)


def test_threads_are_bounded_by_the_cores(capsys: pytest.CaptureFixture[str]) -> None:
    fails(["playout", "guandan", "--threads", "1000", "--deals", "5"], "per core", capsys)


@pytest.mark.parametrize("depth", ["0", "-1"])
def test_perft_depth_is_at_least_one(depth: str, capsys: pytest.CaptureFixture[str]) -> None:
    fails(["perft", "guandan", "--depth", depth], "--depth: must be at least 1", capsys)


def test_perft_depth_is_bounded(capsys: pytest.CaptureFixture[str]) -> None:
    fails(["perft", "guandan", "--depth", "99999", "--divide", "--bench"], "--depth: must be at most 12", capsys)


@pytest.mark.parametrize(("argv", "words"), [
    (["perft", "guandan", "--bench", "--divide"], "--divide does not apply to --bench"),
    (["perft", "--bench", "--json"], "--json does not apply to --bench"),
    (["perft", "guandan", "--json", "--divide"], "--divide does not apply to --json"),
])
def test_perft_refuses_switches_it_would_drop(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    fails(argv, words, capsys)


def test_perft_bench_of_one_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "gandengyan", "--bench", "--depth", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and lines[1].startswith("gandengyan ")


@pytest.mark.parametrize("option", ["--save-json", "--png"])
def test_ladder_output_paths_are_checked_before_the_ladder(option: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    base = ["ladder", "guandan", "--bots", "random,greedy", "--deals", "100000"]
    fails([*base, option, "/nonexistent/dir/x"], "does not exist", capsys)
    fails([*base, option, str(tmp_path)], "is a folder", capsys)


def test_ladder_png_must_be_a_png_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A plot path that does not end in .png is refused before the ladder is played (it
    used to fail in matplotlib after the whole ladder, printing no results)."""
    out = tmp_path / "out.txt"
    fails(["ladder", "guandan", "--bots", "random,greedy", "--deals", "100000", "--png", str(out)],
          "does not end in .png", capsys)
    assert not out.exists()


def test_generate_refuses_before_writing_anything(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    fails(["generate", "guandan", "--players", "3", "--out", str(out), "--episodes", "2"],
          "--players does not apply to guandan", capsys)
    fails(["generate", "zhengshangyou", "--players", "9", "--out", str(out), "--episodes", "2"],
          "zhengshangyou is played by 2 to 8 players, not 9", capsys)
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
    assert "2 deals," in captured.out and captured.err == ""
    assert main(["--version"]) == 0 and capsys.readouterr().out.startswith("chupai ")


def test_a_process_ends_with_one_line_and_status_two(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    run = subprocess.run([sys.executable, "-m", "chupai", "ladder", "guandan", "--bots", "random,greedy",
                          "--save-json", str(tmp_path / "no" / "x.json")], capture_output=True, text=True, env=env,
                         timeout=120)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("chupai: error: ladder: argument --save-json")


# --- --previous: a play of cards the hand does not hold ------------------------------------------
@pytest.mark.parametrize("argv, words", [
    # two decks: a card at most twice in the hand and the play to beat together
    (["plays", "guandan", "3D 4S 5C 6H 7S 7H 8S 8S", "--level", "7", "--previous", "8S 8D"],
     "the hand and --previous hold 8S three times; two decks hold each card at most twice"),
    (["plays", "zhengshangyou", "8S 3S", "--previous", "8S"], "hold 8S twice; one deck holds each card once"),
    (["plays", "gandengyan", "8S 3S", "--previous", "8S"], "hold 8S twice; one deck holds each card once"),
])
def test_previous_must_fit_the_deck_with_the_hand(argv: list[str], words: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    fails(argv, words, capsys)


def test_previous_within_the_decks_is_taken(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plays", "gandengyan", "8S 3S", "--previous", "8S", "--decks", "2"]) == 0
    assert capsys.readouterr().out.startswith("0 plays that may follow single 8: 8S (2 decks):")
    assert main(["plays", "guandan", "8S 8H", "--level", "2", "--previous", "8S 8D"]) == 0
    assert capsys.readouterr().out.startswith("0 plays that beat pair 8")


@pytest.mark.parametrize("game_name", [g for g in GAMES if "previous" in GAMES[g].options_for("plays")])
@pytest.mark.parametrize("empty", ["", "  "])
def test_an_empty_previous_is_not_a_lead(game_name: str, empty: str, capsys: pytest.CaptureFixture[str]) -> None:
    extra = ["--level", "2"] if "level" in GAMES[game_name].options_for("plays") else []
    fails(["plays", game_name, "8S", *extra, "--previous", empty], "omit --previous for the hand to lead", capsys)


@pytest.mark.parametrize("option", ["--previous-type", "--previous-index"])
def test_a_reading_of_previous_needs_previous(option: str, capsys: pytest.CaptureFixture[str]) -> None:
    fails(["plays", "zhengshangyou", "3S", option, "1"], f"{option} says which reading of --previous", capsys)


def test_the_readme_command_and_its_previous_run() -> None:
    """The README's first command, and with the ``--previous`` its text suggests."""
    text = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    command = next(line for line in text.splitlines() if "chupai plays guandan" in line)
    argv = shlex.split(command.split("&&", 1)[1])[1:]
    previous = re.search(r'add `--previous "([^"]+)"`', text)
    assert previous is not None
    assert main(argv) == 0
    assert main([*argv, "--previous", previous.group(1)]) == 0


# --- replay and serve ---------------------------------------------------------------------------
def test_replay_of_an_empty_file_or_a_missing_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    fails(["replay", str(empty)], "is empty", capsys)
    record = tmp_path / "one.jsonl"
    record.write_text(json.dumps({"type": "header", "tables": 1}) + "\n" + json.dumps({"type": "deal", "table": 0})
                      + "\n")
    fails(["replay", str(record)], "one.jsonl:2: a deal line has no 'game'", capsys)
    deal = {"type": "deal", "table": 0, "game": 1, "deal": 0, "levels": ["2", "2"], "level": "2", "previous": None,
            "hands": [[]] * 4, "handsAfterTribute": [[]] * 4, "tribute": [], "back": [], "antiTribute": None,
            "leader": 0, "actions": [], "order": [], "result": "1-2", "levelsAfter": ["2", "4"], "restCards": []}
    record.write_text(json.dumps({"type": "header", "tables": 1}) + "\n" + json.dumps(deal) + "\n")
    fails(["replay", str(record), "--table", "3"], "has no deal of table 3 (its tables: 0)", capsys)
    fails(["replay", str(record), "--table", "-1"], "--table: must be at least 0", capsys)


@pytest.mark.parametrize("argv,words", [
    ("serve guandan --games 0", "--games: must be at least 1, not 0"),
    ("serve guandan --tables 0", "--tables: must be at least 1, not 0"),
    ("serve guandan --tables 10001", "--tables: must be at most 10,000, not 10,001"),
    ("serve guandan --port 65536", "--port: must be at most 65,535, not 65,536"),
    ("serve guandan --port -1", "--port: must be at least 0, not -1"),
    ("serve guandan --playouts -5", "--playouts: must be at least 1, not -5"),
    ("join ws://127.0.0.1:1/game/x --playouts -1", "--playouts: must be at least 1, not -1"),
    ("join ws://127.0.0.1:1 --protocol openguandan --games 0", "--games: must be at least 1, not 0"),
    ("replay unused.jsonl --port 70000", "--port: must be at most 65,535, not 70,000"),
])
def test_the_server_and_client_numbers_are_bounded(argv: str, words: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Checked when the arguments are read: before a socket opens or a file is read."""
    fails(argv.split(), words, capsys)


def test_the_cli_copies_of_server_facts_agree_with_the_server() -> None:
    from chupai.guandan.protocol import cli, client, server

    assert (cli.PORT, cli.MOVE_TIMEOUT, cli.RECONNECT, cli.MAX_TABLES) == (
        server.DEFAULT_PORT, server.MOVE_TIMEOUT, server.RECONNECT_GRACE, server.MAX_TABLES)
    assert (cli.SERVER_TIMEOUT, cli.RECONNECT) == (client.SERVER_TIMEOUT, client.RECONNECT)


@pytest.mark.parametrize("command", ["serve guandan", "join ws://127.0.0.1:1/game/x", "playout guandan",
                                     "arena guandan", "ladder guandan", "generate guandan --out unused",
                                     "perft guandan"])
@pytest.mark.parametrize("bad", ["-3", str(2**64)])
def test_every_seed_is_checked_alike(command: str, bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    fails([*command.split(), "--seed", bad], f"--seed: must be an int in [0, 2**64), not {bad}", capsys)


def _help(command: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main([command, "--help"]) == 0
    return " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("command", ["playout", "arena", "ladder", "generate", "perft", "join"])
def test_one_default_seed_shown_in_every_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    from chupai.cli.common import DEFAULT_SEED

    ap, _ = build_parser()
    sub = _subparser(ap, command)
    assert sub.get_default("seed") == DEFAULT_SEED
    assert re.search(rf"--seed SEED the seed of [^()]*\(default {DEFAULT_SEED}\)", _help(command, capsys))


def test_required_options_say_so_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    shown = _help("plays", capsys)
    assert "--level RANK the level rank, 2..A (required; guandan)" in shown
    assert "(required; chinese_ten)" in shown
    fails(["plays", "guandan", "3S"], "guandan needs --level", capsys)
    fails(["plays", "chinese_ten", "3S"], "chinese_ten needs --layout", capsys)


# --- one wording of a number of players -----------------------------------------------------------
@pytest.mark.parametrize("argv, words", [
    (["playout", "zhengshangyou", "--players", "9", "--deals", "1"], "zhengshangyou is played by 2 to 8 players, not 9"),
    (["arena", "gandengyan", "--players", "7"], "gandengyan is played by 2 to 6 players, not 7"),
    (["ladder", "chinese_ten", "--players", "5"], "chinese_ten is played by 2 to 4 players, not 5"),
    (["generate", "zhengshangyou", "--players", "9", "--out", "unused"],
     "zhengshangyou is played by 2 to 8 players, not 9"),
    (["perft", "gandengyan", "--players", "7"], "gandengyan is played by 2 to 6 players, not 7"),
    (["playout", "chinese_ten", "--variant", "taiwanese", "--players", "3", "--deals", "1"],
     "the taiwanese variant is played by 4 players, not 3"),
    (["generate", "chinese_ten", "--variant", "barraco", "--players", "3", "--out", "unused"],
     "the barraco variant is played by 2 or 4 players, not 3"),
])
def test_one_wording_of_the_players(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert re.search(r"is played by .* players, not \d+$", fails(argv, words, capsys).split(" (see:")[0].strip())


def test_the_player_count_message_is_one_function() -> None:
    """No other player-count wording is spelt in the source the command line runs."""
    src = Path(__file__).resolve().parent.parent / "src" / "chupai"
    spelt = [p for p in src.rglob("*.py") if "is played by {" in p.read_text() and p.relative_to(src).as_posix() != "core/validate.py"]
    assert spelt == []


# --- the words of the output ------------------------------------------------------------------
def test_output_counts_agree_with_their_nouns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plays", "guandan", "9S 3S", "--level", "2", "--previous", "8S"]) == 0
    assert capsys.readouterr().out.startswith("1 play that beats single 8: 8S (level 2")
    assert main(["plays", "zhengshangyou", "9S 3S", "--previous", "8S"]) == 0
    assert capsys.readouterr().out.startswith("1 play that beats single 8: 8S:")
    assert main(["plays", "chinese_ten", "7S", "--layout", ""]) == 0
    assert capsys.readouterr().out.startswith("1 play to play on an empty layout:")
    assert main(["plays", "chinese_ten", "7S", "--layout", "3S"]) == 0
    assert capsys.readouterr().out.startswith("1 play to play on the layout 3S:")
    assert main(["generate", "gandengyan", "--episodes", "1", "--out", str(tmp_path / "g"), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 gandengyan deal, ") and " in 1 shard under " in out, out
    assert main(["arena", "gandengyan", "--bots", "random,greedy", "--deals", "1", "--quiet"]) == 0
    assert "RandomBot() vs GreedyBot(): 1 deal, " in capsys.readouterr().out
    assert main(["arena", "gandengyan", "--bots", "random,greedy", "--deals", "3", "--quiet", "--matches"]) == 0
    assert "RandomBot() vs GreedyBot(): 3 matches, " in capsys.readouterr().out
    assert main(["ladder", "gandengyan", "--bots", "random,greedy", "--deals", "1", "--quiet"]) == 0
    assert capsys.readouterr().out.startswith("ladder gandengyan: 1 deal x 2 seatings per pair")


# --- what the operating system or a peer refuses: one line, exit 2 -------------------------
def test_serve_on_a_port_in_use_a_bad_host_or_an_unwritable_record(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        fails(["serve", "guandan", "--port", port, "--quiet"], "address already in use", capsys)
    fails(["serve", "guandan", "--host", "256.1.1.1", "--port", "0", "--quiet"], "256.1.1.1", capsys)
    fails(["serve", "guandan", "--record", str(tmp_path / "no" / "x.jsonl"), "--quiet"], "No such file", capsys)


def test_join_a_path_the_server_does_not_serve(capsys: pytest.CaptureFixture[str]) -> None:
    """A server that answers the handshake with HTTP 404: the reason, not a traceback."""
    import http.server
    import threading

    class NotFound(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802 (the handler's name)
            self.send_error(404)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), NotFound)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"ws://127.0.0.1:{server.server_address[1]}/wrong/path"
        fails(["join", url, "--quiet", "--reconnect", "0"], "HTTP 404", capsys)
    finally:
        server.shutdown()
        server.server_close()


def test_replay_of_a_missing_file_a_folder_or_a_bare_header(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fails(["replay", str(tmp_path / "missing.jsonl")], "No such file", capsys)
    fails(["replay", str(tmp_path)], "Is a directory", capsys)
    header = tmp_path / "header.jsonl"
    header.write_text(json.dumps({"type": "header"}) + "\n")
    fails(["replay", str(header)], "holds no deal", capsys)


@pytest.mark.parametrize("argv", [
    ["arena", "guandan", "--bots", "random,random", "--deals", "2"],
    ["ladder", "guandan", "--bots", "random,greedy", "--deals", "1"],
    ["generate", "guandan", "--episodes", "1", "--out", "OUT"],
])
def test_the_ray_backend_without_ray_names_the_extra(argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails, as where it is not installed
    argv = [str(tmp_path / "out") if a == "OUT" else a for a in argv]
    fails([*argv, "--backend", "ray"], "pip install 'chupai[ray]'", capsys)
    assert not (tmp_path / "out").exists()  # refused before any side effect


def test_the_docs_name_the_subcommands_that_take_json() -> None:
    """docs/index.md names exactly the subcommands with a ``--json`` switch."""
    text = " ".join((Path(__file__).parents[1] / "docs" / "index.md").read_text().split())
    said = re.search(r"`--json` is a switch of (.*?) \(not of (.*?), which", text)
    assert said, "docs/index.md no longer says which subcommands take --json"
    has, has_not = (set(re.findall(r"`(\w+)`", part)) for part in said.groups())
    ap, _ = build_parser()
    names = {name for action in ap._actions if isinstance(action, argparse._SubParsersAction)
             for name in action.choices}
    assert has | has_not == names
    assert {name for name in names if "--json" in _subparser(ap, name)._option_string_actions} == has


def test_help_gives_the_servers_defaults_and_every_bot_spec(capsys: pytest.CaptureFixture[str]) -> None:
    """``serve --help`` shows the defaults the docs give (port 23456, 30 s to answer, 30 s
    to come back); every subcommand that takes bot specs lists ``best`` among them."""
    ap, _ = build_parser()
    serve = " ".join(_subparser(ap, "serve").format_help().split())
    for said in ("(default: 23456)", "forever) (default: 30.0)", "at once) (default: 30.0)",
                 "(default: 127.0.0.1)"):
        assert said in serve, said
    for command, option in (("arena", "--bots"), ("ladder", "--bots"), ("join", "--bot")):
        text = " ".join(_subparser(ap, command).format_help().split())
        assert "heuristic, best, mc[:N]" in text, (command, option)
