"""Dou Dizhu's rules (docs/rules/doudizhu.md): every combination, what beats what, every
worked example of the spec and every rule option, each a named test; the Play and Rules
API and bad input."""
from __future__ import annotations

import pytest

from chupai.cards import Cards
from chupai.doudizhu import BOMB_CLASS, ROCKET_CLASS, Play, PlayType, Rules, classify, from_protocol, legal_plays


def one(cards: str, rules: Rules | None = None) -> Play:
    plays = classify(cards, rules=rules)
    assert len(plays) == 1, [str(p) for p in plays]
    return plays[0]


def names(plays: object) -> list[str]:
    return [str(p) for p in plays]  # type: ignore[attr-defined]


def test_cards_ranks_run_3_to_2_then_the_jokers() -> None:
    order = ["3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS", "2S", "BJ", "RJ"]
    singles = [one(c) for c in order]
    assert [p.key for p in singles] == list(range(15))
    for low, high in zip(singles, singles[1:]):
        assert high.beats(low) and not low.beats(high)


@pytest.mark.parametrize("cards,type_,key", [
    ("7D", PlayType.SINGLE, 4),
    ("7D 7S", PlayType.PAIR, 4),
    ("7D 7S 7H", PlayType.TRIO, 4),
    ("7D 7S 7H 3C", PlayType.TRIO_SINGLE, 4),
    ("7D 7S 7H 3C 3D", PlayType.TRIO_PAIR, 4),
    ("3S 4D 5C 6H 7S", PlayType.STRAIGHT, 4),
    ("TS JD QC KH AS", PlayType.STRAIGHT, 11),
    ("3S 3D 4C 4H 5S 5D", PlayType.PAIR_SEQUENCE, 2),
    ("3S 3D 3C 4S 4H 4C", PlayType.AIRPLANE, 1),
    ("3S 3D 3C 4S 4H 4C 7D 9S", PlayType.AIRPLANE_SINGLES, 1),
    ("3S 3D 3C 4S 4H 4C 7D 7S 9S 9D", PlayType.AIRPLANE_PAIRS, 1),
    ("9S 9D 9C 9H 3D 5S", PlayType.FOUR_TWO_SINGLES, 6),
    ("9S 9D 9C 9H 3D 3S 5S 5H", PlayType.FOUR_TWO_PAIRS, 6),
    ("9S 9D 9C 9H", PlayType.BOMB, 6),
    ("BJ RJ", PlayType.ROCKET, 14),
])
def test_combinations_table(cards: str, type_: PlayType, key: int) -> None:
    p = one(cards)
    assert (p.type, p.key) == (type_, key)
    assert p.bomb_class == {PlayType.BOMB: BOMB_CLASS, PlayType.ROCKET: ROCKET_CLASS}.get(type_, 0)


@pytest.mark.parametrize("cards", [
    "JS QD KC AH 2S",          # a 2 is never in a sequence
    "QS KD AC 2H BJ",
    "3S 4D 5C 6H",             # a straight has 5 ranks or more
    "3S 3D 4C 4H",             # a pair sequence has 3 pairs or more
    "KS KD AC AH 2S 2D",
    "AS AD AC 2S 2D 2C",       # an airplane runs within 3..A
    "3S 4S",                   # two ranks, one card each
    "3S 3D 3C 4S 4H 4C 7D 7S 7C 9D",   # kickers: one per trio, singles or pairs, not mixed
    "3S 3D 3C 4S 4H 4C 7D 7S 9S 9D BJ RJ",
])
def test_what_is_no_combination(cards: str) -> None:
    assert classify(cards) == []


def test_a_combination_beats_only_the_same_type_and_size_with_a_higher_key() -> None:
    five = one("3S 4D 5C 6H 7S")
    assert one("4S 5D 6C 7H 8S").beats(five)
    assert not one("4S 5D 6C 7H 8S 9S").beats(five)  # six ranks against five
    assert not one("8S 8D").beats(one("7S"))
    assert not one("8S 8D 8C 3S").beats(one("7S 7D 7C 4S 4D"))  # trio+single against trio+pair
    assert one("8S 8D 8C 3S").beats(one("7S 7D 7C AS"))  # the trio's rank compares, not the kicker


def test_bombs_beat_every_ordinary_combination_and_the_rocket_everything() -> None:
    bomb3, bomb2, rocket = one("3S 3D 3C 3H"), one("2S 2D 2C 2H"), one("BJ RJ")
    long = one("3S 4D 5C 6H 7S 8S 9S TS JS QS KS AS")
    assert bomb3.beats(long) and bomb3.beats(one("RJ"))
    assert bomb2.beats(bomb3) and not bomb3.beats(bomb2)
    assert rocket.beats(bomb2) and not bomb2.beats(rocket)
    assert not long.beats(bomb3)


def test_following_lists_what_beats_the_play_and_no_pass() -> None:
    previous = one("5S 5H")
    assert names(legal_plays("6D 6C 7S BJ RJ", previous)) == ["pair 6: 6C 6D", "rocket: BJ RJ"]
    assert names(legal_plays("4D 4C 3S", previous)) == []


