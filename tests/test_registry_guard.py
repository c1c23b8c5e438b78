"""A game package owns every fact about its game: no shared module names a game, and
every test takes its games from the registry.

* Every module of ``src/chupai`` outside the game packages (``.py``, ``.pyi``, ``.pyx``,
  ``.pxd``) and the shared scripts of ``bench/`` (one game's own scripts are in
  ``bench/<game>/``, as its code is in its package) neither imports a game package nor
  holds a string naming a game (its registry name as a word, or ``chupai.<game>``);
  documentation (docstrings, comments) may name one as an example.  The registry's
  list of packages is the one place that names them all.
* No test, benchmark or fuzz module spells a fixed list of every registered game (it
  would leave a new game out silently): they read ``chupai.registry.GAMES``, and a
  table of per-game test data is read for each game of the registry (a new game
  without its row fails).
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from chupai.registry import GAMES, PACKAGES

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "chupai"
NAMES = tuple(GAMES)

SOURCE_SUFFIXES = (".py", ".pyi", ".pyx", ".pxd")


def _game_dirs() -> set[Path]:
    return {ROOT / "src" / Path(*package.split(".")) for package in PACKAGES}


def shared_modules() -> list[Path]:
    """Every shared source file of the library and the benchmarks (game packages and the
    registry left out)."""
    games = _game_dirs()
    found = []
    # the benchmark scripts; the benchmark tests time chosen positions of chosen games
    scripts = sorted(p for p in (ROOT / "bench").glob("*.py") if not p.name.startswith(("test_", "conftest")))
    for path in sorted(PACKAGE.rglob("*")) + scripts:
        if path.suffix not in SOURCE_SUFFIXES or any(d in path.parents for d in games):
            continue
        rel = path.relative_to(ROOT).as_posix()
        if rel != "src/chupai/registry/__init__.py":
            found.append(path)
    return found


_WORD = re.compile(r"(?<![\w.])(?:chupai\.)?(" + "|".join(NAMES) + r")\b")
_PACKAGE_WORD = re.compile(r"\bchupai\.(" + "|".join(NAMES) + r")\b")


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module and its classes and functions."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def python_names(text: str) -> list[str]:
    """What Python (or stub) source ``text`` names of a game, outside documentation:
    imports of a game package and strings that name a game."""
    tree = ast.parse(text)
    docs = _docstrings(tree)
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            hits += [a.name for a in node.names if _PACKAGE_WORD.match(a.name)]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if _PACKAGE_WORD.match(node.module):
                hits.append(node.module)
            elif node.module == "chupai":
                hits += [f"chupai.{a.name}" for a in node.names if a.name in NAMES]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            hits += [m.group(0) for m in _WORD.finditer(node.value)]
    return hits


_CYTHON_DOC = re.compile(r'"""(?:.|\n)*?"""|#[^\n]*')
_CYTHON_STRING = re.compile(r"\"[^\"\n]*\"|'[^'\n]*'")


def cython_names(text: str) -> list[str]:
    """What Cython source ``text`` names of a game, outside comments and docstrings:
    (c)imports of a game package and strings that name a game."""
    code = _CYTHON_DOC.sub("", text)
    hits = [m.group(0) for m in _PACKAGE_WORD.finditer(_CYTHON_STRING.sub('""', code))]
    hits += re.findall(r"from\s+chupai\s+c?import\s+.*\b(?:" + "|".join(NAMES) + r")\b", code)
    for s in _CYTHON_STRING.findall(code):
        hits += [m.group(0) for m in _WORD.finditer(s[1:-1])]
    return hits


def names_in(path: Path) -> list[str]:
    text = path.read_text()
    return cython_names(text) if path.suffix in (".pyx", ".pxd") else python_names(text)


def test_the_guard_sees_imports_and_strings_but_not_documentation() -> None:
    g = NAMES[0]
    code = (f'"""Module doc naming chupai.{g}."""\nimport chupai.{g}\nfrom chupai import {g}\n'
            f'from chupai.{g}.play import Play\nx = "{g}"\ndef f():\n    """{g} in a docstring."""\n'
            f'    return f"chupai.{g}: {{x}}"\n# a comment: {g}\n')
    assert python_names(code) == [f"chupai.{g}", f"chupai.{g}", f"chupai.{g}.play", g, f"chupai.{g}"]
    assert python_names(f'y = "_{g}_tables"\nz = "python_chupai_{{name}}"\n') == []
    pyx = (f'"""doc: {g}"""\nfrom chupai.{g}._engine cimport DealEngine\n# {g}\ncdef str n = "{g}"\n'
           f"from chupai cimport {g}\n")
    assert len(cython_names(pyx)) == 3


def test_the_guard_covers_every_shared_module() -> None:
    modules = {p.relative_to(ROOT).as_posix() for p in shared_modules()}
    for expected in ("src/chupai/cli/__init__.py", "src/chupai/players/bots.py", "src/chupai/encoding/tensors.py", "src/chupai/core/records.pyx",
                     "src/chupai/core/records.pxd", "src/chupai/core/records.pyi", "src/chupai/players/search/ismcts.py",
                     "src/chupai/rl/openspiel.py", "bench/rl.py"):
        assert expected in modules
    assert not any("/guandan/" in m or m.endswith("registry/__init__.py") for m in modules)


@pytest.mark.parametrize("path", shared_modules(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_shared_module_names_a_game(path: Path) -> None:
    assert names_in(path) == [], "a fact about one game belongs in its package's registry entry"


def test_no_shared_module_sniffs_a_states_module() -> None:
    """The game of a state is its class attribute ``game`` (``chupai.registry.game_of``)."""
    for path in shared_modules():
        assert "type(state).__module__" not in path.read_text(), path


def test_the_registry_is_the_list_of_packages() -> None:
    assert [entry.package for entry in GAMES.values()] == list(PACKAGES)
    for name, entry in GAMES.items():
        module = entry.module()
        assert module.GAME is entry and entry.name == name == entry.deal_class.game == entry.match_class.game


def _game_named(node: ast.expr) -> object:
    """The game an element of a literal collection names: a string, or a module object
    (``guandan``, ``chupai.guandan``)."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _fixed_game_collections(path: Path) -> list[int]:
    """The lines of ``path`` with a literal list, tuple or set of every game, by name or
    as the game modules."""
    tree = ast.parse(path.read_text())
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            continue
        spelt = {_game_named(i) for i in node.elts}
        if set(NAMES) <= spelt:
            lines.append(node.lineno)
    return lines


def _test_modules() -> list[Path]:
    dirs = [ROOT / "tests", ROOT / "tests" / "conformance", ROOT / "bench", ROOT / "fuzz"]
    return sorted(p for d in dirs for p in d.glob("*.py"))


@pytest.mark.parametrize("path", _test_modules(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_test_spells_the_list_of_games(path: Path) -> None:
    """A test over every game reads the registry; a fixed list would skip a new game."""
    assert _fixed_game_collections(path) == [], "take the games from chupai.registry.GAMES"
