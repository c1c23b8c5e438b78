"""The release build compiles a module's generated C where it is current
(``build_support/c_sources.py``): a second ``pip install`` then regenerates and
recompiles nothing.  Each case sets file times explicitly."""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def c_sources() -> ModuleType:
    spec = importlib.util.spec_from_file_location("c_sources", ROOT / "build_support" / "c_sources.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tree(tmp_path: Path) -> dict[str, Path]:
    """Two modules with their C, a shared .pxd and a build script, all at time 100."""
    files = {
        "a.pyx": tmp_path / "src" / "pkg" / "a.pyx",
        "a.c": tmp_path / "src" / "pkg" / "a.c",
        "b.pyx": tmp_path / "src" / "pkg" / "sub" / "b.pyx",
        "b.c": tmp_path / "src" / "pkg" / "sub" / "b.c",
        "shared.pxd": tmp_path / "src" / "pkg" / "shared.pxd",
        "setup.py": tmp_path / "setup.py",
    }
    for path in files.values():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("")
        os.utime(path, (100, 100))
    return files


def touch(path: Path, t: float) -> None:
    os.utime(path, (t, t))


def test_a_module_is_built_from_its_c_only_while_the_c_is_newer_than_its_sources(tmp_path: Path) -> None:
    cs = c_sources()
    f = tree(tmp_path)
    modules = ["pkg.a", "pkg.sub.b"]

    def current() -> set[str]:
        return set(cs.current_c(str(tmp_path), modules, also=[str(f["setup.py"])]))

    assert cs.c_path(str(tmp_path), "pkg.sub.b") == str(f["b.c"])
    assert current() == set()  # a C as old as its sources is not trusted
    touch(f["a.c"], 200)
    touch(f["b.c"], 200)
    assert current() == {"pkg.a", "pkg.sub.b"}  # the second install: nothing regenerated
    touch(f["a.pyx"], 300)
    assert current() == {"pkg.sub.b"}  # an edited module is cythonized again
    touch(f["a.c"], 400)
    touch(f["shared.pxd"], 300)
    assert current() == {"pkg.a"}  # a shared .pxd newer than a C: that module again
    touch(f["setup.py"], 500)
    assert current() == set()  # the build script changed: every module
    f["a.c"].unlink()
    touch(f["b.c"], 600)
    assert current() == {"pkg.sub.b"}  # (no C: cythonized)
