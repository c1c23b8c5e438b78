"""The batch backends: the same results on every backend, a dead worker retried, bad input.

The Ray tests run on a real local Ray instance (two CPUs) started once for the module
and shut down at its end; CI installs the ``ray`` extra, so they run there.
"""
from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import chupai
from chupai.registry import GAMES
from chupai.engine.backends import chunk_bounds, default_chunk_size, run_batch
from chupai.players.bots import GreedyBot, RandomBot

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray() -> Any:
    # the workers import this module's helpers by name, as a user's would their own
    env = {"env_vars": {"PYTHONPATH": str(Path(__file__).parent)}}
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, runtime_env=env)
    yield ray
    ray.shutdown()


def square(x: int) -> int:
    return x * x


class DieOnce:
    """Kills its worker process (SIGKILL, no cleanup) the first time it meets ``victim``;
    a marker file remembers across processes that it already did."""

    def __init__(self, marker: Path, victim: int) -> None:
        self.marker = marker
        self.victim = victim

    def __call__(self, x: int) -> int:
        if x == self.victim and not self.marker.exists():
            self.marker.write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)
        return x * x


class Boom:
    def __call__(self, x: int) -> int:
        raise KeyError(f"item {x}")


def test_chunks_cover_every_item_once() -> None:
    for n in (0, 1, 7, 64):
        for size in (1, 3, 64):
            bounds = chunk_bounds(n, size)
            assert [i for a, b in bounds for i in range(a, b)] == list(range(n))
    assert default_chunk_size(100, 2) == 7
    assert default_chunk_size(3, 8) == 1


def test_local_results_do_not_depend_on_workers_or_chunks() -> None:
    items = list(range(23))
    expected = [x * x for x in items]
    assert run_batch(square, items) == expected
    assert run_batch(square, items, workers=2, chunk_size=5) == expected
    assert run_batch(square, []) == []


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="unknown backend 'dask'"):
        run_batch(square, [1], backend="dask")
    with pytest.raises(TypeError, match="workers must be an int"):
        run_batch(square, [1], workers=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="workers must be an int >= 1"):
        run_batch(square, [1], workers=0)
    with pytest.raises(ValueError, match="chunk_size must be an int >= 1"):
        run_batch(square, [1], chunk_size=0)
    with pytest.raises(ValueError, match="address is for backend='ray' only"):
        run_batch(square, [1], address="auto")
    with pytest.raises(TypeError, match="address must be a str"):
        run_batch(square, [1], backend="ray", address=5)  # type: ignore[arg-type]


def test_ray_gives_the_local_results(local_ray: Any) -> None:
    items = list(range(41))
    expected = [x * x for x in items]
    for workers, chunk in ((1, None), (2, 3), (2, 100)):
        assert run_batch(square, items, backend="ray", workers=workers, chunk_size=chunk) == expected


def test_ray_raises_the_function_error_as_itself(local_ray: Any) -> None:
    with pytest.raises(KeyError, match="item 0"):
        run_batch(Boom(), [0, 1], backend="ray")


def test_ray_worker_killed_mid_run_loses_and_duplicates_nothing(local_ray: Any, tmp_path: Path) -> None:
    marker = tmp_path / "killed"
    items = list(range(30))
    out = run_batch(DieOnce(marker, victim=17), items, backend="ray", workers=2, chunk_size=4)
    assert marker.exists()  # the worker really died ...
    assert int(marker.read_text()) != os.getpid()
    assert out == [x * x for x in items]  # ... and its chunk was run again, counted once


@pytest.mark.parametrize("game", list(GAMES))
def test_arena_is_the_same_on_every_backend(local_ray: Any, game: str) -> None:
    bots = (GreedyBot(), RandomBot())
    runs = [
        chupai.arena(game, bots, deals=12, seed=5, progress=False),
        chupai.arena(game, bots, deals=12, seed=5, workers=2, chunk_size=5, progress=False),
        chupai.arena(game, bots, deals=12, seed=5, backend="ray", workers=2, progress=False),
        chupai.arena(game, bots, deals=12, seed=5, backend="ray", workers=1, chunk_size=12,
                     progress=False),
    ]
    for r in runs[1:]:
        assert r.wins == runs[0].wins
        np.testing.assert_array_equal(r.returns, runs[0].returns)


def test_cli_arena_on_ray(local_ray: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from chupai.cli import main

    args = ["arena", "gandengyan", "--bots", "greedy,random", "--deals", "6", "--seed", "2"]
    assert main(args) == 0
    local = capsys.readouterr().out
    assert main(args + ["--backend", "ray", "--workers", "2", "--chunk-size", "2"]) == 0
    assert capsys.readouterr().out == local
    assert "6 deals" in local


def test_ladder_is_the_same_on_every_backend(local_ray: Any) -> None:
    from chupai.evaluation.ladder import ladder

    runs = [ladder("gandengyan", ["random", "greedy", "mc:20"], 4, 3, progress=False),
            ladder("gandengyan", ["random", "greedy", "mc:20"], 4, 3, workers=2, backend="ray", progress=False)]
    assert runs[0].pairs == runs[1].pairs
    assert [r.elo for r in runs[0].ratings] == [r.elo for r in runs[1].ratings]


@pytest.mark.parametrize("game", list(GAMES))
def test_batch_playouts_are_the_same_on_every_backend(local_ray: Any, game: str) -> None:
    import importlib

    playouts = importlib.import_module(f"chupai.{game}").playouts
    one = playouts(2500, seed=9)
    for kwargs in ({"workers": 2}, {"backend": "ray", "workers": 2}, {"threads": 2}):
        other = playouts(2500, seed=9, **kwargs)
        for name in one._fields:
            np.testing.assert_array_equal(getattr(one, name), getattr(other, name), err_msg=f"{name} {kwargs}")
