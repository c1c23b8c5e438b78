"""The docstring examples of the Zheng Shangyou modules run as written."""
import doctest
import importlib

import pytest

MODULES = [
    "chupai.zhengshangyou",
    "chupai.zhengshangyou.play",
    "chupai.zhengshangyou.rules",
    "chupai.zhengshangyou.classify",
    "chupai.zhengshangyou._movegen",
    "chupai.zhengshangyou.game",
    "chupai.zhengshangyou.playouts",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
