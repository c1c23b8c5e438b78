"""Chinese Ten through the shared layers: bots, the arena and the ``chupai`` command."""
from __future__ import annotations

import json

import numpy as np
import pytest

import chupai
from chupai.players.bots import GreedyBot, MonteCarloBot, RandomBot
from chupai.chinese_ten import Deal, Match, Rules
from chupai.cli import main
from chupai.evaluation.arena import arena


def test_the_package_is_exported():
    assert chupai.chinese_ten.Deal is Deal


@pytest.mark.parametrize("bot", [RandomBot(), GreedyBot(), MonteCarloBot(40)], ids=repr)
def test_bots_play_a_match(bot):
    rng = np.random.default_rng(2)
    state = Match(seed=3, players=3)
    while not state.is_terminal():
        action = bot.choose(state, rng)
        assert action in state.legal_actions()
        state.apply(action)
    assert sum(state.returns()) == pytest.approx(0)


def test_monte_carlo_bot_beats_random():
    a = arena("chinese_ten", [MonteCarloBot(60), RandomBot()], 20, seed=1, players=2, progress=False)
    assert a.win_rate > 0.5


def test_arena_adds_up_the_bots_seats():
    a = arena("chinese_ten", [GreedyBot(), RandomBot()], 8, seed=3, progress=False)
    b = arena("chinese_ten", [GreedyBot(), RandomBot()], 8, seed=3, progress=False)
    assert (a.returns == b.returns).all() and a.games == 8
    m = arena("chinese_ten", [GreedyBot(), RandomBot()], 2, seed=3, matches=True, players=2,
              rules=Rules.barraco(), progress=False)
    assert m.games == 2
    with pytest.raises(ValueError, match="played by"):
        arena("chinese_ten", [GreedyBot(), RandomBot()], 2, seed=3, players=5, progress=False)
    with pytest.raises(ValueError, match="4 players"):
        arena("guandan", [GreedyBot(), RandomBot()], 2, seed=3, players=2, progress=False)


def test_cli_plays(capsys):
    assert main(["plays", "chinese_ten", "7C AD", "--layout", "QD 3S 3H 6C"]) == 0
    out = capsys.readouterr().out
    assert "7C takes 3S" in out and "7C takes 3H" in out and "AD to the layout" in out
    assert main(["plays", "chinese_ten", "7C", "--layout", "3S 3C", "--turned", "--collapse", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(p["cards"], p["text"]) for p in out["plays"]] == [(["7C"], "7C takes 3S")] and not out["can_pass"]
    assert main(["plays", "chinese_ten", "7C", "--layout", "3S", "--free"]) == 0
    assert "7C to the layout" in capsys.readouterr().out
    assert main(["plays", "chinese_ten", "7C BJ", "--layout", "3S"]) == 2
    assert "'BJ' is a joker" in capsys.readouterr().err
    assert main(["plays", "chinese_ten", "7C"]) == 2
    assert main(["plays", "guandan", "7S"]) == 2


def test_cli_playout_and_arena(capsys):
    assert main(["playout", "chinese_ten", "--deals", "2000", "--players", "3", "--variant", "gob_dum_gob_dang",
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "2000 deals (gob_dum_gob_dang, 3 players)" in out and "seat 2" in out
    assert main(["playout", "chinese_ten", "--deals", "10", "--players", "5", "--quiet"]) == 2
    assert main(["arena", "chinese_ten", "--bots", "greedy,random", "--deals", "4", "--players", "2"]) == 0
    assert "GreedyBot() vs RandomBot(): 4 deals," in capsys.readouterr().out
