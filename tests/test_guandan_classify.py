"""Guan Dan recognition (``classify``), the brute-force reference built on it, the
competition protocol of ``Play``, and ``Cards``.

The rules are those of ``docs/rules/guandan.md``; tests of a "Worked check" of that spec are
named ``test_worked_check_*``.
"""
from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chupai.core.records import BITS_PER_RANK, BLACK_JOKER_BIT, NUM_FACES, RED_JOKER_BIT
from chupai.cards import RANKS, SUITS, Cards, face_name, parse_face
from chupai.guandan import BOMB_CLASS, Play, PlayType, Rules, classify, from_protocol
from chupai.guandan.classify import _classify_natural
from chupai.guandan.play import make_level, wild_face, window_ranks
from guandan_reference import (
    POWER_SET_MAX_CARDS,
    collapse_key,
    full_power_set_plays,
    random_dense_hand,
    random_hand,
    reference_plays,
)

T = PlayType
COMPETITION = Rules.competition()
NO_JOKER_PAIR = Rules(joker_pair_in_full_house=False)
ALL_RULES = [
    Rules(straight_flush_as_straight=sf, joker_pair_in_full_house=jp)
    for sf in (True, False)
    for jp in (True, False)
]


def readings(cards: str, level: str, rules: Rules | None = None) -> list[tuple[PlayType, str]]:
    """(type, rank name) of every play of ``classify``, in its order."""
    return [(p.type, p.rank) for p in classify(cards, level, rules=rules)]


def the(cards: str, level: str, type_: PlayType, rules: Rules | None = None) -> Play:
    """The one play of ``type_`` these cards form."""
    plays = [p for p in classify(cards, level, rules=rules) if p.type == type_]
    assert len(plays) == 1, (cards, level, type_, plays)
    return plays[0]


def strictly_increasing(plays: list[Play]) -> None:
    """Each play beats every earlier one and none beats a later one."""
    for i, low in enumerate(plays):
        for high in plays[i + 1 :]:
            assert high.beats(low), (high, low)
            assert not low.beats(high), (low, high)


# -- Worked checks of docs/rules/guandan.md --------------------------------------------------


def test_worked_check_level7_straight_with_wild_as_five():
    """Worked check: level 7, `3D 4S 7H 6C 7S` is a straight with key 7 (7H as the 5);
    `4S 5D 6C 7S 8D` (key 8) beats it."""
    [low] = classify("3D 4S 7H 6C 7S", "7")
    assert (low.type, low.rank) == (T.STRAIGHT, "7")
    assert low.wilds == ("5H",)
    assert low.declared == Cards("3D 4S 5H 6C 7S")
    high = the("4S 5D 6C 7S 8D", "7", T.STRAIGHT)
    assert high.rank == "8"
    strictly_increasing([low, high])


def test_worked_check_level4_bomb_order():
    """Worked check: level 4, `AS AH AC AD` < `4S 4H 4C 4D` < `2S 2H 2C 2D 2S` <
    `4S 4S 4C 4D 4D` < a same-suit A-2-3-4-5."""
    chain = [
        the("AS AH AC AD", "4", T.BOMB),
        the("4S 4H 4C 4D", "4", T.BOMB),
        the("2S 2H 2C 2D 2S", "4", T.BOMB),
        the("4S 4S 4C 4D 4D", "4", T.BOMB),
        the("AC 2C 3C 4C 5C", "4", T.STRAIGHT_FLUSH),
    ]
    assert [p.bomb_class for p in chain] == [1, 1, 2, 2, 3]
    assert chain[1].wilds == ("4H",)  # the wild 4H stands for itself
    strictly_increasing(chain)


def test_worked_check_level9_five_of_a_kind_order():
    """Worked check: level 9, the highest 5-of-a-kind is five 9s, then five aces, lowest five 2s."""
    bombs = [the(" ".join(f"{r}{s}" for s in "SSCCD"), "9", T.BOMB) for r in RANKS]
    bombs.sort(key=lambda p: p.key)
    assert [p.rank for p in bombs] == list("2345678TJQKA9")
    strictly_increasing(bombs)


def test_worked_check_level2_two_full_houses():
    """Worked check: level 2, `8S 8D 2H KS KD` is two plays (full house key 8, key K)."""
    plays = classify("8S 8D 2H KS KD", "2")
    assert [(p.type, p.rank, p.wilds) for p in plays] == [
        (T.FULL_HOUSE, "8", ("8H",)),
        (T.FULL_HOUSE, "K", ("KH",)),
    ]
    assert len(set(plays)) == 2


def test_worked_check_level2_wild_pair_and_no_pair_with_joker():
    """Worked check: level 2, `2H 2H` is a pair ranking as level cards; `2H BJ` is not a pair."""
    [wild_pair] = classify("2H 2H", "2")
    [level_pair] = classify("2S 2D", "2")
    assert (wild_pair.type, wild_pair.rank) == (T.PAIR, "2")
    assert wild_pair.key == level_pair.key
    assert not wild_pair.beats(level_pair) and not level_pair.beats(wild_pair)
    assert wild_pair.beats(the("AS AD", "2", T.PAIR))
    assert classify("2H BJ", "2") == []


