"""Gan Deng Yan game flow: ``docs/rules/gandengyan.md``, "Table and deal" and "Play, drawing,
end and scoring", the table-level variants (``min_talon_to_win``, ``joker_lead_out``,
``announce_at``, the scoring options in a deal) and the state-machine surface."""
from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest

from chupai import Cards
from chupai.contract import TERMINAL
from chupai.gandengyan import (
    PASS,
    Deal,
    IllegalActionError,
    Match,
    Play,
    PlayType,
    Rules,
    classify,
)


def act(deal: Deal, cards: str, type_: PlayType | None = None) -> Play:
    """Make the legal play of exactly ``cards`` (of ``type_`` when there are several)."""
    want = Cards(cards, decks=2)
    plays = [a for a in deal.legal_actions() if isinstance(a, Play) and a.cards == want]
    plays = [p for p in plays if type_ is None or p.type == type_]
    assert len(plays) == 1, f"{cards}: {[str(p) for p in plays]} among {deal.legal_actions()}"
    deal.apply(plays[0])
    return plays[0]


def hands_of(deal: Deal) -> list[str]:
    return [str(h) for h in deal.hands]


def all_cards(deal: Deal) -> list[int]:
    counts = [0] * 54
    for h in list(deal.hands) + list(deal.played_cards()):
        for f, n in enumerate(h.counts()):
            counts[f] += n
    for c in deal.talon:
        counts[Cards(c).lo.bit_length() - 1] += 1
    return counts


# --- "Table and deal" ----------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("decks", [1, 2])
def test_the_dealer_takes_six_the_others_five_the_rest_is_the_talon(players, decks):
    deal = Deal(seed=players * 10 + decks, players=players, rules=Rules(decks=decks))
    sizes = deal.hand_sizes()
    assert len(sizes) == players and sizes[deal.dealer] == 6
    assert all(n == 5 for s, n in enumerate(sizes) if s != deal.dealer)
    assert deal.talon_size == 54 * decks - 6 - 5 * (players - 1)
    assert all_cards(deal) == [decks] * 54
    assert deal.current_player == deal.dealer, "the dealer leads"


def test_two_to_six_players_only():
    for bad in (1, 7):
        with pytest.raises(ValueError, match="players"):
            Deal(seed=1, players=bad)
    for bad in ("4", True):
        with pytest.raises(TypeError, match="players"):
            Deal(seed=1, players=bad)
    with pytest.raises(ValueError, match="players"):
        Match(seed=1, players=7)


