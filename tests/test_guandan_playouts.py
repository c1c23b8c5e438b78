"""C playouts and the trick engine (``docs/rules/guandan.md``, "A deal")."""
from __future__ import annotations

import numpy as np
import pytest

from chupai.cards import Cards
from chupai.errors import IllegalActionError
from chupai.guandan import Rules, classify
from chupai.guandan._engine import RESULT_12, RESULT_13, RESULT_14, DealEngine
from chupai.guandan.playouts import playouts


def check_order(order, result):
    """Finishing order and result agree with "A deal": the 1st finisher's team wins."""
    first = order[0]
    if result == RESULT_12:
        assert order[1] == (first + 2) % 4 and list(order[2:]) == [-1, -1]
    else:
        assert sorted(order) == [0, 1, 2, 3]
        partner_place = list(order).index((first + 2) % 4)
        assert partner_place == (2 if result == RESULT_13 else 3)
        assert result in (RESULT_13, RESULT_14)


@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_batch_results_are_valid_deals(policy):
    r = playouts(500, seed=11, policy=policy)
    assert r.order.shape == (500, 4) and r.result.shape == (500,)
    for order, result, winner in zip(r.order, r.result, r.winner):
        check_order(order, result)
        assert winner == order[0] % 2
    assert set(np.unique(r.result)) <= {1, 2, 3}


def test_same_seed_same_arrays_whatever_the_threads():
    a = playouts(3000, seed=5, threads=1)
    b = playouts(3000, seed=5, threads=2)
    c = playouts(3000, seed=5, threads=3)
    for x in (b, c):
        assert (a.order == x.order).all() and (a.result == x.result).all()
    d = playouts(3000, seed=6)
    assert not (a.order == d.order).all()


def test_seeded_deals_are_reproducible():
    a, b, c = DealEngine.random(42), DealEngine.random(42), DealEngine.random(43)
    hands = lambda engine: [str(engine.hand(s)) for s in range(4)]  # noqa: E731
    assert hands(a) == hands(b) != hands(c)
    assert a.hand_sizes() == (27, 27, 27, 27) and a.current == b.current
    assert a.playout(7) == b.playout(7)


def test_playout_leaves_the_state_unchanged():
    engine = DealEngine.random(3)
    before = repr(engine), [str(engine.hand(s)) for s in range(4)]
    engine.playout(1, "greedy")
    assert (repr(engine), [str(engine.hand(s)) for s in range(4)]) == before


def test_bad_arguments():
    """The game's own checks (the shared ones: the conformance suite)."""
    with pytest.raises(ValueError, match="level 'Z' is not a rank"):
        playouts(10, seed=1, level="Z")
    with pytest.raises(TypeError, match="rules must be a chupai.guandan.Rules"):
        playouts(10, seed=1, rules="pagat")
    assert playouts(0, seed=1).order.shape == (0, 4)


# --- the trick engine, scripted ---------------------------------------------------------
def play(engine, cards, level="2"):
    (p,) = [q for q in classify(cards, level) if q.type.name in ("SINGLE", "PAIR", "TRIPLE", "FULL_HOUSE", "STRAIGHT", "BOMB")][:1]
    engine.play(p)


def test_trick_ends_when_all_others_pass_and_partner_leads_after_going_out():
    """"A deal": the last player leads the next trick; if out, their partner leads."""
    engine = DealEngine.from_hands(["AS", "3S 4S", "5S 6S", "7S 8S"], level="2", current=0)
    play(engine, "AS")                     # seat 0 goes out first with its last card
    assert engine.finishing_order == (0,) and engine.current == 1
    engine.pass_turn()
    engine.pass_turn()
    engine.pass_turn()                     # seats 1, 2, 3 pass: the trick ends
    assert engine.current == 2 and engine.last_play is None  # the partner of seat 0 leads


def test_players_without_cards_are_skipped():
    """"A deal": players with no cards are skipped, and do not count among the passers."""
    engine = DealEngine.from_hands(["3D", "4S 9S", "5S 6S", "7S 8S"], level="2", current=0)
    play(engine, "3D")                     # seat 0 goes out
    play(engine, "4S")
    engine.pass_turn()
    engine.pass_turn()                     # seats 2 and 3 pass; seat 0 is skipped
    assert engine.current == 1 and engine.last_play is None


def test_one_two_ends_the_deal_at_once():
    engine = DealEngine.from_hands(["AS", "3S 4S", "KS", "7S 8S"], level="2", current=0)
    play(engine, "AS")
    engine.pass_turn()
    engine.pass_turn()
    engine.pass_turn()
    play(engine, "KS")                     # seat 2 (partner) leads and goes out: 1-2
    assert engine.result == RESULT_12 and engine.current == -1
    assert engine.finishing_order == (0, 2, -1, -1)