def test_worked_check_four_jokers_hand():
    """Worked check: a hand `BJ BJ RJ RJ` forms four jokers, pairs `BJ BJ` and `RJ RJ`,
    singles, and no pair `BJ RJ`."""
    plays = reference_plays("BJ BJ RJ RJ", "2")
    assert sorted((p.type, p.rank, str(p.cards)) for p in plays) == [
        (T.SINGLE, "BJ", "BJ"),
        (T.SINGLE, "RJ", "RJ"),
        (T.PAIR, "BJ", "BJ BJ"),
        (T.PAIR, "RJ", "RJ RJ"),
        (T.FOUR_JOKERS, "JOKER", "BJ BJ RJ RJ"),
    ]
    assert classify("BJ RJ", "2") == []


# -- each type at its edges -------------------------------------------------------------


@pytest.mark.parametrize(
    "cards, rank, key",
    [("AS 2D 3C 4H 5S", "5", 0), ("6S 7D 8C 9H TS", "T", 5), ("TS JD QC KH AS", "A", 9)],
)
def test_straight_edges(cards, rank, key):
    assert readings(cards, "7") == [(T.STRAIGHT, rank)]
    assert classify(cards, "7")[0].key == key


@pytest.mark.parametrize("cards", ["KS AD 2C 3H 4S", "QS KD AC 2H 3S", "JS QD KC AH 2S"])
def test_ace_is_never_in_the_middle_of_a_straight(cards):
    assert classify(cards, "7") == []


def test_lowest_and_highest_straights():
    straights = [
        the(" ".join(RANKS[r] + "SDCSD"[j] for j, r in enumerate(window_ranks(p, 5))), "7", T.STRAIGHT)
        for p in range(10)
    ]
    assert [p.rank for p in straights] == list("56789TJQKA")
    strictly_increasing(straights)


@pytest.mark.parametrize(
    "cards, type_, rank",
    [
        ("AS AD 2S 2D 3C 3C", T.TUBE, "3"),
        ("QS QD KS KD AC AH", T.TUBE, "A"),
        ("AS AD AC 2S 2D 2C", T.PLATE, "2"),
        ("KS KD KC AS AD AC", T.PLATE, "A"),
    ],
)
def test_tube_and_plate_edges(cards, type_, rank):
    assert readings(cards, "7") == [(type_, rank)]


def test_tube_and_plate_order():
    tubes = [the("AS AD 2S 2D 3C 3C", "7", T.TUBE), the("QS QD KS KD AC AH", "7", T.TUBE)]
    plates = [the("AS AD AC 2S 2D 2C", "7", T.PLATE), the("KS KD KC AS AD AC", "7", T.PLATE)]
    assert [p.key for p in tubes + plates] == [0, 11, 0, 12]
    strictly_increasing(tubes)
    strictly_increasing(plates)
    assert not plates[1].beats(tubes[0]) and not tubes[1].beats(plates[0])


@pytest.mark.parametrize("cards", ["KS KD AS AD 2C 2C", "KS KD KC AS AD AC 2S", "AS AD AC 3S 3D 3C"])
def test_no_tube_or_plate_across_the_ace_or_with_a_gap(cards):
    assert classify(cards, "7") == []


def test_level_cards_keep_their_natural_place_in_sequences():
    assert readings("3S 4D 5C 6S 7D", "5") == [(T.STRAIGHT, "7")]
    assert readings("5C 5D 6C 6D 7S 7D", "5") == [(T.TUBE, "7")]
    assert readings("4S 4C 4D 5S 5C 5D", "5") == [(T.PLATE, "5")]
    assert readings("AS 2D 3C 4H 5S", "A") == [(T.STRAIGHT, "5")]
    assert readings("TS JD QC KH AS", "A") == [(T.STRAIGHT, "A")]


def test_level_order_of_singles():
    """At level 8: 2 3 4 5 6 7 9 T J Q K A 8 BJ RJ."""
    singles = [the(c, "8", T.SINGLE) for c in "2S 3S 4S 5S 6S 7S 9S TS JS QS KS AS 8S BJ RJ".split()]
    assert [p.key for p in singles] == list(range(15))
    strictly_increasing(singles)


def test_level_order_of_pairs_and_triples():
    pairs = [the(f"{r}S {r}D", "Q", T.PAIR) for r in "23456789TJKAQ"] + [
        the("BJ BJ", "Q", T.PAIR),
        the("RJ RJ", "Q", T.PAIR),
    ]
    strictly_increasing(pairs)
    triples = [the(f"{r}S {r}D {r}C", "Q", T.TRIPLE) for r in "23456789TJKAQ"]
    strictly_increasing(triples)


