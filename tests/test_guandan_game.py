"""The Guan Dan state machines ``Deal`` and ``Match`` on scripted deals.

Each test names the section of ``docs/rules/guandan.md`` it checks: "Table", "A deal",
"Levels and the end of the game", "Tribute", "Presets".
"""
from __future__ import annotations


import numpy as np
import pytest

from chupai import Cards
from chupai.contract import TERMINAL, Event
from chupai.errors import IllegalActionError
from chupai.guandan import (
    PASS,
    ChooseLeader,
    Deal,
    Match,
    PayTribute,
    Phase,
    Play,
    PlayType,
    ReturnCard,
    Rules,
    TakeTribute,
    legal_plays,
)
from chupai.guandan.game import settle

PAGAT = Rules()
COMPETITION = Rules.competition()
LV = "23456789TJQKA"


# --- helpers --------------------------------------------------------------------------------
def find(state, cards, type_=None):
    """The one legal play of ``state`` made of ``cards`` (of ``type_`` if given)."""
    target = Cards(cards)
    plays = [a for a in state.legal_actions()
             if isinstance(a, Play) and a.cards == target and (type_ is None or a.type == type_)]
    assert len(plays) == 1, f"{cards}: {plays}"
    return plays[0]


def run(state, *moves):
    """Apply moves: 'P' passes, anything else is the cards of a single legal play."""
    for m in moves:
        state.apply(PASS if m == "P" else find(state, m))


def drive(state, want, limit=300_000):
    """Apply to ``state`` (Deal or Match) legal actions that finish the current deal with
    ``want(order, result, first_out_with_aces)`` true (a depth-first search over clones)."""
    start = state.deals_played if isinstance(state, Match) else None
    nodes = 0

    def outcome(s):
        if isinstance(s, Match):
            if s.deals_played == start:
                return None
            d = s.deals[-1]
            return d["finishing_order"], d["result"], d["first_out_with_aces"]
        if not s.is_terminal():
            return None
        return s.finishing_order, s.result, s.first_out_with_aces

    def dfs(s, path):
        nonlocal nodes
        nodes += 1
        assert nodes < limit, "search too large"
        out = outcome(s)
        if out is not None:
            return path if want(*out) else None
        for a in s.legal_actions():
            c = s.clone()
            c.apply(a)
            r = dfs(c, path + [a])
            if r is not None:
                return r
        return None

    path = dfs(state, [])
    assert path is not None, "no way to reach the wanted outcome"
    for a in path:
        state.apply(a)


def team_wins(team, result, aces=None):
    def want(order, res, first_aces):
        return order[0] % 2 == team and res == result and (aces is None or first_aces == aces)
    return want


def snapshot(state):
    return (str(state), [state.observation(p) for p in range(4)], state.history,
            state.legal_actions(), state.current_player, state.returns())


# --- actions ---------------------------------------------------------------------------------
def test_action_objects_are_readable_and_canonical():
    assert repr(PASS) == "PASS"
    assert repr(PayTribute("as")) == "PayTribute('AS')"
    assert PayTribute("AS") == PayTribute("as")
    assert repr(TakeTribute("10d")) == "TakeTribute('TD')"
    assert repr(ReturnCard("3S")) == "ReturnCard('3S')"
    assert repr(ChooseLeader(3)) == "ChooseLeader(3)"
    import copy
    import pickle
    assert copy.deepcopy(PASS) is PASS and pickle.loads(pickle.dumps(PASS)) is PASS
    with pytest.raises(ValueError):
        PayTribute("XX")
    with pytest.raises(ValueError):
        ChooseLeader(4)
    with pytest.raises(TypeError):
        ChooseLeader("1")
    with pytest.raises(TypeError):
        PayTribute(51)



# --- "Table", "A deal" --------------------------------------------------------------------------
def test_a_deal_first_deal_random_27_each_and_seeded():
    """docs/rules/guandan.md "Players, cards, levels" / "A deal": 27 cards each, level 2, the holder of a drawn card leads."""
    d = Deal(seed=5)
    assert d.hand_sizes() == (27, 27, 27, 27)
    assert d.level == "2" and d.levels == ("2", "2") and d.declarers is None
    assert d.phase == "play" and d.previous is None
    assert sum((d.hand(s) for s in range(4)), Cards()) == Cards(" ".join(
        f"{r}{s}" for r in LV for s in "SHCD") * 1 + " BJ RJ") + Cards(" ".join(
        f"{r}{s}" for r in LV for s in "SHCD") + " BJ RJ")
    from chupai.guandan._engine import DealEngine
    assert d.current_player == DealEngine.random(5).current
    assert str(Deal(seed=5)) == str(d)
    assert Deal().hand_sizes() == (27, 27, 27, 27)  # seed None draws one
    leaders = {Deal(seed=s).current_player for s in range(40)}
    assert leaders == {0, 1, 2, 3}


def test_a_deal_from_hands_validation():
    """docs/rules/guandan.md "A deal": explicit deals; bad input raises ValueError."""
    hands = ["3S", "4S", "5S", "6S"]
    with pytest.raises(ValueError, match="leader"):
        Deal.from_hands(hands)
    with pytest.raises(ValueError, match="declarers"):
        Deal.from_hands(hands, leader=0, levels=("2", "5"))
    with pytest.raises(ValueError):
        Deal.from_hands(["3S 3S", "3S", "5S", "6S"], leader=0)  # three 3S
    with pytest.raises(ValueError):
        Deal.from_hands(hands[:3], leader=0)
    with pytest.raises(ValueError):
        Deal.from_hands(["3S", "", "5S", "6S"], leader=0)
    with pytest.raises(ValueError):
        Deal.from_hands(hands, leader=0, previous=(0, 1))  # 1-3 or 1-4? 3rd needed
    with pytest.raises(ValueError):
        Deal.from_hands(hands, leader=0, previous=(0, 0, 1, 2))
    with pytest.raises(ValueError, match="declarers"):
        Deal.from_hands(["3S 4S"] * 2 + ["5S 6S"] * 2, previous=(0, 2), declarers=1)
    d = Deal.from_hands(hands, leader=2, levels=("5", "9"), declarers=1)
    assert d.level == "9" and d.current_player == 2


