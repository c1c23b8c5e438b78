"""Every rule and option of ``docs/rules/gandengyan.md`` that concerns plays and scores, by name.

Each test cites its section of the spec.  The game flow (deal, talon, drawing, end,
the winner dealing next, ``min_talon_to_win``, ``announce_at``) is in
``test_gandengyan_game.py``.
"""
from __future__ import annotations

import pytest

from chupai import Cards
from chupai.gandengyan import Play, PlayType, Rules, classify, legal_plays
from chupai.gandengyan.scoring import (
    deal_returns,
    general_multiplier,
    own_multiplier,
    payment,
)

T = PlayType
# a hand that can answer nearly anything: every rank, a spare 2, four 9s, both jokers
BIG = "3S 4S 5S 5H 6S 6H 7S 7H 7D 8S 9S 9H 9C 9D TS JS QS KS AS 2S 2H BJ RJ"


def play(cards: str, type_: PlayType | None = None, rules: Rules | None = None) -> Play:
    """The reading of ``cards`` (of type ``type_`` when they have several)."""
    readings = [p for p in classify(cards, rules=rules) if type_ is None or p.type == type_]
    assert len(readings) == 1, f"{cards}: {[str(p) for p in readings]}"
    return readings[0]


def kinds(plays) -> set[tuple[str, str, int]]:
    """(type, rank, cards) of each play: which kinds of play are in a list."""
    return {(p.type.name, p.rank, p.length) for p in plays}


def ordinary_kinds(plays) -> set[tuple[str, str, int]]:
    return kinds(p for p in plays if not p.is_bomb)


def bomb_kinds(hand: str, rules: Rules | None = None) -> set[tuple[str, str, int]]:
    return kinds(p for p in legal_plays(hand, rules=rules) if p.is_bomb)


# --- "Ranks, 2s and jokers" -------------------------------------------------------------
def test_ordinary_ranks_run_from_three_to_ace():
    assert [p.key for p in (play("3S"), play("TS"), play("AS"))] == [1, 8, 12]
    assert play("4S").beats(play("3S")) and play("AS").beats(play("KS"))
    assert not play("3S").beats(play("AS"))


def test_a_single_two_is_led_or_played_on_any_ordinary_single():
    assert [str(p) for p in legal_plays("2H")] == ["single 2: 2H"]
    for single in ("3S", "9D", "AS"):
        assert ("SINGLE", "2", 1) in kinds(legal_plays("2H 3D", play(single)))
    assert not play("2S").beats(play("2H")), "a 2 on a 2 only with follow_same_rank"


def test_a_pair_of_twos_is_led_or_played_on_any_ordinary_pair():
    assert ("PAIR", "2", 2) in kinds(legal_plays("2S 2H"))
    for pair in ("3S 3H", "9S 9D", "AS AH"):
        assert ("PAIR", "2", 2) in kinds(legal_plays("2S 2H", play(pair)))


def test_twos_are_never_part_of_a_sequence():
    assert classify("2S 3S 4S") == []
    assert classify("AS 2S 3S") == []
    assert classify("2S 2H 3S 3H") == []
    assert not any(p.type == T.SEQUENCE and "2" in p.ranks for p in legal_plays("2S 3S 4S BJ"))


def test_jokers_are_wild_with_another_card():
    """The spec's examples: 6S BJ, 2S BJ, 9S TS BJ, 9S 9D BJ."""
    assert [str(p) for p in classify("6S BJ")] == ["pair 6: 6S BJ(=6)"]
    assert [str(p) for p in classify("2S BJ")] == ["pair 2: 2S BJ(=2)"]
    assert [str(p) for p in classify("9S TS BJ")] == ["sequence 8-T: 9S TS BJ(=8)", "sequence 9-J: 9S TS BJ(=J)"]
    assert [str(p) for p in classify("9S 9D BJ")] == ["three bomb 9: 9S 9D BJ(=9)"]