def test_wild_single_ranks_as_a_level_card():
    """A wild `6H` at level 6 equals `6S`; neither beats the other."""
    [wild] = classify("6H", "6")
    [natural] = classify("6S", "6")
    assert (wild.type, wild.rank, wild.key, wild.wilds) == (T.SINGLE, "6", natural.key, ("6H",))
    assert not wild.beats(natural) and not natural.beats(wild)
    assert wild.beats(the("AS", "6", T.SINGLE)) and the("BJ", "6", T.SINGLE).beats(wild)


def test_joker_pairs():
    black, red = the("BJ BJ", "2", T.PAIR), the("RJ RJ", "2", T.PAIR)
    assert (black.rank, red.rank) == ("BJ", "RJ")
    strictly_increasing([the("2S 2D", "2", T.PAIR), black, red])
    assert classify("BJ RJ", "2") == []


@pytest.mark.parametrize("cards", ["BJ 2H", "RJ 2H", "BJ BJ 2H", "BJ BJ RJ RJ 2H", "BJ BJ RJ 2H", "BJ RJ 2H 2H"])
def test_wild_never_stands_for_or_pairs_with_a_joker(cards):
    assert classify(cards, "2") == []


def test_wild_cards_alone_rank_as_level_cards():
    assert readings("2H", "2") == [(T.SINGLE, "2")]
    assert readings("2H 2H", "2") == [(T.PAIR, "2")]
    assert classify("2H 2H", "2")[0].wilds == ("2H", "2H")


def test_wild_cards_in_same_rank_combinations():
    assert [(p.type, p.rank, p.wilds) for p in classify("5S 2H", "2")] == [(T.PAIR, "5", ("5H",))]
    assert [(p.type, p.rank, p.wilds) for p in classify("5S 2H 2H", "2")] == [(T.TRIPLE, "5", ("5H", "5H"))]
    assert [(p.type, p.rank, p.wilds) for p in classify("5S 5D 2H 2H", "2")] == [(T.BOMB, "5", ("5H", "5H"))]


@pytest.mark.parametrize(
    "cards, length",
    [
        ("8S 8S 8C 8D", 4),
        ("8S 8S 8C 8D 8D", 5),
        ("8S 8S 8H 8C 8D 8D", 6),
        ("8S 8S 8H 8H 8C 8D 8D", 7),
        ("8S 8S 8H 8H 8C 8C 8D 8D", 8),
        ("8S 8S 8H 8H 8C 8C 8D 8D 2H", 9),
        ("8S 8S 8H 8H 8C 8C 8D 8D 2H 2H", 10),
    ],
)
def test_n_of_a_kind_bombs(cards, length):
    bomb = the(cards, "2", T.BOMB)
    assert (bomb.rank, len(bomb.cards), bomb.bomb_class) == ("8", length, BOMB_CLASS[(T.BOMB, length)])
    assert len(bomb.declared) == length and {card[0] for card in bomb.declared} == {"8"}


def test_nine_and_ten_of_a_kind_exist_only_with_wilds():
    # at level 8 the two 8H are wild, so eight 8s are the most there are
    assert readings("8S 8S 8H 8H 8C 8C 8D 8D", "8") == [(T.BOMB, "8")]
    assert classify("8S 8S 8H 8H 8C 8C 8D 8D 2H", "8") == []
    assert classify("8S 8S 8H 8H 8C 8C 8D 8D 2H 2H 3S", "2") == []  # eleven cards


def test_four_jokers():
    four = the("BJ BJ RJ RJ", "2", T.FOUR_JOKERS)
    assert (four.key, four.bomb_class, four.wilds) == (0, BOMB_CLASS[(T.FOUR_JOKERS, 4)], ())
    assert four.beats(the("8S 8S 8H 8H 8C 8C 8D 8D 2H 2H", "2", T.BOMB))


def test_bomb_classes_in_order():
    """Any bomb of a higher class beats any bomb of a lower class: each class's highest
    bomb loses to the next class's lowest."""
    level = "5"
    chain = [
        the("2S 2S 2C 2D", level, T.BOMB),
        the("5S 5S 5C 5D", level, T.BOMB),
        the("2S 2S 2C 2D 2D", level, T.BOMB),
        the("5S 5S 5C 5D 5D", level, T.BOMB),
        the("AC 2C 3C 4C 5C", level, T.STRAIGHT_FLUSH),
        the("TC JC QC KC AC", level, T.STRAIGHT_FLUSH),
        the("2S 2S 2H 2C 2D 2D", level, T.BOMB),
        the("5S 5S 5C 5C 5D 5H", level, T.BOMB),
        the("2S 2S 2H 2C 2C 2D 2D", level, T.BOMB),
        the("2S 2S 2H 2H 2C 2C 2D 2D", level, T.BOMB),
        the("2S 2S 2H 2H 2C 2C 2D 2D 5H", level, T.BOMB),
        the("2S 2S 2H 2H 2C 2C 2D 2D 5H 5H", level, T.BOMB),
        the("BJ BJ RJ RJ", level, T.FOUR_JOKERS),
    ]
    assert [p.bomb_class for p in chain] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8, 9]
    strictly_increasing(chain)
    assert chain[0].beats(the("RJ RJ", level, T.PAIR))
    assert not the("RJ RJ", level, T.PAIR).beats(chain[0])