def test_a_deal_trick_ends_when_all_others_pass_and_last_player_leads():
    """docs/rules/guandan.md "A deal": a trick ends when every other player with cards has passed."""
    d = Deal.from_hands(["3S 9S", "5S 6S", "4S 8S", "7S TS"], leader=0)
    run(d, "3S", "5S", "P", "P")
    assert d.trick[1] == 1 and d.trick[2] == 2
    run(d, "P")
    assert d.current_player == 1 and d.trick == (None, -1, 0)
    assert PASS not in d.legal_actions()
    assert d.observation(0)["trick"]["plays"] == ()


def test_a_deal_partner_leads_when_last_player_is_out_and_out_players_are_skipped():
    """docs/rules/guandan.md "A deal": the partner leads after the last player went out; players with no
    cards are skipped."""
    d = Deal.from_hands(["3S 9S", "5S", "4S 8S", "7S TS JS"], leader=0)
    run(d, "3S", "5S")
    assert d.finishing_order == (1,)
    assert d.current_player == 2  # seat 1 is out
    run(d, "P", "P", "P")
    assert d.current_player == 3  # seat 1's partner leads
    run(d, "7S", "9S")
    assert d.finishing_order == (1, 0)
    assert d.current_player == 2  # seat 1 skipped
    run(d, "P", "TS")
    assert d.current_player == 2  # seats 0 and 1 skipped
    run(d, "P")  # the trick ends: only seat 2 was left to pass
    assert d.current_player == 3 and d.trick == (None, -1, 0)


def test_a_deal_1_2_ends_the_deal_at_once():
    """docs/rules/guandan.md "A deal": both players of one team out ends the deal; 1-2."""
    for rules, gain in ((PAGAT, 4.0), (COMPETITION, 3.0)):
        d = Deal.from_hands(["3S", "9S 9D", "4S", "TS TD"], leader=0, rules=rules)
        run(d, "3S", "P", "4S")
        assert d.is_terminal() and d.phase == "over" and d.current_player == TERMINAL
        assert d.finishing_order == (0, 2, -1, -1) and d.result == "1-2" and d.winners == 0
        assert d.returns() == [gain, -gain, gain, -gain]
        assert d.legal_actions() == []
        with pytest.raises(IllegalActionError):
            d.apply(PASS)


def test_a_deal_1_3():
    """docs/rules/guandan.md "A deal": 1-3 when the first finisher's partner is 3rd."""
    d = Deal.from_hands(["3S", "4S", "5S 6S", "9S TS"], leader=0)
    assert d.returns() == [0.0] * 4
    run(d, "3S", "4S", "5S", "P", "6S")
    assert d.finishing_order == (0, 1, 2, 3) and d.result == "1-3"
    assert d.returns() == [2.0, -2.0, 2.0, -2.0]


def test_a_deal_1_4():
    """docs/rules/guandan.md "A deal": 1-4 when the first finisher's partner is last."""
    d = Deal.from_hands(["3S", "4S", "9S TS", "5S"], leader=0)
    run(d, "3S", "4S", "P", "5S")
    assert d.finishing_order == (0, 1, 3, 2) and d.result == "1-4" and d.winners == 0
    assert d.returns() == [1.0, -1.0, 1.0, -1.0]


def test_presets_promotion_in_deal_returns():
    """docs/rules/guandan.md "Presets": promotion (4, 2, 1) pagat, (3, 2, 1) competition."""
    for rules, gains in ((PAGAT, (4, 2, 1)), (COMPETITION, (3, 2, 1))):
        got = []
        for hands, moves in (
            (["3S", "9S 9D", "4S", "TS TD"], ("3S", "P", "4S")),
            (["3S", "4S", "5S 6S", "9S TS"], ("3S", "4S", "5S", "P", "6S")),
            (["3S", "4S", "9S TS", "5S"], ("3S", "4S", "P", "5S")),
        ):
            d = Deal.from_hands(hands, leader=0, rules=rules)
            run(d, *moves)
            got.append(d.returns()[0])
        assert tuple(got) == gains


# --- actions during play -------------------------------------------------------------------------
def test_play_actions_protocol_and_pass_forms():
    """docs/rules/guandan.md "The competition protocol": protocol plays and the protocol pass are accepted."""
    d = Deal.from_hands(["3S 3D 9S", "5S 5D", "4S 8S", "7S TS"], leader=0)
    d.apply(["Pair", "3", ["S3", "D3"]])
    assert d.history[-1] == Event(0, find_in(legal_plays("3S 3D 9S", "2"), "3S 3D"), Phase.PLAY)
    d.apply(["PASS", "PASS", "PASS"])
    d.apply(("PASS", "PASS", "PASS"))
    assert [e.action for e in d.history[1:]] == [PASS, PASS]
    assert d.current_player == 3
    d.apply(["PASS", "PASS", "PASS"])
    assert d.current_player == 0  # the trick ended: seat 0 leads
    before = snapshot(d)
    for bad in (["PASS", "PASS", "PASS"], ["Single", "5", ["S5"]], ["Pair", "9", ["S9"]], ["Bogus", "3", []]):
        with pytest.raises(IllegalActionError):
            d.apply(bad)
        assert snapshot(d) == before
    d.apply(["Single", "9", ["S9"]])
    assert d.history[-1] == Event(0, find_in(legal_plays("9S", "2"), "9S"), Phase.PLAY)


