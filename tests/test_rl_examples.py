"""A short smoke run of examples/dmc_guandan.py (needs the extra ``examples``: torch and
matplotlib; under ``CHUPAI_NO_SKIP=1``, as in CI, a skip is a failure)."""
from __future__ import annotations

import csv
import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "dmc_guandan.py"


def _need(module: str) -> None:
    pytest.importorskip(module)


def _load():
    """The example as a module."""
    spec = importlib.util.spec_from_file_location("dmc_guandan", EXAMPLE)
    assert spec is not None and spec.loader is not None
    dmc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dmc)
    return dmc


def _run_without_torch(args, cwd):
    """The example run as a script where torch cannot be imported."""
    code = ("import runpy, sys; sys.modules['torch'] = None; sys.argv = sys.argv[1:]; "
            "runpy.run_path(sys.argv[0], run_name='__main__')")
    return subprocess.run([sys.executable, "-c", code, str(EXAMPLE), *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


def test_help_needs_no_torch_and_training_names_the_extra(tmp_path):
    """``--help`` works without torch (it says the budget is CPU time); a run without it
    ends in one line naming the extra to install, exit 2, nothing written."""
    shown = _run_without_torch(["--help"], tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "--minutes" in shown.stdout and "CPU minutes" in shown.stdout
    failed = _run_without_torch(["--minutes", "1", "--out", str(tmp_path / "run")], tmp_path)
    assert failed.returncode == 2
    lines = failed.stderr.strip().splitlines()
    assert 'pip install "chupai[examples]"' in lines[-1] and "Traceback" not in failed.stderr
    assert not (tmp_path / "run").exists()


def test_a_stopped_run_keeps_its_log(tmp_path, monkeypatch):
    """log.csv is written at every evaluation: a run stopped before its end keeps the
    evaluations made so far."""
    _need("torch")
    _need("matplotlib")
    dmc = _load()
    real = dmc.evaluate
    made = []

    def evaluate_then_stop(*args, **kwargs):
        if len(made) == len(dmc.OPPONENTS):  # the second evaluation
            raise KeyboardInterrupt
        made.append(real(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(dmc, "evaluate", evaluate_then_stop)
    with pytest.raises(KeyboardInterrupt):
        dmc.main(["--minutes", "5", "--envs", "4", "--batch", "64", "--eval-every", "0", "--eval-deals", "2",
                  "--out", str(tmp_path)])
    with open(tmp_path / "log.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 1 and [float(rows[0][f"winrate_{n}"]) for n in dmc.OPPONENTS] == made


def test_dmc_smoke_run(tmp_path):
    _need("torch")
    _need("matplotlib")
    dmc = _load()
    args = ["--minutes", "5", "--max-steps", "256", "--envs", "4", "--batch", "64", "--eval-deals", "2",
            "--final-deals", "2", "--out", str(tmp_path)]
    result = dmc.main(args)
    assert result["steps"] >= 256 and all(0 <= result[f"winrate_{n}"] <= 1 for n in dmc.OPPONENTS)
    for name in ("checkpoint.pt", "winrate.png", "log.csv"):
        assert (tmp_path / name).stat().st_size > 0
    again = dmc.main(args[:2] + ["--max-steps", "512"] + args[4:] + ["--resume"])
    assert again["steps"] >= 512


def test_the_exported_network_plays_as_a_network_bot(tmp_path):
    """``--export`` writes the trained network in NetworkBot's ``rows`` layout: the bot
    it makes scores each legal action as the example's own network does."""
    _need("torch")
    _need("matplotlib")
    _need("onnx")
    _need("onnxruntime")
    import numpy as np
    import torch

    from chupai import arena, guandan
    from chupai.players.bots import GreedyBot
    from chupai.players.network import NetworkBot
    from chupai.rl import legal_action_features, observation_tensor

    dmc = _load()
    model = dmc.QNet(dmc.observation_size("guandan"), 16)
    path = tmp_path / "model.onnx"
    dmc.export(model, path)
    bot = NetworkBot(path, layout="rows")
    deal = guandan.Deal(seed=2)
    obs = observation_tensor(deal, deal.current_player)
    cards = legal_action_features(deal)[1]
    with torch.no_grad():
        expected = model(dmc._scale(obs[None]), torch.from_numpy(cards[None].astype(np.float32))).numpy()[0]
    np.testing.assert_allclose(bot.scores(deal), expected, rtol=1e-4, atol=1e-5)
    assert arena("guandan", (bot, GreedyBot()), deals=2, seed=1, progress=False).games == 2

