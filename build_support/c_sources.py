"""Whether the release build's C, generated beside each ``.pyx``, is current.

pip builds in a fresh isolated environment each time, and Cython counts its own
headers (``Cython/Includes/libc/*.pxd``, just installed there) among every module's
dependencies: asked to cythonize, it regenerates and recompiles every module on every
install, although nothing of the project changed.  ``setup.py`` therefore compiles a
module's C directly when it is newer than every source of the project the module could
depend on, and asks Cython for the others only.
"""
from __future__ import annotations

import glob
import os
from collections.abc import Iterable

#: the project files a module's C can depend on (under src/)
SOURCE_PATTERNS = ("*.pyx", "*.pxd", "*.pxi", "*.h")


def c_path(root: str, module: str) -> str:
    """The C file the release build generates for ``module`` (beside its ``.pyx``)."""
    return os.path.join(root, "src", *module.split(".")) + ".c"


def current_c(root: str, modules: Iterable[str], also: Iterable[str] = ()) -> set[str]:
    """The modules whose C exists and is newer than their ``.pyx`` and than every shared
    project source under ``root/src`` (``.pxd``, ``.pxi``, ``.h``: any module may cimport
    one) and every file of ``also`` (the build script itself)."""
    shared = [p for pattern in SOURCE_PATTERNS if pattern != "*.pyx"
              for p in glob.glob(os.path.join(root, "src", "**", pattern), recursive=True)]
    newest = max((os.path.getmtime(p) for p in [*shared, *also]), default=0.0)
    out = set()
    for module in modules:
        c = c_path(root, module)
        pyx = c[: -len(".c")] + ".pyx"
        if os.path.exists(c) and os.path.getmtime(c) > max(newest, os.path.getmtime(pyx)):
            out.add(module)
    return out
