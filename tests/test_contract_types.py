"""Type contract: ``PlayList`` is generic in the stubs and every game's
``legal_plays`` is typed ``PlayList[<game>.Play]``, checked by running mypy --strict on
a snippet that reveals the types."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from chupai.registry import GAMES

api = pytest.importorskip("mypy.api")  # the `types` extra (installed in CI)

# the arguments of a leading legal_plays() call in each game
CALLS = {
    "guandan": '"3S 4S", "2"',
    "zhengshangyou": '"3S 4S"',
    "gandengyan": '"3S 4S"',
    "chinese_ten": '"3S", "7H"',
    "doudizhu": '"3S 4S"',
}


def test_calls_cover_every_game() -> None:
    assert set(CALLS) == set(GAMES)


def test_legal_plays_keeps_the_play_type_in_every_game(tmp_path: Path) -> None:
    lines = []
    for name, args in CALLS.items():
        lines += [f"from chupai.{name}._movegen import legal_plays as lp_{name}",
                  f"plays_{name} = lp_{name}({args})",
                  f"reveal_type(plays_{name}[0])",
                  f"reveal_type(list(plays_{name}))",
                  f"reveal_type(plays_{name}.take([0]))"]
    snippet = tmp_path / "snippet.py"
    snippet.write_text("\n".join(lines) + "\n")
    out, err, status = api.run(["--strict", "--cache-dir", str(tmp_path / "cache"), str(snippet)])
    assert status == 0, out + err
    revealed = re.findall(r'Revealed type is "([^"]+)"', out)
    expected = []
    for name in CALLS:
        play = f"chupai.{name}.play.Play"
        expected += [play, f"list[{play}]", f"chupai.core.records.PlayList[{play}]"]
    assert revealed == expected
