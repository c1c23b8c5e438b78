"""The modules of ``src/chupai`` import one another without a circle.

The graph is read from the sources: every ``import`` of a Python module at its top,
and every one inside a function (a lazy import is a dependency all the same: a state
class importing ``chupai.rl`` in a method still makes the state layer depend on the
one above it), but not those under
``if TYPE_CHECKING:`` (they never run), and every ``import`` and ``cimport`` line of
a Cython module (a ``.pxd`` without a ``.pyx`` is a module of
its own).  An edge goes to the module named, or to the
submodule ``from package import name`` names; a package's ``__init__`` is an edge only
where it is imported itself.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
_CYTHON_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+c?import\s+(.+)|c?import\s+([\w.]+))")


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted((SRC / "chupai").rglob("*")):
        if path.suffix not in (".py", ".pyx", ".pxd") or (path.suffix == ".pxd" and path.with_suffix(".pyx").exists()):
            continue
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _target(modules: dict[str, Path], base: str, name: str) -> str | None:
    """The module of ``from base import name`` (or ``import base`` when ``name`` is empty)."""
    for candidate in (f"{base}.{name}" if name else base, base):
        while candidate and candidate not in modules:
            candidate = candidate.rpartition(".")[0]
        if candidate:
            return candidate
    return None


def _type_checking(tree: ast.AST) -> set[int]:
    """The ids of the nodes under ``if TYPE_CHECKING:``."""
    checking: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            checking.update(id(n) for child in node.body for n in ast.walk(child))
    return checking


def _imports(modules: dict[str, Path], name: str, path: Path) -> set[str]:
    """The modules ``name`` (at ``path``) imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    pairs: list[tuple[str, str]] = []  # (base, name)
    if path.suffix in (".pyx", ".pxd"):
        for line in path.read_text().splitlines():
            m = _CYTHON_IMPORT.match(line)
            if m and m.group(1):
                pairs += [(m.group(1), n.split(" as ")[0].strip(" ()\\")) for n in m.group(2).split(",")]
            elif m:
                pairs.append((m.group(3), ""))
    else:
        tree = ast.parse(path.read_text())
        checking = _type_checking(tree)
        for node in ast.walk(tree):
            if id(node) in checking:
                continue
            if isinstance(node, ast.Import):
                pairs += [(a.name, "") for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                pairs += [(base, a.name) for a in node.names]
    out = set()
    for base, imported in pairs:
        target = _target(modules, base, imported) if base.split(".")[0] == "chupai" else None
        if target is None or target == name:
            continue
        out.add(target)
    return out


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(modules, name, path) for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, edges = work[-1]
            w = next(edges, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_reader_sees_the_imports() -> None:
    graph = import_graph()
    # one edge of each kind the reader handles, so an empty graph cannot pass
    assert "chupai.state.compiled" in graph["chupai.state.base"]                 # from m import name
    assert "chupai.guandan._movegen" in graph["chupai.guandan._engine"]  # from pkg cimport mod
    assert "chupai.players.bots" in graph["chupai.players.search.timed"]
    assert "chupai.players.bots" in graph["chupai.players.search.registry"]            # inside a function


def test_circles_are_found() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle() -> None:
    found = circles(import_graph())
    assert not found, "modules importing one another in a circle: " + "; ".join(" <-> ".join(c) for c in found)


#: the layer folders of ``src/chupai`` from the bottom (``docs/design.md``, "Layers"); the
#: flat bottom modules sit with the card core, and a game package, which spans the layers
#: from its generator to its own interfaces, is not ranked
LAYERS = {
    "core": 0, "cards": 0, "errors": 0, "actions": 0, "contract": 0,
    "engine": 1,
    "state": 2, "registry": 2,
    "encoding": 3,
    "players": 4,
    "evaluation": 5,
    "cli": 6, "rl": 6,
}


def _layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.get(parts[1]) if len(parts) > 1 else None


def upward(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """The imports from a layer folder to one above it."""
    out = []
    for source, targets in graph.items():
        below = _layer(source)
        for target in targets:
            above = _layer(target)
            if below is not None and above is not None and above > below:
                out.append((source, target))
    return sorted(out)


def test_upward_imports_are_found() -> None:
    graph = {"chupai.players.bots": {"chupai.rl.vector", "chupai.core.records"}, "chupai.guandan.deal": {"chupai.rl"}}
    assert upward(graph) == [("chupai.players.bots", "chupai.rl.vector")]


def test_nothing_imports_a_layer_above_its_own() -> None:
    found = upward(import_graph())
    assert not found, "imports of a layer above: " + "; ".join(f"{a} -> {b}" for a, b in found)


def test_every_folder_but_the_games_is_a_ranked_layer() -> None:
    """A game package is a folder with a generator (``_movegen.pyx``): every registered
    game's, and Dou Dizhu's rules core before its registry entry."""
    from chupai.registry import PACKAGES

    folders = {p.name for p in (SRC / "chupai").iterdir() if (p / "__init__.py").exists()}
    games = {f for f in folders if (SRC / "chupai" / f / "_movegen.pyx").exists()}
    assert {p.rpartition(".")[2] for p in PACKAGES} <= games
    flat = {p.stem for p in (SRC / "chupai").glob("*.py")} - {"__init__", "__main__"}
    assert folders - games | flat <= set(LAYERS), sorted(folders - games | flat - set(LAYERS))
