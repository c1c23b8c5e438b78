"""Dou Dizhu's compiled card play (chupai.doudizhu._engine.DealEngine) against the rules
page: the deal, the turn and trick rules, the end, and the scoring recomputed
independently (chupai.doudizhu.scoring) from each random game's record; the spec's
spring, anti-spring, bomb and cap cases; the greedy policy; bad input."""
from __future__ import annotations

import pickle

import numpy as np
import pytest

from chupai.cards import Cards
from chupai.doudizhu import PlayType, Rules, classify, payments, stake
from chupai.doudizhu._engine import ROW, DealEngine

DECK = Cards.from_masks((1 << 54) - 1)


def _random_game(engine: DealEngine, rng: np.random.Generator) -> list[tuple[int, object]]:
    """Play ``engine`` to its end with random choices, checking the turn rules at every
    step; the record of (seat, play or None for a pass)."""
    record: list[tuple[int, object]] = []
    passes, last = 0, None
    while not engine.over:
        seat = engine.current
        plays = engine.legal_plays(collapse_suits=True)
        leading = last is None
        assert engine.can_pass() == (not leading)  # passing only when following
        if not leading and (len(plays) == 0 or rng.random() < 0.35):
            engine.pass_turn()
            record.append((seat, None))
            passes += 1
            if passes == 2:  # both others passed: the last player leads
                assert engine.current == last and engine.last_player < 0
                passes, last = 0, None
            else:
                assert engine.current == (seat + 1) % 3
            continue
        play = plays[int(rng.integers(len(plays)))]
        engine.play(play)
        record.append((seat, play))
        passes, last = 0, seat
        if not engine.over:
            assert engine.current == (seat + 1) % 3
    return record


def test_random_games_follow_the_rules_and_score_as_the_scoring_module() -> None:
    rng = np.random.default_rng(4)
    kinds = set()
    for seed in range(300):
        rules = Rules(multiplier_cap=8) if seed % 3 == 0 else Rules()
        base = 1 + seed % 3
        e = DealEngine.random(seed, base=base, rules=rules)
        landlord = e.landlord
        start = [e.hand(s) for s in range(3)]
        # 17 cards each, the kitty's 3 to the landlord, the 54 cards dealt once
        assert [len(h) for h in start] == [20 if s == landlord else 17 for s in range(3)]
        assert len(e.kitty) == 3 and (e.kitty.lo & start[landlord].lo) == e.kitty.lo
        assert start[0].lo | start[1].lo | start[2].lo == DECK.lo and e.current == landlord
        record = _random_game(e, rng)
        played = [0, 0, 0]
        for seat, play in record:
            if play is not None:
                played[seat] |= play.cards.lo
        for s in range(3):  # a hand is what was dealt less what was played
            assert e.hand(s).lo == start[s].lo & ~played[s]
        winner = record[-1][0]
        assert e.winner == winner and len(e.hand(winner)) == 0
        bombs = sum(1 for _, p in record if p is not None and p.type == PlayType.BOMB)
        rockets = sum(1 for _, p in record if p is not None and p.type == PlayType.ROCKET)
        plays = [sum(1 for s, p in record if s == seat and p is not None) for seat in range(3)]
        farmers = [s for s in range(3) if s != landlord]
        spring = winner == landlord and all(plays[f] == 0 for f in farmers)
        anti = winner != landlord and plays[landlord] == 1
        kinds.add((spring, anti, bombs + rockets > 0))
        expected = stake(rules, base=base, bombs=bombs, rockets=rockets, spring=spring, anti_spring=anti)
        assert e.stake == expected and e.doublings == bombs + rockets
        assert e.plays_made == tuple(plays)
        assert tuple(e.returns()) == payments(landlord=landlord, landlord_won=winner == landlord, stake=expected)
    assert (False, False, True) in kinds  # games with a bomb or the rocket (springs: the spec cases below)