def test_straight_flush_with_wild_standing_for_the_flush_suit():
    plays = classify("3S 4S 5S 6S 2H", "2")
    assert [(p.type, p.rank, p.wilds) for p in plays] == [
        (T.STRAIGHT, "6", ("2H",)),
        (T.STRAIGHT, "7", ("7H",)),
        (T.STRAIGHT_FLUSH, "6", ("2S",)),
        (T.STRAIGHT_FLUSH, "7", ("7S",)),
    ]


def test_two_wilds_fill_different_ranks():
    assert [(p.type, p.rank, p.wilds) for p in classify("3S 5D 7C 2H 2H", "2")] == [(T.STRAIGHT, "7", ("4H", "6H"))]


def test_declarations_are_in_ascending_face_order():
    """The ace of a low window is declared after the 2 (face numbers ascending)."""
    assert [(p.type, p.rank, p.wilds) for p in classify("3S 4D 5C 2H 2H", "2")] == [
        (T.STRAIGHT, "5", ("2H", "AH")),
        (T.STRAIGHT, "6", ("2H", "6H")),
        (T.STRAIGHT, "7", ("6H", "7H")),
    ]
    assert the("2S 2C 3S AS 2H 2H", "2", T.TUBE).wilds == ("3H", "AH")
    flushes = [p for p in classify("3S 4S 5S 2H 2H", "2") if p.type == T.STRAIGHT_FLUSH]
    assert [p.wilds for p in flushes] == [("2S", "AS"), ("2S", "6S"), ("6S", "7S")]


def test_wild_in_its_natural_place_in_a_straight():
    assert [(p.type, p.rank, p.wilds) for p in classify("3S 4D 5C 6S 7H", "7")] == [
        (T.STRAIGHT, "6", ("2H",)),
        (T.STRAIGHT, "7", ("7H",)),
    ]


def test_option_straight_flush_as_straight():
    """Both ways by default; under False only a straight flush when the physical cards
    are one suit (a wild is a heart)."""
    assert readings("3S 4S 5S 6S 7S", "9") == [(T.STRAIGHT, "7"), (T.STRAIGHT_FLUSH, "7")]
    assert readings("3S 4S 5S 6S 7S", "9", COMPETITION) == [(T.STRAIGHT_FLUSH, "7")]
    # the spec's examples at level 2
    both = [(T.STRAIGHT, "6"), (T.STRAIGHT, "7"), (T.STRAIGHT_FLUSH, "6"), (T.STRAIGHT_FLUSH, "7")]
    assert readings("3S 4S 5S 6S 2H", "2") == both
    assert readings("3S 4S 5S 6S 2H", "2", COMPETITION) == both
    assert readings("3H 4H 5H 6H 2H", "2") == both
    assert readings("3H 4H 5H 6H 2H", "2", COMPETITION) == [(T.STRAIGHT_FLUSH, "6"), (T.STRAIGHT_FLUSH, "7")]
    # mixed suits are never a straight flush
    assert readings("3S 4S 5S 6D 7S", "9", COMPETITION) == [(T.STRAIGHT, "7")]


def test_option_joker_pair_in_full_house():
    assert readings("8S 8C 8D BJ BJ", "2") == [(T.FULL_HOUSE, "8")]
    assert readings("8S 8C 8D RJ RJ", "2") == [(T.FULL_HOUSE, "8")]
    assert readings("8S 8C 8D BJ BJ", "2", NO_JOKER_PAIR) == []
    assert [(p.type, p.rank, p.wilds) for p in classify("8S 8C 2H RJ RJ", "2")] == [(T.FULL_HOUSE, "8", ("8H",))]
    assert classify("8S 8C 8D BJ RJ", "2") == []
    assert classify("8S 8C BJ BJ RJ", "2") == []


def test_full_house_or_five_of_a_kind_with_two_wilds():
    """`8S 8C 8D 2H 2H` at level 2 is a full house of 8s and a 5-of-a-kind bomb of 8s."""
    house, bomb = classify("8S 8C 8D 2H 2H", "2")
    assert (house.type, house.rank, house.wilds, house.bomb_class) == (T.FULL_HOUSE, "8", ("2H", "2H"), 0)
    assert (bomb.type, bomb.rank, bomb.wilds, bomb.bomb_class) == (T.BOMB, "8", ("8H", "8H"), 2)


def test_five_natural_cards_of_one_rank_are_never_a_full_house():
    assert readings("8S 8S 8C 8D 8D", "2") == [(T.BOMB, "8")]
    assert readings("8S 8C 8D 8D 2H", "2") == [(T.BOMB, "8")]


def test_full_house_of_the_level_rank_with_a_wild_pair():
    """Canonical declaration: two wilds as the pair of a triple of the level rank are
    the lowest other rank."""
    house, bomb = classify("2S 2C 2D 2H 2H", "2")
    assert (house.type, house.rank, house.wilds) == (T.FULL_HOUSE, "2", ("3H", "3H"))
    assert (bomb.type, bomb.rank, bomb.wilds) == (T.BOMB, "2", ("2H", "2H"))
    assert the("9S 9C 9D 9H 9H", "9", T.FULL_HOUSE).wilds == ("2H", "2H")


