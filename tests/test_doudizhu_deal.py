"""Dou Dizhu's deal (chupai.doudizhu.Deal): the auction, the kitty, the card play and the
scoring through the state-machine surface every game shares (legal_actions, apply,
history, observation, clone, pickle, determinize), on random deals and the rules page's
cases; bad actions leave the state unchanged."""
from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from chupai.actions import PASS
from chupai.cards import Cards
from chupai.contract import OBSERVATION_KEYS, TERMINAL
from chupai.doudizhu import Bid, Deal, Phase, Rules, classify, payments
from chupai.doudizhu.deal import MAX_REDEALS
from chupai.errors import IllegalActionError

RULES = [Rules(), Rules(bidding="rob"), Rules(bidding="none"), Rules(all_pass="void"),
         Rules(all_pass="first_bidder", bidding="rob"), Rules.openspiel()]


def _play_randomly(deal: Deal, rng: np.random.Generator, steps: int = 10_000) -> None:
    for _ in range(steps):
        if deal.is_terminal():
            return
        actions = deal.legal_actions()
        deal.apply(actions[int(rng.integers(len(actions)))])


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_random_deals_run_the_auction_then_the_card_play(rules: Rules) -> None:
    rng = np.random.default_rng(3)
    ended = {"played": 0, "void": 0}
    for seed in range(40):
        deal = Deal(seed, rules=rules, first=seed % 3)
        dealt = deal.hands
        assert deal.phase == (Phase.PLAY if rules.bidding == "none" else Phase.BID)
        if deal.phase == Phase.BID:
            assert deal.hand_sizes() == (17, 17, 17) and len(deal.kitty) == 3
            assert Cards.from_masks(sum(h.lo for h in dealt) | deal.kitty.lo).lo == (1 << 54) - 1
            assert deal.observation((deal.first + 1) % 3)["kitty"] is None  # hidden in the auction
        while deal.phase == Phase.BID:
            deal.apply(deal.legal_actions()[int(rng.integers(len(deal.legal_actions())))])
        if deal.phase == Phase.OVER:  # nobody bid, and the rules leave no landlord
            ended["void"] += 1
            assert deal.returns() == [0.0, 0.0, 0.0] and deal.current_player == TERMINAL
            assert len(deal.legal_actions()) == 0 and deal.landlord is None
            continue
        landlord = deal.landlord
        assert landlord is not None and deal.current_player == landlord
        assert deal.hand(landlord).lo & deal.kitty.lo == deal.kitty.lo  # the landlord took the kitty
        assert deal.hand_sizes()[landlord] == 20
        assert all(deal.observation(p)["kitty"] == deal.kitty for p in range(3))  # shown to all
        _play_randomly(deal, rng)
        assert deal.is_terminal() and deal.phase == Phase.OVER
        ended["played"] += 1
        winner = deal.winner
        assert winner is not None and len(deal.hand(winner)) == 0
        assert deal.scores() == payments(landlord=landlord, landlord_won=winner == landlord, stake=deal.stake)
        assert sum(deal.returns()) == 0
        phases = [e.phase for e in deal.history]
        assert phases == sorted(phases, key=[Phase.BID, Phase.PLAY].index)  # the auction, then the play
    assert ended["played"] > 20
    if rules.all_pass != "void":  # dealt again, or the first bidder's: no deal ends in its auction
        assert ended["void"] == 0


