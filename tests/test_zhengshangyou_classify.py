"""Zheng Shangyou recognition (``classify``), ``Play`` and ``Rules``: every example of
``docs/rules/zhengshangyou.md`` (tests named ``test_spec_*``) and each type at its edges."""
from __future__ import annotations

import pytest

from chupai.cards import Cards
from chupai.zhengshangyou import Play, PlayType, Rules, classify, legal_plays

T = PlayType
NO_JOKER_PAIR = Rules(joker_pair=False)


def the(cards: str, type_: PlayType | None = None, rules: Rules | None = None, **attrs) -> Play:
    """The one play of ``type_`` (and the given attributes) these cards form."""
    plays = [
        p for p in classify(cards, rules=rules)
        if (type_ is None or p.type == type_) and all(getattr(p, k) == v for k, v in attrs.items())
    ]
    assert len(plays) == 1, (cards, type_, [str(p) for p in plays])
    return plays[0]


def readings(cards: str, rules: Rules | None = None) -> list[str]:
    return [f"{p.type.name} {p.rank}" for p in classify(cards, rules=rules)]


def equal(a: Play, b: Play) -> None:
    assert not a.beats(b) and not b.beats(a), (str(a), str(b))


def strictly_increasing(plays: list[Play]) -> None:
    for i, low in enumerate(plays):
        for high in plays[i + 1 :]:
            assert high.beats(low), (str(high), str(low))
            assert not low.beats(high), (str(low), str(high))


# -- "Order and wild cards" -------------------------------------------------------------
def test_spec_single_order_3_to_A_then_2_BJ_RJ():
    """Singles rank 3 < 4 < ... < K < A < 2 < BJ < RJ; suits never matter."""
    chain = [the(c) for c in ["3S", "4D", "9H", "TC", "KS", "AS", "2D", "BJ", "RJ"]]
    strictly_increasing(chain)
    equal(the("7S"), the("7D"))
    assert all(p.type == T.SINGLE and p.pure for p in chain)


def test_spec_a_2_is_never_a_natural_card_of_a_sequence():
    assert readings("2S 3S 4S") == []
    assert readings("AS 2S 3S") == []
    assert readings("QH KH AH 2H") == []
    # nor a wild card of a single sequence
    assert readings("3S 2D 5S") == []


def test_spec_single_joker_is_itself():
    """A joker alone is a single BJ or RJ, never a wild card."""
    assert readings("BJ") == ["SINGLE BJ"]
    assert readings("RJ") == ["SINGLE RJ"]


# -- "Purity" ---------------------------------------------------------------------------
def test_spec_purity_7S_2D_2C_is_three_sevens_beaten_by_pure_or_higher():
    """`7S 2D 2C` is three 7s, beaten by `7S 7H 7D` or `BJ 8S 8D`."""
    low = the("7S 2D 2C")
    assert (low.type, low.rank, low.multiplicity, low.pure) == (T.SET, "7", 3, False)
    assert the("7S 7H 7D").beats(low)
    assert the("BJ 8S 8D").beats(low)
    assert not low.beats(the("7S 7H 7D"))


def test_spec_purity_impure_sets_of_equal_rank_are_equal():
    """`9S 2D 2C`, `BJ 9S 2D` and `9S 9D BJ` are all equal."""
    plays = [the("9S 2D 2C"), the("BJ 9S 2D"), the("9S 9D BJ")]
    for a in plays:
        assert (a.rank, a.pure) == ("9", False)
        for b in plays:
            equal(a, b)


def test_pure_sets_of_equal_rank_are_equal():
    equal(the("7S 7H"), the("7C 7D"))


def test_higher_impure_set_beats_lower_pure_one():
    assert the("8S 2D").beats(the("7S 7H"))
    assert not the("7S 7H").beats(the("8S 2D"))


# -- "Sets of 2s and jokers" ------------------------------------------------------------
def test_spec_2S_2H_is_a_pure_pair_of_twos():
    p = the("2S 2H")
    assert (p.type, p.rank, p.pure, p.wilds) == (T.SET, "2", True, ())


def test_spec_2S_BJ_is_an_impure_pair_of_twos():
    p = the("2S BJ")
    assert (p.type, p.rank, p.pure, p.wilds) == (T.SET, "2", False, ("2H",))
    assert the("2S 2H").beats(p)
    equal(p, the("2D RJ"))