def test_every_distinct_joker_reading_is_a_play():
    plays = legal_plays("9S TS BJ")
    seqs = sorted(str(p) for p in plays if p.type == T.SEQUENCE)
    assert seqs == ["sequence 8-T: 9S TS BJ(=8)", "sequence 9-J: 9S TS BJ(=J)"]
    # each joker is a different card: BJ and RJ give different plays
    assert {str(p) for p in legal_plays("6S BJ RJ") if p.type == T.PAIR} == {"pair 6: 6S BJ(=6)", "pair 6: 6S RJ(=6)"}


def test_a_joker_may_not_be_played_alone():
    assert not any(p.cards == Cards("BJ") for p in legal_plays("BJ 5S"))
    assert len(legal_plays("BJ", play("4S"))) == 0
    assert classify("BJ BJ", rules=Rules(decks=2)) != [] and legal_plays("BJ BJ 5S", rules=Rules(decks=2))
    assert not any(p.cards == Cards("BJ BJ") for p in legal_plays("BJ BJ 5S", rules=Rules(decks=2)))


def test_a_lone_joker_is_led_as_the_last_card():
    plays = legal_plays("RJ")
    assert [str(p) for p in plays] == ["single joker: RJ"]
    # it can only be followed by a bomb
    assert kinds(legal_plays(BIG, plays[0])) == bomb_kinds(BIG)


# --- "Ordinary combinations": exactly one rank higher -------------------------------------
def test_what_may_follow_4():
    """After 4 only 5, a 2, or a bomb."""
    plays = legal_plays(BIG, play("4D"))
    assert ordinary_kinds(plays) == {("SINGLE", "5", 1), ("SINGLE", "2", 1)}
    assert kinds(p for p in plays if p.is_bomb) == bomb_kinds(BIG)


def test_what_may_follow_4_4():
    """After 4-4 only 5-5, 2-2 or a bomb."""
    plays = legal_plays(BIG, play("4D 4H"))
    assert ordinary_kinds(plays) == {("PAIR", "5", 2), ("PAIR", "2", 2)}
    assert kinds(p for p in plays if p.is_bomb) == bomb_kinds(BIG)


def test_what_may_follow_4_5_6():
    """After 4-5-6 only 5-6-7 or a bomb (not 7-8-9, not 4-5-6-7)."""
    plays = legal_plays(BIG, play("4D 5D 6D"))
    assert ordinary_kinds(plays) == {("SEQUENCE", "7", 3)}
    assert kinds(p for p in plays if p.is_bomb) == bomb_kinds(BIG)
    assert not play("7D 8D 9D").beats(play("4D 5D 6D"))
    assert not play("4H 5H 6H 7H").beats(play("4D 5D 6D"))


def test_what_may_follow_q_k_a():
    """After Q-K-A only a bomb."""
    plays = legal_plays(BIG, play("QD KD AD"))
    assert ordinary_kinds(plays) == set()
    assert kinds(plays) == bomb_kinds(BIG)


def test_what_may_follow_4_4_5_5():
    """After 4-4-5-5 only 5-5-6-6 or a bomb."""
    plays = legal_plays(BIG, play("4D 4C 5D 5C"))
    assert ordinary_kinds(plays) == {("DOUBLE_SEQUENCE", "6", 4)}
    assert kinds(p for p in plays if p.is_bomb) == bomb_kinds(BIG)


def test_sequences_follow_only_at_the_same_length():
    assert play("5D 6D 7D 8D").beats(play("4H 5H 6H 7H"))
    assert not play("5D 6D 7D").beats(play("4H 5H 6H 7H"))
    assert not play("5D 5C 6D 6C 7D 7C").beats(play("4H 4S 5H 5S"))


def test_a_single_two_and_a_pair_of_twos_are_followed_only_by_bombs():
    for two in ("2D", "2D 2C"):
        plays = legal_plays(BIG, play(two))
        assert kinds(plays) == bomb_kinds(BIG)