def test_full_house_key_is_the_triple():
    """8-8-8-K-K does not beat 8-8-8-5-5."""
    kings, fives = the("8S 8C 8D KS KD", "2", T.FULL_HOUSE), the("8S 8C 8D 5S 5D", "2", T.FULL_HOUSE)
    assert kings.key == fives.key and not kings.beats(fives) and not fives.beats(kings)
    strictly_increasing([fives, the("9S 9C 9D 5S 5D", "2", T.FULL_HOUSE), the("2S 2C 2D 5S 5D", "2", T.FULL_HOUSE)])


def test_types_never_beat_other_types():
    single, pair = the("AS", "2", T.SINGLE), the("3S 3D", "2", T.PAIR)
    straight, tube = the("3S 4D 5C 6H 7S", "2", T.STRAIGHT), the("3S 3D 4S 4D 5S 5D", "2", T.TUBE)
    for a, b in itertools.permutations([single, pair, straight, tube], 2):
        assert not a.beats(b)


@pytest.mark.parametrize("cards", ["", "2S 3S", "2S 2D 3S 3D", "BJ RJ", "3S 4D 5C 6H", "3S 4D 5C 6H 8S"])
def test_not_combinations(cards):
    assert classify(cards, "9") == []


# -- input handling ---------------------------------------------------------------------


def test_cards_and_level_spellings():
    base = classify("TS JD QC KH AS", "T")
    assert classify(Cards("TS JD QC KH AS"), "T") == base
    assert classify("10s jd qc kh as", "10") == base
    assert classify("10♠ J♦ Q♣ K♥ A♠", "t") == base
    assert classify("TS JD QC KH AS", 10) == base
    assert base[0].level == "T"


@pytest.mark.parametrize("level", ["1", "Z", "", "11", 1, 15])
def test_bad_level_is_named(level):
    with pytest.raises(ValueError, match="level"):
        classify("2S", level)


@pytest.mark.parametrize("level", [None, True, 7.0])
def test_level_of_the_wrong_type_is_a_type_error(level):
    with pytest.raises(TypeError, match="level"):
        classify("2S", level)


@pytest.mark.parametrize("cards, token", [("2S 7X", "7X"), ("1S", "1S"), ("BJ JB", "JB"), ("2S 2S 2S", "2S")])
def test_bad_cards_are_named(cards, token):
    with pytest.raises(ValueError, match=token):
        classify(cards, "2")


def test_bad_rules_are_rejected():
    with pytest.raises(TypeError, match="rules"):
        classify("2S", "2", rules={"straight_flush_as_straight": False})


# -- properties of every classification --------------------------------------------------

RULES = st.builds(Rules, straight_flush_as_straight=st.booleans(), joker_pair_in_full_house=st.booleans())


@st.composite
def dense_card_sets(draw, max_size: int = 10):
    """(cards, level): up to ``max_size`` cards of five consecutive ranks, the level's
    wild cards and the jokers, each face at most twice."""
    level = draw(st.sampled_from(RANKS))
    window = window_ranks(draw(st.integers(0, 9)), 5)
    pool = [r * BITS_PER_RANK + s for r in window for s in range(len(SUITS))]
    pool += [wild_face(make_level(level)), BLACK_JOKER_BIT, RED_JOKER_BIT]
    faces = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=max_size))
    counts = [0] * NUM_FACES
    for f in faces:
        counts[f] = min(counts[f] + 1, 2)
    return Cards.from_counts(counts), level


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dense_card_sets(), RULES)
def test_every_play_is_well_formed(case, rules):
    """Sorted and distinct; declared cards are a natural combination of the same type and
    key; one declaration per wild card, never a joker; bomb class from BOMB_CLASS."""
    cards, level = case
    plays = classify(cards, level, rules=rules)
    assert [(p.type, p.key) for p in plays] == sorted({(p.type, p.key) for p in plays})
    wilds = cards.count(face_name(wild_face(make_level(level))))
    for p in plays:
        assert p.cards == cards and p.level == RANKS[make_level(level)]
        assert len(p.wilds) == wilds and all(w not in ("BJ", "RJ") for w in p.wilds)
        assert list(p.wilds) == sorted(p.wilds, key=parse_face)
        assert len(p.declared) == len(cards)
        assert (p.type, p.key) in _classify_natural(p.declared.counts(), level, rules)
        assert p.bomb_class == BOMB_CLASS.get((p.type, len(cards)), 0)
        assert p.is_bomb == (p.bomb_class > 0)


