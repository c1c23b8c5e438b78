"""The Chinese Ten capture generator (``docs/rules/chinese_ten.md``, "A turn" and "Special
opening layouts") against the classify-based brute force and the spec's examples."""
from __future__ import annotations

import random

import numpy as np
import pytest
from chinese_ten_reference import (
    POWER_SET_MAX_LAYOUT,
    collapse_key,
    identity,
    power_set_plays,
    random_position,
    reference_plays,
    triple_position,
)

from chupai import Cards
from chupai.core.records import PLAY_DTYPE
from chupai.cards import RANKS, parse_face
from chupai.chinese_ten import PlayType, Rules, captures, classify, legal_plays
from chupai.chinese_ten._movegen import kernel_count

FORCED = Rules()
FREE = Rules(forced_capture=False)


def strs(plays):
    return [str(p) for p in plays]


# --- the spec's examples -----------------------------------------------------------------
def test_spec_example_q_3_3_6_layout():
    """"With QD 3S 3H 6C in the layout a 7 takes one 3; an ace takes nothing."""
    layout = "QD 3S 3H 6C"
    assert strs(legal_plays("7C", layout)) == ["7C takes 3S", "7C takes 3H"]
    assert strs(legal_plays("AD", layout)) == ["AD to the layout"]
    assert strs(captures("7C", layout)) == ["7C takes 3S", "7C takes 3H"]
    assert strs(captures("AD", layout)) == ["AD to the layout"]
    # and the other cards of the example: Q takes the QD, 4 takes the 6C, 3 takes nothing
    assert strs(legal_plays("QS 4H 3C", layout)) == ["3C to the layout", "4H takes 6C", "QS takes QD"]


@pytest.mark.parametrize(
    "card, target",
    [("AS", "9H"), ("9S", "AH"), ("2S", "8H"), ("8S", "2H"), ("3S", "7H"), ("7S", "3H"),
     ("4S", "6H"), ("6S", "4H"), ("5S", "5H"), ("TS", "TH"), ("JS", "JH"), ("QS", "QH"), ("KS", "KH")],
)
def test_sums_to_ten_and_same_rank_pictures(card, target):
    """A..9 capture the card making ten; T, J, Q, K the card of their rank; suits do not matter."""
    assert strs(legal_plays(card, target)) == [f"{card} takes {target}"]
    assert [p.type for p in classify(card, target)] == [PlayType.CAPTURE]


