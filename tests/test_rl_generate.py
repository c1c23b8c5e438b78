"""Self-play data generation: shards, manifest, resuming, the same data on every backend."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from chupai import gandengyan, guandan
from chupai.cli import main
from chupai.rl import legal_actions_mask, observation_tensor
from chupai.rl.generate import generate, load

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray() -> Any:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def _same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> None:
    assert a.keys() == b.keys()
    for key in a:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def test_the_data_is_what_was_played(tmp_path: Path) -> None:
    manifest = generate("guandan", "greedy", episodes=3, out_dir=tmp_path, seed=4, shard_size=2, progress=False)
    data = load(tmp_path)
    steps = sum(s["steps"] for s in manifest["shards"])
    assert [s["episodes"] for s in manifest["shards"]] == [2, 1]
    assert data["obs"].shape == (steps, manifest["observation_size"])
    assert data["mask"].shape == (steps, manifest["num_distinct_actions"])
    assert data["mask"][np.arange(steps), data["action"]].all()  # every action taken was legal
    assert data["returns"].shape == (3, 4)
    np.testing.assert_array_equal(data["target"], data["returns"][data["episode"], data["player"]])
    # the first decision of episode 0, rebuilt from its seed
    deal_seed, _ = np.random.SeedSequence([4, 0]).generate_state(2, dtype=np.uint64)
    deal = guandan.Deal(int(deal_seed))
    np.testing.assert_array_equal(data["obs"][0], observation_tensor(deal, deal.current_player))
    np.testing.assert_array_equal(data["mask"][0], legal_actions_mask(deal))
    assert data["mask"].dtype == np.int8  # as VectorEnv's and legal_actions_mask's
    assert data["player"][0] == deal.current_player
    on_disk = json.loads((tmp_path / "manifest.json").read_text())
    assert on_disk == manifest and on_disk["game"] == "guandan" and on_disk["policy"] == "greedy"


def test_a_restarted_run_redoes_only_the_missing_shards(tmp_path: Path) -> None:
    generate("gandengyan", "random", episodes=6, out_dir=tmp_path, seed=2, shard_size=2, progress=False)
    first = load(tmp_path)
    kept = {p.name: p.stat().st_mtime_ns for p in tmp_path.glob("shard-*.npz")}
    (tmp_path / "shard-00001.npz").unlink()  # as if the run had stopped before this shard
    with pytest.raises(ValueError, match="4 of 6 episodes"):
        load(tmp_path)
    generate("gandengyan", "random", episodes=6, out_dir=tmp_path, seed=2, shard_size=2, progress=False)
    again = {p.name: p.stat().st_mtime_ns for p in tmp_path.glob("shard-*.npz")}
    assert again["shard-00000.npz"] == kept["shard-00000.npz"]
    assert again["shard-00002.npz"] == kept["shard-00002.npz"]
    _same(load(tmp_path), first)


def test_another_run_into_the_same_directory_is_refused(tmp_path: Path) -> None:
    generate("gandengyan", "random", episodes=2, out_dir=tmp_path, seed=2, shard_size=2, progress=False)
    with pytest.raises(ValueError, match="other seed"):
        generate("gandengyan", "random", episodes=2, out_dir=tmp_path, seed=3, shard_size=2, progress=False)


def test_bad_arguments(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown game"):
        generate("chess", "random", 1, tmp_path, 0)
    with pytest.raises(TypeError, match="episodes"):
        generate("guandan", "random", 1.5, tmp_path, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="policy"):
        generate("guandan", 5, 1, tmp_path, 0)
    with pytest.raises(ValueError, match="unknown bot"):
        generate("guandan", "alphago", 1, tmp_path, 0)
    with pytest.raises(TypeError, match="rules"):
        generate("guandan", "random", 1, tmp_path, 0, rules="pagat")
    with pytest.raises(ValueError, match="no manifest"):
        load(tmp_path / "nothing")


def test_same_data_on_every_backend(tmp_path: Path, local_ray: Any) -> None:
    args = ("zhengshangyou", "greedy", 5)
    generate(*args, tmp_path / "one", 7, shard_size=2, progress=False)
    generate(*args, tmp_path / "two", 7, shard_size=2, workers=2, progress=False)
    generate(*args, tmp_path / "ray", 7, shard_size=2, workers=2, backend="ray", progress=False)
    one = load(tmp_path / "one")
    _same(one, load(tmp_path / "two"))
    _same(one, load(tmp_path / "ray"))


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "data"
    assert main(["generate", "gandengyan", "--policy", "greedy", "--episodes", "3", "--out", str(out),
                 "--seed", "1", "--shard-size", "2", "--quiet"]) == 0
    assert "3 gandengyan deals" in capsys.readouterr().out
    assert len(load(out)["returns"]) == 3
    assert gandengyan.Deal(1).players == 4


def test_load_refuses_a_shard_outside_the_run_directory(tmp_path: Path) -> None:
    run, elsewhere = tmp_path / "run", tmp_path / "elsewhere"
    generate("gandengyan", "random", episodes=2, out_dir=run, seed=2, shard_size=2, progress=False)
    elsewhere.mkdir()
    manifest = json.loads((run / "manifest.json").read_text())
    shard = manifest["shards"][0]["file"]
    (elsewhere / shard).write_bytes((run / shard).read_bytes())
    for path in (str((elsewhere / shard).resolve()), f"../elsewhere/{shard}"):
        manifest["shards"][0]["file"] = path
        (run / "manifest.json").write_text(json.dumps(manifest))
        with pytest.raises(ValueError, match="not a file of the run directory"):
            load(run)
