"""The steps every game's compiled wrappers share through ``chupai.core.records``: seed, policy and
rules checking, seen through each registered game's compiled engine so that the games stay alike."""
import importlib

import numpy as np
import pytest

from chupai.registry import GAMES


def _engine(game):
    """The compiled engine class (``DealEngine``) of a registered game (its package's ``_engine``)."""
    return importlib.import_module(f"{GAMES[game].package}._engine").DealEngine


def _deal(engine):
    return [str(engine.hand(s)) for s in range(len(engine.hand_sizes()))]


@pytest.mark.parametrize("game", list(GAMES))
def test_seed_accepts_python_and_numpy_ints_alike(game):
    deal_engine = _engine(game)
    assert _deal(deal_engine.random(7)) == _deal(deal_engine.random(np.int64(7)))
    assert _deal(deal_engine.random(7)) != _deal(deal_engine.random(8))
    # nothing wraps modulo 2**64 (chupai.core.validate.check_seed's rule, in compiled code too)
    assert _deal(deal_engine.random(2**64 - 1)) != _deal(deal_engine.random(7))
    for bad in (2**64 + 7, -1):
        with pytest.raises(ValueError, match=r"seed must be an int in \[0, 2\*\*64\)"):
            deal_engine.random(bad)


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("seed", ["7", 7.0, True, None])
def test_bad_seed_is_a_type_error_naming_it(game, seed):
    with pytest.raises(TypeError, match=f"seed must be an int, not {seed!r}"):
        _engine(game).random(seed)


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize(("policy", "error"), [("clever", ValueError), (0, TypeError), (["random"], TypeError)])
def test_bad_policy_is_refused_listing_the_policies(game, policy, error):
    engine = _engine(game).random(1)
    with pytest.raises(error, match=r"policy .*\['greedy', 'heuristic', 'random'\]"):
        engine.playout(1, policy)
    with pytest.raises(error, match="policy"):
        engine.policy_choice(policy)


@pytest.mark.parametrize("game", list(GAMES))
def test_rules_of_another_kind_are_a_type_error_naming_the_game(game):
    engine = _engine(game)
    assert _deal(engine.random(1, rules=None)) == _deal(engine.random(1))
    with pytest.raises(TypeError, match=rf"rules must be a {game}\.Rules, not object"):
        engine.random(1, rules=object())
