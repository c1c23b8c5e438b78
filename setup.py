"""Build the Cython extensions (every ``.pyx`` under ``src/``).

``CHUPAI_DEBUG=1`` builds with bounds and wraparound checks on, no optimisation and
debug symbols; the default build turns the checks off (every index in the kernels is
bounded by construction).
"""
import glob
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("CHUPAI_DEBUG") == "1"

directives = {
    "language_level": 3,
    "embedsignature": True,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
}
compile_args = ["-O0", "-g"] if DEBUG else ["-O3"]

# every .pyx under src/ is one extension module, named by its path
MODULES = sorted(
    os.path.relpath(path, "src")[: -len(".pyx")].replace(os.sep, ".")
    for path in glob.glob(os.path.join("src", "chupai", "**", "*.pyx"), recursive=True)
)

# CHUPAI_ONLY=chupai.gandengyan builds only the modules under that prefix (development)
ONLY = os.environ.get("CHUPAI_ONLY")
if ONLY:
    MODULES = [m for m in MODULES if m == ONLY or m.startswith(ONLY + ".") or m in ("chupai._core", "chupai._engine_base")]

extensions = [
    Extension(
        name,
        [os.path.join("src", *name.split(".")) + ".pyx"],
        extra_compile_args=compile_args,
    )
    for name in MODULES
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives=directives,
        include_path=["src"],
    ),
)
