"""Dou Dizhu's compiled VectorEnv tables against the Python path through every auction:
one bid each and call and rob, deals in which nobody bids dealt again (up to the last
redeal, which gives the first bidder the landlord), made void or given to the first
bidder; the bids, base, kitty and stake fields; the built-in opponents' bids."""
from __future__ import annotations

import numpy as np
import pytest

from chupai.doudizhu import Bid, Rules
from chupai.doudizhu.deal import MAX_REDEALS
from chupai.encoding.tensors import observation_layout
from chupai.rl import VectorEnv, action_space
from vector_lockstep import lockstep, random_actions, replays_as_deals, same

LAYOUT = observation_layout("doudizhu", 3)
BID0 = action_space("doudizhu").decision_id(Bid(0))
AUCTIONS = [Rules(), Rules(bidding="rob"), Rules(all_pass="void"), Rules(bidding="rob", all_pass="first_bidder"),
            Rules.openspiel(), Rules.douzero()]


@pytest.mark.parametrize("rules", AUCTIONS, ids=repr)
def test_doudizhu_compiled_equals_python_through_the_auction(rules):
    kw = dict(num_envs=8, seed=5, rules=rules, features="ids")
    py, cc = VectorEnv("doudizhu", backend="python", **kw), VectorEnv("doudizhu", backend="compiled", **kw)
    seen = {"bid": 0, "stake": 0}
    bid_phase = LAYOUT.offset("phase")

    def count(step: int, obs: dict) -> None:
        o = obs["observation"]
        seen["bid"] += int(o[:, bid_phase].sum())
        seen["stake"] += int((o[:, LAYOUT.offset("stake")] > o[:, LAYOUT.offset("base")]).sum())

    assert lockstep(py, cc, 600, np.random.default_rng(6), False, count) > 20
    assert [a.history for a in py.states()] == [b.history for b in cc.states()]
    assert seen["bid"] > 0 if rules.bidding != "none" else seen["bid"] == 0
    assert seen["stake"] > 0  # a bomb or the rocket doubled it


@pytest.mark.parametrize("all_pass", ["redeal", "void", "first_bidder"])
@pytest.mark.parametrize("bidding", ["once", "rob"])
def test_nobody_bidding_on_both_paths(bidding, all_pass):
    """Every seat passes in every auction: dealt again from the match's seeds until the
    last redeal gives the first bidder the deal, void, or the first bidder's at once."""
    rules = Rules(bidding=bidding, all_pass=all_pass)
    kw = dict(num_envs=3, seed=8, rules=rules, features="concrete", action_mode="index")
    py, cc = VectorEnv("doudizhu", backend="python", **kw), VectorEnv("doudizhu", backend="compiled", **kw)
    obs_p, obs_c = py.reset()[0], cc.reset()[0]
    rng = np.random.default_rng(1)
    ended = 0
    for step in range(300):
        assert same(obs_p, obs_c), step
        bidding_now = obs_p["action_ids"][:, 0] == BID0
        a = np.where(bidding_now, 0, random_actions(obs_p, rng, True))  # row 0 of an auction: Bid(0)
        if step == 3 * (MAX_REDEALS + 1) - 1 and all_pass == "redeal":
            assert [s.redeals for s in cc.states()] == [MAX_REDEALS] * 3
        out_p, out_c = py.step(a), cc.step(a)
        assert all(same(x, y) for x, y in zip(out_p[1:], out_c[1:])), step
        if all_pass == "void" and step == 2:
            assert out_c[2].all() and not out_c[1].any()  # void: over at once, nobody paid
        obs_p, obs_c = out_p[0], out_c[0]
        ended += int(out_c[2].sum())
    assert [a.history for a in py.states()] == [b.history for b in cc.states()]
    assert ended >= 2 * 3  # at least two deals a table


@pytest.mark.parametrize("opponents", ["random", "greedy", "heuristic"])
@pytest.mark.parametrize("rules", [Rules(), Rules(bidding="rob")], ids=repr)
def test_doudizhu_opponents_bid_and_play_real_moves(rules, opponents):
    replays_as_deals(VectorEnv("doudizhu", 3, seed=9, rules=rules, opponents=opponents), 60,
                     np.random.default_rng(0), False)


def test_tables_refuse_to_deal_before_the_auction_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables whose driver never gave them the bids' ids raise at reset, rather than
    bidding with ids of other actions."""
    from chupai.doudizhu._vector import DouDizhuCompiledTables

    monkeypatch.setattr(DouDizhuCompiledTables, "setup", lambda self, tables, rules, space: None)
    env = VectorEnv("doudizhu", num_envs=2, seed=1)
    with pytest.raises(RuntimeError, match="auction"):
        env.reset()