def test_the_spec_cases() -> None:
    # spring: the landlord goes out and neither farmer played a card (the base doubled)
    e = DealEngine.from_hands(["3S 4S 5S 6S 7S", "3H", "4H"], landlord=0, base=2)
    e.play(classify("3S 4S 5S 6S 7S")[0])
    assert e.over and e.winner == 0 and e.stake == 4 and tuple(e.returns()) == (8.0, -4.0, -4.0)
    # anti-spring: a farmer goes out and the landlord made only the first lead
    e = DealEngine.from_hands(["3S 4H", "2S", "5D 6D"], landlord=0, base=3)
    e.play(classify("3S")[0])
    e.play(classify("2S")[0])
    assert e.over and e.winner == 1 and e.stake == 6 and tuple(e.returns()) == (-12.0, 6.0, 6.0)
    # a bomb and the rocket each double; the cap bounds the doublings
    hands = ["3S 3H 3C 3D 9S", "BJ RJ 4S 5H", "5S 6S 7D"]
    for rules, expected in [(Rules(), 4 * 4), (Rules(multiplier_cap=2), 4 * 2)]:
        e = DealEngine.from_hands(hands, landlord=0, base=4, rules=rules)
        e.play(classify("3S 3H 3C 3D")[0])
        e.play(classify("BJ RJ")[0])
        e.pass_turn()
        e.pass_turn()
        assert e.current == 1 and e.last_player == -1  # the rocket's player leads
        e.play(classify("4S")[0])
        e.pass_turn()
        e.play(classify("9S")[0])
        assert e.over and e.winner == 0 and e.doublings == 2
        assert e.stake == expected and tuple(e.returns()) == (2.0 * expected, -expected, -expected)
    # the landlord's only play was the first lead, a bomb: an anti-spring on top
    e = DealEngine.from_hands(["3S 3H 3C 3D 9S", "BJ RJ 4S", "5S 6S 7D"], landlord=0, base=4)
    for cards in ("3S 3H 3C 3D", "BJ RJ"):
        e.play(classify(cards)[0])
    e.pass_turn()
    e.pass_turn()
    e.play(classify("4S")[0])
    assert e.over and e.winner == 1 and e.stake == 4 * 8


def test_the_greedy_policy_never_beats_its_partner() -> None:
    # seat 1 (a farmer) led; seat 2, the other farmer, could beat it but lets it run
    e = DealEngine.from_hands(["3S 4S", "5S 6S", "7S 8S"], landlord=0)
    e.play(classify("3S")[0])
    e.play(classify("5S")[0])
    assert e.current == 2 and e.policy_choice("greedy") is None
    # against the landlord it follows with the lowest play that beats
    e = DealEngine.from_hands(["3S 4S", "5S 6S", "7S 8S"], landlord=0)
    e.play(classify("3S")[0])
    assert str(e.policy_choice("greedy")) == "single 5: 5S"


def test_playouts_are_seeded_and_clones_independent() -> None:
    e = DealEngine.random(9)
    assert e.playout(5, "random") == e.playout(5, "random")
    assert e.playout(5, "greedy")[3] == DealEngine.random(9).playout(5, "greedy")[3]
    c = e.clone()
    c.play(c.legal_plays(collapse_suits=True)[0])
    assert c.hand_sizes() != e.hand_sizes()
    back = pickle.loads(pickle.dumps(c))
    assert back.hand_sizes() == c.hand_sizes() and back.current == c.current and back.landlord == c.landlord
    assert [f.name for f in ROW] == ["landlord", "base", "winner", "stake", "redeals", "returns"]


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="hands must be"):
        DealEngine.from_hands(["3S", "4S"])
    with pytest.raises(ValueError, match="3S is dealt 2 times"):
        DealEngine.from_hands(["3S", "3S", "4S"])
    with pytest.raises(ValueError, match="seat 2 holds no cards"):
        DealEngine.from_hands(["3S", "4S", ""])
    with pytest.raises(ValueError, match="landlord"):
        DealEngine.from_hands(["3S", "4S", "5S"], landlord=3)
    with pytest.raises(ValueError, match="base must be a stake"):
        DealEngine.random(1, base=0)
    with pytest.raises(TypeError, match="base must be an int"):
        DealEngine.random(1, base="2")
    with pytest.raises(TypeError, match="kitty"):
        DealEngine.from_hands(["3S", "4S", "5S"], kitty=3)
    e = DealEngine.from_hands(["3S 4S", "5S", "6S"], landlord=0)
    with pytest.raises(ValueError):
        e.pass_turn()  # the leader may not pass
    assert e.current == 0 and e.hand_sizes() == (2, 1, 1)
    # with_hands: a wrong type, a wrong value (sizes, cards of another deal, a repeat)
    for bad in ("3S 4S 5S 6S", Cards("3S"), ["3S 4S", "5S", "6S"], [Cards("3S 4S"), Cards("5S"), 6]):
        with pytest.raises(TypeError, match="hands must be a list or tuple of 3 Cards"):
            e.with_hands(bad)
    for bad, match in [([Cards("3S 4S"), Cards("5S")], "hands must be 3 Cards"),
                       ([Cards("3S"), Cards("4S 5S"), Cards("6S")], "hand 0 must be one-deck Cards of 2"),
                       ([Cards("3S 7S"), Cards("5S"), Cards("6S")], "not the cards of this deal"),
                       ([Cards("3S 4S"), Cards("3S"), Cards("6S")], "repeats a card")]:
        with pytest.raises(ValueError, match=match):
            e.with_hands(bad)
    assert e.with_hands([Cards("3S 5S"), Cards("4S"), Cards("6S")]).hand(0) == Cards("3S 5S")
    assert e.hand(0) == Cards("3S 4S")


