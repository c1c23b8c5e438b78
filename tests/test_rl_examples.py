"""A short smoke run of examples/dmc_guandan.py (needs torch and matplotlib; with
``CHUPAI_REQUIRE_EXTRAS=1`` a missing one is an error, not a skip)."""
from __future__ import annotations

import importlib
import importlib.util
import os
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "dmc_guandan.py"


def _need(module: str) -> None:
    if os.environ.get("CHUPAI_REQUIRE_EXTRAS"):
        importlib.import_module(module)
    else:
        pytest.importorskip(module)


def test_dmc_smoke_run(tmp_path):
    _need("torch")
    _need("matplotlib")
    spec = importlib.util.spec_from_file_location("dmc_guandan", EXAMPLE)
    assert spec is not None and spec.loader is not None
    dmc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dmc)
    args = ["--minutes", "5", "--max-steps", "256", "--envs", "4", "--batch", "64", "--eval-deals", "2",
            "--final-deals", "2", "--out", str(tmp_path)]
    result = dmc.main(args)
    assert result["steps"] >= 256 and 0 <= result["winrate_random"] <= 1 and 0 <= result["winrate_greedy"] <= 1
    for name in ("checkpoint.pt", "winrate.png", "log.csv"):
        assert (tmp_path / name).stat().st_size > 0
    again = dmc.main(args[:2] + ["--max-steps", "512"] + args[4:] + ["--resume"])
    assert again["steps"] >= 512