def test_an_auction_in_which_nobody_bids() -> None:
    # redeal (the default): the deal is dealt again, the same first bidder, and recorded
    deal = Deal(5, first=1)
    before = deal.hands
    for _ in range(3):
        deal.apply(Bid(0))
    assert deal.phase == Phase.BID and deal.redeals == 1 and deal.current_player == 1
    assert deal.hands != before and deal.bids == ()
    assert deal.history[-1].action is None and deal.history[-1].automatic
    # ... at most MAX_REDEALS times: then nobody bidding makes the first bidder the landlord
    for k in range(2, MAX_REDEALS + 1):
        for _ in range(3):
            deal.apply(Bid(0))
        assert deal.phase == Phase.BID and deal.redeals == k
    hands = deal.hands
    for _ in range(3):
        deal.apply(Bid(0))
    assert deal.phase == Phase.PLAY and (deal.landlord, deal.base, deal.redeals) == (1, 1, MAX_REDEALS)
    assert deal.hand(0) == hands[0] and len(deal.hand(1)) == 20
    assert sum(e.action is None for e in deal.history) == MAX_REDEALS
    # void: the deal ends with every return 0 (OpenSpiel's)
    deal = Deal(5, rules=Rules.openspiel())
    for _ in range(3):
        deal.apply(Bid(0))
    assert deal.is_terminal() and deal.returns() == [0.0] * 3 and deal.landlord is None
    # first_bidder: the first bidder takes the landlord at 1
    deal = Deal(5, rules=Rules(all_pass="first_bidder"), first=2)
    for _ in range(3):
        deal.apply(Bid(0))
    assert deal.phase == Phase.PLAY and (deal.landlord, deal.base) == (2, 1)


def test_the_spec_cases_through_the_deal() -> None:
    # a bid of 3 ends the auction; the landlord takes the kitty and leads; a spring
    deal = Deal.from_hands(["3S 4S 5S 6S 7S", "3H 4H", "3C 4C"], kitty="8S 9S TS", first=0)
    deal.apply(Bid(3))
    assert (deal.landlord, deal.base, deal.phase) == (0, 3, Phase.PLAY)
    assert deal.hand(0) == Cards("3S 4S 5S 6S 7S 8S 9S TS")
    deal.apply(classify("3S 4S 5S 6S 7S 8S 9S TS")[0])
    assert deal.is_terminal() and deal.winner == 0 and deal.stake == 6 and deal.scores() == (12, -6, -6)
    # the farmers win: the landlord pays each the stake (here an anti-spring: the
    # landlord made only the first lead)
    deal = Deal.from_hands(["2D", "5H 3S", "4D"], kitty="6S 7S 8S", first=1)
    for bid in (Bid(1), Bid(0), Bid(0)):
        deal.apply(bid)
    assert deal.landlord == 1 and deal.current_player == 1
    deal.apply(classify("5H")[0])
    assert deal.current_player == 2  # the turn goes on from seat to seat
    deal.apply(PASS)
    deal.apply(classify("2D")[0])
    assert deal.is_terminal() and deal.winner == 0 and deal.stake == 2 and deal.scores() == (2, -4, 2)
    # two passes give the lead back to the last player to play
    deal = Deal.from_hands(["3S 4S", "5H", "6D"], kitty="7S 8S 9S", first=0)
    for bid in (Bid(1), Bid(0), Bid(0)):
        deal.apply(bid)
    deal.apply(classify("9S")[0])
    deal.apply(PASS)
    deal.apply(PASS)
    assert deal.current_player == 0 and deal.trick == (None, -1, 0)


def test_copies_pickles_and_worlds() -> None:
    rng = np.random.default_rng(8)
    for rules in (Rules(), Rules(bidding="rob")):
        for steps in (1, 4, 30):
            deal = Deal(11, rules=rules)
            _play_randomly(deal, rng, steps)
            clone, deep, back = deal.clone(), copy.deepcopy(deal), pickle.loads(pickle.dumps(deal))
            for other in (clone, deep, back):
                assert other.history == deal.history and other.hands == deal.hands
                assert list(other.legal_actions()) == list(deal.legal_actions())
            if not clone.is_terminal():
                clone.apply(clone.legal_actions()[0])
                assert clone.history != deal.history and deep.history == deal.history
            p = (deal.current_player if not deal.is_terminal() else 0) % 3
            seen = deal.observation(p)
            varied = False
            for seed in range(5):
                world = deal.determinize(p, seed)
                assert world.observation(p) == seen and world.hand_sizes() == deal.hand_sizes()
                assert world.history == deal.history
                varied |= world.hands != deal.hands
                if world.phase == Phase.PLAY:
                    landlord = world.landlord
                    assert landlord is not None
                    kept = deal.kitty.lo & deal.hand(landlord).lo
                    assert world.hand(landlord).lo & kept == kept  # the kitty was shown
                    _play_randomly(world, rng)  # a working state of its own
            assert varied or deal.is_terminal()


