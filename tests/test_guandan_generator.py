"""The compiled Guan Dan generator against the classify-based brute force.

``docs/rules/guandan.md`` ("Combinations", "Following", "Wild cards") and
``docs/rules/cards.md`` ("One play", "The suit-collapsed view"): the
generator must list exactly the plays of the reference, each once, in both views.
"""
from __future__ import annotations

import random
import pytest
from collapsed_view import check_views
from guandan_reference import collapse_key, random_dense_hand, random_hand, reference_plays

from chupai import Cards
from chupai.core.records import PLAY_DTYPE
from chupai.guandan import Play, PlayList, PlayType, Rules, classify, from_protocol, legal_plays
from chupai.guandan.play import make_level, wild_face

LEVELS = "23456789TJQKA"
RULE_SETS = {
    "pagat": Rules(),
    "competition": Rules.competition(),
    "no-joker-pair-fh": Rules(joker_pair_in_full_house=False),
    "competition-joker-pair-off": Rules.competition(joker_pair_in_full_house=False),
}


def hand_with_wilds(rng: random.Random, n: int, level: str, wilds: int) -> Cards:
    """``n`` cards of which exactly ``wilds`` are the level's heart wild cards."""
    wild = wild_face(make_level(level))
    deck = [f % 54 for f in range(108) if f % 54 != wild]
    counts = [0] * 54
    for f in rng.sample(deck, n - wilds):
        counts[f] += 1
    counts[wild] = wilds
    return Cards.from_counts(counts)


def check_position(hand: Cards, level: str, rules: Rules, previous: Play | None = None) -> None:
    """Concrete and collapsed lists agree with the reference for one position."""
    reference = reference_plays(hand, level, previous, rules)
    concrete = list(legal_plays(hand, level, previous, rules=rules))
    collapsed = list(legal_plays(hand, level, previous, rules=rules, collapse_suits=True))
    check_views(concrete, collapsed, reference, collapse_key, f"hand {hand} level {level} previous {previous}")