# --- "Bombs" --------------------------------------------------------------------------
def test_what_may_follow_7_7_7():
    """A three bomb: a higher three bomb (A-A-A, then 2-2-2), any four bomb, the double joker."""
    plays = legal_plays(BIG, play("7C 7H 7D"))
    found = kinds(plays)
    assert ("THREE_BOMB", "9", 3) in found and ("THREE_BOMB", "2", 3) in found
    assert ("FOUR_BOMB", "7", 4) in found and ("JOKER_BOMB", "joker", 2) in found
    assert ("THREE_BOMB", "7", 3) not in found, "a joker bomb of the same rank is equal, not higher"
    assert ("THREE_BOMB", "6", 3) not in found
    assert all(p.is_bomb for p in plays)


def test_bombs_beat_any_ordinary_combination():
    bomb = play("3S 3H 3D")
    for ordinary in ("AS", "2S", "2S 2H", "QS KS AS", "TS TH JS JH QS QH KS KH AS AH"):
        assert bomb.beats(play(ordinary)) and not play(ordinary).beats(bomb)


def test_bomb_classes_and_ranks():
    """3-3-3 < ... < A-A-A < 2-2-2 < 3-3-3-3 < ... < 2-2-2-2 < BJ RJ."""
    order = ["3S 3H 3D", "AS AH AD", "2S 2H 2D", "3S 3H 3D 3C", "AS AH AD AC", "2S 2H 2D 2C", "BJ RJ"]
    bombs = [play(c) for c in order]
    for i, low in enumerate(bombs):
        for high in bombs[i + 1 :]:
            assert high.beats(low) and not low.beats(high)


def test_nothing_follows_the_double_joker():
    assert len(legal_plays(BIG, play("BJ RJ"))) == 0


def test_a_joker_bomb_and_a_natural_bomb_of_one_rank_are_equal():
    soft, hard = play("7S 7H BJ"), play("7S 7H 7D")
    assert soft.key == hard.key and not soft.beats(hard) and not hard.beats(soft)
    assert soft.is_soft and not hard.is_soft


# --- the variants ------------------------------------------------------------------------
def test_decks_2_double_joker_needs_a_red_and_a_black():
    two = Rules(decks=2)
    assert bomb_kinds("BJ BJ 5S", two) == {("THREE_BOMB", "5", 3)}
    assert ("JOKER_BOMB", "joker", 2) in bomb_kinds("BJ RJ 5S", two)
    assert [str(p) for p in classify("BJ RJ", rules=two)] == ["joker bomb: BJ RJ"]


def test_decks_2_same_colour_jokers_fill_a_three_or_four_of_a_kind():
    two = Rules(decks=2)
    assert [str(p) for p in classify("5S BJ BJ", rules=two) if p.is_bomb] == ["three bomb 5: 5S BJ(=5) BJ(=5)"]
    assert [str(p) for p in classify("5S 5S RJ RJ", rules=two) if p.is_bomb] == ["four bomb 5: 5S 5S RJ(=5) RJ(=5)"]


def test_decks_2_two_identical_jokers_alone_only_as_last_cards_on_lead():
    two = Rules(decks=2)
    assert [str(p) for p in legal_plays("BJ BJ", rules=two)] == ["pair joker: BJ BJ"]
    assert len(legal_plays("BJ BJ", play("4S 4H"), rules=two)) == 0
    assert not any(p.cards == Cards("RJ RJ") for p in legal_plays("RJ RJ 9S", rules=two))


def test_decks_2_bombs_never_exceed_four_equal_cards_or_two_jokers():
    two = Rules(decks=2)
    assert max(p.length for p in legal_plays("5S 5S 5H 5H 5D 5D BJ", rules=two)) == 4
    assert [str(p) for p in legal_plays("BJ BJ RJ RJ", rules=two)] == ["joker bomb: BJ RJ"]


def test_decks_2_identical_cards_are_one_play():
    plays = legal_plays("5S 5S 6S", rules=Rules(decks=2))
    assert sorted(str(p) for p in plays) == ["pair 5: 5S 5S", "single 5: 5S", "single 6: 6S"]


