"""The figures the docs call reproducible are what their command makes.

A section of ``docs/*.md`` whose heading says "reproduce" gives a ``chupai ladder``
command in a ``bash`` block, writing ``--save-json NAME.json``; ``docs/ladder/NAME.json``
is its committed result.  The committed JSON holds the command's settings and the
figures the section's table and ratings quote; and the same command at ``--deals 1``
(its first deal: deal ``k`` of a ladder is dealt and played from seeds of ``(seed, k)``
alone) makes exactly ``docs/ladder/NAME.deals1.json`` again, every figure but the CPU
time per decision (the one that depends on the machine).
"""
from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from chupai.cli import main

DOCS = Path(__file__).resolve().parent.parent / "docs"


def _sections() -> list[tuple[str, str]]:
    """(page name, text) of every section whose heading says "reproduce"."""
    out = []
    for page in sorted(DOCS.glob("*.md")):
        parts = re.split(r"^(#+ .*)$", page.read_text(), flags=re.M)
        for heading, body in zip(parts[1::2], parts[2::2]):
            if "reproduc" in heading.lower():
                out.append((f"{page.name}: {heading}", body))
    return out


def _commands(body: str) -> list[list[str]]:
    blocks = re.findall(r"```bash\n(.*?)```", body, flags=re.S)
    words = [shlex.split(b.replace("\\\n", " ")) for b in blocks]
    return [w[2:] for w in words if w[:2] == ["chupai", "ladder"]]


FIGURES = [(where, body, argv) for where, body in _sections() for argv in _commands(body)]


def _option(argv: list[str], flag: str) -> str:
    return argv[argv.index(flag) + 1]


def _untimed(result: dict[str, Any]) -> dict[str, Any]:
    return {**result, "ratings": [{k: v for k, v in r.items() if k != "cpu_ms"} for r in result["ratings"]]}


def test_the_docs_have_a_reproducible_figure() -> None:
    assert FIGURES, "no section of docs/*.md that says 'reproduce' gives a chupai ladder command"


@pytest.mark.parametrize("where, body, argv", FIGURES, ids=[f[0] for f in FIGURES])
def test_committed_figure_is_the_commands(where: str, body: str, argv: list[str]) -> None:
    """The committed JSON was made by the command, and the section quotes it."""
    committed = json.loads((DOCS / "ladder" / _option(argv, "--save-json")).read_text())
    assert committed["game"] == argv[0]
    assert committed["bots"] == _option(argv, "--bots").split(",")
    assert committed["deals"] == int(_option(argv, "--deals"))
    assert committed["seed"] == int(_option(argv, "--seed"))
    # the table: the row bot's win rate against the column bot, in whole percents
    lines = body[body.index("```bash"):].splitlines()
    first = next(k for k, line in enumerate(lines) if line.startswith("| "))
    rows = []
    for line in lines[first:]:  # the first table after the command
        if not line.startswith("|"):
            break
        if line.startswith("| "):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    header, *table = rows
    rates = {(p["first"], p["second"]): p["win_rate"] for p in committed["pairs"]}
    rates.update({(b, a): 1 - r for (a, b), r in list(rates.items())})
    quoted = 0
    for row in table:
        for column, cell in zip(header[1:], row[1:]):
            if cell:
                assert cell == f"{round(100 * rates[row[0], column])}%", (where, row[0], column)
                quoted += 1
    assert quoted == len(table) * (len(header) - 2), where  # each row: every column but itself
    # the ratings sentence
    said = " ".join(body[body.index("Ratings:"):].split("\n\n")[0].split())
    for rating in committed["ratings"]:
        number = re.search(rf"{re.escape(rating['bot'])} ([+-]?\d+)", said)
        assert number is not None and int(number.group(1)) == round(rating["elo"]), (where, rating["bot"])


@pytest.mark.parametrize("where, body, argv", FIGURES, ids=[f[0] for f in FIGURES])
def test_the_command_at_one_deal_makes_the_committed_small_form(where: str, body: str, argv: list[str],
                                                                 tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    name = _option(argv, "--save-json")
    small = DOCS / "ladder" / name.replace(".json", ".deals1.json")
    assert small.name in body, f"{where} names its small form {small.name}"
    run = list(argv)
    run[run.index("--deals") + 1] = "1"
    run[run.index("--save-json") + 1] = str(tmp_path / name)
    if "--png" in run:  # the plot is not compared (and needs matplotlib)
        at = run.index("--png")
        del run[at:at + 2]
    assert main(["ladder", *run, "--quiet"]) == 0
    text = capsys.readouterr().out
    made = json.loads((tmp_path / name).read_text())
    assert text.startswith(f"ladder {argv[0]}: 1 deal x 2 seatings per pair")
    assert len(made["pairs"]) == len(made["bots"]) * (len(made["bots"]) - 1) // 2
    assert all(p["games"] == 2 for p in made["pairs"])
    assert _untimed(made) == _untimed(json.loads(small.read_text())), (
        f"{small.name} is not what the command of {where} makes: run it with --deals 1 and commit the output "
        "(and the full figure, its table and ratings)")