def test_the_first_dealer_is_random_or_given():
    dealers = {Deal(seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert Deal(seed=5, dealer=2).dealer == 2 and Deal(seed=5, dealer=2).current_player == 2
    with pytest.raises(ValueError, match="dealer"):
        Deal(seed=5, dealer=4)


def test_a_seed_gives_one_deal():
    a, b, c = Deal(seed=42, players=5), Deal(seed=42, players=5), Deal(seed=43, players=5)
    assert hands_of(a) == hands_of(b) != hands_of(c)
    assert a.talon == b.talon and a.dealer == b.dealer


# --- "Play, drawing, end and scoring" ------------------------------------------------------
def scripted() -> Deal:
    return Deal.from_hands(["3S 9S", "4S 8D", "KS QD", "JH TD"], talon="5H 6H 7H 8H 9H", dealer=0)


def test_turn_order_and_the_trick_ends_when_all_others_have_passed():
    deal = scripted()
    act(deal, "3S")
    assert deal.current_player == 1
    act(deal, "4S")
    for seat in (2, 3, 0):
        assert deal.current_player == seat and PASS in deal.legal_actions()
        deal.apply(PASS)
    # seat 1 played last: it draws first, then 2, 3, 0; it leads
    assert deal.current_player == 1 and deal.trick == (None, -1, 0)
    assert hands_of(deal) == ["8H 9S", "5H 8D", "6H QD KS", "7H TD JH"]
    assert deal.talon_size == 1 and deal.tricks == 1


def test_the_short_talon_is_drawn_while_it_lasts():
    deal = scripted()
    act(deal, "3S")
    act(deal, "4S")
    for _ in range(3):
        deal.apply(PASS)
    for cards in ("5H", "6H", "7H", "8H"):
        act(deal, cards)
    for _ in range(3):
        deal.apply(PASS)
    # seat 0 played last and draws the only card; nobody else draws
    assert hands_of(deal) == ["9S 9H", "8D", "QD KS", "TD JH"]
    assert deal.talon_size == 0 and deal.current_player == 0


def test_the_deal_ends_when_a_player_plays_their_last_card():
    deal = scripted()
    act(deal, "3S")
    act(deal, "4S")
    for _ in range(3):
        deal.apply(PASS)
    for cards in ("5H", "6H", "7H", "8H"):
        act(deal, cards)
    for _ in range(3):
        deal.apply(PASS)
    act(deal, "9S 9H")
    assert deal.is_terminal() and deal.winner == 0 and deal.current_player == TERMINAL
    assert deal.legal_actions() == []
    # base scoring: one point per card left, paid to the winner
    assert deal.scores() == (5, -1, -2, -2) and deal.returns() == [5.0, -1.0, -2.0, -2.0]


def test_the_deal_ends_mid_trick_with_cards_in_the_talon():
    deal = Deal.from_hands(["3S", "2S 9D", "5S TD"], talon="6S 7S 8S", dealer=1)
    act(deal, "9D")
    act(deal, "TD")
    deal.apply(PASS)  # seat 0
    act(deal, "2S")  # seat 1 plays its last card in the middle of the trick
    assert deal.is_terminal() and deal.winner == 1 and deal.talon_size == 3
    assert deal.scores() == (-1, 2, -1)


def test_going_out_at_once_with_the_talon_full():
    deal = Deal.from_hands(["3S", "4S 9D", "5S TD"], talon="6S 7S 8S JS", dealer=0)
    act(deal, "3S")
    assert deal.is_terminal() and deal.winner == 0 and deal.talon_size == 4
    assert deal.scores() == (4, -2, -2)


def test_a_lone_joker_is_led_as_the_last_card_and_goes_out():
    deal = Deal.from_hands(["BJ", "4S 5S", "6S 7S"], dealer=0)
    assert [str(a) for a in deal.legal_actions()] == ["single joker: BJ"]
    deal.apply(deal.legal_actions()[0])
    assert deal.winner == 0 and deal.scores() == (4, -2, -2)


def test_joker_lead_out_false_passes_the_lead():
    rules = Rules(joker_lead_out=False)
    deal = Deal.from_hands(["BJ", "4S 5S", "6S 7S"], dealer=0, rules=rules)
    assert deal.legal_actions() == [PASS]
    deal.apply(PASS)
    assert deal.current_player == 1 and deal.trick == (None, -1, 0) and deal.talon_size == 0
    assert deal.known_cards[0] == Cards("BJ"), "passing the lead shows the joker"
    assert PASS not in deal.legal_actions()


def test_a_deal_nobody_can_lead_ends_without_a_winner():
    deal = Deal.from_hands(["BJ", "RJ"], dealer=0, rules=Rules(joker_lead_out=False))
    deal.apply(PASS)
    assert not deal.is_terminal() and deal.current_player == 1
    deal.apply(PASS)
    assert deal.is_terminal() and deal.winner is None and deal.returns() == [0.0, 0.0]


def test_min_talon_to_win_play_continues_and_the_empty_hand_draws():
    rules = Rules(min_talon_to_win=2)
    deal = Deal.from_hands(["3S", "4S 9D", "5S TD"], talon="6S 7S 8S JS", dealer=0, rules=rules)
    act(deal, "3S")
    assert not deal.is_terminal() and deal.hand_sizes()[0] == 0, "4 cards in the talon: no win"
    act(deal, "4S")
    act(deal, "5S")
    assert deal.current_player == 1, "seat 0, without cards, is skipped"
    deal.apply(PASS)
    # the trick ends: seat 2 draws first, then seat 0 (without cards) and seat 1
    assert hands_of(deal) == ["7S", "8S 9D", "6S TD"] and deal.current_player == 2
    act(deal, "6S")
    act(deal, "7S")  # one card left in the talon: seat 0 wins
    assert deal.winner == 0 and deal.scores() == (3, -2, -1)


def test_min_talon_to_win_a_player_left_without_cards_wins_when_the_talon_runs_out():
    rules = Rules(min_talon_to_win=0)
    deal = Deal.from_hands(["3S", "4S 9D", "5S TD"], talon="6S", dealer=0, rules=rules)
    act(deal, "3S")
    act(deal, "4S")
    act(deal, "5S")
    deal.apply(PASS)
    assert deal.is_terminal() and deal.winner == 0
    assert hands_of(deal) == ["", "9D", "6S TD"] and deal.scores() == (3, -1, -2)


def test_pagat_384_payment_in_a_deal():
    """Two three bombs played; the loser with 3-3-3-3-A-joker pays 6 x 4 x 16 = 384."""
    rules = Rules(multipliers=True)
    deal = Deal.from_hands(["5S 5H 5D 7S 7H 7D", "3S 3H 3C 3D AS BJ", "4S"], dealer=0, rules=rules)
    act(deal, "5S 5H 5D")
    deal.apply(PASS)
    deal.apply(PASS)
    act(deal, "7S 7H 7D")
    assert deal.general_multiplier == 4 and len(deal.bombs_played) == 2
    assert deal.scores() == (388, -384, -4)


@pytest.mark.parametrize(
    "options,expected",
    [
        ({}, (7, -6, -1)),
        ({"ace_multiplier": 3}, (19, -18, -1)),
        ({"multipliers": True}, (2 * 6 * 16 + 2, -2 * 6 * 16, -2)),
        ({"multipliers": True, "soft_bombs": True}, (4 * 6 * 16 + 4, -4 * 6 * 16, -4)),
        ({"multipliers": True, "ace_multiplier": 4}, (2 * 6 * 32 + 2, -2 * 6 * 32, -2)),
        ({"positive_only": True}, (7, 0, 0)),
        ({"multipliers": True, "positive_only": True}, (2 * 6 * 16 + 2, 0, 0)),
    ],
)
def test_scoring_variants_in_a_deal(options, expected):
    """One natural three bomb played; the loser holds 3-3-3-3, an ace and a joker."""
    deal = Deal.from_hands(["5S 5H 5D", "3S 3H 3C 3D AS BJ", "4S"], dealer=0, rules=Rules(**options))
    act(deal, "5S 5H 5D")
    assert deal.scores() == expected


def test_announce_at_flags_short_hands():
    deal = Deal.from_hands(["3S 4D", "4S 9D 9H JS", "5S"], talon="8S", dealer=0, rules=Rules(announce_at=2))
    assert deal.observation(1)["announced"] == (0, 2)
    assert Deal.from_hands(["3S 4D", "5S"]).observation(0)["announced"] is None


# --- the winner deals next ---------------------------------------------------------------
def test_the_winner_deals_the_next_deal():
    match = Match(seed=3, players=4, max_deals=6)
    rng = np.random.default_rng(0)
    while not match.is_terminal():
        actions = match.legal_actions()
        match.apply(actions[int(rng.integers(len(actions)))])
    s = match.deals
    assert len(s) == 6 and match.deals_played == 6 and match.current_player == TERMINAL
    for before, after in pairwise(s):
        assert after["dealer"] == before["winner"]
    assert match.scores() == tuple(map(sum, zip(*(d["scores"] for d in s))))
    assert match.returns() == [float(x) for x in match.scores()]
    with pytest.raises(IllegalActionError):
        match.apply(PASS)


def test_a_deal_without_winner_is_dealt_again_by_the_same_dealer():
    rules = Rules(joker_lead_out=False)
    match = Match(seed=4, players=2, max_deals=2, rules=rules, dealer=1)
    assert match.deal.dealer == 1
    match._deal = Deal.from_hands(["BJ", "RJ"], dealer=1, rules=rules)  # a deal nobody can lead
    match.apply(PASS)
    match.apply(PASS)
    assert match.deals[0]["winner"] is None and match.scores() == (0, 0)
    assert match.deal.dealer == 1 and not match.is_terminal()


# --- the state-machine surface -------------------------------------------------------------
def test_illegal_actions_leave_the_deal_unchanged():
    deal = scripted()
    before = str(deal), deal.history
    with pytest.raises(IllegalActionError, match="pass"):
        deal.apply(PASS)
    with pytest.raises(IllegalActionError, match="hold"):
        deal.apply(classify("KS")[0])
    with pytest.raises(IllegalActionError, match="not an action"):
        deal.apply("3S")
    assert (str(deal), deal.history) == before
    act(deal, "3S")
    before = str(deal), deal.history
    with pytest.raises(IllegalActionError, match="may not follow"):
        deal.apply(classify("8D")[0])
    assert (str(deal), deal.history) == before


def test_observation_shows_only_what_the_player_may_know():
    deal = Deal(seed=11, players=4)
    deal.apply(deal.legal_actions()[0])
    obs = deal.observation(2)
    assert obs["hand"] == deal.hand(2) and obs["hand_sizes"] == deal.hand_sizes()
    assert obs["talon_size"] == deal.talon_size and obs["player"] == 2
    hidden = {str(deal.hand(s)) for s in (0, 1, 3)} | {" ".join(deal.talon)}
    shown = repr({k: v for k, v in obs.items() if k not in ("history", "trick", "played", "bombs")})
    assert not any(h and h in shown for h in hidden)
    assert obs["trick"]["last_play"] == deal.history[0][1]
    with pytest.raises(ValueError, match="player"):
        deal.observation(4)


def test_determinize_redeals_the_hidden_cards_and_the_talon():
    deal = Deal(seed=12, players=4)
    rng = np.random.default_rng(1)
    for _ in range(6):
        actions = deal.legal_actions()
        deal.apply(actions[int(rng.integers(len(actions)))])
    me = deal.current_player
    hidden = sorted(str(deal.hand(s)) for s in range(4) if s != me)
    talons = set()
    for k in range(30):
        world = deal.determinize(me, k)
        assert world.hand(me) == deal.hand(me) and world.hand_sizes() == deal.hand_sizes()
        assert world.talon_size == deal.talon_size and world.history == deal.history
        assert world.trick == deal.trick and world.current_player == deal.current_player
        assert all_cards(world) == all_cards(deal)
        talons.add(tuple(world.talon))
        while not world.is_terminal():
            world.apply(world.legal_actions()[0])
    assert len(talons) == 30, "the talon is unseen: it is dealt again too"
    assert sorted(str(deal.hand(s)) for s in range(4) if s != me) == hidden, "the deal itself is unchanged"


def test_determinize_keeps_publicly_known_cards():
    rules = Rules(joker_lead_out=False)
    deal = Deal.from_hands(["BJ", "4S 5S 9D", "6S 7S 8H"], talon="TS JS QS", dealer=0, rules=rules)
    deal.apply(PASS)
    for k in range(10):
        assert deal.determinize(2, k).hand(0) == Cards("BJ")


def test_clone_is_independent():
    deal = Deal(seed=13)
    copy = deal.clone()
    copy.apply(copy.legal_actions()[0])
    assert deal.history == [] and len(copy.history) == 1
    match = Match(seed=13, max_deals=2)
    mc = match.clone()
    mc.apply(mc.legal_actions()[0])
    assert match.history == [] and len(mc.history) == 1
    assert match.determinize(0, 1).deal.hand(0) == match.deal.hand(0)
    assert match.observation(0)["match"]["max_deals"] == 2


def test_card_play_and_bad_arguments():
    deal = Deal(seed=14)
    engine = deal.card_play()
    assert engine.hand_sizes() == deal.hand_sizes() and engine is not deal.card_play()
    with pytest.raises(TypeError, match="rules"):
        Deal(seed=1, rules="base")
    with pytest.raises(TypeError, match="seed"):
        Deal(seed="x")
    with pytest.raises(ValueError, match="deals"):
        Match(seed=1, max_deals=0)
    with pytest.raises(ValueError, match="dealt 2 times"):
        Deal.from_hands(["3S", "3S"])
    with pytest.raises(ValueError, match="empty"):
        Deal.from_hands(["3S", ""])
    assert str(deal).startswith("Gan Deng Yan deal") and "Match" in repr(Match(seed=1, max_deals=1))