def test_bad_actions_leave_the_deal_unchanged() -> None:
    deal = Deal(2)
    before = (deal.history, deal.hands, deal.current_player)
    with pytest.raises(IllegalActionError, match="not legal in the auction"):
        deal.apply(PASS)
    with pytest.raises(IllegalActionError, match="not legal in the auction"):
        deal.apply(classify("3S")[0])
    with pytest.raises(TypeError, match="not an action of chupai.doudizhu"):
        deal.apply("bid 1")
    deal.apply(Bid(2))
    with pytest.raises(IllegalActionError, match=r"Bid\(1\) is not legal now"):
        deal.apply(Bid(1))
    assert deal.history[:len(before[0])] == before[0] and len(deal.history) == 1
    deal.apply_index(len(deal.legal_actions()) - 1)  # Bid(3): the auction ends
    assert deal.phase == Phase.PLAY
    with pytest.raises(IllegalActionError, match="not legal in the card play"):
        deal.apply(Bid(0))
    with pytest.raises(IllegalActionError):
        deal.apply(PASS)  # the landlord leads
    keys = deal.observation(0).keys()
    assert OBSERVATION_KEYS <= keys
    with pytest.raises(ValueError, match="first"):
        Deal(1, first=3)
    with pytest.raises(TypeError, match="hands must be a sequence of 3 hands"):
        Deal.from_hands("3S 4S", kitty="5S")
    with pytest.raises(TypeError, match="kitty must be Cards or a card string"):
        Deal.from_hands(["3S", "4S", "5S"], kitty=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"hands\[1\] must be Cards"):
        Deal.from_hands(["3S", 4, "5S"], kitty="6S")  # type: ignore[list-item]
    with pytest.raises(ValueError, match="kitty repeats a card"):
        Deal.from_hands(["3S", "4S", "5S"], kitty="3S")


def test_worlds_are_uniform() -> None:
    """The auction's world deals the other hands and the kitty uniformly: three hidden
    cards (one in each other hand, one in the kitty) take each of their 6 places
    equally often (chi-square with 5 degrees of freedom)."""
    deal = Deal.from_hands(["3S", "4S", "5S"], kitty="6S", first=0)
    counts: dict[tuple[str, str, str], int] = {}
    draws = 6000
    for seed in range(draws):
        w = deal.determinize(0, seed)
        key = (str(w.hand(1)), str(w.hand(2)), str(w.kitty))
        counts[key] = counts.get(key, 0) + 1
    assert len(counts) == 6
    expected = draws / 6
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 20.5  # p ~ 0.001 for 5 degrees of freedom
    # in the card play the kitty stays with the landlord; the rest of the hidden cards move
    deal = Deal.from_hands(["3S", "4S 5S", "6S"], kitty="7S", first=0)
    deal.apply(Bid(3))
    places: dict[tuple[str, str], int] = {}
    for seed in range(2000):
        w = deal.determinize(1, seed)
        assert "7S" in str(w.hand(0))
        key = (str(w.hand(0)), str(w.hand(2)))
        places[key] = places.get(key, 0) + 1
    assert sorted(places) == [("3S 7S", "6S"), ("6S 7S", "3S")]
    assert abs(places[("3S 7S", "6S")] - 1000) < 5 * (2000 * 0.25) ** 0.5


def test_a_match_of_deals() -> None:
    from chupai.doudizhu import Match

    rng = np.random.default_rng(1)
    m = Match(4, max_deals=6, first=1)
    firsts = []
    while not m.is_terminal():
        if m.deal.phase == Phase.BID and not m.deal.bids:
            firsts.append(m.deal.first)
        actions = m.legal_actions()
        m.apply(actions[int(rng.integers(len(actions)))])
    assert m.deals_played == 6 and len(m.deals) == 6
    assert [d["first"] for d in m.deals] == [(1 + k) % 3 for k in range(6)]
    assert m.scores() == tuple(sum(d["scores"][s] for d in m.deals) for s in range(3))
    assert sum(m.returns()) == 0 and m.current_player == TERMINAL
    back = pickle.loads(pickle.dumps(m))
    assert back.scores() == m.scores() and back.history == m.history
    assert "match" in m.observation(0) and m.observation(0)["match"]["deals_played"] == 6