def test_triples_are_bombs_false_makes_an_ordinary_triple():
    ordinary = Rules(triples_are_bombs=False)
    seven = play("7C 7H 7D", rules=ordinary)
    assert seven.type == T.TRIPLE and not seven.is_bomb
    plays = legal_plays(BIG, seven, rules=ordinary)
    assert ordinary_kinds(plays) == {("TRIPLE", "8", 3), ("TRIPLE", "2", 3)}
    bombs = kinds(p for p in plays if p.is_bomb)
    assert bombs == bomb_kinds(BIG, ordinary) and {t for t, _, _ in bombs} == {"FOUR_BOMB", "JOKER_BOMB"}
    # 2-2-2 is the top triple: only bombs follow it
    assert ordinary_kinds(legal_plays(BIG, play("2C 2H 2D", rules=ordinary), rules=ordinary)) == set()
    assert not play("8S 8H BJ", rules=ordinary).beats(play("3S 3H 3D 3C", rules=ordinary))


def test_triple_sequences():
    rules = Rules(triples_are_bombs=False, triple_sequences=True)
    assert play("3S 3H 3D 4S 4H 4D", rules=rules).type == T.TRIPLE_SEQUENCE
    assert classify("3S 3H 3D 4S 4H 4D") == [], "not without the option"
    assert classify("AS AH AD 2S 2H 2D", rules=rules) == [], "no 2s"
    plays = legal_plays("4S 4H 4D 5S 5H BJ 6S 6H 6D 2S 2H 2D", play("3S 3H 3D 4C 4H 4D", rules=rules), rules=rules)
    assert ordinary_kinds(plays) == {("TRIPLE_SEQUENCE", "5", 6)}
    with pytest.raises(ValueError, match="triples_are_bombs=False"):
        Rules(triple_sequences=True)


def test_max_sequence_ranks_3():
    rules = Rules(max_sequence_ranks=3)
    hand = "3S 4S 5S 6S 7S 3H 4H 5H 6H"
    assert max(p.length for p in legal_plays(hand, rules=rules) if p.type == T.SEQUENCE) == 3
    assert max(p.length for p in legal_plays(hand, rules=rules) if p.type == T.DOUBLE_SEQUENCE) == 6
    assert max(p.length for p in legal_plays(hand) if p.type == T.SEQUENCE) == 5
    assert max(p.length for p in legal_plays(hand) if p.type == T.DOUBLE_SEQUENCE) == 8


def test_joker_as_two_false():
    rules = Rules(joker_as_two=False)
    assert classify("2S BJ", rules=rules) == [] and classify("2S 2H BJ", rules=rules) == []
    assert ("PAIR", "2", 2) not in kinds(legal_plays("2S BJ 5S", play("4S 4H"), rules=rules))
    assert ("PAIR", "2", 2) in kinds(legal_plays("2S BJ 5S", play("4S 4H")))


def test_joker_lead_out_false():
    rules = Rules(joker_lead_out=False)
    assert len(legal_plays("BJ", rules=rules)) == 0
    assert len(legal_plays("RJ RJ", rules=rules.replace(decks=2))) == 0
    assert [str(p) for p in legal_plays("BJ RJ", rules=rules)] == ["joker bomb: BJ RJ"]
    assert classify("BJ", rules=rules) == []


def test_follow_same_rank():
    rules = Rules(follow_same_rank=True)
    four = play("4D")
    assert ordinary_kinds(legal_plays(BIG, four, rules=rules)) == {
        ("SINGLE", "4", 1), ("SINGLE", "5", 1), ("SINGLE", "2", 1)
    }
    assert ("SINGLE", "2", 1) in kinds(legal_plays(BIG, play("2D"), rules=rules))
    assert ("PAIR", "2", 2) in kinds(legal_plays(BIG, play("2D 2C"), rules=rules))
    assert ("SEQUENCE", "6", 3) in kinds(legal_plays(BIG, play("4D 5D 6D"), rules=rules))
    # bombs still need a strictly higher bomb
    assert ("THREE_BOMB", "7", 3) not in kinds(legal_plays(BIG, play("7C 7H 7D"), rules=rules))
    assert play("4S").beats(four, rules=rules) and not play("4S").beats(four)