def find_in(plays, cards):
    target = Cards(cards)
    (p,) = [p for p in plays if p.cards == target]
    return p


def test_play_from_module_generator_accepted_and_rules_enforced():
    """docs/rules/guandan.md "Following" + straight_flush_as_straight: a Play from
    legal_plays() is accepted; a plain straight of one physical suit is refused under the
    competition rules."""
    hand = "3S 4S 5S 6S 7S 9D"
    d = Deal.from_hands([hand, "8S 9S", "TS JS", "QS KS"], leader=0)
    straight = next(p for p in legal_plays(hand, "2") if p.type == PlayType.STRAIGHT)
    d.apply(straight)
    assert d.trick[0] == straight
    c = Deal.from_hands([hand, "8S 9S", "TS JS", "QS KS"], leader=0, rules=COMPETITION)
    before = snapshot(c)
    with pytest.raises(IllegalActionError, match="straight"):
        c.apply(straight)
    assert snapshot(c) == before
    sf = next(p for p in legal_plays(hand, "2") if p.type == PlayType.STRAIGHT_FLUSH)
    c.apply(sf)


def test_trick_last_play_keeps_wild_declaration():
    """docs/rules/guandan.md "Wild cards": the trick shows the play as made, with its declaration."""
    d = Deal.from_hands(["2H 5S 9D", "6S 6D", "4S 8S", "7S TS"], leader=0)
    pair = find(d, "2H 5S")
    d.apply(pair)
    assert d.observation(1)["trick"]["last_play"].wilds == ("5H",)
    assert d.trick == (pair, 0, 0)


def test_illegal_play_actions_leave_state_unchanged():
    d = Deal.from_hands(["3S 9S", "5S 6S", "4S 8S", "7S TS"], leader=0)
    before = snapshot(d)
    for bad in (PASS, None, 42, "3S", object(), [1, 2, 3], ["Single", "5", ["S5"]],
                PayTribute("3S"), ReturnCard("3S"), ChooseLeader(1), TakeTribute("3S"),
                np.zeros(3), find_in(legal_plays("3S 9S", "5"), "3S")):
        with pytest.raises(IllegalActionError):
            d.apply(bad)
        assert snapshot(d) == before
    run(d, "9S")
    before = snapshot(d)
    for bad in (find_in(legal_plays("5S 6S", "2"), "5S"), find_in(legal_plays("KS", "2"), "KS")):
        with pytest.raises(IllegalActionError):
            d.apply(bad)
        assert snapshot(d) == before


# --- "Tribute" ---------------------------------------------------------------------------------
def test_tribute_after_1_2_both_losers_pay_highest_non_wild_and_receivers_return():
    """docs/rules/guandan.md "Tribute": after a 1-2 both losers pay; the first finisher takes the higher,
    the second the other; each returns a card; the payer of the higher tribute leads."""
    d = Deal.from_hands(["3S 4S", "2H KS 5D", "3D 4D", "AS 6D 7D"], previous=(0, 2))
    assert d.declarers == 0 and d.level == "2"
    assert d.history == [Event(1, PayTribute("KS"), Phase.TRIBUTE, True), Event(3, PayTribute("AS"), Phase.TRIBUTE, True)]
    assert d.history[0].automatic
    assert d.phase == "return" and d.current_player == 0
    assert d.legal_actions() == [ReturnCard("3S"), ReturnCard("4S")]  # not AS
    assert d.tribute["received"] == ((3, 0, "AS"), (1, 2, "KS"))
    d.apply(ReturnCard("3S"))
    assert d.current_player == 2 and d.legal_actions() == [ReturnCard("3D"), ReturnCard("4D")]
    d.apply(ReturnCard("4D"))
    assert d.phase == "play" and d.current_player == 3 and d.leader == 3
    assert [str(d.hand(s)) for s in range(4)] == ["4S AS", "2H 4D 5D", "3D KS", "3S 6D 7D"]
    assert [str(k) for k in d.known_cards] == ["AS", "4D", "KS", "3S"]
    t = d.observation(1)["tribute"]
    assert t["paid"] == ((1, "KS"), (3, "AS")) and t["returned"] == ((0, 3, "3S"), (2, 1, "4D"))
    assert not t["resisted"] and t["leader"] == 3
    # a known card is no longer known once played
    run(d, "3S", "P", "4D")
    assert str(d.known_cards[3]) == "" and str(d.known_cards[1]) == "" and str(d.known_cards[0]) == "AS"


