"""The README's example and every module's docstring examples run as written."""
import doctest
import importlib
import pathlib
import pkgutil

import pytest

import chupai

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"
#: every module of the package (``__main__`` runs the command line when imported)
MODULES = sorted(m.name for m in pkgutil.walk_packages(chupai.__path__, "chupai.") if not m.name.endswith("__main__"))


def test_readme_example():
    assert README.exists(), "the tests run from the checkout, beside README.md"
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
