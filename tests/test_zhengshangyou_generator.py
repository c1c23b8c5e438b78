"""The compiled Zheng Shangyou generator against the classify-based brute force.

``docs/rules/zhengshangyou.md`` ("Combinations") and ``docs/rules/cards.md`` ("One play",
"The suit-collapsed view"): the generator must list exactly the plays of the
reference, each once, in both views, leading and following.
"""
from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from collapsed_view import check_views
from zhengshangyou_reference import collapse_key, full_power_set_plays, random_deal, reference_plays

from chupai import Cards
from chupai.core.records import PLAY_DTYPE
from chupai.zhengshangyou import Play, PlayList, PlayType, Rules, classify, legal_plays
from chupai.zhengshangyou._movegen import kernel_count

RULE_SETS = [Rules(), Rules(joker_pair=False)]
WILDS = ["2S", "2H", "2C", "2D", "BJ", "RJ"]


def check_position(hand: Cards, rules: Rules, previous: Play | None = None, leads: set[Play] | None = None) -> int:
    """Concrete and collapsed lists agree with the reference (or with the reference
    ``leads`` of the hand, filtered); the number of plays."""
    if leads is None:
        reference = reference_plays(hand, previous, rules)
    else:
        reference = {p for p in leads if previous is None or p.beats(previous)}
    concrete = list(legal_plays(hand, previous, rules=rules))
    collapsed = list(legal_plays(hand, previous, rules=rules, collapse_suits=True))
    check_views(concrete, collapsed, reference, collapse_key, f"hand {hand} previous {previous}")
    return len(concrete)


def deal_positions(seed: int, players: int, count: int):
    """``count`` (hand, rules, previous) positions from seeded deals of ``players``: the
    previous play is another seat's lead or one of the hand's own plays (so that the
    follower has plays of that shape), alternately."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        hands = random_deal(rng, players, rng.randrange(players))
        rules = RULE_SETS[len(out) % 2]
        hand = hands[0]
        source = hands[1] if len(out) % 4 < 2 else hand
        leads = list(legal_plays(source, rules=rules))
        out.append((hand, rules, rng.choice(leads)))
    return out


QUICK = [pos for players in (4, 5, 6) for pos in deal_positions(10 + players, players, 8)]


@pytest.mark.parametrize("hand,rules,previous", QUICK, ids=[f"{len(h)}-{i}" for i, (h, _, _) in enumerate(QUICK)])
def test_matches_reference_quick(hand, rules, previous):
    check_position(hand, rules)
    check_position(hand, rules, previous)


@pytest.mark.slow
@pytest.mark.parametrize("players", [4, 5, 6])
def test_matches_reference_300_deals(players):
    """300 hands of random deals for each player count, leading and following."""
    follows = 0
    for hand, rules, previous in deal_positions(100 + players, players, 300):
        check_position(hand, rules)
        follows += check_position(hand, rules, previous) > 0
    assert follows >= 150  # many of the follows have plays to check


@pytest.mark.slow
def test_matches_reference_two_and_three_players():
    """Larger hands: 40 hands of 3-player deals (18 cards) and 4 of 2-player deals (27)."""
    for players, count in ((3, 40), (2, 4)):
        for hand, rules, previous in deal_positions(200 + players, players, count):
            reference = reference_plays(hand, None, rules)
            check_position(hand, rules, leads=reference)
            check_position(hand, rules, previous, leads=reference)


@pytest.mark.slow
def test_long_sequences_match_reference():
    """Two suits of every rank 3..A and both jokers (26 cards, the size of a two-player
    hand): a lead's single sequences come by the thousand for one start rank and length,
    in each of the four groups the generator extends apart (no joker, the black, the
    red, both)."""
    hand = Cards(" ".join(r + s for r in "3456789TJQKA" for s in "SH") + " BJ RJ", decks=1)
    rules = Rules()
    plays = legal_plays(hand, rules=rules)
    longest = [p for p in plays if p.type == PlayType.SEQUENCE and p.length == 12]  # all from the 3s
    groups = Counter(frozenset(c for c in map(str, p.cards) if c in WILDS) for p in longest)
    assert sorted(map(sorted, groups)) == [[], ["BJ"], ["BJ", "RJ"], ["RJ"]]
    assert min(groups.values()) > 1000
    check_position(hand, rules, leads=reference_plays(hand, None, rules))


def dense_hand(rng: random.Random, n: int) -> Cards:
    """``n`` cards rich in wild plays: most of the 2s and jokers and a few ranks."""
    low = rng.randrange(1, 9)
    pool = [f"{r}{s}" for r in "3456789TJQKA"[low - 1 : low + 4] for s in "SHCD"] + WILDS
    return Cards(rng.sample(pool, n), decks=1)


@pytest.mark.slow
def test_dense_hands_match_reference():
    """Hands from a few ranks with most of the wild cards: many multiple sequences."""
    rng = random.Random(4)
    for i in range(100):
        hand = dense_hand(rng, rng.randint(8, 14))
        rules = RULE_SETS[i % 2]
        reference = reference_plays(hand, None, rules)
        check_position(hand, rules, leads=reference)
        for prev in rng.sample(sorted(reference, key=str), min(3, len(reference))):
            check_position(hand, rules, prev, leads=reference)


def test_dense_hands_quick():
    rng = random.Random(5)
    for i in range(10):
        hand = dense_hand(rng, 12)
        reference = reference_plays(hand, None, RULE_SETS[i % 2])
        check_position(hand, RULE_SETS[i % 2], leads=reference)
        prev = rng.choice(sorted(reference, key=str))
        check_position(hand, RULE_SETS[i % 2], prev, leads=reference)


def test_reference_pruning_loses_nothing():
    """The reference's subsets give the same plays as classifying every subset."""
    rng = random.Random(6)
    for i in range(40):
        hand = dense_hand(rng, 10) if i % 2 else random_deal(rng, 5)[0]
        assert reference_plays(hand) == full_power_set_plays(hand), str(hand)


