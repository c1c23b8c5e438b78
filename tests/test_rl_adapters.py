"""The PettingZoo and OpenSpiel adapters pass those libraries' own conformance tests.

They run where the extras are installed (``pip install -e .[pettingzoo,openspiel]``);
under ``CHUPAI_NO_SKIP=1`` (CI, every extra installed) a skip is a failure.
"""
from __future__ import annotations

import functools
from types import ModuleType

import numpy as np
import pytest

from chupai import rl
from chupai import registry

GAMES = list(registry.GAMES)


def _need(module: str) -> ModuleType:
    return pytest.importorskip(module)


# --- PettingZoo -----------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_and_seed(game):
    _need("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    from chupai.rl.pettingzoo import env

    api_test(env(game), num_cycles=60, verbose_progress=False)
    seed_test(functools.partial(env, game), num_cycles=60)


@pytest.mark.parametrize("game,players", [("zhengshangyou", 3), ("gandengyan", 6), ("chinese_ten", 2)])
def test_pettingzoo_other_player_counts(game, players):
    _need("pettingzoo")
    from pettingzoo.test import api_test

    from chupai.rl.pettingzoo import env

    e = env(game, players)
    api_test(e, num_cycles=40, verbose_progress=False)
    assert len(e.possible_agents) == players


def test_pettingzoo_episode_rewards_are_the_returns():
    _need("pettingzoo")
    from chupai.rl.pettingzoo import env

    e = env("guandan")
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    returns = e.unwrapped.state_.returns()
    assert [totals[f"player_{s}"] for s in range(4)] == returns and sum(returns) == 0 and any(returns)


def test_pettingzoo_bad_input():
    _need("pettingzoo")
    from chupai.rl.pettingzoo import env

    with pytest.raises(ValueError, match="unknown game"):
        env("chess")
    with pytest.raises(ValueError, match="players"):
        env("guandan", 5)
    e = env("guandan")
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    before = rl.observation_tensor(e.unwrapped.state_, 0)
    with pytest.raises(ValueError, match=str(bad)):
        e.step(bad)
    for wrong in ("x", 1.5, True):  # a wrong type names the argument
        with pytest.raises(TypeError, match="action must be an int"):
            e.step(wrong)
    with pytest.raises(ValueError, match="action must be an int >= 0"):
        e.step(-1)
    assert np.array_equal(before, rl.observation_tensor(e.unwrapped.state_, 0))


# --- OpenSpiel ------------------------------------------------------------------------------
@pytest.mark.parametrize("game,params", [("guandan", {}), ("zhengshangyou", {"players": 3}),
                                         ("gandengyan", {}), ("chinese_ten", {"players": 2})])
def test_openspiel_random_sim(game, params):
    pyspiel = _need("pyspiel")
    from chupai.rl.openspiel import register

    register()
    g = pyspiel.load_game(f"python_chupai_{game}", params)
    pyspiel.random_sim_test(g, num_sims=1, serialize=False, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_openspiel_random_sims_every_player_count(game):
    pyspiel = _need("pyspiel")
    from chupai.rl.openspiel import register

    register()
    low, high = registry.game(game).players
    for n in range(low, high + 1):
        params = {} if low == high else {"players": n}
        pyspiel.random_sim_test(pyspiel.load_game(f"python_chupai_{game}", params), num_sims=3,
                                serialize=False, verbose=False)


def test_openspiel_tensors_and_chance():
    pyspiel = _need("pyspiel")
    from chupai.rl.openspiel import register

    register()
    register()  # twice: no effect
    g = pyspiel.load_game("python_chupai_guandan", {"num_deals": 10})
    s = g.new_initial_state()
    assert s.is_chance_node() and len(s.chance_outcomes()) == 10
    s.apply_action(7)
    from chupai.guandan import Deal

    deal = Deal(seed=7)
    assert s.current_player() == deal.current_player
    assert np.array_equal(np.asarray(s.observation_tensor(1), dtype=np.float32), rl.observation_tensor(deal, 1))
    assert sorted(s.legal_actions()) == sorted(set(rl.legal_action_ids(deal).tolist()))
    c = s.clone()
    c.apply_action(c.legal_actions()[0])
    assert s.history() != c.history()
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("python_chupai_zhengshangyou", {"players": 9})



@pytest.mark.parametrize("game", ["guandan", "chinese_ten"])
def test_pettingzoo_whole_match_episodes(game):
    _need("pettingzoo")
    from pettingzoo.test import api_test

    from chupai.rl.pettingzoo import env

    e = env(game, match=True)
    api_test(e, num_cycles=40, verbose_progress=False)
    assert type(e.unwrapped.state_).__name__ == "Match"