def test_spec_joker_pair_ranks_above_every_pair_of_twos():
    jokers = the("BJ RJ")
    assert (jokers.type, jokers.rank, jokers.pure) == (T.SET, "JOKER", True)
    for pair in ("2S 2H", "2C BJ", "AS AH", "AS 2D"):
        assert jokers.beats(the(pair)) and not the(pair).beats(jokers)


def test_spec_joker_pair_option_off_is_not_a_pair():
    """`joker_pair=False`: `BJ RJ` is not a pair (nor anything else)."""
    assert classify("BJ RJ", rules=NO_JOKER_PAIR) == []
    assert not any(p.cards == Cards("BJ RJ") for p in legal_plays("BJ RJ 5S", rules=NO_JOKER_PAIR))
    # the jokers still stand in for other ranks
    assert readings("2S BJ RJ", rules=NO_JOKER_PAIR) == ["SET 2"]


def test_spec_a_set_of_only_twos_and_jokers_is_a_set_of_twos():
    """With at least one 2 it is a set of 2s, impure if it holds a joker; never another rank."""
    assert readings("2S BJ RJ") == ["SET 2"]
    p = the("2S 2C BJ RJ")
    assert (p.rank, p.multiplicity, p.pure) == ("2", 4, False)
    assert the("2S 2H 2C 2D").pure
    assert the("2S 2H 2C 2D").beats(p)


def test_sets_have_two_to_four_cards():
    assert readings("7S 7H 7C 7D") == ["SET 7"]
    assert readings("7S 7H 7C 7D 2S") == []
    assert readings("7S 7H 7C 2D BJ") == []


def test_sets_need_a_natural_card_of_their_rank():
    """Wild cards never make a set of another rank on their own."""
    assert [p.rank for p in classify("2S 2H")] == ["2"]
    assert [p.rank for p in classify("2S 2H 2C")] == ["2"]


def test_sets_of_different_sizes_never_compete():
    assert not the("8S 8H 8C").beats(the("7S 7H"))
    assert not the("8S 8H").beats(the("7S 7H 7C"))
    assert not the("8S 8H 8C 8D").beats(the("7S 7H 7C"))


def test_set_order_by_rank_then_purity():
    chain = [the("AS 2D"), the("AS AD"), the("2S BJ"), the("2S 2D"), the("BJ RJ")]
    strictly_increasing(chain)


# -- "Single sequences and suits" --------------------------------------------------------
def test_spec_6H_BJ_8H_is_suited_and_beats_7C_8C_9S():
    """`6H BJ 8H` (suited, the joker as 7H) beats `7C 8C 9S`."""
    suited = the("6H BJ 8H", T.SEQUENCE)
    assert (suited.suited, suited.pure, suited.rank, suited.wilds) == (True, False, "8", ("7H",))
    assert suited.declared == Cards("6H 7H 8H")
    mixed = the("7C 8C 9S", T.SEQUENCE)
    assert not mixed.suited and mixed.pure
    assert suited.beats(mixed) and not mixed.beats(suited)


def test_spec_QC_KC_AD_loses_to_3S_4S_5S_which_only_a_higher_suited_beats():
    """`QC KC AD` loses to `3S 4S 5S`, which only a higher suited sequence beats."""
    top_mixed = the("QC KC AD", T.SEQUENCE)
    low_suited = the("3S 4S 5S", T.SEQUENCE)
    assert low_suited.beats(top_mixed) and not top_mixed.beats(low_suited)
    assert the("4H 5H 6H", T.SEQUENCE).beats(low_suited)
    equal(the("3D 4D 5D", T.SEQUENCE), low_suited)
    hand = "QC KC AD 4S 5D 6C 3H 4H 5H 6D 7D 8D"
    followers = legal_plays(hand, low_suited)
    assert sorted(str(p) for p in followers) == [
        "sequence 5-7 suited: 5D 6D 7D",
        "sequence 6-8 suited: 6D 7D 8D",
    ]