def test_tribute_after_1_3_and_1_4_the_last_finisher_pays_the_first():
    """docs/rules/guandan.md "Tribute": after 1-3 or 1-4 the last finisher pays the first, and leads."""
    d = Deal.from_hands(["3S 4S", "5D 6D", "7D 8D", "9S QS"], previous=(0, 1, 2, 3))
    assert d.history == [Event(3, PayTribute("QS"), Phase.TRIBUTE, True)]
    assert d.current_player == 0 and d.phase == "return"
    d.apply(ReturnCard("4S"))
    assert d.phase == "play" and d.current_player == 3
    assert str(d.hand(3)) == "4S 9S" and str(d.hand(0)) == "3S QS"
    # 1-4: the last finisher is the first finisher's partner
    d = Deal.from_hands(["3S 4S", "5D 6D", "7D 8D", "9S QS"], previous=(0, 1, 3, 2))
    assert d.history == [Event(2, PayTribute("8D"), Phase.TRIBUTE, True)]
    d.apply(ReturnCard("3S"))
    assert d.current_player == 2 and d.leader == 2
    # the 4th place may be left off after a 1-3 / 1-4
    assert Deal.from_hands(["3S 4S", "5D 6D", "7D 8D", "9S QS"], previous=(0, 1, 3)).previous == (0, 1, 3, 2)


def test_tribute_highest_card_in_level_order_not_wild():
    """docs/rules/guandan.md "Tribute": the highest card in level order that is not a wild card."""
    # level 7: 7S (level card) is above A; 7H is wild and skipped
    d = Deal.from_hands(["3S 4S", "5D 6D", "8D 9D", "7H 7S AS"], levels=("7", "7"), previous=(0, 1, 2, 3))
    assert d.history == [Event(3, PayTribute("7S"), Phase.TRIBUTE, True)]
    # level 2: two wild 2H are skipped
    d = Deal.from_hands(["3S 4S", "5D 6D", "8D 9D", "2H 2H KS"], previous=(0, 1, 2, 3))
    assert d.history == [Event(3, PayTribute("KS"), Phase.TRIBUTE, True)]
    # jokers are highest
    d = Deal.from_hands(["3S 4S", "5D 6D", "8D 9D", "2S BJ AS"], previous=(0, 1, 2, 3))
    assert d.history == [Event(3, PayTribute("BJ"), Phase.TRIBUTE, True)]
    # the level played is the declarers' level
    d = Deal.from_hands(["3S 4S", "5D 6D", "8D 9D", "9S KS AS"], levels=("9", "4"), previous=(0, 1, 2, 3))
    assert d.level == "9" and d.history == [Event(3, PayTribute("9S"), Phase.TRIBUTE, True)]
    with pytest.raises(ValueError, match="wild"):
        Deal.from_hands(["3S 4S", "5D 6D", "8D 9D", "2H 2H"], previous=(0, 1, 2, 3))


def test_tribute_payer_chooses_among_suits_of_the_highest_rank():
    """docs/rules/guandan.md "Tribute" (decision): several faces of the highest rank -> the payer chooses."""
    d = Deal.from_hands(["3S 4S", "5D 6D", "8D 9D", "AS AD 6S"], previous=(0, 1, 2, 3))
    assert d.phase == "tribute" and d.current_player == 3
    assert d.legal_actions() == [PayTribute("AS"), PayTribute("AD")]
    before = snapshot(d)
    for bad in (PayTribute("6S"), PayTribute("AH"), ReturnCard("AS"), PASS, ChooseLeader(3)):
        with pytest.raises(IllegalActionError):
            d.apply(bad)
        assert snapshot(d) == before
    d.apply(PayTribute("AD"))
    assert d.history == [Event(3, PayTribute("AD"), Phase.TRIBUTE)] and not d.history[0].automatic
    assert str(d.hand(3)) == "6S AS" and d.phase == "return"
    # two copies of one face: no decision
    d = Deal.from_hands(["3S 4S", "5D 6D", "8D 9D", "AS AS 6S"], previous=(0, 1, 2, 3))
    assert d.history == [Event(3, PayTribute("AS"), Phase.TRIBUTE, True)]
    # after a 1-2 the payers decide in turn order after the first finisher
    d = Deal.from_hands(["3S 4S", "KS KD 6S", "8D 9D", "AS AD 6D"], previous=(2, 0))
    assert d.current_player == 3
    d.apply(PayTribute("AS"))
    assert d.current_player == 1
    d.apply(PayTribute("KD"))
    assert d.tribute["received"] == ((3, 2, "AS"), (1, 0, "KD"))


@pytest.mark.parametrize("rules", [PAGAT, COMPETITION], ids=["pagat", "competition"])
def test_tribute_resisting(rules):
    """docs/rules/guandan.md "Tribute": resisting when the paying side holds both red jokers."""
    # after a 1-2: one red joker in each loser's hand
    d = Deal.from_hands(["3S 4S", "RJ 5D", "8D 9D", "RJ 6S"], previous=(0, 2), rules=rules)
    assert d.phase == "play" and d.history == [] and d.current_player == 0
    assert d.tribute["resisted"] and [str(k) for k in d.known_cards] == ["", "RJ", "", "RJ"]
    # after a 1-2: both in one loser's hand
    d = Deal.from_hands(["3S 4S", "RJ RJ", "8D 9D", "AS 6S"], previous=(2, 0), rules=rules)
    assert d.tribute["resisted"] and d.current_player == 2
    # after a 1-3 the payer alone must hold both
    d = Deal.from_hands(["3S 4S", "RJ 5D", "8D 9D", "RJ 6S"], previous=(0, 1, 2, 3), rules=rules)
    assert not d.tribute["resisted"] and d.history == [Event(3, PayTribute("RJ"), Phase.TRIBUTE, True)]
    d = Deal.from_hands(["3S 4S", "5D 6D", "8D 9D", "RJ RJ 6S"], previous=(0, 1, 2, 3), rules=rules)
    assert d.tribute["resisted"] and d.current_player == 0 and str(d.known_cards[3]) == "RJ RJ"
    # the partner of the first finisher after a 1-4
    d = Deal.from_hands(["3S 4S", "5D 6D", "RJ RJ 9D", "7S 6S"], previous=(0, 1, 3, 2), rules=rules)
    assert d.tribute["resisted"] and d.current_player == 0


