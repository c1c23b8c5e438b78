"""The docstring examples of the Chinese Ten modules run as written."""
import doctest
import importlib

import pytest

MODULES = [
    "chupai.chinese_ten",
    "chupai.chinese_ten.rules",
    "chupai.chinese_ten.play",
    "chupai.chinese_ten.classify",
    "chupai.chinese_ten.game",
    "chupai.chinese_ten.playouts",
    "chupai.chinese_ten._movegen",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
