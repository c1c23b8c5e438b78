"""Build the Cython extensions (every ``.pyx`` under ``src/``).

Build switches (environment variables; the default is the optimised release build,
whose kernels run without checks: every index in them is bounded by construction):

``CHUPAI_DEBUG=1``
    Cython's bounds, wraparound and initialisation checks on, no optimisation, debug
    symbols, and every exception the compiled code would only report as "Exception
    ignored" (a failed check inside a ``noexcept`` kernel has nowhere to propagate)
    aborts the process instead (``build_support/abort_unraisable.h``), so a test that
    hits a bounds error cannot pass.  Cython's checks cover buffers and memoryviews
    only: the C flags of ``build_support/debug_cflags.txt`` (GCC's
    ``-fsanitize=bounds`` trapping, no runtime library) make an index out of a plain C
    array's bounds (a kernel struct's ``int out[4]``) trap too.
``CHUPAI_SANITIZE=1``
    AddressSanitizer + UndefinedBehaviorSanitizer (``-fsanitize=address,undefined``,
    ``-fno-sanitize-recover=all`` so undefined behaviour is fatal too), ``-O1 -g``.
    The Cython directives stay those of the release build, so the sanitizers watch the
    code that ships.  The interpreter is not instrumented: run it with the runtime
    preloaded (``.ci/sanitize`` shows how).  Combines with ``CHUPAI_DEBUG=1``.
``CHUPAI_ONLY=chupai.gandengyan``
    Build only the modules under that prefix (plus ``chupai.core.records``; development).

Each mode generates its C into its own directory (``build/cython-<mode>``; the release
build's beside the ``.pyx``) and a change of mode since the last build of a tree forces
every extension to be rebuilt, so one build never reuses the objects of another.
"""
import glob
import os
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

DEBUG = os.environ.get("CHUPAI_DEBUG") == "1"
SANITIZE = os.environ.get("CHUPAI_SANITIZE") == "1"
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "build_support"))
from c_sources import c_path, current_c  # noqa: E402  (build_support/c_sources.py)

directives = {
    "language_level": 3,
    "embedsignature": True,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
}
compile_args = ["-O0", "-g"] if DEBUG else ["-O3"]
link_args = []
if DEBUG:
    compile_args += ["-include", os.path.join(HERE, "build_support", "abort_unraisable.h")]
    with open(os.path.join(HERE, "build_support", "debug_cflags.txt")) as f:
        compile_args += [line.strip() for line in f if line.strip() and not line.startswith("#")]
if SANITIZE:
    sanitizers = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"]
    compile_args = [a for a in compile_args if not a.startswith("-O")] + ["-O1", "-g"] + sanitizers
    link_args += sanitizers

# the C of a non-release build goes to its own directory; a change of mode rebuilds every
# extension (build_ext would otherwise keep a .so that is newer than its sources)
MODE = "-".join(name for name, on in (("debug", DEBUG), ("sanitize", SANITIZE)) if on) or "release"
STAMP = os.path.join(HERE, "build", "chupai-build-mode")


class BuildExt(build_ext):
    """``build_ext`` that forces a full rebuild when the build mode changed."""

    def run(self):
        try:
            with open(STAMP) as f:
                last = f.read().strip()
        except OSError:
            last = None
        if last != MODE:
            self.force = True
        super().run()
        os.makedirs(os.path.dirname(STAMP), exist_ok=True)
        with open(STAMP, "w") as f:
            f.write(MODE + "\n")


# every .pyx under src/ is one extension module, named by its path
MODULES = sorted(
    os.path.relpath(path, "src")[: -len(".pyx")].replace(os.sep, ".")
    for path in glob.glob(os.path.join("src", "chupai", "**", "*.pyx"), recursive=True)
)

# CHUPAI_ONLY=chupai.gandengyan builds only the modules under that prefix (development)
ONLY = os.environ.get("CHUPAI_ONLY")
if ONLY:
    MODULES = [m for m in MODULES if m == ONLY or m.startswith(ONLY + ".") or m in ("chupai.core.records", "chupai.engine.base")]

# a release build compiles the C of a module whose C is current, and cythonizes the others
# (build_support/c_sources.py: a pip install would otherwise regenerate and recompile
# every module each time)
FROM_C = current_c(HERE, MODULES, also=[os.path.abspath(__file__)]) if MODE == "release" else set()


def _extension(name, source):
    return Extension(name, [source], extra_compile_args=compile_args, extra_link_args=link_args)


setup(
    ext_modules=[_extension(name, os.path.relpath(c_path(HERE, name), HERE)) for name in MODULES if name in FROM_C]
    + cythonize(
        [_extension(name, os.path.join("src", *name.split(".")) + ".pyx") for name in MODULES if name not in FROM_C],
        compiler_directives=directives,
        include_path=["src"],
        build_dir=None if MODE == "release" else os.path.join("build", f"cython-{MODE}"),
    ),
    cmdclass={"build_ext": BuildExt},
)
