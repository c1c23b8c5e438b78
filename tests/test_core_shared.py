"""The steps every game's compiled wrappers share through ``chupai.core.records``: seed, policy and
rules checking, seen through each game's public surface so that the games stay alike."""
import numpy as np
import pytest

from chupai.chinese_ten import _engine as ct_engine
from chupai.chinese_ten import _movegen as ct_movegen
from chupai.gandengyan import _engine as gdy_engine
from chupai.gandengyan import _movegen as gdy_movegen
from chupai.guandan import _engine as gd_engine
from chupai.guandan import _movegen as gd_movegen

ENGINES = {
    "guandan": gd_engine.DealCore,
    "gandengyan": gdy_engine.DealCore,
    "chinese_ten": ct_engine.DealCore,
}

LEGAL_PLAYS = {
    "guandan": lambda rules: gd_movegen.legal_plays("3S 3H", "2", rules=rules),
    "gandengyan": lambda rules: gdy_movegen.legal_plays("3S 3H", rules=rules),
    "chinese_ten": lambda rules: ct_movegen.legal_plays("3S", "7H", rules=rules),
}


def _deal(core):
    return [str(core.hand(s)) for s in range(len(core.hand_sizes()))]


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_seed_accepts_python_and_numpy_ints_alike(game):
    deal_core = ENGINES[game]
    assert _deal(deal_core.random(7)) == _deal(deal_core.random(np.int64(7)))
    assert _deal(deal_core.random(7)) != _deal(deal_core.random(8))
    # nothing wraps modulo 2**64 (chupai.core.validate.check_seed's rule, in compiled code too)
    assert _deal(deal_core.random(2**64 - 1)) != _deal(deal_core.random(7))
    for bad in (2**64 + 7, -1):
        with pytest.raises(ValueError, match=r"seed must be an int in \[0, 2\*\*64\)"):
            deal_core.random(bad)


@pytest.mark.parametrize("game", sorted(ENGINES))
@pytest.mark.parametrize("seed", ["7", 7.0, True, None])
def test_bad_seed_is_a_type_error_naming_it(game, seed):
    with pytest.raises(TypeError, match=f"seed must be an int, not {seed!r}"):
        ENGINES[game].random(seed)


@pytest.mark.parametrize("game", sorted(ENGINES))
@pytest.mark.parametrize(("policy", "error"), [("clever", ValueError), (0, TypeError), (["random"], TypeError)])
def test_bad_policy_is_refused_listing_the_policies(game, policy, error):
    core = ENGINES[game].random(1)
    with pytest.raises(error, match=r"policy .*\['greedy', 'heuristic', 'random'\]"):
        core.playout(1, policy)
    with pytest.raises(error, match="policy"):
        core.policy_choice(policy)


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_rules_of_another_kind_are_a_type_error_naming_the_game(game):
    assert len(LEGAL_PLAYS[game](None)) > 0
    with pytest.raises(TypeError, match=rf"rules must be a {game}\.Rules, not object"):
        LEGAL_PLAYS[game](object())
