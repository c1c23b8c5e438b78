"""The docstring examples of the Gan Deng Yan modules run as written."""
import doctest
import importlib

import pytest

MODULES = [
    "chupai.gandengyan",
    "chupai.gandengyan.play",
    "chupai.gandengyan.rules",
    "chupai.gandengyan.classify",
    "chupai.gandengyan.scoring",
    "chupai.gandengyan.game",
    "chupai.gandengyan.playouts",
    "chupai.gandengyan._movegen",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