def positions(seed: int, count: int, full_hands: int):
    """Hands covering every level with 0, 1 and 2 wild cards, under every rule set."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        level = LEVELS[i % 13]
        wilds = (i // 13) % 3
        n = 27 if i < full_hands else rng.randint(8, 26)
        rules = list(RULE_SETS.values())[i % len(RULE_SETS)]
        out.append((hand_with_wilds(rng, n, level, wilds), level, rules))
    return out


QUICK = positions(seed=1, count=39, full_hands=13)
EXHAUSTIVE = positions(seed=2, count=312, full_hands=60)


@pytest.mark.parametrize("hand,level,rules", QUICK, ids=[f"{l}-{len(h)}" for h, l, _ in QUICK])
def test_lead_matches_reference_quick(hand, level, rules):
    check_position(hand, level, rules)


@pytest.mark.slow
def test_lead_and_follow_match_reference_exhaustive():
    """312 hands (60 of 27 cards), every level x 0/1/2 wilds x 4 rule sets, lead and follow."""
    rng = random.Random(3)
    follows = 0
    for hand, level, rules in EXHAUSTIVE:
        check_position(hand, level, rules)
        # follow a play drawn from another hand's leads (bombs and every type occur)
        other = random_hand(rng, 27)
        leads = list(legal_plays(other, level, rules=rules))
        if leads:
            check_position(hand, level, rules, rng.choice(leads))
            follows += 1
    assert follows >= 300


@pytest.mark.slow
def test_dense_hands_match_reference():
    """Hands drawn from a few ranks with wilds and jokers: many bombs, tubes, plates."""
    rng = random.Random(4)
    for i in range(120):
        level = LEVELS[i % 13]
        rules = list(RULE_SETS.values())[i % len(RULE_SETS)]
        hand = random_dense_hand(rng, rng.randint(10, 20), level, width=rng.choice([3, 5, 6]))
        check_position(hand, level, rules)
        leads = list(legal_plays(hand, level, rules=rules))
        check_position(random_dense_hand(rng, 16, level), level, rules, rng.choice(leads))


def test_follow_every_type_and_bomb_class():
    """Following each kind of play: same type higher, or a bomb; bombs by class then key."""
    rng = random.Random(5)
    # a pool that forms every type and bomb class at level 2 (two wilds, four jokers)
    pool = Cards("2H 2H 3S 3S 3H 3C 3D 3D 4S 4S 4H 4C 5S 5D 6S 6C 7S BJ BJ RJ RJ")
    previous = {}
    for p in legal_plays(pool, "2"):
        previous.setdefault((p.type, p.bomb_class), []).append(p)
    assert {t for t, _ in previous} == set(PlayType)
    assert {c for _, c in previous} >= {0, 1, 2, 3, 4, 5, 9}
    for kind, plays in sorted(previous.items()):
        for prev in rng.sample(plays, min(2, len(plays))):
            check_position(hand_with_wilds(rng, 27, "2", rng.randint(0, 2)), "2", Rules(), prev)


def test_following_only_lists_beating_plays():
    hand = Cards("3S 4S 5S 6S 7S 7D 7C 7H 9D 9D 9C 9H BJ RJ")
    prev = next(p for p in classify("8S 8D", "2"))
    plays = legal_plays(hand, "2", prev)
    assert plays
    assert all(p.beats(prev) for p in plays)
    assert {p.type for p in plays} <= {PlayType.PAIR, PlayType.BOMB, PlayType.STRAIGHT_FLUSH}


def test_lead_never_empty_and_pass_not_listed():
    plays = legal_plays("3S", "2")
    assert [str(p) for p in plays] == ["single 3: 3S"]
    assert len(legal_plays("", "2")) == 0


# --- the PlayList surface ------------------------------------------------------------
def test_playlist_sequence_protocol():
    plays = legal_plays("8S 8D 2H KS KD", "2")
    assert isinstance(plays, PlayList)
    items = list(plays)
    assert len(plays) == len(items) == 15
    assert plays[0] == items[0] and plays[-1] == items[-1]
    assert plays[2:5] == items[2:5]
    with pytest.raises(IndexError):
        plays[len(plays)]
    with pytest.raises(IndexError):
        plays[-len(plays) - 1]
    assert "15 plays" in repr(plays)


def test_to_numpy_matches_plays():
    plays = legal_plays("3D 4S 5C 6H 7S 7H 7H BJ BJ", "7")
    arr = plays.to_numpy()
    assert arr.dtype == PLAY_DTYPE and len(arr) == len(plays)
    for row, play in zip(arr, plays):
        assert int(row["lo"]) == play.cards.lo and int(row["hi"]) == play.cards.hi
        assert PlayType(int(row["type"])) == play.type
        assert int(row["key"]) == play.key and int(row["cls"]) == play.bomb_class
        assert int(row["length"]) == len(play.cards)
        assert int(row["nwild"]) == len(play.wilds)
    assert legal_plays("", "2").to_numpy().shape == (0,)


def test_protocol_list_is_unique_and_round_trips():
    hand = Cards("3D 4S 5C 6H 7S 7H 7H 8S 8S 8D BJ BJ RJ RJ")
    plays = legal_plays(hand, "7")
    proto = plays.to_protocol()
    assert len({(t, r, tuple(sorted(c))) for t, r, c in proto}) == len(proto)
    for entry, play in zip(proto, plays):
        assert from_protocol(entry, "7") == play


def test_generation_is_deterministic():
    rng = random.Random(6)
    hand = random_hand(rng, 27)
    a = [(p.cards, p.type, p.key, p.wilds) for p in legal_plays(hand, "9")]
    b = [(p.cards, p.type, p.key, p.wilds) for p in legal_plays(hand, "9")]
    assert a == b


def test_declarations_are_natural_combinations():
    """Replacing the wilds by their declaration gives a natural play of the same type and key."""
    from chupai.guandan.classify import _classify_natural  # noqa: PLC0415

    rng = random.Random(7)
    for level in "27A":
        hand = hand_with_wilds(rng, 20, level, 2)
        for p in legal_plays(hand, level):
            if p.wilds:
                natural = _classify_natural(p.declared.counts(), level, Rules())
                assert (p.type, p.key) in natural, str(p)


def test_declarations_agree_with_classify():
    """Generator and classify pick the same canonical declaration for every wild play."""
    rng = random.Random(8)
    for level in LEVELS:
        for wilds in (1, 2):
            hand = hand_with_wilds(rng, 16, level, wilds)
            for p in legal_plays(hand, level):
                if p.wilds:
                    (same,) = [q for q in classify(p.cards, level) if q == p]
                    assert same.wilds == p.wilds, str(p)


# --- bad input -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "hand,level,message",
    [
        ("7S 1S", "2", "'1S'"),
        ("7S 7S 7S", "2", "7S"),
        ("7S", "1", "'1'"),
        ("7S", "", "''"),
    ],
)
def test_bad_input_names_the_problem(hand, level, message):
    with pytest.raises(ValueError, match=message):
        legal_plays(hand, level)


def test_a_level_of_the_wrong_type_is_a_type_error():
    with pytest.raises(TypeError, match="None"):
        legal_plays("7S", None)


def test_bad_previous_and_rules():
    prev = classify("8S 8D", "2")[0]
    with pytest.raises(ValueError, match="level"):
        legal_plays("9S 9D", "3", prev)
    with pytest.raises(TypeError, match="previous"):
        legal_plays("9S 9D", "2", ["Pair", "8", ["S8", "D8"]])
    with pytest.raises(TypeError, match="Rules"):
        legal_plays("9S 9D", "2", rules={"joker_pair_in_full_house": False})


def test_hand_forms():
    """A Cards, a string and an iterable of card strings are the same hand."""
    a = legal_plays(Cards("7S 8S 9S"), "2")
    b = legal_plays("7s 8s 9s", "2")
    c = legal_plays(["7S", "8S", "9S"], "2")
    assert list(a) == list(b) == list(c)
    assert list(legal_plays("TS", "10")) == list(legal_plays("TS", "T"))


def test_kernel_count_matches_the_lists():
    """The bare kernel (``bench/``'s rows) counts what ``legal_plays`` lists: leads,
    collapsed leads and follows of the benchmark's seeded positions, under both rule sets."""
    import numpy as np

    from chupai.guandan._bench import kernel_arrays, positions
    from chupai.guandan._movegen import kernel_count

    pos = positions(40, seed=5)
    los, his, levels, prev = kernel_arrays(pos)
    for rules in (None, Rules(straight_flush_as_straight=True, joker_pair_in_full_house=True)):
        assert kernel_count(los, his, levels, rules=rules) == sum(
            len(legal_plays(p.hand, p.level, rules=rules)) for p in pos)
        assert kernel_count(los, his, levels, rules=rules, collapse_suits=True, repeat=2) == 2 * sum(
            len(legal_plays(p.hand, p.level, rules=rules, collapse_suits=True)) for p in pos)
        assert kernel_count(los, his, levels, prev, rules=rules) == sum(
            len(legal_plays(p.hand, p.level, p.previous, rules=rules)) for p in pos)
    leading = np.zeros_like(prev)  # type 0: a lead
    assert kernel_count(los, his, levels, leading) == kernel_count(los, his, levels)
    with pytest.raises(ValueError, match="one row"):
        kernel_count(los, his, levels, prev[:3])
    bad = prev.copy()
    bad[2, 0] = 200
    with pytest.raises(ValueError, match="previous row 2 is not a Guan Dan play"):
        kernel_count(los, his, levels, bad)
    with pytest.raises(ValueError, match="same length"):
        kernel_count(los, his[:3], levels)


def test_level_forms():
    """A level is a rank character in either case, ``'10'`` or an int 2..14."""
    for index, rank in enumerate("23456789TJQKA"):
        for level in (rank, rank.lower(), index + 2):
            assert legal_plays("7S", level)[0].level == rank
    assert legal_plays("7S", "10")[0].level == "T"
    for bad in ("é", "TT", "1", "0"):
        with pytest.raises(ValueError, match="level"):
            legal_plays("7S", bad)


def test_lists_past_the_first_room_kept_or_dropped():
    """Leads past the first room (3,072 plays) among follows and collapsed leads, some of
    them empty, each list kept or dropped (the registry-wide check of the room is
    tests/conformance/test_playlist_room.py): each holds its own plays."""
    import numpy as np

    from chupai.guandan._bench import positions

    pos = positions(200, seed=5)
    calls = []
    for p in pos:
        calls += [(p.hand, p.level, None, False), (p.hand, p.level, p.previous, False),
                  (p.hand, p.level, None, True)]
    every = [legal_plays(h, lv, prev, collapse_suits=c) for h, lv, prev, c in calls]  # none dropped
    expected = [plays.to_numpy() for plays in every]
    assert max(map(len, expected)) > 3072 and min(map(len, expected)) == 0
    del every
    kept = {}
    for i, (h, lv, prev, c) in enumerate(calls):
        plays = legal_plays(h, lv, prev, collapse_suits=c)
        assert np.array_equal(plays.to_numpy(), expected[i])
        if i % 7 == 0:
            kept[i] = plays
    for i, plays in kept.items():
        assert np.array_equal(plays.to_numpy(), expected[i])
