"""The README's example and every module's docstring examples run as written: the one
doctest of the package (each module of ``src/chupai``, found by walking the package)."""
import doctest
import importlib
import pathlib
import pkgutil

import pytest

import chupai

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: every module of the package (``__main__`` runs the command line when imported)
MODULES = sorted(m.name for m in pkgutil.walk_packages(chupai.__path__, "chupai.") if not m.name.endswith("__main__"))


def source_of(name: str) -> str:
    """The source text of module ``name`` in the checkout's ``src`` (its ``.py``, its
    package's ``__init__.py`` or its ``.pyx``)."""
    base = ROOT / "src" / pathlib.Path(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py", base.with_suffix(".pyx")):
        if path.exists():
            return path.read_text()
    raise AssertionError(f"no source of {name} under {ROOT / 'src'}")


def test_readme_example():
    assert README.exists(), "the tests run from the checkout, beside README.md"
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_every_module_is_walked():
    assert {"chupai.cards", "chupai.guandan.deal", "chupai.core.seeds", "chupai.encoding._pack"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    """Every example passes, and a module whose source has examples runs some (an
    example lost from a compiled module's docstrings fails here)."""
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as e:  # an optional extra (pettingzoo, open_spiel, ...)
        if e.name is None or e.name.split(".")[0] == "chupai":
            raise
        pytest.skip(f"{name} needs {e.name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0 or ">>> " not in source_of(name)