def test_follow_every_shape():
    """Following each shape a rich hand can lead: only that shape, higher keys."""
    rng = random.Random(7)
    pool = Cards("3S 3H 4S 4H 4C 5S 5H 5D 6S 6H 7H 8H 9H 2S 2D BJ RJ", decks=1)
    shapes = {}
    reference = reference_plays(pool)
    for p in legal_plays(pool):
        shapes.setdefault(p.shape, []).append(p)
    assert {s[0] for s in shapes} == set(PlayType)
    for shape, plays in sorted(shapes.items()):
        for prev in rng.sample(plays, min(2, len(plays))):
            check_position(pool, Rules(), prev, leads=reference)
            for q in legal_plays(pool, prev):
                assert q.shape == prev.shape and q.key > prev.key


def test_lead_single_card_and_empty_hand():
    assert [str(p) for p in legal_plays("3S")] == ["single 3: 3S"]
    assert len(legal_plays("")) == 0


# --- the PlayList surface ------------------------------------------------------------
def test_playlist_sequence_protocol():
    plays = legal_plays("5S 6D 7C BJ")
    assert isinstance(plays, PlayList)
    items = list(plays)
    assert len(plays) == len(items)
    assert plays[0] == items[0] and plays[-1] == items[-1]
    assert plays[1:3] == items[1:3]
    with pytest.raises(IndexError):
        plays[len(plays)]
    assert f"{len(plays)} plays" in repr(plays)
    assert plays.take([2, 0])[0] == items[2]


def test_to_numpy_matches_plays():
    plays = legal_plays("5S 5D 6S 6D 7C 2S 2H BJ RJ")
    arr = plays.to_numpy()
    assert arr.dtype == PLAY_DTYPE and len(arr) == len(plays)
    for row, play in zip(arr, plays):
        assert int(row["lo"]) == play.cards.lo and int(row["hi"]) == 0
        assert PlayType(int(row["type"])) == play.type
        assert int(row["key"]) == play.key and int(row["cls"]) == play.multiplicity
        assert int(row["length"]) == len(play.cards) == play.length
        assert int(row["nwild"]) == len(play.wilds)


def test_protocol_form():
    plays = legal_plays("5S 6D BJ")
    assert plays.to_protocol()[-1] == ["SEQUENCE", "7", ["5S", "6D", "BJ"]]


def test_generation_is_deterministic():
    hand = random_deal(random.Random(8), 4)[0]
    a = [(p.cards, p.type, p.key, p.wilds) for p in legal_plays(hand)]
    b = [(p.cards, p.type, p.key, p.wilds) for p in legal_plays(hand)]
    assert a == b