def test_suited_at_equal_top_pure_beats_jokers():
    pure = the("5H 6H 7H", T.SEQUENCE)
    impure = the("5S BJ 7S", T.SEQUENCE)
    assert pure.beats(impure) and not impure.beats(pure)
    equal(impure, the("5D 6D RJ", T.SEQUENCE, value=4))


def test_mixed_sequences_compare_by_top_then_purity():
    chain = [
        the("3S 4H 5H", T.SEQUENCE),
        the("4S 5H BJ", T.SEQUENCE, value=3),   # top 6, impure
        the("4S 5H 6H", T.SEQUENCE),            # top 6, pure
        the("5S 6D 7C", T.SEQUENCE),
    ]
    strictly_increasing(chain)


def test_sequences_of_different_lengths_never_compete():
    assert not the("3S 4S 5S 6S", T.SEQUENCE).beats(the("7C 8C 9S", T.SEQUENCE))
    assert not the("JS QD KS", T.SEQUENCE).beats(the("3C 4C 5S 6S", T.SEQUENCE))


def test_spec_joker_reading_5S_6D_BJ_is_4_to_6_or_5_to_7():
    """Every distinct reading of a joker is a play: `5S 6D BJ` is 4-5-6 or 5-6-7."""
    plays = [p for p in classify("5S 6D BJ") if p.type == T.SEQUENCE]
    assert [(p.rank, p.wilds) for p in plays] == [("6", ("4S",)), ("7", ("7S",))]


def test_joker_stands_for_3_and_for_A():
    assert [p.rank for p in classify("BJ 4S 5S") if p.type == T.SEQUENCE] == ["5", "6"]
    assert [p.wilds for p in classify("BJ 4S 5S") if p.type == T.SEQUENCE][0] == ("3S",)
    assert [(p.rank, p.wilds) for p in classify("QH KH RJ") if p.type == T.SEQUENCE] == [
        ("K", ("JH",)),
        ("A", ("AH",)),
    ]
    # at the ends of 3..A a joker can only go inwards
    assert [p.rank for p in classify("3S 4D BJ") if p.type == T.SEQUENCE] == ["5"]
    assert [p.rank for p in classify("KS AD BJ") if p.type == T.SEQUENCE] == ["A"]


def test_jokers_fill_gaps_and_two_jokers_read_three_ways():
    assert [p.wilds for p in classify("5S BJ 7S 8S")] == [("6S",)]
    seqs = [p for p in classify("9C BJ RJ") if p.type == T.SEQUENCE]
    assert [(p.rank, p.wilds, p.suited) for p in seqs] == [
        ("9", ("7C", "8C"), True),
        ("T", ("8C", "TC"), True),
        ("J", ("TC", "JC"), True),
    ]


def test_longest_sequence_3_to_A():
    p = the("3S 4H 5S 6S 7S 8S 9S TS JS QS KS AS", T.SEQUENCE)
    assert (p.num_ranks, p.rank, p.suited) == (12, "A", False)
    assert len(legal_plays("3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS BJ", p)) > 0


# -- "Multiple sequences" ------------------------------------------------------------------
def test_spec_two_twos_for_one_rank_is_not_legal():
    """`7S 7D 2C 2H 9S 9D` is not legal (two 2s for the 8s)."""
    assert classify("7S 7D 2C 2H 9S 9D") == []


def test_spec_BJ_2S_AS_AD_KS_KD_is_only_QQKKAA_and_loses_to_natural():
    """`BJ 2S AS AD KS KD` is only Q-Q-K-K-A-A and loses to a natural Q-Q-K-K-A-A."""
    (p,) = classify("BJ 2S AS AD KS KD")
    assert (p.type, p.multiplicity, p.num_ranks, p.rank, p.pure) == (T.MULTI_SEQUENCE, 2, 3, "A", False)
    natural = the("QH QC KH KC AH AC")
    assert natural.beats(p) and not p.beats(natural)


def test_spec_TTT_to_KKK_cannot_follow_5555_to_7777():
    """`TTT JJJ QQQ KKK` cannot follow `5555 6666 7777` (different shape)."""
    high = the("TS TH TD JS JH JD QS QH QD KS KH KD")
    low = the("5S 5H 5C 5D 6S 6H 6C 6D 7S 7H 7C 7D")
    assert high.length == low.length == 12
    assert (high.multiplicity, high.num_ranks) == (3, 4) and (low.multiplicity, low.num_ranks) == (4, 3)
    assert not high.beats(low) and not low.beats(high)


