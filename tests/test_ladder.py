"""The ladder (chupai.evaluation.ladder): duplicate pairing, result shape, JSON, PNG, ratings, CLI."""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from chupai.cli import main
from chupai.evaluation.ladder import bradley_terry, ladder


def test_ladder_shape_and_duplicate_seating() -> None:
    r = ladder("zhengshangyou", ["random", "greedy", "ismcts:15"], deals=3, seed=4, progress=False)
    assert r.bots == ("random", "greedy", "ismcts:15")
    assert [(p.first, p.second) for p in r.pairs] == [
        ("random", "greedy"), ("random", "ismcts:15"), ("greedy", "ismcts:15")]
    for p in r.pairs:
        assert p.games == 6 and 0 <= p.wins + p.draws <= p.games
        lo, hi = p.interval
        assert 0 <= lo <= p.win_rate <= hi <= 1
    m = r.matrix()
    assert np.isnan(np.diag(m)).all()
    assert np.allclose((m + m.T)[~np.eye(3, dtype=bool)], 1.0)
    assert r.ratings[0].elo == 0.0 and r.ratings[0].low == r.ratings[0].high == 0.0
    assert all(x.decisions > 0 and x.cpu_ms >= 0 for x in r.ratings)
    text = str(r)
    assert "random vs greedy" in text and "Bradley-Terry" in text


def test_ladder_same_deals_for_every_pair_and_any_workers() -> None:
    a = ladder("chinese_ten", ["random", "greedy", "mc:10"], deals=3, seed=7, progress=False)
    b = ladder("chinese_ten", ["random", "greedy", "mc:10"], deals=3, seed=7, workers=2, progress=False)
    assert a.pairs == b.pairs
    c = ladder("chinese_ten", ["random", "greedy"], deals=3, seed=7, progress=False)
    assert c.pairs[0] == a.pairs[0]  # the pair's games do not depend on the other bots


def test_ladder_takes_bot_objects_as_well_as_specs() -> None:
    """A bot object plays as its spec does (a fresh copy each deal), named by its repr,
    also in worker processes."""
    from chupai.players.bots import GreedyBot, RandomBot

    by_spec = ladder("gandengyan", ["random", "greedy"], deals=3, seed=5, progress=False)
    by_object = ladder("gandengyan", [RandomBot(), GreedyBot()], deals=3, seed=5, progress=False)
    mixed = ladder("gandengyan", ["random", GreedyBot()], deals=3, seed=5, workers=2, progress=False)
    assert by_object.bots == ("RandomBot()", "GreedyBot()") and mixed.bots == ("random", "GreedyBot()")
    assert [p.wins for p in by_spec.pairs] == [p.wins for p in by_object.pairs] == [p.wins for p in mixed.pairs]
    with pytest.raises(ValueError, match="different names"):
        ladder("gandengyan", [RandomBot(), RandomBot()], 1, 0)
    with pytest.raises(TypeError, match="each of bots must be a bot"):
        ladder("gandengyan", ["random", object()], 1, 0)


def test_bradley_terry() -> None:
    # three bots, a transitive order: the fit reproduces the pairwise log-odds it implies
    p = np.array([1.0, 2.0, 4.0])
    n = np.array([[0, 400, 400], [400, 0, 400], [400, 400, 0]], dtype=float)
    s = n * (p[:, None] / (p[:, None] + p[None, :]))
    theta, se = bradley_terry(s, n, prior=0)
    assert theta == pytest.approx(np.log(p / p[0]), abs=1e-6)
    assert se[0] == 0 and (se[1:] > 0).all() and (se[1:] < 0.2).all()
    # a clean sweep stays finite with the prior
    theta, se = bradley_terry(np.array([[0, 10], [0, 0]]), np.array([[0, 10], [10, 0]]))
    assert math.isfinite(theta[1]) and theta[1] < 0 and math.isfinite(se[1])


def test_ladder_errors() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        ladder("chess", ["random", "greedy"], 1, 0)
    with pytest.raises(ValueError, match="two bots"):
        ladder("guandan", ["random"], 1, 0)
    with pytest.raises(ValueError, match="different"):
        ladder("guandan", ["random", " random"], 1, 0)
    with pytest.raises(ValueError, match="unknown bot"):
        ladder("guandan", ["random", "alpha"], 1, 0)
    with pytest.raises(TypeError, match="bots"):
        ladder("guandan", "random,greedy", 1, 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="deals"):
        ladder("guandan", ["random", "greedy"], 0, 0)
    with pytest.raises(TypeError, match="seed"):
        ladder("guandan", ["random", "greedy"], 1, 1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seed"):
        ladder("guandan", ["random", "greedy"], 1, -1)
    with pytest.raises(ValueError, match="players"):
        ladder("guandan", ["random", "greedy"], 1, 0, players=3)


def test_cli_ladder_writes_text_json_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    js, png = tmp_path / "l.json", tmp_path / "l.png"
    rc = main(["ladder", "zhengshangyou", "--bots", "random,greedy,ismcts:10", "--deals", "2", "--seed", "3",
               "--quiet", "--save-json", str(js), "--png", str(png)])
    assert rc == 0
    out = capsys.readouterr().out
    assert "ladder zhengshangyou: 2 deals" in out and "ismcts:10" in out
    data = json.loads(js.read_text())
    # --json: the same object on stdout, instead of the text
    assert main(["ladder", "zhengshangyou", "--bots", "random,greedy,ismcts:10", "--deals", "2", "--seed", "3",
                 "--json"]) == 0
    captured = capsys.readouterr()

    def untimed(d: dict) -> dict:  # the CPU time per decision is the one figure that varies
        return {**d, "ratings": [{k: v for k, v in r.items() if k != "cpu_ms"} for r in d["ratings"]]}

    assert untimed(json.loads(captured.out)) == untimed(data)
    assert captured.err == "" and len(captured.out.splitlines()) == 1
    assert data["bots"] == ["random", "greedy", "ismcts:10"] and data["deals"] == 2 and data["seed"] == 3
    assert len(data["pairs"]) == 3 and len(data["ratings"]) == 3
    assert {"first", "second", "games", "wins", "draws", "win_rate", "interval"} <= set(data["pairs"][0])
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_ladder_and_arena_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", "guandan", "--bots", "random,alpha", "--deals", "1", "--quiet"]) == 2
    assert "unknown bot" in capsys.readouterr().err
    assert main(["arena", "guandan", "--bots", "ismcts:1ms,greedy:3", "--deals", "1"]) == 2
    assert "no budget" in capsys.readouterr().err


def test_cli_arena_takes_ismcts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "chinese_ten", "--bots", "ismcts:20,random", "--deals", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ISMCTSBot(iterations=20") and "2 deals," in out


def test_the_report_gives_a_cheap_bots_cpu_in_microseconds() -> None:
    """A bot's CPU per decision reads in µs below 1 ms (random and greedy printed 0.00 ms)."""
    from chupai.evaluation.ladder import _cpu_text

    assert _cpu_text(0.004).split() == ["4.0", "µs"]
    assert _cpu_text(12.5).split() == ["12.50", "ms"]