def test_declarations_agree_with_classify():
    """Generator and classify pick the same canonical declaration for every wild play."""
    rng = random.Random(9)
    for _ in range(20):
        hand = dense_hand(rng, 12)
        for p in legal_plays(hand):
            (same,) = [q for q in classify(p.cards) if q == p]
            assert same.wilds == p.wilds, str(p)


def test_declared_cards_are_the_natural_play():
    """Replacing the wild cards by their declaration gives a pure play of the same type,
    shape and rank (a suited sequence stays suited)."""
    rng = random.Random(10)
    for _ in range(20):
        hand = dense_hand(rng, 12)
        for p in legal_plays(hand):
            if p.pure:
                continue
            declared = p.declared
            assert len(declared) == len(p.cards)
            natural = [q for q in classify(declared) if q.pure and q.shape == p.shape]
            assert any(q.value == p.value and q.suited == p.suited for q in natural), str(p)


def test_kernel_count_matches_the_lists():
    rng = random.Random(11)
    hands = [random_deal(rng, 4)[0] for _ in range(30)]
    prev = [rng.choice(list(legal_plays(h))) for h in hands]
    masks = np.array([h.lo for h in hands], dtype=np.uint64)
    rows = np.array([[p.type, p.length, p.multiplicity, p.key] for p in prev], dtype=np.uint8)
    assert kernel_count(masks) == sum(len(legal_plays(h)) for h in hands)
    assert kernel_count(masks, collapse_suits=True, repeat=2) == 2 * sum(
        len(legal_plays(h, collapse_suits=True)) for h in hands
    )
    assert kernel_count(masks, rows) == sum(len(legal_plays(h, p)) for h, p in zip(hands, prev))
    with pytest.raises(ValueError, match="beyond"):
        kernel_count(np.array([1 << 60], dtype=np.uint64))
    with pytest.raises(ValueError, match="one row"):
        kernel_count(masks, rows[:3])
    bad = rows.copy()
    bad[2, 0] = 200
    with pytest.raises(ValueError, match="previous row 2 is not a Zheng Shangyou play"):
        kernel_count(masks, bad)


# --- bad input -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "hand,message",
    [("7S 1S", "'1S'"), ("7S 7S", "7S"), ("XJ", "'XJ'")],
)
def test_bad_hands_name_the_problem(hand, message):
    with pytest.raises(ValueError, match=message):
        legal_plays(hand)


def test_a_hand_of_the_wrong_type_is_a_type_error():
    with pytest.raises(TypeError, match="None"):
        legal_plays(None)


def test_one_deck_only():
    """A two-deck ``Cards`` holding a card twice is refused."""
    with pytest.raises(ValueError, match="one deck"):
        legal_plays(Cards("7S 7S 8S"))
    assert len(legal_plays(Cards("7S 8S"))) == 2  # a two-deck Cards with no duplicates is fine


def test_bad_previous_and_rules():
    from chupai import guandan

    with pytest.raises(TypeError, match="previous"):
        legal_plays("9S 9D", guandan.classify("8S 8D", "2")[0])
    with pytest.raises(TypeError, match="previous"):
        legal_plays("9S 9D", "8S 8D")
    with pytest.raises(TypeError, match="Rules"):
        legal_plays("9S 9D", rules={"joker_pair": False})
    with pytest.raises(TypeError, match="Rules"):
        legal_plays("9S 9D", rules=guandan.Rules())


def test_hand_forms():
    """A Cards, a string and an iterable of card strings are the same hand."""
    a = legal_plays(Cards("7S 8S 9S", decks=1))
    b = legal_plays("7s 8s 9s")
    c = legal_plays(["7S", "8S", "9S"])
    assert list(a) == list(b) == list(c)


def test_a_hand_of_the_whole_deck():
    """Billions of concrete plays: a clear MemoryError (no gigabytes, no crash); the
    suit-collapsed view still works."""
    deck = Cards.from_masks((1 << 54) - 1)
    with pytest.raises(MemoryError, match="collapse_suits"):
        legal_plays(deck)
    assert len(legal_plays(deck, collapse_suits=True)) > 100000
