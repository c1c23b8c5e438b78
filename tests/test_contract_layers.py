"""The layers of ``docs/design.md`` ("Layers": data flows down, nothing reaches upwards): a compiled
module imports only compiled modules and the error types, never a Python module of a
layer above it (a game's ``play``, ``rules``, ``deal`` ...); the Python side binds the
classes the compiled code makes (``GameClasses.bind``, run by each game's ``play``)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from chupai.core.records import GameClasses
from chupai.registry import GAMES

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "chupai"
COMPILED = {
    ".".join(p.relative_to(SRC).with_suffix("").parts) for p in PACKAGE.rglob("*.pyx")
}
#: Python modules the compiled layer may import: the error types, the contract's shared
#: names (Event, TERMINAL ...) and the PASS action, which import nothing of the library
#: themselves (checked below)
BOTTOM = {"chupai.errors", "chupai.contract", "chupai.actions"}

# a Python-level import statement of a .pyx file (cimports are compile-time C names)
_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import\b(?!\s*\*)|import\s+([\w.]+))", re.M)


def python_imports(path: Path) -> set[str]:
    """The modules a .pyx file imports at run time (``import`` / ``from ... import``)."""
    text = path.read_text()
    found = set()
    for m in _IMPORT.finditer(text):
        line = text[m.start():].split("\n", 1)[0]
        if re.search(r"\bcimport\b", line):
            continue
        found.add(m.group(1) or m.group(2))
    return found


def test_the_parser_sees_python_imports_and_not_cimports(tmp_path: Path) -> None:
    f = tmp_path / "m.pyx"
    f.write_text("from chupai.core.records cimport (\n    bit,\n)\nfrom chupai.guandan cimport _movegen as mg\n"
                 "import numpy as np\nfrom chupai.guandan.play import Play\n")
    assert python_imports(f) == {"numpy", "chupai.guandan.play"}


@pytest.mark.parametrize("module", sorted(COMPILED))
def test_a_compiled_module_imports_nothing_above_it(module: str) -> None:
    path = SRC.joinpath(*module.split(".")).with_suffix(".pyx")
    above = sorted(
        name for name in python_imports(path)
        if name.split(".")[0] == "chupai" and name not in COMPILED and name not in BOTTOM
    )
    assert not above, f"{module} imports the Python modules {above} (bind them from the Python side)"


@pytest.mark.parametrize("module", sorted(BOTTOM))
def test_the_bottom_python_modules_import_no_other_library_module(module: str) -> None:
    path = SRC.joinpath(*module.split(".")).with_suffix(".py")
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            assert not node.module.startswith("chupai"), f"{module} imports {node.module}"
        elif isinstance(node, ast.Import):
            assert not any(a.name.startswith("chupai") for a in node.names), f"{module} imports {node.names}"


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_binds_its_classes_into_its_compiled_modules(name: str) -> None:
    entry = GAMES[name]
    movegen = __import__(f"chupai.{name}._movegen", fromlist=["GAME_CLASSES"])
    engine = __import__(f"chupai.{name}._engine", fromlist=["DealEngine"])
    classes = movegen.GAME_CLASSES
    assert classes.bound and classes.game == name
    assert classes.play is entry.play_class and classes.rules is entry.rules_class
    assert classes.pagat == entry.rules_class() and classes.pagat_flags == classes.pagat._flags
    # the engine reads the same binding: its plays are the game's Play class
    engine = engine.DealEngine.random(1)
    assert type(engine.legal_plays()[0]) is entry.play_class
    # the option flags the Python rules compute are the compiled module's constants
    rules = __import__(f"chupai.{name}.rules", fromlist=["Rules"])
    for flag in [n for n in dir(movegen) if n.startswith("FLAG_")]:
        assert getattr(rules, flag) is getattr(movegen, flag)


def test_a_binding_is_made_once_and_checked() -> None:
    from chupai.guandan import Play, Rules
    from chupai.guandan._movegen import GAME_CLASSES

    with pytest.raises(RuntimeError, match="bound already"):
        GAME_CLASSES.bind(Play, Rules, Rules())
    fresh = GameClasses("test")
    assert not fresh.bound and "not bound" in repr(fresh)
    with pytest.raises(TypeError, match="play must be a Play class"):
        fresh.bind(object, Rules, Rules())
    with pytest.raises(TypeError, match="rules must be a Rules class"):
        fresh.bind(Play, "Rules", Rules())
    with pytest.raises(TypeError, match="pagat must be a Rules"):
        fresh.bind(Play, Rules, object())
    assert not fresh.bound


#: the longest module the tree may hold (one giant module hides its layers)
MAX_MODULE_LINES = 1000


def test_no_giant_modules() -> None:
    long = {str(p.relative_to(SRC)): n for p in [*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.pyx")]
            if (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES}
    assert not long, f"split these modules: {long}"
