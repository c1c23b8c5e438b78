"""Dou Dizhu's heuristic policy: its plan of the hand and the choices the plan makes.

The plan (``chupai.doudizhu._policies``, "the heuristic: a plan of the hand") splits a
hand into the fewest and strongest combinations: sequences taken out where they save
plays, bombs and the rocket kept whole, each trio carrying the lowest single or pair as
its kicker.
"""
from __future__ import annotations

import pytest

from chupai import Cards
from chupai.actions import PASS
from chupai.doudizhu import Deal, PlayType, Rules
from chupai.doudizhu._policies import _plan

#: the game's values: 3..A are 0..11
V = {r: v for v, r in enumerate("3456789TJQKA")}


def plan(cards: str) -> tuple[int, int, list[tuple[int, tuple[int, ...]]]]:
    return _plan(Cards(cards).lo)


def values(ranks: str) -> tuple[int, ...]:
    return tuple(V[r] for r in ranks)


def test_a_straight_is_taken_out_where_it_saves_plays() -> None:
    burden, units, runs = plan("3S 4H 5D 6C 7S 9S 9H")
    assert runs == [(1, values("34567"))] and units == 2


def test_a_bomb_stays_whole() -> None:
    _, _, runs = plan("3S 3H 3D 3C 4S 5H 6D 7C 8S")
    assert runs == [(1, values("45678"))]
    bomb, _, _ = plan("3S 3H 3D 3C")
    assert bomb < 0  # an asset


def test_an_airplane_carries_its_wings_and_a_trio_its_kicker() -> None:
    _, units, runs = plan("3S 3H 3D 4S 4H 4D 5C 6C")
    assert runs == [(3, values("34"))] and units == 1
    _, units, runs = plan("9S 9H 9D 4C")
    assert runs == [] and units == 1


def test_pair_sequences_and_the_rocket() -> None:
    _, units, runs = plan("5S 5H 6S 6H 7S 7H BJ RJ")
    assert runs == [(2, values("567"))] and units == 1


def landlord_lead(hand: str, kitty: str, farmers: tuple[str, str]) -> object:
    """The heuristic's lead of the landlord (seat 0) holding ``hand`` and the kitty."""
    deal = Deal.from_hands([hand, *farmers], kitty=kitty, first=0, rules=Rules.douzero())
    assert deal.landlord == deal.current_player == 0
    return deal.policy_action("heuristic")


def test_the_lead_leaves_the_lightest_hand() -> None:
    play = landlord_lead("3S 4H 5D 6C 7S", "9S 9H KS", ("JS QS", "JH QH"))
    assert play.type == PlayType.STRAIGHT and play.cards == Cards("3S 4H 5D 6C 7S")


def test_no_single_led_to_an_opponent_about_to_go_out() -> None:
    play = landlord_lead("3S 8H", "8D KS KH", ("AS", "AH"))
    assert play.type == PlayType.PAIR and play.cards == Cards("8H 8D")


def test_a_follow_that_leaves_one_play_takes_the_trick() -> None:
    """A farmer holding a bomb and one card bombs the landlord's single (then leads the
    card), where a bomb's worth would otherwise keep it in the hand."""
    deal = Deal.from_hands(["KS 3S 3H 6D 7C 8S 9H", "5S 5H 5D 5C 4H", "JS QS JH"], kitty="TS TH TD",
                           first=0, rules=Rules.douzero())
    deal.apply(next(a for a in deal.legal_actions() if a.cards == Cards("KS")))
    assert deal.current_player == 1
    play = deal.policy_action("heuristic")
    assert play.type == PlayType.BOMB and play.cards == Cards("5S 5H 5D 5C")
    deal.apply(play)
    deal.apply(deal.policy_action("heuristic"))  # the other farmer passes its partner's trick
    deal.apply(PASS)  # the landlord holds no bomb
    assert deal.current_player == 1 and deal.policy_action("heuristic").cards == Cards("4H")


@pytest.mark.parametrize("seed", range(40))
def test_the_heuristic_plays_whole_deals_legally(seed: int) -> None:
    deal = Deal(seed=seed)
    while not deal.is_terminal():
        action = deal.policy_action("heuristic")
        if action is None:  # the auction: the game's bidding
            from chupai.doudizhu.bidding import decision_choice

            action = decision_choice(deal, deal.legal_actions())
        assert action in deal.legal_actions()
        deal.apply(action)