def test_tribute_equal_winners_choose():
    """docs/rules/guandan.md "Tribute": equal tributes, ``equal_tribute="winners_choose"``."""
    d = Deal.from_hands(["3S 4S", "AS 5D", "8D 9D", "AD 6S"], previous=(0, 2, 3, 1))
    assert d.phase == "tribute" and d.current_player == 0
    assert d.legal_actions() == [TakeTribute("AS"), TakeTribute("AD")]
    before = snapshot(d)
    for bad in (TakeTribute("AH"), PayTribute("AS"), ReturnCard("3S"), PASS):
        with pytest.raises(IllegalActionError):
            d.apply(bad)
        assert snapshot(d) == before
    d.apply(TakeTribute("AD"))
    assert d.tribute["received"] == ((3, 0, "AD"), (1, 2, "AS"))
    assert d.current_player == 0 and d.legal_actions() == [ReturnCard("3S"), ReturnCard("4S")]
    d.apply(ReturnCard("4S"))
    d.apply(ReturnCard("8D"))
    assert str(d.hand(3)) == "4S 6S" and str(d.hand(1)) == "5D 8D"
    # equal lead: the payer who finished 3rd (seat 3) chooses
    assert d.phase == "lead" and d.current_player == 3
    assert d.legal_actions() == [ChooseLeader(1), ChooseLeader(3)]
    d.apply(ChooseLeader(1))
    assert d.phase == "play" and d.current_player == 1 and d.leader == 1
    assert [e.action for e in d.history] == [
        PayTribute("AS"), PayTribute("AD"), TakeTribute("AD"), ReturnCard("4S"), ReturnCard("8D"), ChooseLeader(1)]
    # the same face twice: no decision, the first finisher receives from the next seat
    d = Deal.from_hands(["3S 4S", "AS 5D", "8D 9D", "AS 6S"], previous=(2, 0))
    assert d.phase == "return" and d.tribute["received"] == ((3, 2, "AS"), (1, 0, "AS"))


def test_tribute_equal_seat_order():
    """docs/rules/guandan.md "Tribute": equal tributes, ``equal_tribute="seat_order"`` (competition)."""
    rules = Rules(equal_tribute="seat_order")
    d = Deal.from_hands(["3S 4S", "AS 5D", "8D 9D", "AD 6S"], previous=(0, 2), rules=rules)
    assert d.phase == "return" and d.tribute["received"] == ((1, 0, "AS"), (3, 2, "AD"))
    d = Deal.from_hands(["3S 4S", "AS 5D", "8D 9D", "AD 6S"], previous=(2, 0), rules=COMPETITION)
    assert d.tribute["received"] == ((3, 2, "AD"), (1, 0, "AS"))


def test_tribute_lead_after_equal_tributes():
    """docs/rules/guandan.md "Tribute": lead after equal tributes, both ``equal_tribute_lead`` options."""
    hands = ["3S 4S", "AS 5D", "8D 9D", "AS 6S"]
    d = Deal.from_hands(hands, previous=(0, 2))  # 3rd place unknown: the lower seat chooses
    d.apply(ReturnCard("3S"))
    d.apply(ReturnCard("8D"))
    assert d.phase == "lead" and d.current_player == 1
    d.apply(ChooseLeader(3))
    assert d.current_player == 3
    d = Deal.from_hands(hands, previous=(0, 2), rules=Rules(equal_tribute_lead="seat_order"))
    d.apply(ReturnCard("3S"))
    d.apply(ReturnCard("8D"))
    assert d.phase == "play" and d.current_player == 1
    d = Deal.from_hands(hands, previous=(2, 0), rules=Rules(equal_tribute_lead="seat_order"))
    d.apply(ReturnCard("8D"))
    d.apply(ReturnCard("3S"))
    assert d.phase == "play" and d.current_player == 3
    # leader choice out of phase / wrong seat
    d = Deal.from_hands(hands, previous=(0, 2))
    with pytest.raises(IllegalActionError):
        d.apply(ChooseLeader(1))
    d.apply(ReturnCard("3S"))
    d.apply(ReturnCard("8D"))
    with pytest.raises(IllegalActionError):
        d.apply(ChooseLeader(0))


def test_tribute_lead_after_unequal_tributes():
    """docs/rules/guandan.md "Tribute": the payer of the higher tribute leads."""
    d = Deal.from_hands(["3S 4S", "AS 5D", "8D 9D", "KD 6S"], previous=(0, 2))
    d.apply(ReturnCard("3S"))
    d.apply(ReturnCard("8D"))
    assert d.current_player == 1 and d.leader == 1


def test_tribute_return_may_not_be_the_face_received():
    """docs/rules/guandan.md "Tribute": the returned card may not be the card just received (same face)."""
    d = Deal.from_hands(["KS 3S", "5D 6D", "8D 9D", "KS 6S"], previous=(0, 1, 2, 3))
    assert d.history == [Event(3, PayTribute("KS"), Phase.TRIBUTE, True)]
    assert d.legal_actions() == [ReturnCard("3S")]
    before = snapshot(d)
    for bad in (ReturnCard("KS"), ReturnCard("9D"), PayTribute("KS"), TakeTribute("KS"), PASS):
        with pytest.raises(IllegalActionError):
            d.apply(bad)
        assert snapshot(d) == before


