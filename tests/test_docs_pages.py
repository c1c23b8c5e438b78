"""The documentation in ``docs/`` (issue 9, "Layers, types, docs"): a rules page for
every registered game naming every rules option and preset, the pages' examples run,
their links resolve, and the LICENSE matches pyproject."""
import dataclasses
import doctest
import pathlib
import re

import pytest

from chupai._games import GAMES

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))


def presets(rules_cls):
    return [name for name, value in vars(rules_cls).items() if isinstance(value, classmethod)]


def test_a_rules_page_for_every_game_and_the_cards():
    assert DOCS.joinpath("index.md").exists() and DOCS.joinpath("rules", "cards.md").exists()
    for name in GAMES:
        assert DOCS.joinpath("rules", f"{name}.md").exists(), name


@pytest.mark.parametrize("name", list(GAMES))
def test_every_option_and_preset_documented(name):
    text = DOCS.joinpath("rules", f"{name}.md").read_text()
    rules = GAMES[name].module().Rules
    options = [f.name for f in dataclasses.fields(rules) if not f.name.startswith("_")]
    assert options
    for option in options:
        assert f"`{option}`" in text, f"docs/rules/{name}.md does not name the option {option}"
    for preset in presets(rules):
        assert f"{preset}()" in text, f"docs/rules/{name}.md does not name the preset {preset}()"
    assert "Choices the code makes" in text or "What chupai decides" in text


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_page_examples_run(page):
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


@pytest.mark.parametrize("page", [*PAGES, ROOT / "README.md"], ids=lambda p: p.name)
def test_relative_links_resolve(page):
    for target in re.findall(r"\]\(([^)#:]+)\)", page.read_text()):
        assert (page.parent / target).exists(), f"{page.name} links to {target}, which is missing"


def test_docstring_references_resolve_once_renamed():
    """The docstrings cite ``spec/<name>.md``; each has a page ``docs/rules/<name>.md``
    (the protocol: ``docs/protocol.md``)."""
    cited = set()
    for path in (ROOT / "src" / "chupai").rglob("*"):
        if path.suffix in (".py", ".pyx", ".pxd", ".pyi"):
            cited.update(re.findall(r"spec/(\w+)\.md", path.read_text()))
    assert cited
    for name in cited:
        page = DOCS / "protocol.md" if name == "protocol" else DOCS / "rules" / f"{name}.md"
        assert page.exists(), name


def test_license_is_mit_as_pyproject_says():
    text = ROOT.joinpath("LICENSE").read_text()
    assert text.startswith("MIT License") and "Copyright (c) 2026 chupai developers" in text
    pyproject = ROOT.joinpath("pyproject.toml").read_text()
    assert re.search(r'^license = \{ text = "MIT" \}$', pyproject, re.M)


def test_readme_points_to_the_docs():
    readme = ROOT.joinpath("README.md").read_text()
    assert "docs/index.md" in readme and "docs/rules/" in readme
