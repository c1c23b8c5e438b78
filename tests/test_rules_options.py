"""The rule options that settle the sources' readings (issue 14): one test per value.

Each option is documented in ``docs/rules/<game>.md`` (the source's words, the decision).
"""
from __future__ import annotations

import pytest

from chupai import guandan, zhengshangyou
from chupai.guandan import ChooseLeader


# --- Guan Dan: tribute_lead ---------------------------------------------------------------
def _returned(deal: guandan.Deal) -> guandan.Deal:
    """Make every pending return (the first option) and return the deal."""
    while deal.phase == "return":
        deal.apply(deal.legal_actions()[0])
    return deal


@pytest.mark.parametrize("lead, leader", [("payer", 3), ("receiver", 0)])
def test_guandan_tribute_lead_only_tribute(lead, leader):
    """After a 1-3 the last finisher (3) pays the first (0): payer or receiver leads."""
    rules = guandan.Rules(tribute_lead=lead)
    d = _returned(guandan.Deal.from_hands(["3S 4S", "5D 6D", "8D 9D", "AS 6S"], previous=(0, 1, 2, 3),
                                          rules=rules))
    assert d.tribute["paid"] == ((3, "AS"),)
    assert d.phase == "play" and d.current_player == leader == d.leader


@pytest.mark.parametrize("lead, leader", [("payer", 3), ("receiver", 0)])
def test_guandan_tribute_lead_higher_tribute(lead, leader):
    """After a 1-2, 3 pays AS (to the first finisher 0) and 1 pays KS (to 2)."""
    rules = guandan.Rules(tribute_lead=lead)
    d = _returned(guandan.Deal.from_hands(["3S 4S", "KS 5D", "8D 9D", "AS 6S"], previous=(0, 2), rules=rules))
    assert d.tribute["received"] == ((3, 0, "AS"), (1, 2, "KS"))
    assert d.phase == "play" and d.current_player == leader


EQUAL = ["3S 4S", "AS 5D", "8D 9D", "AS 6S"]


@pytest.mark.parametrize("lead, chooser, options", [("payer", 1, (1, 3)), ("receiver", 0, (0, 2))])
def test_guandan_equal_tributes_the_leading_side_chooses(lead, chooser, options):
    rules = guandan.Rules(tribute_lead=lead)
    d = _returned(guandan.Deal.from_hands(EQUAL, previous=(0, 2), rules=rules))
    assert d.phase == "lead" and d.current_player == chooser
    assert d.legal_actions() == [ChooseLeader(s) for s in options]
    d.apply(ChooseLeader(options[1]))
    assert d.phase == "play" and d.current_player == options[1]


@pytest.mark.parametrize("lead, first, leader", [("payer", 0, 1), ("payer", 2, 3), ("receiver", 0, 0),
                                                 ("receiver", 2, 2)])
def test_guandan_equal_tributes_seat_order(lead, first, leader):
    rules = guandan.Rules(tribute_lead=lead, equal_tribute_lead="seat_order")
    d = _returned(guandan.Deal.from_hands(EQUAL, previous=(first, (first + 2) % 4), rules=rules))
    assert d.phase == "play" and d.current_player == leader


def test_guandan_tribute_lead_presets_and_bad_values():
    assert guandan.Rules.pagat().tribute_lead == guandan.Rules.competition().tribute_lead == "payer"
    with pytest.raises(ValueError, match="tribute_lead"):
        guandan.Rules(tribute_lead="winner")
    with pytest.raises(TypeError, match="tribute_lead"):
        guandan.Rules(tribute_lead=1)


def test_guandan_tribute_lead_receiver_in_a_match():
    """A match under ``tribute_lead="receiver"``: the second deal's leader is the first
    finisher of the first unless the tribute was resisted (then they lead anyway)."""
    rules = guandan.Rules(tribute_lead="receiver")
    m = guandan.Match(5, rules=rules)
    while m.deals_played == 0:
        m.apply(m.legal_actions()[0])
    while m.deal.phase != "play":
        m.apply(m.legal_actions()[0])
    assert m.deal.leader == m.deals[0]["finishing_order"][0]


# --- Zheng Shangyou: next_dealer ----------------------------------------------------------
def _first_deal_played(match: zhengshangyou.Match) -> None:
    while match.deals_played == 0:
        match.apply(match.legal_actions()[0])


@pytest.mark.parametrize("players", [4, 5, 6])
@pytest.mark.parametrize("option", ["third_out", "second_last_out"])
def test_zhengshangyou_next_dealer(players, option):
    rules = zhengshangyou.Rules(next_dealer=option, target=1000)
    m = zhengshangyou.Match(3, players=players, rules=rules)
    _first_deal_played(m)
    order = m.deals[0]["finishing_order"]
    expected = order[2] if option == "third_out" else order[players - 2]
    assert m.deal.dealer == expected == rules.dealer_after(order)
    if players == 4:
        assert order[2] == order[players - 2]
    else:
        assert order[2] != order[players - 2]
    # an explicit deal after that order: the same dealer, another one refused
    hands = [m.deal.observation(s)["hand"] for s in range(players)]
    d = zhengshangyou.Deal.from_hands(hands, previous=order, rules=rules)
    assert d.dealer == expected
    with pytest.raises(ValueError, match="next_dealer"):
        zhengshangyou.Deal.from_hands(hands, previous=order, dealer=(expected + 1) % players, rules=rules)


@pytest.mark.parametrize("players", [2, 3])
def test_zhengshangyou_third_out_with_few_players(players):
    """With 2 or 3 players nobody but the last runs out third: the (n-1)th finisher deals."""
    order = tuple(range(players))[::-1]
    assert zhengshangyou.Rules().dealer_after(order) == order[players - 2]


def test_zhengshangyou_next_dealer_bad_values():
    assert zhengshangyou.Rules().next_dealer == "third_out"
    with pytest.raises(ValueError, match="next_dealer"):
        zhengshangyou.Rules(next_dealer="first_out")
    with pytest.raises(TypeError, match="next_dealer"):
        zhengshangyou.Rules(next_dealer=3)