@pytest.mark.parametrize("rules", [Rules(return_max_rank="T"), COMPETITION], ids=["option", "competition"])
def test_tribute_return_max_rank(rules):
    """docs/rules/guandan.md "Tribute": ``return_max_rank``: at most that rank in level order when held."""
    assert rules.return_max_rank == "T"
    d = Deal.from_hands(["JS 9S 3S", "5D 6D", "8D 9D", "AS 6S"], previous=(0, 1, 2, 3), rules=rules)
    assert d.legal_actions() == [ReturnCard("3S"), ReturnCard("9S")]
    with pytest.raises(IllegalActionError):
        d.apply(ReturnCard("JS"))
    # nothing at or below T: any card but the received face
    d = Deal.from_hands(["JS QD", "5D 6D", "8D 9D", "AS 6S"], previous=(0, 1, 2, 3), rules=rules)
    assert d.legal_actions() == [ReturnCard("JS"), ReturnCard("QD")]
    # level order: at level 5 a 5 (level card, wild or not) is above T
    d = Deal.from_hands(["5H 5S 4S", "6D 7D", "8D 9D", "AS 6S"], levels=("5", "5"),
                        previous=(0, 1, 2, 3), rules=rules)
    assert d.legal_actions() == [ReturnCard("4S")]
    d = Deal.from_hands(["5H 5S", "6D 7D", "8D 9D", "AS 6S"], levels=("5", "5"),
                        previous=(0, 1, 2, 3), rules=rules)
    assert d.legal_actions() == [ReturnCard("5S"), ReturnCard("5H")]
    # without the option any card but the received face
    d = Deal.from_hands(["JS 9S 3S", "5D 6D", "8D 9D", "AS 6S"], previous=(0, 1, 2, 3))
    assert d.legal_actions() == [ReturnCard("3S"), ReturnCard("9S"), ReturnCard("JS")]


def test_tribute_cards_are_public_in_observations():
    """docs/rules/guandan.md "Tribute": tribute and return cards are face up."""
    d = Deal.from_hands(["3S 4S", "2H KS 5D", "3D 4D", "AS 6D 7D"], previous=(0, 2))
    d.apply(ReturnCard("3S"))
    obs = d.observation(1)  # seat 1 sees seat 3's tribute and seat 0's return
    assert Event(3, PayTribute("AS"), Phase.TRIBUTE, True) in obs["history"]
    assert Event(0, ReturnCard("3S"), Phase.RETURN) in obs["history"]
    assert str(obs["known"][0]) == "AS" and str(obs["known"][3]) == "3S"
    assert str(obs["hand"]) == "2H 5D"
    assert "hands" not in obs and all(k not in obs for k in ("engine",))


def test_tribute_small_hands_rejected():
    """A deal with tribute needs at least two cards in every hand."""
    with pytest.raises(ValueError, match="at least 2"):
        Deal.from_hands(["3S", "4S 5S", "6S 7S", "8S 9S"], previous=(0, 2))


# --- "Levels and the end of the game" (the standing rules) ------------------------------------------
A = 12


@pytest.mark.parametrize("rules,gains", [(PAGAT, (4, 2, 1)), (COMPETITION, (3, 2, 1))], ids=["pagat", "competition"])
def test_levels_promotion(rules, gains):
    """docs/rules/guandan.md "Levels and the end of the game" / "Presets": +4/+2/+1 pagat, +3/+2/+1 competition."""
    for result, gain in zip((1, 2, 3), gains):
        order = {1: (1, 3, -1, -1), 2: (1, 0, 3, 2), 3: (1, 0, 2, 3)}[result]
        levels, decl, fails, winner = settle([0, 0], None, [0, 0], order, result, False, rules)
        assert levels == [0, gain] and decl == 1 and winner is None and fails == [0, 0]
        levels, decl, _, _ = settle([3, 5], 0, [0, 0], order, result, False, rules)
        assert levels == [3, 5 + gain] and decl == 1


def test_levels_no_level_beyond_a():
    """docs/rules/guandan.md "Levels": reaching or passing A makes the team declarers at A."""
    levels, decl, _, winner = settle([10, 0], 0, [0, 0], (0, 2, -1, -1), 1, False, PAGAT)
    assert levels == [A, 0] and decl == 0 and winner is None
    levels, _, _, _ = settle([11, 0], 1, [0, 0], (2, 1, 0, 3), 2, False, PAGAT)
    assert levels == [A, 0]


def test_levels_game_won_only_by_declarers_at_a_with_1_2_or_1_3():
    """docs/rules/guandan.md "Levels": the game is won only by declarers at A winning 1-2 or 1-3."""
    assert settle([A, 5], 0, [0, 0], (0, 2, -1, -1), 1, False, PAGAT)[3] == 0
    assert settle([A, 5], 0, [0, 0], (2, 1, 0, 3), 2, False, PAGAT)[3] == 0
    # 1-4 at A: stays declarers at A, a failed attempt
    levels, decl, fails, winner = settle([A, 5], 0, [0, 0], (0, 1, 3, 2), 3, False, PAGAT)
    assert (levels, decl, fails, winner) == ([A, 5], 0, [1, 0], None)
    # opponents at A who win become declarers at A, no game win
    levels, decl, fails, winner = settle([5, A], 0, [0, 0], (1, 3, -1, -1), 1, False, PAGAT)
    assert (levels, decl, fails, winner) == ([5, A], 1, [0, 0], None)


