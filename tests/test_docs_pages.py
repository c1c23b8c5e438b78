"""The documentation in ``docs/``: a rules page for every registered game naming every rules option and preset, the pages' examples run,
their links resolve, and the LICENSE matches pyproject."""
import dataclasses
import doctest
import pathlib
import re

import pytest

from chupai.registry import GAMES

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


#: every file of the repository that may cite a page: sources, tests, benches, fuzz
#: targets, examples, CI scripts, the docs themselves and the README
CITING = [path for folder in ("src", "tests", "bench", "fuzz", "examples", ".ci", "docs")
          for path in (ROOT / folder).rglob("*")
          if path.suffix in (".py", ".pyx", ".pxd", ".pyi", ".md", ".sh", ".js", ".html", "")
          and path.is_file() and ".ci-venv" not in path.parts and "corpus" not in path.parts] + [ROOT / "README.md"]
#: what the repository does not contain and so must never cite: the project's steering
#: folder beside the checkout, its architecture brief and its spec folder
#: (spelled in pieces, so that this file does not cite them itself)
_STEERING, _BRIEF, _SPECS = "\\.\\./" + "shared", "DESIGN" + "\\.md", "spec" + "/\\w+\\.md"
NOT_HERE = re.compile(rf"{_STEERING}|(?<![\w/.]){_BRIEF}|(?<![\w/.]){_SPECS}")


def has_section(page: pathlib.Path, title: str) -> bool:
    """``page`` has a heading that is ``title`` or begins with it ("Tribute" names
    "Tribute (from the second deal on)")."""
    return any(line.lstrip("#").strip().startswith(title)
               for line in page.read_text().splitlines() if line.startswith("#"))


def test_every_cited_file_and_section_exists():
    """Every ``docs/<page>.md`` a file of the repository cites exists, and so does the
    section it names (``docs/design.md, "Layers"`` or ``docs/design.md "Layers"``);
    nothing cites a file the repository does not contain (the steering folder beside
    the checkout, its architecture brief or its rules folder: :data:`NOT_HERE`)."""
    cited, stale, missing = 0, [], []
    for path in CITING:
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        if path != pathlib.Path(__file__):
            stale += [f"{path.relative_to(ROOT)}: {m.group()}" for m in NOT_HERE.finditer(text)]
        for m in re.finditer(r"docs/((?:rules/|ladder/)?[\w.]+\.md)(?:`{0,2},? \(?\"([^\"]+)\")?", text):
            cited += 1
            page = DOCS / m.group(1)
            if not page.exists():
                missing.append(f"{path.relative_to(ROOT)} cites docs/{m.group(1)}")
            elif m.group(2) and not has_section(page, " ".join(m.group(2).split())):
                missing.append(f"{path.relative_to(ROOT)} cites docs/{m.group(1)}, section {' '.join(m.group(2).split())!r}")
    assert cited > 0
    assert not stale, stale
    assert not missing, missing


def test_license_is_mit_as_pyproject_says():
    text = ROOT.joinpath("LICENSE").read_text()
    assert text.startswith("MIT License") and "Copyright (c) 2026 chupai developers" in text
    pyproject = ROOT.joinpath("pyproject.toml").read_text()
    # PEP 639: an SPDX expression and the file that holds the text
    assert re.search(r'^license = "MIT"$', pyproject, re.M)
    assert re.search(r'^license-files = \["LICENSE"\]$', pyproject, re.M)


def test_readme_points_to_the_docs():
    readme = ROOT.joinpath("README.md").read_text()
    assert "docs/index.md" in readme and "docs/rules/" in readme
