"""Every option of every game's ``Rules`` follows the library's argument convention
(``chupai.core.validate``): a wrong type raises ``TypeError``, a wrong value ``ValueError``,
each naming the option; a right value of another int kind (numpy) is taken as an int.

The cases are built from each option's annotation, so a new option is covered the day
it is added (and an annotation this file does not know fails the test).
"""
from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

import numpy as np
import pytest

from chupai.registry import GAMES


def _options(cls: type) -> list[tuple[str, Any, Any]]:
    """(name, annotation, default) of each constructor option of a Rules class."""
    hints = typing.get_type_hints(cls)
    return [(f.name, hints[f.name], f.default) for f in dataclasses.fields(cls) if f.init]


def _kinds(annotation: Any) -> tuple[set[type], bool]:
    """The plain types an annotation allows, and whether it allows None."""
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        args = typing.get_args(annotation)
    else:
        args = (annotation,)
    allowed = {typing.get_origin(a) or a for a in args if a is not type(None)}
    return allowed, type(None) in args


# a value of the wrong type for an option of each kind (a bool is not an int, an int not a bool)
_WRONG_TYPE = {bool: ("yes", 1, None), int: ("3", 2.5, True), str: (5, b"pagat"), tuple: ("4 2 1", 4)}
# a value of the right type that no option accepts
_WRONG_VALUE = {int: -(10**6), str: "no such value", tuple: (0, 0, 0)}

CASES = [
    (name, cls, option, annotation)
    for name, entry in GAMES.items()
    for cls in (entry.rules_class,)
    for option, annotation, _default in _options(cls)
]
IDS = [f"{name}-{option}" for name, _cls, option, _a in CASES]
# the options with a wrong value of the right type (every bool is a valid value)
VALUED = [case for case in CASES if _kinds(case[3])[0] != {bool}]


@pytest.mark.parametrize(("game", "cls", "option", "annotation"), CASES, ids=IDS)
def test_a_wrong_type_of_option_is_a_type_error_naming_it(game: str, cls: type, option: str, annotation: Any) -> None:
    kinds, nullable = _kinds(annotation)
    assert kinds <= set(_WRONG_TYPE), f"{game}.Rules.{option}: annotation {annotation} not covered here"
    for kind in kinds:
        for bad in _WRONG_TYPE[kind]:
            if bad is None and nullable:
                continue
            with pytest.raises(TypeError, match=rf"\b{option}\b"):
                cls(**{option: bad})


@pytest.mark.parametrize(("game", "cls", "option", "annotation"), VALUED, ids=[f"{c[0]}-{c[2]}" for c in VALUED])
def test_a_wrong_value_of_option_is_a_value_error_naming_it(game: str, cls: type, option: str, annotation: Any) -> None:
    kinds, _nullable = _kinds(annotation)
    for kind in kinds - {bool}:
        with pytest.raises(ValueError, match=rf"\b{option}\b"):
            cls(**{option: _WRONG_VALUE[kind]})


@pytest.mark.parametrize("game", list(GAMES))
def test_numpy_ints_are_ints_and_are_stored_as_python_ints(game: str) -> None:
    cls = GAMES[game].rules_class
    for rules in GAMES[game].presets().values():
        for option, annotation, _default in _options(cls):
            value = getattr(rules, option)
            kinds, _nullable = _kinds(annotation)
            if int in kinds and type(value) is int:
                again = rules.replace(**{option: np.int64(value)})
                assert again == rules and type(getattr(again, option)) is int


def test_chinese_ten_players_of_the_wrong_type_are_a_type_error() -> None:
    from chupai.chinese_ten import Rules

    assert Rules().check_players(np.int64(3)) == 3
    for bad in ("4", 4.0, True):
        with pytest.raises(TypeError, match="players"):
            Rules().check_players(bad)
    with pytest.raises(ValueError, match="played by 4 players, not 3"):
        Rules.taiwanese().check_players(3)