def test_one_set_of_cards_reading_several_ways_is_several_plays() -> None:
    """The spec's example: with kickers that may repeat a rank, 333444555666 is an
    airplane of four trios, or 444555666 (or 333444555) with three single kickers."""
    cards = "3S 3H 3C 4S 4H 4C 5S 5H 5C 6S 6H 6C"
    rules = Rules(airplane_repeat_kickers=True)
    got = sorted((p.type, p.key, p.length) for p in classify(cards, rules=rules))
    assert got == [(PlayType.AIRPLANE, 3, 12), (PlayType.AIRPLANE_SINGLES, 2, 12), (PlayType.AIRPLANE_SINGLES, 3, 12)]
    listed = [p for p in legal_plays(cards, rules=rules) if p.length == 12]
    assert len(listed) == 3 and len(set(listed)) == 3
    # with distinct kickers only (the default) the airplane of four trios alone
    assert [p.type for p in classify(cards)] == [PlayType.AIRPLANE]


def test_option_four_with_two() -> None:
    assert [p.type for p in classify("9S 9D 9C 9H 3D 5S")] == [PlayType.FOUR_TWO_SINGLES]
    assert classify("9S 9D 9C 9H 3D 5S", rules=Rules(four_with_two=False)) == []
    assert all(p.type != PlayType.FOUR_TWO_PAIRS for p in legal_plays("9S 9D 9C 9H 3D 3S 5S 5H",
                                                                      rules=Rules(four_with_two=False)))


def test_option_four_two_pair() -> None:
    """``5555 + 9 9``: the two single kickers may be a pair."""
    assert [p.type for p in classify("5S 5D 5C 5H 9S 9D")] == [PlayType.FOUR_TWO_SINGLES]
    assert classify("5S 5D 5C 5H 9S 9D", rules=Rules(four_two_pair=False)) == []


def test_option_kicker_rocket() -> None:
    assert classify("5S 5D 5C 5H BJ RJ") == []
    assert [p.type for p in classify("5S 5D 5C 5H BJ RJ", rules=Rules(kicker_rocket=True))] == [
        PlayType.FOUR_TWO_SINGLES]
    assert classify("3S 3D 3C 4S 4H 4C BJ RJ") == []
    assert len(classify("3S 3D 3C 4S 4H 4C BJ RJ", rules=Rules(kicker_rocket=True))) == 1


def test_option_airplane_repeat_kickers_rlcard_33344455() -> None:
    """RLCard lists 33344455 (``333444 + 5 5``) as legal (rlcard issue #300)."""
    assert classify("3S 3D 3C 4S 4H 4C 5S 5D") == []
    assert [p.type for p in classify("3S 3D 3C 4S 4H 4C 5S 5D", rules=Rules.rlcard())] == [PlayType.AIRPLANE_SINGLES]


def test_option_kicker_splits_bomb() -> None:
    """A hand holding 9999: a 9 may be the kicker of 333 unless the option is off."""
    hand = "3S 3D 3C 9S 9D 9C 9H"
    kicked = {str(p) for p in legal_plays(hand, collapse_suits=True) if p.type == PlayType.TRIO_SINGLE}
    assert kicked == {"trio 3 with a single: 3S 3C 3D 9S", "trio 9 with a single: 3S 9S 9H 9C"}
    kept = {str(p) for p in legal_plays(hand, rules=Rules(kicker_splits_bomb=False), collapse_suits=True)
            if p.type == PlayType.TRIO_SINGLE}
    assert kept == {"trio 9 with a single: 3S 9S 9H 9C"}  # the trio may come from the four; the kicker not


def test_option_kicker_trio_rank() -> None:
    """``333 + 3``: the fourth card of the trio's rank as its kicker."""
    assert [p.type for p in classify("3S 3D 3C 3H")] == [PlayType.BOMB]
    assert [p.type for p in classify("3S 3D 3C 3H", rules=Rules(kicker_trio_rank=True))] == [
        PlayType.TRIO_SINGLE, PlayType.BOMB]


def test_presets() -> None:
    assert Rules() == Rules(four_with_two=True, four_two_pair=True, kicker_rocket=False,
                            airplane_repeat_kickers=False, kicker_splits_bomb=True, kicker_trio_rank=False)
    assert not Rules.openspiel().four_with_two and Rules.openspiel().airplane_repeat_kickers
    assert Rules.rlcard().airplane_repeat_kickers and Rules.douzero().kicker_rocket
    assert Rules.openspiel(four_with_two=True).four_with_two


def test_play_protocol_round_trip_and_str() -> None:
    for p in legal_plays("3S 3D 3C 4S 4H 4C 7D 7S 9S 9D BJ RJ 2S 2D 2C 2H"):
        assert from_protocol(p.to_protocol()) == p
    assert str(one("9S 9D 9C 9H 3D 5S")) == "four 9 with two singles: 3D 5S 9S 9H 9C 9D"
    assert one("TS JD QC KH AS").ranks == ("T", "J", "Q", "K", "A")


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="twice"):
        classify(Cards("3S 3S", decks=2))
    with pytest.raises(ValueError):
        legal_plays("3S XX")
    with pytest.raises(TypeError, match="kicker_rocket"):
        Rules(kicker_rocket=1)  # type: ignore[arg-type]
    with pytest.raises((TypeError, ValueError)):
        legal_plays("3S", "4S")  # type: ignore[arg-type]
    with pytest.raises((TypeError, ValueError), match="collapse_suits"):
        legal_plays("3S", collapse_suits=2)  # type: ignore[arg-type]
