"""C playouts and the deal engine (``docs/rules/gandengyan.md``, "Play, drawing, end, scoring")."""
from __future__ import annotations

import numpy as np
import pytest
from chupai.gandengyan._engine import DealEngine

from chupai.errors import IllegalActionError
from chupai.gandengyan import Deal, Rules
from chupai.gandengyan.playouts import playout, playouts


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_batch_results_are_valid_deals(policy, players):
    r = playouts(300, seed=players, policy=policy, players=players)
    assert r.returns.shape == r.cards.shape == (300, players) and r.winner.shape == r.tricks.shape == (300,)
    rows = np.arange(300)
    assert ((r.winner >= 0) & (r.winner < players)).all()
    assert (r.cards[rows, r.winner] == 0).all(), "the winner went out"
    assert (r.returns.sum(axis=1) == 0).all()
    losers = np.ones((300, players), dtype=bool)
    losers[rows, r.winner] = False
    assert (r.returns[losers] == -r.cards[losers]).all(), "base scoring: a point per card"
    assert (r.tricks >= 0).all()


def test_two_decks_and_every_variant():
    rules = Rules(
        decks=2, triples_are_bombs=False, triple_sequences=True, max_sequence_ranks=5, joker_as_two=False,
        follow_same_rank=True, min_talon_to_win=5, ace_multiplier=2, multipliers=True, soft_bombs=True,
        positive_only=True,
    )
    r = playouts(300, seed=3, players=6, rules=rules)
    rows = np.arange(300)
    assert (r.cards[rows, r.winner] == 0).all()
    losers = np.ones((300, 6), dtype=bool)
    losers[rows, r.winner] = False
    assert (r.returns[losers] == 0).all() and (r.returns[rows, r.winner] >= r.cards.sum(axis=1)).all()


def test_joker_lead_out_false_can_leave_a_deal_without_winner():
    r = playouts(3000, seed=4, players=2, rules=Rules(joker_lead_out=False))
    none = r.winner == -1
    assert (r.returns[none] == 0).all()
    assert (r.cards[~none][np.arange((~none).sum()), r.winner[~none]] == 0).all()


def test_same_seed_same_arrays_whatever_the_threads():
    a = playouts(5000, seed=5, threads=1)
    b = playouts(5000, seed=5, threads=2)
    c = playouts(5000, seed=5, threads=3)
    for x in (b, c):
        assert all((u == v).all() for u, v in zip(a, x))
    d = playouts(5000, seed=6)
    assert not (a.winner == d.winner).all()


def test_seeded_deals_are_reproducible():
    a, b, c = DealEngine.random(42), DealEngine.random(42), DealEngine.random(43)
    hands = lambda engine: [str(engine.hand(s)) for s in range(4)]
    assert hands(a) == hands(b) != hands(c)
    assert a.talon == b.talon and a.dealer == b.dealer
    assert a.playout(7) == b.playout(7)


def test_playout_leaves_the_state_unchanged():
    deal = Deal(seed=3)
    before = str(deal)
    result = playout(deal, seed=1, policy="greedy")
    assert str(deal) == before
    assert result.cards[result.winner] == 0 and sum(result.returns) == 0
    engine = deal.card_play()
    engine.playout(2)
    assert repr(engine) == repr(deal.card_play())


def test_bad_arguments():
    """The game's own checks (the shared ones: the conformance suite)."""
    with pytest.raises(ValueError, match="players"):
        playouts(10, seed=1, players=7)
    with pytest.raises(TypeError, match="rules"):
        playouts(10, seed=1, rules="base")
    assert playouts(0, seed=1).returns.shape == (0, 4)
    deal = Deal(seed=1)
    while not deal.is_terminal():
        deal.apply(deal.legal_actions()[0])
    with pytest.raises(ValueError, match="terminal"):
        playout(deal, seed=1)


def test_evaluate_and_policy_choice():
    engine = DealEngine.random(9)
    cands = engine.legal_plays(collapse_suits=True)
    sums = engine.evaluate(cands, False, 3, seed=1)
    assert sums.shape == (len(cands),)
    assert engine.policy_choice("greedy") in set(engine.legal_plays())
    assert engine.policy_choice("random", 3) in set(engine.legal_plays())
    with pytest.raises(IllegalActionError, match="pass"):
        engine.evaluate(cands, True, 1, seed=1)
    other = DealEngine.random(10)
    with pytest.raises(IllegalActionError, match="candidate"):
        other.evaluate(cands, False, 1, seed=1)
    # following, passing is a candidate too
    engine.play(cands[0])
    follow = engine.legal_plays(collapse_suits=True)
    assert engine.evaluate(follow, True, 2, seed=1).shape == (len(follow) + 1,)


def test_greedy_goes_out_when_it_can():
    engine = DealEngine.from_hands(["5S 6S 7S", "9D 9H", "KS"], current=0)
    play = engine.policy_choice("greedy")
    assert str(play) == "sequence 5-7: 5S 6S 7S"


def test_with_cards_checks_the_cards():
    engine = DealEngine.from_hands(["5S 6S", "9D"], talon="3S 4S", current=0)
    from chupai import Cards

    moved = engine.with_cards([Cards("3S 4S"), Cards("9D")], [16, 12])
    assert str(moved.hand(0)) == "3S 4S" and moved.talon == ["6S", "5S"]
    with pytest.raises(ValueError, match="not the cards"):
        engine.with_cards([Cards("3S 4S"), Cards("9D")], [20, 20])
    with pytest.raises(ValueError, match="must be Cards"):
        engine.with_cards([Cards("3S"), Cards("9D")], [20, 16])
