"""The docstring examples of the shared state layer and of every game's state modules
run as written."""
import doctest
import importlib

import pytest

MODULES = [
    "chupai._validate",
    "chupai._state",
    "chupai._games",
    "chupai.contract",
    "chupai.bots",
    "chupai.guandan.deal",
    "chupai.guandan.tribute",
    "chupai.zhengshangyou.deal",
    "chupai.zhengshangyou.exchange",
    "chupai.gandengyan.game",
    "chupai.chinese_ten.game",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
