"""What an installed chupai holds: the compiled modules and their stubs, not the C that
Cython generated while building them."""
from __future__ import annotations

from pathlib import Path

import pytest

import chupai

ROOT = Path(__file__).resolve().parents[1]


def test_the_installed_package_holds_no_generated_c() -> None:
    installed = Path(chupai.__file__).resolve().parent
    if ROOT / "src" in installed.parents:
        pytest.skip("chupai runs from this source tree (an editable or in-place build), not from a wheel")
    assert list(installed.rglob("*.so")), "the compiled modules are installed"
    assert list(installed.rglob("*.pyi")), "their stubs are installed"
    assert not list(installed.rglob("*.c")), "generated C is a build intermediate"
