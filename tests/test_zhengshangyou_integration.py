"""The library's bots, arena and command line on Zheng Shangyou states.

The bots work on any state with ``card_play()``; the arena and the CLI know the game
through the registry of games.
"""
from __future__ import annotations

import argparse

import numpy as np
import pytest

from chupai.players import bots
from chupai.evaluation.arena import arena
from chupai.zhengshangyou import GiveCard, Match, PayCard, TakeCard, _cli
from chupai.zhengshangyou.game import exchange_choice


@pytest.mark.parametrize("bot", [bots.RandomBot(), bots.GreedyBot(), bots.MonteCarloBot(40)], ids=repr)
def test_bots_choose_legal_actions_in_every_phase(bot):
    rng = np.random.default_rng(1)
    m = Match(seed=4, players=4)
    phases = set()
    for _ in range(400):
        if m.is_terminal():
            break
        phases.add(m.deal.phase)
        action = bot.choose(m, rng)
        assert action in m.legal_actions()
        m.apply(action)
    assert phases == {"play", "exchange"}


def test_exchange_choice():
    assert exchange_choice([TakeCard("2S"), TakeCard("BJ")]) == TakeCard("BJ")
    assert exchange_choice([GiveCard("AS"), GiveCard("3D"), GiveCard("2C")]) == GiveCard("3D")
    assert exchange_choice([PayCard("AS"), PayCard("AD")]) == PayCard("AS")
    with pytest.raises(ValueError):
        exchange_choice([])


def test_cli_helpers(capsys):
    ns = argparse.Namespace(game="zhengshangyou", hand="5S 6D 7C BJ", previous="4S 5H 6C", previous_type=None,
                            previous_index=None, collapse=False, json=False, no_joker_pair=False)
    assert _cli.cmd_plays(ns) == 0
    out = capsys.readouterr().out
    assert "plays that beat sequence 4-6 mixed" in out and "(or pass)" in out
    ns.json, ns.previous = True, None
    _cli.cmd_plays(ns)
    assert '"protocol": ["SINGLE", "5", ["5S"]]' in capsys.readouterr().out
    with pytest.raises(ValueError, match="previous-type"):
        _cli.previous_play("5S 6D BJ", _cli.Rules(), None)
    assert _cli.previous_play("5S 6D BJ", _cli.Rules(), "sequence:7").rank == "7"
    with pytest.raises(ValueError, match="unknown play type"):
        _cli.previous_play("5S 6D BJ", _cli.Rules(), "bomb")
    ns = argparse.Namespace(game="zhengshangyou", deals=200, seed=1, policy="greedy", threads=1, players=5,
                            quiet=True, json=False, no_joker_pair=False)
    assert _cli.cmd_playout(ns) == 0
    assert "200 deals (5 players)" in capsys.readouterr().out


def test_arena_deals_and_matches():
    r = arena("zhengshangyou", (bots.GreedyBot(), bots.RandomBot()), 20, seed=1, progress=False)
    assert r.games == 20 and r.wins > 10
    r = arena("zhengshangyou", (bots.GreedyBot(), bots.RandomBot()), 2, seed=1, matches=True,
                         players=5, progress=False)
    assert r.games == 2


def test_command_line(capsys):
    from chupai.cli import main

    assert main(["plays", "zhengshangyou", "5S 6D BJ"]) == 0
    assert "sequence 5-7 mixed impure" in capsys.readouterr().out
    assert main(["playout", "zhengshangyou", "--deals", "100", "--quiet", "--players", "3"]) == 0
    assert main(["arena", "zhengshangyou", "--bots", "greedy,random", "--deals", "4"]) == 0
    assert main(["plays", "zhengshangyou", "7S 7S"]) == 2