def test_spec_two_jokers_may_stand_in_for_one_rank():
    p = the("5S 5D BJ RJ 7S 7D")
    assert (p.rank, p.wilds) == ("7", ("6S", "6H"))


def test_a_rank_needs_a_natural_card_or_a_joker():
    """A rank filled by one 2 alone is refused (m = 2: it would need a second 2); a 2
    and a joker may fill a rank."""
    assert classify("5S 5D 2S 2H 7S 7D") == []
    assert readings("5S 5D 2S BJ 7S 7D") == ["MULTI_SEQUENCE 7"]
    # m = 3: one 2 and two jokers fill a rank
    assert readings("5S 5D 5C 2S BJ RJ 7S 7D 7C") == ["MULTI_SEQUENCE 7"]


def test_multi_sequence_twos_one_per_rank():
    p = the("5S 2D 6S 2H 7S 2C")
    assert (p.rank, p.wilds) == ("7", ("5H", "6H", "7H"))
    assert classify("5S 5D 6S 2H 2C 2D") == []  # two 2s would stand for the 7s


def test_multi_sequence_readings_differ_by_top():
    plays = classify("5S 5D 6S 6D BJ 2S")
    assert [(p.rank, p.wilds) for p in plays] == [("6", ("4S", "4H")), ("7", ("7S", "7H"))]


def test_multi_sequence_ranks_run_3_to_A():
    assert classify("AS AD 2S 2H 3S 3D") == []
    assert readings("3S 3D 4S 4D 5S 5D") == ["MULTI_SEQUENCE 5"]
    assert readings("QS QD KS KD AS AD") == ["MULTI_SEQUENCE A"]


def test_multi_sequences_compare_by_shape_top_purity():
    chain = [
        the("5S 5D 6S 6D 7S 7D"),
        the("6S 6D 7S 7D 8S BJ"),
        the("6C 6H 7C 7H 8C 8H"),
    ]
    strictly_increasing(chain)
    assert not the("5S 5D 6S 6D 7S 7D 8S 8D").beats(the("5C 5H 6C 6H 7C 7H"))


def test_no_bombs():
    """"There are no bombs": four of a kind only beats sets of four."""
    four = the("3S 3H 3C 3D")
    assert not four.beats(the("AS"))
    assert not four.beats(the("AS AD"))
    assert set(PlayType) == {T.SINGLE, T.SET, T.SEQUENCE, T.MULTI_SEQUENCE}


# -- Play surface --------------------------------------------------------------------------
def test_play_identity_and_surface():
    a = the("7S 2D 2C")
    b = [p for p in legal_plays("7S 2D 2C 9H") if p.cards == Cards("7S 2D 2C")][0]
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a.shape == (T.SET, 3, 3) and a.length == 3 and a.num_ranks == 1
    assert a.declared == Cards("7S 7H 7C")
    assert repr(a).startswith("<Play triple 7 impure")
    with pytest.raises(TypeError):
        Play()
    with pytest.raises(TypeError):
        a.beats("7S")


def test_classify_bad_input():
    with pytest.raises(ValueError, match="7S"):
        classify("7S 7S")
    with pytest.raises(ValueError, match="'1S'"):
        classify("1S")
    with pytest.raises(TypeError, match="Rules"):
        classify("7S", rules="pagat")


# -- Rules ----------------------------------------------------------------------------------
def test_rules_defaults_and_validation():
    assert Rules() == Rules.pagat() and (Rules().joker_pair, Rules().target) == (True, 11)
    assert Rules(target=5).replace(joker_pair=False) == Rules(joker_pair=False, target=5)
    for bad in (0, -1, 1001):
        with pytest.raises(ValueError, match="target"):
            Rules(target=bad)
    for bad in (1.5, True, "11"):
        with pytest.raises(TypeError, match="target"):
            Rules(target=bad)
    with pytest.raises(TypeError, match="joker_pair"):
        Rules(joker_pair=1)
    with pytest.raises(TypeError):
        Rules(jokers=True)
    assert "joker_pair=True" in repr(Rules())
