"""The docstring examples of the surface modules (cards, plays, protocol forms) run as written."""
import doctest
import importlib

import pytest

MODULES = [
    "chupai._cards",
    "chupai.cards",
    "chupai.guandan.play",
    "chupai.zhengshangyou.play",
    "chupai.gandengyan.play",
    "chupai.chinese_ten.play",
    "chupai.chinese_ten.classify",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