def _declaration_readings(cards: Cards, level: str, rules: Rules) -> set[tuple[int, int]]:
    """(type, key) of every reading of ``cards`` found by trying every declaration of
    its wild cards (each any suited card) and reading the result naturally, with the
    two wild-card rules that a natural reading cannot see: wild cards alone rank as
    level cards, and the straight_flush_as_straight option looks at physical suits."""
    wild = wild_face(make_level(level))
    counts = cards.counts()
    n_wild = counts[wild]
    natural_rules = rules.replace(straight_flush_as_straight=True)
    if n_wild == sum(counts):
        declarations = [(wild,) * n_wild]
    else:
        declarations = itertools.combinations_with_replacement(range(BLACK_JOKER_BIT), n_wild)
    found = set()
    for decl in declarations:
        declared = list(counts)
        declared[wild] -= n_wild
        for f in decl:
            declared[f] += 1
        found.update(_classify_natural(declared, level, natural_rules))
    physical_suits = {SUITS[f % BITS_PER_RANK] for f in cards.faces() if f < BLACK_JOKER_BIT}
    if not rules.straight_flush_as_straight and len(physical_suits) == 1:
        found = {(t, k) for t, k in found if t != T.STRAIGHT}
    return found


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dense_card_sets(max_size=7), RULES)
def test_wild_readings_agree_with_trying_every_declaration(case, rules):
    cards, level = case
    wild = f"{level}H"
    if wild not in cards:
        cards = cards + Cards(wild)
    got = {(p.type, p.key) for p in classify(cards, level, rules=rules)}
    assert got == _declaration_readings(cards, level, rules)


def test_natural_reading_sees_no_wilds():
    assert _classify_natural(Cards("2H 2H").counts(), "2") == [(T.PAIR, 12)]
    # 2H is the natural 2 of hearts: only the straight 2-6, no straight flush
    assert _classify_natural(Cards("3S 4S 5S 6S 2H").counts(), "2") == [(T.STRAIGHT, 1)]
    counts = Cards("8S 8S 8H 8H 8C 8C 8D 8D").counts()
    counts[parse_face("8H")] += 2  # declared cards of a ten of a kind: 8H four times
    assert _classify_natural(counts, "2") == [(T.BOMB, the("8S 8C 8D 8D", "2", T.BOMB).key)]


# -- the brute-force reference ------------------------------------------------------------


def _small_hands(count: int) -> list[tuple[Cards, str, Rules]]:
    rng = random.Random(20240611)
    hands = []
    for i in range(count):
        level = rng.choice(RANKS)
        n = rng.randint(6, POWER_SET_MAX_CARDS)
        if i % 4 == 0:
            hand = random_hand(rng, n)
        else:
            hand = random_dense_hand(rng, n, level, width=rng.choice((3, 5, 6)))
        hands.append((hand, level, rng.choice(ALL_RULES)))
    return hands


@pytest.mark.parametrize("hand, level, rules", _small_hands(60))
def test_reference_equals_full_power_set(hand, level, rules):
    """The reference's pruning loses nothing: it equals classifying every sub-multiset."""
    assert reference_plays(hand, level, rules=rules) == full_power_set_plays(hand, level, rules)


@pytest.mark.slow
def test_reference_equals_full_power_set_many():
    for hand, level, rules in _small_hands(1500):
        assert reference_plays(hand, level, rules=rules) == full_power_set_plays(hand, level, rules), (hand, level)


def test_full_power_set_refuses_large_hands():
    with pytest.raises(ValueError, match="at most"):
        full_power_set_plays(random_hand(1, POWER_SET_MAX_CARDS + 1), "2")


def test_reference_filters_by_previous():
    hand = random_hand(random.Random(7), 27)
    everything = reference_plays(hand, "5")
    for previous in (the("9S", "5", T.SINGLE), the("3S 3D 4S 4D 5S 5C", "5", T.TUBE), the("AS AD AC AH", "5", T.BOMB)):
        following = reference_plays(hand, "5", previous=previous)
        assert following == {p for p in everything if p.beats(previous)}
        assert {p for p in everything if p.is_bomb and p.bomb_class > previous.bomb_class} <= following


def test_reference_counts_a_small_hand():
    """Level 2, `2H 3S 3D`: singles 2H 3S 3D (3S and 3D are different plays),
    pair 3S 3D, pairs 3S+2H and 3D+2H, triple 3S 3D 2H."""
    plays = reference_plays("2H 3S 3D", "2")
    assert {(p.type, str(p.cards)) for p in plays} == {
        (T.SINGLE, "2H"),
        (T.SINGLE, "3S"),
        (T.SINGLE, "3D"),
        (T.PAIR, "2H 3S"),
        (T.PAIR, "2H 3D"),
        (T.PAIR, "3S 3D"),
        (T.TRIPLE, "2H 3S 3D"),
    }
    assert len(plays) == 7


def test_random_hands_are_seeded():
    assert random_hand(5, 27) == random_hand(random.Random(5), 27)
    assert random_hand(np.random.default_rng(5), 27) == random_hand(np.random.default_rng(5), 27)
    hand = random_hand(np.random.default_rng(1), 108)
    assert len(hand) == 108 and all(c == 2 for c in hand.counts())
    dense = random_dense_hand(9, 12, "7")
    assert len(dense) == 12 and max(dense.counts()) <= 2
    with pytest.raises(ValueError):
        random_hand(1, 109)
    with pytest.raises(ValueError):
        random_hand("seed", 5)