def test_partner_of_the_first_finisher_leads_and_goes_out_for_one_two():
    engine = DealEngine.from_hands(["AS 3D", "KS", "4S 4D", "QS"], level="2", current=1)
    play(engine, "KS")                     # seat 1 out first
    engine.pass_turn()
    engine.pass_turn()
    engine.pass_turn()                     # 2, 3, 0 pass: partner 3 leads
    assert engine.current == 3
    play(engine, "QS")                     # seat 3 out: team 1 both out, 1-2
    assert engine.result == RESULT_12 and engine.finishing_order == (1, 3, -1, -1)


def test_one_three():
    engine = DealEngine.from_hands(["3D", "4D", "5D", "7D 8D"], level="2", current=0)
    for card in ("3D", "4D", "5D"):
        play(engine, card)
    assert engine.result == RESULT_13 and engine.finishing_order == (0, 1, 2, 3)


def test_one_four():
    engine = DealEngine.from_hands(["3D", "4D", "5S 6S", "7D"], level="2", current=0)
    play(engine, "3D")
    play(engine, "4D")
    engine.pass_turn()
    play(engine, "7D")                     # team 1 both out after seat 0: 1-4
    assert engine.result == RESULT_14 and engine.finishing_order == (0, 1, 3, 2)


def test_first_out_with_aces():
    """"Levels": the first finisher's last play made only of aces (wilds as aces count)."""
    engine = DealEngine.from_hands(["AS 2H", "3D 4D", "5S", "6S"], level="2", current=0)
    (pair,) = [p for p in classify("AS 2H", "2") if p.type.name == "PAIR"]
    engine.play(pair)
    assert engine.first_out_with_aces
    engine = DealEngine.from_hands(["KS", "3D", "5S", "6S"], level="2", current=0)
    play(engine, "KS")
    assert not engine.first_out_with_aces


def test_illegal_actions_leave_the_core_unchanged():
    engine = DealEngine.from_hands(["3D 5D", "4S 9S", "6S", "7S"], level="2", current=0)
    before = repr(engine)
    with pytest.raises(IllegalActionError, match="may not pass"):
        engine.pass_turn()
    with pytest.raises(IllegalActionError, match="does not hold"):
        engine.play(classify("KS", "2")[0])
    with pytest.raises(IllegalActionError, match="level"):
        engine.play(classify("3D", "3")[0])
    with pytest.raises(TypeError, match="must be a guandan.Play"):
        engine.play("3D")
    assert repr(engine) == before
    play(engine, "5D")
    before = repr(engine), str(engine.hand(1))
    with pytest.raises(IllegalActionError, match="does not beat"):
        engine.play(classify("4S", "2")[0])
    assert (repr(engine), str(engine.hand(1))) == before


def test_from_hands_rejects_bad_input():
    with pytest.raises(ValueError, match="4 hands"):
        DealEngine.from_hands(["AS"], level="2", current=0)
    with pytest.raises(ValueError, match="more than twice"):
        DealEngine.from_hands(["AS AS", "AS", "", ""], level="2", current=0)
    with pytest.raises(ValueError, match="hand 1 is empty"):
        DealEngine.from_hands(["AS", "", "3S", "4S"], level="2", current=1)
    with pytest.raises(ValueError, match="current"):
        DealEngine.from_hands(["AS", "3S", "4S", "5S"], level="2", current=4)


def test_evaluate_and_policy_choice():
    engine = DealEngine.random(9)
    cands = engine.legal_plays(collapse_suits=True)
    sums = engine.evaluate(cands.take(range(5)), False, 3, seed=1)
    assert sums.shape == (5,) and np.all(np.abs(sums) <= 3 * 4)
    assert engine.policy_choice("greedy") in set(engine.legal_plays())
    with pytest.raises(IllegalActionError, match="pass"):
        engine.evaluate(cands, True, 1, seed=1)
    other = DealEngine.random(10)
    with pytest.raises(IllegalActionError, match="candidate"):
        other.evaluate(cands, False, 1, seed=1)


def test_the_core_keeps_the_wild_declaration_and_checks_the_rules():
    engine = DealEngine.from_hands(["5S 2H 9D", "3S", "4S", "6S"], level="2", current=0)
    (pair,) = [p for p in classify("5S 2H", "2") if p.type.name == "PAIR"]
    engine.play(pair)
    assert engine.last_play.wilds == ("5H",)
    # competition rules: one physical suit makes only a straight flush
    engine = DealEngine.from_hands(["3S 4S 5S 6S 7S", "3D", "4D", "6D"], level="2", current=0, rules=Rules.competition())
    (straight,) = [p for p in classify("3S 4S 5S 6S 7S", "2") if p.type.name == "STRAIGHT"]
    with pytest.raises(IllegalActionError, match="rules"):
        engine.play(straight)


def test_hand_removal_of_duplicated_cards():
    engine = DealEngine.from_hands(["7S 7S 8D", "3S", "4S", "5S"], level="2", current=0)
    engine.play(classify("7S", "2")[0])
    assert engine.hand(0) == Cards("7S 8D")
