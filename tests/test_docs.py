"""The README's example and the docstring examples run as written."""
import doctest
import importlib
import pathlib

import pytest

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"
MODULES = [
    "chupai",
    "chupai.cards",
    "chupai.guandan",
    "chupai.guandan.play",
    "chupai.guandan.rules",
    "chupai.guandan.classify",
    "chupai.guandan._movegen",
    "chupai.guandan.playouts",
    "chupai.guandan.game",
    "chupai.bots",
    "chupai.actions",
]


def test_readme_example():
    assert README.exists(), "the tests run from the checkout, beside README.md"
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