# -- the suit-collapsed view ----------------------------------------------------------------


def test_collapse_key_erases_suits_only():
    def group(cards, level, type_):
        return collapse_key(the(cards, level, type_))

    assert group("7S 7D", "2", T.PAIR) == group("7C 7H", "2", T.PAIR)
    assert group("3S 4D 5C 6H 7S", "2", T.STRAIGHT) == group("3D 4D 5C 6S 7C", "2", T.STRAIGHT)
    # a wild card counts apart from the other cards of its rank
    assert group("2H 2S", "2", T.PAIR) != group("2D 2S", "2", T.PAIR)
    assert group("2H 2S", "2", T.PAIR)[2][-1] == 1
    # jokers are two ranks of their own
    assert group("8S 8C 8D BJ BJ", "2", T.FULL_HOUSE)[2][13:] == (2, 0, 0)
    # a straight flush keeps its suit
    assert group("3S 4S 5S 6S 7S", "2", T.STRAIGHT_FLUSH)[3] == "S"
    assert group("3S 4S 5S 6S 7S", "2", T.STRAIGHT_FLUSH) != group("3C 4C 5C 6C 7C", "2", T.STRAIGHT_FLUSH)
    assert group("3S 4S 5S 7S 2H", "2", T.STRAIGHT_FLUSH)[3] == "S"
    assert group("3S 4S 5S 6S 7S", "2", T.STRAIGHT)[3] is None


def test_collapsed_groups_partition_the_plays():
    hand = random_hand(random.Random(11), 27)
    plays = reference_plays(hand, "9")
    groups: dict = {}
    for p in plays:
        groups.setdefault(collapse_key(p), []).append(p)
    assert sum(len(g) for g in groups.values()) == len(plays)
    assert len(groups) < len(plays)
    for (type_, key, _counts, _suit), members in groups.items():
        assert all((p.type, p.key) == (type_, key) for p in members)


# -- the competition protocol ----------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_protocol_round_trip(seed):
    rng = random.Random(seed)
    level, rules = rng.choice(RANKS), rng.choice(ALL_RULES)
    hand = random_dense_hand(rng, 20, level) if seed % 2 else random_hand(rng, 27)
    plays = reference_plays(hand, level, rules=rules)
    entries = [p.to_protocol() for p in plays]
    assert len({(t, r, tuple(sorted(c))) for t, r, c in entries}) == len(entries)
    for p, entry in zip(plays, entries, strict=True):
        assert from_protocol(entry, level, rules) == p


@pytest.mark.parametrize(
    "cards, level, entry",
    [
        ("AS 2D 3C 4H 5S", "7", ["Straight", "A", ["D2", "C3", "H4", "S5", "SA"]]),
        ("TS JD QC KH AS", "7", ["Straight", "T", ["ST", "DJ", "CQ", "HK", "SA"]]),
        ("7H", "7", ["Single", "7", ["H7"]]),
        ("7H 7H", "7", ["Pair", "7", ["H7", "H7"]]),
        ("BJ", "7", ["Single", "B", ["SB"]]),
        ("RJ RJ", "7", ["Pair", "R", ["HR", "HR"]]),
        ("BJ BJ RJ RJ", "7", ["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]]),
        ("AS AD 2S 2D 3C 3C", "7", ["ThreePair", "A", ["S2", "D2", "C3", "C3", "SA", "DA"]]),
        ("KS KD KC AS AD AC", "7", ["TwoTrips", "K", ["SK", "CK", "DK", "SA", "CA", "DA"]]),
        ("5S 5D 7H", "7", ["Trips", "5", ["S5", "D5", "H7"]]),
    ],
)
def test_protocol_form(cards, level, entry):
    [play] = classify(cards, level)
    assert play.to_protocol() == entry
    assert from_protocol(entry, level) == play


def test_protocol_tells_same_cards_apart():
    house8, house_k = classify("8S 8D 2H KS KD", "2")
    assert house8.to_protocol()[:2] == ["ThreeWithTwo", "8"]
    assert house_k.to_protocol()[:2] == ["ThreeWithTwo", "K"]
    house, bomb = classify("8S 8C 8D 2H 2H", "2")
    assert from_protocol(["Bomb", "8", ["H2", "H2", "S8", "C8", "D8"]], "2") == bomb
    assert from_protocol(["ThreeWithTwo", "8", ["H2", "H2", "S8", "C8", "D8"]], "2") == house
    straight, flush = classify("3S 4S 5S 6S 7S", "9")
    assert from_protocol(["StraightFlush", "3", ["S3", "S4", "S5", "S6", "S7"]], "9") == flush
    assert from_protocol(["Straight", "3", ["S3", "S4", "S5", "S6", "S7"]], "9") == straight
    with pytest.raises(ValueError):
        from_protocol(["Straight", "3", ["S3", "S4", "S5", "S6", "S7"]], "9", COMPETITION)


def test_protocol_four_kings_spelling():
    [four] = classify("BJ BJ RJ RJ", "2")
    assert from_protocol(["FourKings", "B", ["SB", "SB", "HR", "HR"]], "2") == four
    assert from_protocol(["Bomb", "JOKER", ["SB", "HR", "SB", "HR"]], "2") == four


@pytest.mark.parametrize(
    "entry",
    [
        "Single 2 S2",
        ["Single", "2"],
        ["Single", "2", ["S2"], "extra"],
        ["PASS", "PASS", "PASS"],
        ["Solo", "2", ["S2"]],
        ["Single", "2", "S2"],
        ["Single", "2", ["X2"]],
        ["Single", "2", ["2S"]],
        ["Single", "2", [2]],
        ["Trips", "2", ["S2", "S2", "S2"]],
        ["Pair", "2", ["S2", "S3"]],
        ["Single", "3", ["S2"]],
        ["Pair", "B", ["SB", "HR"]],
        ["Straight", "K", ["SK", "DA", "C2", "H3", "S4"]],
        ["FourKings", "B", ["SB", "SB", "HR", "H2"]],
        ["Single", "2", []],
    ],
)
def test_bad_protocol_input(entry):
    with pytest.raises(ValueError):
        from_protocol(entry, "5")


def test_protocol_bad_level():
    with pytest.raises(ValueError, match="level"):
        from_protocol(["Single", "2", ["S2"]], "Z")


def test_protocol_unhashable_type():
    with pytest.raises(ValueError):
        from_protocol([["Single"], "2", ["S2"]], "5")


# -- Cards ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("10H", "TH"),
        ("th 7s bj rj", "7S TH BJ RJ"),
        ("7♠ 7♥ 7♣ 7♦", "7S 7H 7C 7D"),
        ("10♦ a♠", "TD AS"),
        ("  2S\t3D\n", "2S 3D"),
        ("RJ BJ AS 2D 2S TH 2S", "2S 2S 2D TH AS BJ RJ"),
        ("", ""),
    ],
)
def test_cards_parse_aliases_and_print_canonically(text, canonical):
    assert str(Cards(text)) == canonical
    assert Cards(text) == Cards(canonical)
    assert Cards(text.split()) == Cards(canonical)


