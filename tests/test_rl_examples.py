"""A short smoke run of examples/dmc_guandan.py (needs the extra ``examples``: torch and
matplotlib; under ``CHUPAI_NO_SKIP=1``, as in CI, a skip is a failure)."""
from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "dmc_guandan.py"


def _need(module: str) -> None:
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

    spec = importlib.util.spec_from_file_location("dmc_guandan", EXAMPLE)
    assert spec is not None and spec.loader is not None
    dmc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dmc)
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