def test_every_pair_of_cards_against_the_rule_table():
    pairs = {"A": "9", "9": "A", "2": "8", "8": "2", "3": "7", "7": "3", "4": "6", "6": "4",
             "5": "5", "T": "T", "J": "J", "Q": "Q", "K": "K"}
    for a in range(52):
        for b in range(52):
            if a == b:
                continue
            ca, cb = Cards.from_masks(1 << a), Cards.from_masks(1 << b)
            expect = pairs[RANKS[a // 4]] == RANKS[b // 4]
            got = [p for p in legal_plays(ca, cb) if p.is_capture]
            assert bool(got) == expect, (ca, cb)
            assert ([p.type for p in classify(str(ca), str(cb))] == [PlayType.CAPTURE]) == expect


def test_one_card_per_capture_no_sums_of_several():
    """An ace cannot take 4 + 5, nor a 9 two aces; a 7 takes one of two 3s."""
    assert strs(legal_plays("AH", "4S 5C")) == ["AH to the layout"]
    assert strs(legal_plays("9H", "AS AC")) == ["9H takes AS", "9H takes AC"]
    assert classify("AH", "4S 5C") == [] and classify("9H", "AS AC") == []


def test_choice_among_targets_each_a_distinct_play():
    """Suits matter for the score: each target is its own play."""
    plays = legal_plays("KS", "KH KD")
    assert strs(plays) == ["KS takes KH", "KS takes KD"]
    assert len(set(plays)) == 2


def test_forced_capture_option():
    """Default: a card that can capture must; forced_capture=False may leave it."""
    assert strs(legal_plays("7C 9D", "3S", rules=FORCED)) == ["7C takes 3S", "9D to the layout"]
    assert strs(legal_plays("7C 9D", "3S", rules=FREE)) == ["7C takes 3S", "7C to the layout", "9D to the layout"]
    assert strs(captures("7C", "3S", rules=FREE)) == ["7C takes 3S", "7C to the layout"]


@pytest.mark.parametrize("rank", list("5TJQK"))
def test_triple_on_the_layout_is_taken_whole_by_the_fourth(rank):
    """"Three of a kind among K, Q, J, T or 5: the fourth card captures all three"."""
    layout = f"{rank}S {rank}H {rank}D"
    (play,) = legal_plays(f"{rank}C", layout)
    assert play.type == PlayType.TRIPLE and play.captured == Cards(layout, decks=1)
    assert str(play.taken) == str(Cards(f"{rank}S {rank}H {rank}C {rank}D", decks=1))
    (turned,) = captures(f"{rank}C", layout)
    assert turned == play
    assert strs(legal_plays(f"{rank}C", layout, rules=FREE))[1] == f"{rank}C to the layout"
    assert [p.type for p in classify(f"{rank}C", layout)] == [PlayType.TRIPLE]


def test_triples_of_other_ranks_are_taken_one_at_a_time():
    """Three 3s are not special: a 7 takes one of them; a 3 does not take 3s."""
    assert strs(legal_plays("7C", "3S 3H 3D")) == ["7C takes 3S", "7C takes 3H", "7C takes 3D"]
    assert strs(legal_plays("3C", "3S 3H 3D")) == ["3C to the layout"]
    assert classify("3C", "3S 3H 3D") == []


def test_collapsed_view_groups_by_score_class():
    """Only what the scores never see is erased: colour stays, and AS and AC stay apart."""
    assert strs(legal_plays("7S 7C 7H", "3S 3C 3D", collapse_suits=True)) == [
        "7S takes 3S", "7S takes 3D", "7H takes 3S", "7H takes 3D"]
    assert strs(legal_plays("9H", "AS AH AC AD", collapse_suits=True)) == [
        "9H takes AS", "9H takes AH", "9H takes AC"]
    assert strs(legal_plays("AS AC AH AD", "9S", collapse_suits=True)) == [
        "AS takes 9S", "AH takes 9S", "AC takes 9S"]


# --- bad input -----------------------------------------------------------------------------
@pytest.mark.parametrize("joker", ["BJ", "RJ", "bj"])
def test_jokers_are_rejected_naming_the_token(joker):
    with pytest.raises(ValueError, match=f"'{joker}' is a joker"):
        legal_plays(f"7S {joker}", "3S")
    with pytest.raises(ValueError, match=f"'{joker}' is a joker"):
        legal_plays("7S", f"3S {joker}")
    with pytest.raises(ValueError, match=f"'{joker}' is a joker"):
        captures(joker, "3S")
    with pytest.raises(ValueError, match="'BJ' is a joker"):
        legal_plays(Cards("7S BJ"), "3S")


def test_other_bad_input():
    with pytest.raises(ValueError, match="'7S' appears twice"):
        legal_plays("7S 7S", "3H")
    with pytest.raises(ValueError, match="appears twice"):
        legal_plays(Cards("7S 7S"), "3H")
    with pytest.raises(ValueError, match="unknown card 'XX'"):
        legal_plays("7S XX", "3H")
    with pytest.raises(ValueError, match="7S is both in the hand and in the layout"):
        legal_plays("7S", "7S 3H")
    with pytest.raises(ValueError, match="3H is both in the turned card and in the layout"):
        captures("3H", "3H")
    with pytest.raises(ValueError, match="one card"):
        captures(Cards("3H 4H"), "")
    with pytest.raises(TypeError, match="rules must be"):
        legal_plays("7S", "3H", rules="pagat")
    with pytest.raises(ValueError, match="cannot capture itself"):
        classify("7S", "7S")
    assert len(legal_plays("", "3H")) == 0 and strs(legal_plays("3H", "")) == ["3H to the layout"]


def test_records_follow_the_documented_encoding():
    plays = legal_plays("QS 7D", "QD QH QC 3S 3H", rules=FREE)
    rec = plays.to_numpy()
    assert rec.dtype == PLAY_DTYPE and len(rec) == len(plays)
    for r, p in zip(rec, plays):
        assert int(r["lo"]) == 1 << parse_face(p.card)
        assert int(r["key"]) == parse_face(p.card)
        assert int(r["taken"]) == p.captured.lo and int(r["hi"]) == 0
        assert Cards.from_masks(int(r["lo"]), int(r["hi"])) == p.cards
        assert int(r["length"]) == len(p.captured)
        assert int(r["type"]) == p.type
    assert [p.type for p in plays] == [PlayType.CAPTURE, PlayType.CAPTURE, PlayType.DISCARD,
                                        PlayType.TRIPLE, PlayType.DISCARD]


# --- against the brute force ---------------------------------------------------------------
def check_position(hand: int, layout: int, rules: Rules) -> None:
    reference = reference_plays(hand, layout, rules)
    h, lay = Cards.from_masks(hand), Cards.from_masks(layout)
    concrete = [identity(p) for p in legal_plays(h, lay, rules=rules)]
    assert len(concrete) == len(set(concrete)), "a play is listed twice"
    assert set(concrete) == reference, (str(h), str(lay))
    collapsed = [identity(p) for p in legal_plays(h, lay, rules=rules, collapse_suits=True)]
    keys = [collapse_key(*p) for p in collapsed]
    assert len(keys) == len(set(keys)), "a collapsed group is listed twice"
    assert set(keys) == {collapse_key(*p) for p in reference}
    assert set(collapsed) <= reference
    for card in range(52):
        if hand >> card & 1:
            turned = {identity(p) for p in captures(Cards.from_masks(1 << card), lay, rules=rules)}
            assert turned == {p for p in reference if p[0] == card}


@pytest.mark.parametrize("rules", [FORCED, FREE], ids=["forced", "free"])
def test_generator_matches_the_reference(rules):
    rng = random.Random(20240601)
    for _ in range(1500):
        hand, layout = random_position(rng, rng.randint(0, 12), rng.randint(0, 16))
        check_position(hand, layout, rules)
    for _ in range(300):
        hand, layout = triple_position(rng, rng.randint(1, 12), rng.randint(3, 14))
        check_position(hand, layout, rules)


@pytest.mark.parametrize("rules", [FORCED, FREE], ids=["forced", "free"])
def test_the_reference_bound_loses_nothing(rules):
    rng = random.Random(77)
    for k in range(400):
        make = triple_position if k % 2 else random_position
        hand, layout = make(rng, rng.randint(1, 8), rng.randint(3, POWER_SET_MAX_LAYOUT))
        assert reference_plays(hand, layout, rules) == power_set_plays(hand, layout, rules)


def test_kernel_count_agrees_with_the_lists():
    rng = random.Random(5)
    pos = [random_position(rng, 6, rng.randint(0, 12)) for _ in range(200)]
    hands = np.array([h for h, _ in pos], dtype=np.uint64)
    layouts = np.array([lay for _, lay in pos], dtype=np.uint64)
    for collapse in (False, True):
        expect = sum(len(legal_plays(Cards.from_masks(h), Cards.from_masks(lay), collapse_suits=collapse))
                     for h, lay in pos)
        assert kernel_count(hands, layouts, collapse_suits=collapse, repeat=2) == 2 * expect
    with pytest.raises(ValueError, match="disjoint"):
        kernel_count(np.array([3], dtype=np.uint64), np.array([1], dtype=np.uint64))
    with pytest.raises(ValueError, match="disjoint"):
        kernel_count(np.array([1 << 52], dtype=np.uint64), np.array([0], dtype=np.uint64))