def test_batch_playouts() -> None:
    """C playouts of whole deals, each with its auction: the same arrays for any
    threads; each row's stake its auction's base times the doublings (capped), its
    returns the payments of that stake; a void deal's row no landlord, no winner, no
    stake and no payment."""
    from chupai.doudizhu.playouts import playouts

    one, two = playouts(400, seed=7, policy="greedy"), playouts(400, seed=7, policy="greedy", threads=2)
    assert all(np.array_equal(a, b) for a, b in zip(one, two))
    r = playouts(400, seed=3, rules=Rules(multiplier_cap=4))
    for landlord, base, winner, s, redeals, returns in zip(*r):
        assert 1 <= base <= 3 and s in (base, 2 * base, 4 * base) and 0 <= redeals <= 3
        assert tuple(returns) == payments(landlord=int(landlord), landlord_won=winner == landlord, stake=int(s))
    assert set(r.base.tolist()) == {1, 2, 3} and r.redeals.max() >= 1  # random bids: every base, and all passing
    robbed = playouts(400, seed=5, rules=Rules(bidding="rob"))
    assert {1, 2, 4} <= set(robbed.base.tolist()) <= {1, 2, 4, 8}
    void = playouts(400, seed=4, rules=Rules(all_pass="void"))
    v = void.landlord < 0
    assert v.any() and (void.winner[v] == -1).all() and not void.base[v].any() and not void.stake[v].any()
    assert not void.returns[v].any() and not void.redeals.any()
    with pytest.raises(TypeError, match="unexpected keyword argument 'base'"):
        playouts(3, seed=1, base=2)
    with pytest.raises(TypeError, match="unexpected keyword argument 'players'"):
        playouts(3, seed=1, players=4)


@pytest.mark.parametrize("all_pass", ["redeal", "void", "first_bidder"])
@pytest.mark.parametrize("bidding", ["once", "rob", "none"])
def test_playouts_auction_is_the_deals(bidding: str, all_pass: str) -> None:
    """Deal 0 of ``playouts(seed=k)`` holds the cards of ``Deal(seed=k)``: bid by the
    greedy policy, its auction ends as the state machine's does with the bots' bids
    (``chupai.doudizhu.bidding.decision_choice``): the same landlord and base, or void,
    or, where nobody bids and the rules deal again, dealt again.  (The bots bid on most
    hands, so these deals rarely all pass: the auction's every branch is checked against
    the state machine by the compiled tables, which run the engine's auction, in
    tests/test_rl_vector_compiled.py and tests/test_doudizhu_vector.py.)"""
    from chupai.doudizhu import Deal, Phase
    from chupai.doudizhu.bidding import decision_choice
    from chupai.doudizhu.playouts import playouts

    rules = Rules(bidding=bidding, all_pass=all_pass)
    seen = set()
    for k in range(200):
        r = playouts(1, seed=k, policy="greedy", rules=rules)
        deal = Deal(seed=k, rules=rules)
        while deal.phase is Phase.BID and deal.redeals == 0:
            deal.apply(decision_choice(deal, deal.legal_actions()))
        if deal.redeals:
            assert r.redeals[0] >= 1
            seen.add("redeal")
        elif deal.landlord is None:
            assert (r.landlord[0], r.base[0], r.winner[0], r.redeals[0]) == (-1, 0, -1, 0)
            seen.add("void")
        else:
            assert (r.landlord[0], r.base[0], r.redeals[0]) == (deal.landlord, deal.base, 0)
            seen.add(deal.base)
    assert len(seen) >= (1 if bidding == "none" else 2)