# --- scoring ----------------------------------------------------------------------------
def test_base_scoring_one_point_per_card():
    hands = [Cards(""), Cards("3S 4S AS"), Cards("BJ"), Cards("9S 9H 9D 9C KS")]
    assert deal_returns(hands, 0, 1, Rules()) == (9, -3, -1, -5)


def test_pagat_384_payment():
    """Two three bombs played; a loser holding 3-3-3-3-A-joker pays 6 x 4 x 16 = 384."""
    rules = Rules(multipliers=True)
    general = general_multiplier([play("5S 5H 5D"), play("9S 9H BJ"), play("KS")], rules)
    assert general == 4
    assert own_multiplier(Cards("3S 3H 3C 3D AS BJ"), rules) == 16
    assert payment(Cards("3S 3H 3C 3D AS BJ"), general, rules) == 384


def test_multipliers_general_factors():
    rules = Rules(multipliers=True)
    assert general_multiplier([play("5S 5H 5D")], rules) == 2
    assert general_multiplier([play("5S 5H 5D 5C")], rules) == 4
    assert general_multiplier([play("BJ RJ")], rules) == 8
    assert general_multiplier([play("5S 5H 5D 5C"), play("BJ RJ")], Rules()) == 1


def test_ace_multiplier():
    hand = Cards("AS AH 5S")
    for m in (2, 3, 4):
        assert payment(hand, 1, Rules(ace_multiplier=m)) == 3 * m * m
    assert payment(hand, 1, Rules()) == 3
    with pytest.raises(ValueError, match="ace_multiplier"):
        Rules(ace_multiplier=5)


def test_soft_bombs():
    rules = Rules(multipliers=True, soft_bombs=True)
    assert general_multiplier([play("5S 5H BJ")], rules) == 2
    assert general_multiplier([play("5S 5H 5D")], rules) == 4
    assert general_multiplier([play("5S 5H 5D BJ")], rules) == 2
    assert general_multiplier([play("BJ RJ")], rules) == 8
    assert own_multiplier(Cards("5S 5H 5D"), rules) == 4
    with pytest.raises(ValueError, match="multipliers=True"):
        Rules(soft_bombs=True)


def test_positive_only():
    hands = [Cards("3S"), Cards(""), Cards("4S 5S")]
    assert deal_returns(hands, 1, 1, Rules(positive_only=True)) == (0, 3, 0)
    assert deal_returns(hands, 1, 1, Rules()) == (-1, 3, -2)


def test_own_multiplier_with_two_decks_takes_the_best_split():
    rules = Rules(decks=2, multipliers=True)
    assert own_multiplier(Cards("5S 5S 5H 5H 5D 5D 5C"), rules) == 4 * 2  # a four and a three
    assert own_multiplier(Cards("5S 5S 5H 5H 5D 5D 5C 5C"), rules) == 16
    assert own_multiplier(Cards("5S 5S 5H 5H 5D 5D"), rules) == 4
    assert own_multiplier(Cards("5S 5S 5H"), rules.replace(triples_are_bombs=False)) == 1


def test_rules_validation_names_the_option():
    for bad, word in (
        ({"decks": 3}, "decks"),
        ({"max_sequence_ranks": 2}, "max_sequence_ranks"),
        ({"min_talon_to_win": -1}, "min_talon_to_win"),
        ({"announce_at": 0}, "announce_at"),
    ):
        with pytest.raises(ValueError, match=word):
            Rules(**bad)
    for bad, word in (({"follow_same_rank": 1}, "follow_same_rank"), ({"ace_multiplier": True}, "ace_multiplier")):
        with pytest.raises(TypeError, match=word):
            Rules(**bad)
    assert Rules.pagat() == Rules() and Rules().replace(decks=2).decks == 2
