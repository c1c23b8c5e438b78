"""The shared bots and the arena on Gan Deng Yan states.

RandomBot and GreedyBot need only the engine's ``policy_choice``; MonteCarloBot also
uses ``evaluate`` and ``determinize``; the arena knows the game through the registry.
"""
from __future__ import annotations

import numpy as np
import pytest

from chupai.players import bots
from chupai.evaluation.arena import arena
from chupai.gandengyan import Deal, Match, Rules


@pytest.mark.parametrize("bot", [bots.RandomBot(), bots.GreedyBot()])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_simple_bots_play_legal_actions_to_the_end(bot, players):
    rng = np.random.default_rng(players)
    for seed in range(5):
        deal = Deal(seed, players=players, rules=Rules(decks=1 + seed % 2))
        while not deal.is_terminal():
            action = bot.choose(deal, rng)
            assert action in deal.legal_actions()
            deal.apply(action)


def test_monte_carlo_bot_plays_legal_actions():
    bot = bots.MonteCarloBot(30)
    rng = np.random.default_rng(1)
    match = Match(2, players=3, max_deals=2)
    while not match.is_terminal():
        action = bot.choose(match, rng)
        assert action in match.legal_actions()
        match.apply(action)


def test_arena_plays_gandengyan():
    """Each bot plays every other seat (alternating by game); a side scores its seats' total."""
    result = arena("gandengyan", (bots.GreedyBot(), bots.RandomBot()), 60, 1, players=3, progress=False)
    assert result.games == 60 and result.win_rate > 0.5
    same = arena("gandengyan", (bots.GreedyBot(), bots.RandomBot()), 60, 1, players=3, progress=False)
    assert (same.returns == result.returns).all()