@pytest.mark.parametrize("text, token", [("7X", "7X"), ("2S 1S", "1S"), ("JB", "JB"), ("7", "'7'"), ("AS 10", "'10'")])
def test_cards_errors_name_the_token(text, token):
    with pytest.raises(ValueError, match=token):
        Cards(text)


def test_cards_rejects_non_strings():
    with pytest.raises(TypeError, match="5"):
        Cards(["7S", 5])


def test_cards_too_many_copies():
    with pytest.raises(ValueError, match="7S"):
        Cards("7S 7s 7♠")
    with pytest.raises(ValueError, match="BJ"):
        Cards("BJ BJ BJ")
    with pytest.raises(ValueError, match="7S"):
        Cards("7S 7S", decks=1)
    with pytest.raises(ValueError, match="7S"):
        Cards(Cards("7S 7S"), decks=1)
    with pytest.raises(ValueError, match="decks"):
        Cards("7S", decks=3)


def test_cards_algebra():
    hand = Cards("7S 7S 8D BJ")
    assert Cards("7S") + Cards("7S 8D BJ") == hand
    assert hand - Cards("7S BJ") == Cards("7S 8D")
    with pytest.raises(ValueError, match="8D"):
        hand - Cards("8D 8D")
    with pytest.raises(ValueError, match="RJ"):
        hand - Cards("RJ")
    assert Cards("7S 7S") <= hand and Cards() <= hand and hand <= hand
    assert not Cards("7S 8S") <= hand
    assert not hand <= Cards("7S 8D BJ")
    assert Cards("7S 8D") < hand and hand > Cards("BJ") and not hand < hand
    assert "7S" in hand and "7s" in hand and "RJ" not in hand and Cards("7S 7S") in hand
    assert (hand.count("7S"), hand.count("8D"), hand.count("RJ")) == (2, 1, 0)
    assert len(hand) == 4 and bool(hand) and not Cards()


def test_cards_masks_and_hash():
    hand = Cards("7S 7S 8D")
    seven_s, eight_d = 1 << (5 * 4), 1 << (6 * 4 + 3)
    assert (hand.lo, hand.hi) == (seven_s | eight_d, seven_s)
    assert Cards.from_masks(hand.lo, hand.hi) == hand
    assert Cards.from_counts(hand.counts()) == hand
    assert hash(Cards("8D 7S 7S")) == hash(hand)
    assert len({hand, Cards("7s 8d 7♠"), Cards("7S 8D")}) == 2
    with pytest.raises(ValueError):
        Cards.from_masks(0, 1)  # hi not within lo


def test_cards_sum_beyond_two_decks_is_an_error():
    """docs/rules/cards.md: a card appearing more often than the decks allow is an error."""
    with pytest.raises(ValueError, match="7S"):
        Cards("7S 7S") + Cards("7S")


def test_cards_from_a_non_iterable_is_a_type_error():
    with pytest.raises(TypeError, match="123"):
        Cards(123)