def test_levels_ace_attempts():
    """docs/rules/guandan.md "Levels": ``ace_attempts``: back to 2 after that many failed deals at A."""
    rules = Rules(ace_attempts=3)
    state = ([A, 5], 0, [0, 0])
    for k in (1, 2):
        levels, decl, fails, winner = settle(*state, (0, 1, 3, 2), 3, False, rules)
        assert levels == [A, 5] and fails == [k, 0]
        state = (levels, decl, fails)
    levels, decl, fails, winner = settle(*state, (0, 1, 3, 2), 3, False, rules)
    assert levels == [0, 5] and decl == 0 and fails == [0, 0] and winner is None
    # losses count too
    levels, decl, fails, _ = settle([A, 5], 0, [2, 0], (1, 0, 2, 3), 3, False, rules)
    assert levels == [0, 6] and decl == 1 and fails == [0, 0]
    # None: never
    state = ([A, 5], 0, [0, 0])
    for k in range(1, 8):
        levels, decl, fails, _ = settle(*state, (0, 1, 3, 2), 3, False, Rules(ace_attempts=None))
        assert levels == [A, 5] and fails == [k, 0]
        state = (levels, decl, fails)


def test_levels_ace_loss_to_aces():
    """docs/rules/guandan.md "Levels": ``ace_loss_to_aces``: declarers at A losing to a first finisher who
    went out with aces drop to 2."""
    levels, decl, fails, _ = settle([A, 5], 0, [0, 0], (1, 0, 2, 3), 3, True, PAGAT)
    assert levels == [0, 6] and decl == 1 and fails == [0, 0]
    levels, decl, fails, _ = settle([A, 5], 0, [0, 0], (1, 0, 2, 3), 3, False, PAGAT)
    assert levels == [A, 6] and fails == [1, 0]
    levels, decl, fails, _ = settle([A, 5], 0, [0, 0], (1, 0, 2, 3), 3, True, Rules(ace_loss_to_aces=False))
    assert levels == [A, 6] and fails == [1, 0]
    # not declarers at A: no drop
    levels, _, _, _ = settle([A, 5], 1, [0, 0], (1, 3, -1, -1), 1, True, PAGAT)
    assert levels == [A, 9]


# --- the Match state machine on scripted deals ----------------------------------------------------
SMALL = ["3S 4C 9D", "5S 6C TD", "7S 8C JD", "3C 4D QS"]


def small_dealer(i):
    return SMALL


def test_match_first_deal_then_tribute_deals_promotion():
    """docs/rules/guandan.md "Levels": winners become declarers and go up; next deal starts with tribute."""
    m = Match(seed=1, hands=small_dealer)
    assert m.levels == ("2", "2") and m.declarers is None and m.deal.previous is None
    drive(m, team_wins(1, "1-3"))
    assert m.levels == ("2", "4") and m.declarers == 1 and m.deals_played == 1
    order = m.deals[0]["finishing_order"]
    assert m.deal.previous == order and m.deal.level == "4" and m.deal.declarers == 1
    assert m.deal.phase in ("tribute", "return", "lead")
    assert not m.is_terminal() and m.returns() == [0.0] * 4
    drive(m, team_wins(0, "1-2"))
    assert m.levels == ("6", "4") and m.declarers == 0
    assert m.deal.level == "6"
    # the match history holds every deal's events, tribute included
    first_len = len(m.history) - len(m.deal.history)
    assert m.history[first_len:] == m.deal.history
    assert any(isinstance(a, (PayTribute, ReturnCard)) for _, a, *_ in m.history[:first_len])


def test_match_competition_promotion():
    """docs/rules/guandan.md "Presets": competition promotion in a match."""
    m = Match(seed=1, rules=COMPETITION, hands=small_dealer)
    drive(m, team_wins(0, "1-2"))
    assert m.levels == ("5", "2")


def test_match_game_won_at_a_by_1_2_and_1_3():
    """docs/rules/guandan.md "Levels": declarers at A win the game with 1-2 or 1-3."""
    for result in ("1-2", "1-3"):
        m = Match(seed=2, levels=("A", "5"), declarers=0, hands=small_dealer)
        assert m.deal.level == "A"
        drive(m, team_wins(0, result))
        assert m.is_terminal() and m.winner == 0 and m.current_player == TERMINAL
        assert m.returns() == [1.0, -1.0, 1.0, -1.0]
        assert m.legal_actions() == []
        with pytest.raises(IllegalActionError):
            m.apply(PASS)


def test_match_1_4_at_a_stays_and_ace_attempts():
    """docs/rules/guandan.md "Levels": 1-4 at A stays at A; after ``ace_attempts`` failures back to 2."""
    m = Match(seed=3, levels=("A", "5"), declarers=0, hands=small_dealer)
    for k in (1, 2):
        drive(m, team_wins(0, "1-4"))
        assert not m.is_terminal() and m.levels == ("A", "5") and m.declarers == 0
        assert m.ace_failures == (k, 0)
    drive(m, team_wins(0, "1-4"))
    assert m.levels == ("2", "5") and m.declarers == 0 and m.ace_failures == (0, 0)
    assert m.deal.level == "2"
    m = Match(seed=3, levels=("A", "5"), declarers=0, hands=small_dealer, rules=Rules(ace_attempts=None))
    for k in range(1, 5):
        drive(m, team_wins(0, "1-4"))
        assert m.levels == ("A", "5") and m.ace_failures == (k, 0)


def test_match_ace_attempts_count_losses_and_not_opponent_wins():
    """docs/rules/guandan.md "Levels": every deal played as declarers at A that does not end the game counts."""
    m = Match(seed=4, levels=("A", "5"), declarers=0, hands=small_dealer, rules=Rules(ace_attempts=2))
    drive(m, team_wins(1, "1-4", aces=False))
    assert m.levels == ("A", "6") and m.declarers == 1 and m.ace_failures == (1, 0)
    drive(m, team_wins(0, "1-4"))  # opponents at A who win become declarers at A
    assert m.levels == ("A", "6") and m.declarers == 0 and m.ace_failures == (1, 0)
    drive(m, team_wins(0, "1-4"))
    assert m.levels == ("2", "6") and m.ace_failures == (0, 0)


def test_match_opponents_at_a_become_declarers_at_a():
    """docs/rules/guandan.md "Levels": opponents at A who win become declarers at A, no game win yet."""
    m = Match(seed=5, levels=("5", "A"), declarers=0, hands=small_dealer)
    drive(m, team_wins(1, "1-2"))
    assert not m.is_terminal() and m.levels == ("5", "A") and m.declarers == 1
    assert m.deal.level == "A"
    drive(m, team_wins(1, "1-3"))
    assert m.is_terminal() and m.winner == 1 and m.returns() == [-1.0, 1.0, -1.0, 1.0]


ACES = ["3S 4C 9D", "AS 6C TD", "7S 8C JD", "AC 4D QS"]


@pytest.mark.parametrize("on", [True, False])
def test_match_ace_loss_to_aces(on):
    """docs/rules/guandan.md "Levels": ``ace_loss_to_aces`` on and off."""
    rules = Rules(ace_loss_to_aces=on)
    m = Match(seed=6, levels=("A", "5"), declarers=0, hands=lambda i: ACES, rules=rules)
    drive(m, team_wins(1, "1-2", aces=True))
    assert m.deals[-1]["first_out_with_aces"]
    assert m.levels == (("2" if on else "A"), "9") and m.declarers == 1
    # going out with something else: no drop
    m = Match(seed=6, levels=("A", "5"), declarers=0, hands=lambda i: ACES, rules=rules)
    drive(m, team_wins(1, "1-2", aces=False))
    assert m.levels == ("A", "9")


def test_match_max_deals_is_a_draw():
    """``max_deals`` ends the match as a draw with returns 0."""
    m = Match(seed=7, max_deals=2, hands=small_dealer)
    drive(m, team_wins(0, "1-4"))
    drive(m, team_wins(1, "1-4"))
    assert m.is_terminal() and m.winner is None and m.returns() == [0.0] * 4
    assert m.current_player == TERMINAL and m.deals_played == 2
    with pytest.raises(ValueError):
        Match(max_deals=0)


def test_match_random_deals_follow_the_seed_and_tribute():
    """docs/rules/guandan.md "Levels"/"Tribute": each next deal: winners declare, tribute from the order."""
    m = Match(seed=11)
    rng = np.random.default_rng(0)
    while m.deals_played < 3:
        acts = m.legal_actions()
        m.apply(acts[rng.integers(len(acts))])
    for i in (1, 2):
        assert m.deals[i]["declarers"] == m.deals[i - 1]["finishing_order"][0] % 2
    assert m.deal.previous == m.deals[2]["finishing_order"]
    assert m.deal.hand_sizes() == (27, 27, 27, 27)
    assert "Guan Dan match" in str(m) and "seat 0" in str(m)
    obs = m.observation(0)
    assert obs["match"]["deals_played"] == 3 and obs["match"]["levels"] == m.levels


def test_observation_hides_other_hands():
    d = Deal(seed=3)
    obs = d.observation(2)
    assert obs["hand"] == d.hand(2)
    flat = repr(obs)
    for s in (0, 1, 3):
        assert str(d.hand(s)) not in flat
    assert obs["hand_sizes"] == (27,) * 4 and obs["phase"] == "play"
    with pytest.raises(ValueError):
        d.observation(4)


def test_str_is_readable():
    d = Deal.from_hands(["3S 4S", "2H KS 5D", "3D 4D", "AS 6D 7D"], previous=(0, 2))
    s = str(d)
    assert "level 2" in s and "phase return" in s and "seat 0" in s and "ReturnCard" in s
    d.apply(ReturnCard("3S"))
    d.apply(ReturnCard("4D"))
    run(d, "3S")
    assert "trick: seat 3 played single 3" in str(d)


def test_card_play_is_a_copy_of_the_engine_during_play_only():
    """The compiled engine for bots: a copy during card play, None otherwise."""
    d = Deal.from_hands(["3S 4S", "2H KS 5D", "3D 4D", "AS 6D 7D"], previous=(0, 2))
    assert d.card_play() is None
    d.apply(ReturnCard("3S"))
    d.apply(ReturnCard("4D"))
    engine = d.card_play()
    assert engine.current == d.current_player and engine.hand_sizes() == d.hand_sizes()
    engine.play(next(iter(engine.legal_plays())))
    assert d.hand_sizes() == (2, 3, 2, 3) and d.current_player == 3
    m = Match(seed=1, max_deals=1)
    assert m.card_play().current == m.current_player
    from chupai.players import bots

    rng = np.random.default_rng(0)
    for bot in (bots.RandomBot(), bots.GreedyBot(), bots.MonteCarloBot(16)):
        for state in (Deal(seed=2), m):
            assert bot.choose(state, rng) in state.legal_actions()
    while not m.is_terminal():
        m.apply(bots.GreedyBot().choose(m, rng))
    assert m.card_play() is None
    m = Match(seed=3, max_deals=3)
    while not m.is_terminal():
        assert m.level == m.deal.level == m.levels[m.deal.declarers or 0]
        m.apply(bots.GreedyBot().choose(m, rng))
    assert m.deals_played == 3 or m.winner is not None
