"""The compiled Gan Deng Yan generator against the classify-based brute force.

``docs/rules/gandengyan.md`` (all of "Ordinary combinations", "Bombs", "Ranks, 2s and
jokers" and the generation variants) and ``docs/rules/cards.md`` ("One play",
"The suit-collapsed view"): the generator lists exactly the plays of the
reference, each once, in both views, for in-game hands of 2-6 player deals with one
and two decks, leading and following, under every rule variant.
"""
from __future__ import annotations

import random

import numpy as np
import pytest
from collapsed_view import check_views
from gandengyan_reference import collapse_key, deal_hands, dense_hand, reference_plays

from chupai import Cards
from chupai.core.records import PLAY_DTYPE
from chupai.gandengyan import Play, PlayList, PlayType, Rules, classify, legal_plays
from chupai.gandengyan._movegen import kernel_count
from chupai.gandengyan.classify import _recognize

ONE_DECK_RULES = {
    "base": Rules(),
    "ordinary-triples": Rules(triples_are_bombs=False),
    "triple-sequences": Rules(triples_are_bombs=False, triple_sequences=True),
    "max-3-ranks": Rules(max_sequence_ranks=3),
    "no-joker-as-two": Rules(joker_as_two=False),
    "no-joker-lead-out": Rules(joker_lead_out=False),
    "follow-same-rank": Rules(follow_same_rank=True),
    "scoring-variants": Rules(
        min_talon_to_win=5, ace_multiplier=3, multipliers=True, soft_bombs=True, positive_only=True, announce_at=3
    ),
}
RULE_SETS = dict(ONE_DECK_RULES)
RULE_SETS.update({f"2d-{name}": rules.replace(decks=2) for name, rules in ONE_DECK_RULES.items()})
RULE_SETS["2d-everything"] = Rules(
    decks=2,
    triples_are_bombs=False,
    triple_sequences=True,
    max_sequence_ranks=4,
    joker_as_two=False,
    joker_lead_out=False,
    follow_same_rank=True,
)


def check_position(hand: Cards, rules: Rules, previous: Play | None = None) -> int:
    """Concrete and collapsed lists agree with the reference for one position; the
    number of plays."""
    reference = reference_plays(hand, previous, rules)
    concrete = list(legal_plays(hand, previous, rules=rules))
    collapsed = list(legal_plays(hand, previous, rules=rules, collapse_suits=True))
    check_views(concrete, collapsed, reference, collapse_key, f"hand {hand} previous {previous} rules {rules}")
    return len(concrete)


def deal_positions(seed: int, deals: int) -> list[tuple[Cards, Rules, int]]:
    """Every hand of ``deals`` seeded deals, cycling through 2-6 players, both deck
    counts and every rule set; (hand, rules, players)."""
    rng = random.Random(seed)
    names = list(RULE_SETS)
    out = []
    for i in range(deals):
        rules = RULE_SETS[names[i % len(names)]]
        players = 2 + i % 5
        for hand in deal_hands(rng, players, rules.decks, draws=rng.randint(0, 5)):
            out.append((hand, rules, players))
    return out


QUICK = deal_positions(seed=1, deals=150)


def test_quick_positions_cover_the_issue():
    """At least 500 hands, 2-6 players, one and two decks, every rule set."""
    assert len(QUICK) >= 500
    assert {p for _, _, p in QUICK} == {2, 3, 4, 5, 6}
    assert {r for _, r, _ in QUICK} == set(RULE_SETS.values())


def test_lead_and_follow_match_reference():
    """Every hand of 150 deals: its leads, and following a lead of another hand."""
    rng = random.Random(2)
    follows = 0
    for i, (hand, rules, _) in enumerate(QUICK):
        check_position(hand, rules)
        other = QUICK[(i * 7 + 3) % len(QUICK)][0]
        if len(other.layers) <= rules.decks:
            leads = list(legal_plays(other, rules=rules))
            check_position(hand, rules, rng.choice(leads))
            follows += 1
    assert follows >= 400


@pytest.mark.slow
def test_more_deals_match_reference():
    rng = random.Random(3)
    for i, (hand, rules, _) in enumerate(deal_positions(seed=4, deals=600)):
        check_position(hand, rules)
        leads = list(legal_plays(dense_hand(rng, 10, rules.decks), rules=rules))
        check_position(hand, rules, rng.choice(leads))


def test_dense_hands_match_reference():
    """Hands from a few ranks and the jokers: many bombs, joker readings and sequences."""
    rng = random.Random(5)
    for i in range(80):
        rules = list(RULE_SETS.values())[i % len(RULE_SETS)]
        hand = dense_hand(rng, rng.randint(3, 11), rules.decks, width=rng.choice([3, 4, 5]))
        check_position(hand, rules)
        leads = list(legal_plays(dense_hand(rng, 10, rules.decks, width=4), rules=rules))
        check_position(hand, rules, rng.choice(leads))


def all_kinds_of_play(rules: Rules) -> dict[tuple[PlayType, int, int], Play]:
    """One play of every (type, key, length) that the dense pool can lead."""
    pool = "3S 3H 3C 4S 4H 4D 5S 5H 6S 6H 6C 7S 8S 9S TS JS QS KS KH AS AH AC AD 2S 2H 2C 2D BJ RJ"
    out = {}
    for p in legal_plays(pool, rules=rules, collapse_suits=True):
        out.setdefault((p.type, p.key, p.length), p)
    return out


@pytest.mark.parametrize("name", ["base", "ordinary-triples", "triple-sequences", "follow-same-rank", "2d-base"])
def test_following_every_kind_of_play(name):
    """Following each type, key and length: the right type one rank higher, 2s, bombs."""
    rules = RULE_SETS[name]
    rng = random.Random(6)
    kinds = all_kinds_of_play(rules.replace(decks=1))
    types = {t for t, _, _ in kinds}
    assert PlayType.JOKER_BOMB in types and PlayType.DOUBLE_SEQUENCE in types
    hands = [dense_hand(rng, 11, rules.decks, width=w) for w in (3, 4, 5, 6)]
    for previous in kinds.values():
        for hand in hands:
            check_position(hand, rules, previous)


# --- the PlayList surface ------------------------------------------------------------
def test_playlist_sequence_protocol():
    plays = legal_plays("4S 5S 5D BJ")
    assert isinstance(plays, PlayList)
    items = list(plays)
    assert len(plays) == len(items) == 13
    assert plays[0] == items[0] and plays[-1] == items[-1]
    assert plays[2:5] == items[2:5]
    with pytest.raises(IndexError):
        plays[len(plays)]
    assert "13 plays" in repr(plays)


def test_to_numpy_matches_plays():
    plays = legal_plays("3D 4S 5C 5H 6S BJ RJ")
    arr = plays.to_numpy()
    assert arr.dtype == PLAY_DTYPE and len(arr) == len(plays)
    for row, play in zip(arr, plays):
        assert int(row["lo"]) == play.cards.lo and int(row["hi"]) == play.cards.hi
        assert PlayType(int(row["type"])) == play.type
        assert int(row["key"]) == play.key and int(row["cls"]) == play.bomb_class
        assert int(row["length"]) == len(play.cards) == play.length
        assert int(row["nwild"]) == len(play.wilds)
    assert legal_plays("").to_numpy().shape == (0,)


def test_protocol_form():
    plays = legal_plays("9S TS BJ")
    assert plays.to_protocol() == [p.to_protocol() for p in plays]
    assert ["SEQUENCE", "J", ["9S", "TS", "BJ"]] in plays.to_protocol()
    assert classify("BJ RJ")[0].to_protocol() == ["JOKER_BOMB", "joker", ["BJ", "RJ"]]


def test_generation_is_deterministic():
    rng = random.Random(7)
    hand = dense_hand(rng, 10, 2)
    rules = Rules(decks=2)
    a = [(p.cards, p.type, p.key, p.wilds) for p in legal_plays(hand, rules=rules)]
    b = [(p.cards, p.type, p.key, p.wilds) for p in legal_plays(hand, rules=rules)]
    assert a == b


def test_declarations_are_natural_readings():
    """Replacing the jokers by what they stand for gives natural cards of the same
    type and key, and the same declaration as classify's."""
    rng = random.Random(8)
    for rules in (Rules(), Rules(decks=2, triples_are_bombs=False, triple_sequences=True)):
        for _ in range(20):
            hand = dense_hand(rng, 10, rules.decks)
            for p in legal_plays(hand, rules=rules):
                if not p.wilds:
                    continue
                assert p.wilds == next(q for q in classify(p.cards, rules=rules) if q == p).wilds
                counts = p.declared.counts()
                ranks = [sum(counts[r * 4 : r * 4 + 4]) for r in range(13)]
                assert (p.type, p.key) in _recognize(ranks, 0, 0, rules), str(p)


def test_kernel_count_agrees_with_legal_plays():
    rng = random.Random(9)
    hands = [dense_hand(rng, 9, 2) for _ in range(20)]
    rules = Rules(decks=2)
    prev = classify("5S 6S 7S", rules=rules)[0]
    los = np.array([h.lo for h in hands], dtype=np.uint64)
    his = np.array([h.hi for h in hands], dtype=np.uint64)
    targets = np.array([[prev.type, prev.length, prev.bomb_class, prev.key]] * 20, dtype=np.uint8)
    assert kernel_count(los, his, rules=rules) == sum(len(legal_plays(h, rules=rules)) for h in hands)
    assert kernel_count(los, his, targets, rules=rules, repeat=2) == 2 * sum(
        len(legal_plays(h, prev, rules=rules)) for h in hands
    )
    with pytest.raises(ValueError, match="not a valid hand"):
        kernel_count(np.array([0], dtype=np.uint64), np.array([1], dtype=np.uint64))
    with pytest.raises(ValueError, match="one entry per hand"):
        kernel_count(los, his[:3])


# --- bad input -------------------------------------------------------------------------
def test_bad_input_names_the_problem():
    with pytest.raises(ValueError, match="ZZ"):
        legal_plays("3S ZZ")
    with pytest.raises(ValueError, match="3S"):
        legal_plays("3S 3S")  # one deck
    with pytest.raises(ValueError, match="one deck"):
        legal_plays(Cards("3S 3S"))
    assert len(legal_plays("3S 3S", rules=Rules(decks=2))) == 2  # single and pair
    with pytest.raises(TypeError, match="previous"):
        legal_plays("3S", "4S")
    with pytest.raises(TypeError, match="rules"):
        legal_plays("3S", rules="pagat")
    with pytest.raises(ValueError, match="triple"):
        legal_plays("3S", classify("7S 7H 7D", rules=Rules(triples_are_bombs=False))[0])
    with pytest.raises(ValueError, match="three bomb"):
        legal_plays("3S", classify("7S 7H 7D")[0], rules=Rules(triples_are_bombs=False))
    with pytest.raises(ValueError, match="triple sequence"):
        seq = classify("7S 7H 7D 8S 8H 8D", rules=Rules(triples_are_bombs=False, triple_sequences=True))[0]
        legal_plays("3S", seq, rules=Rules(triples_are_bombs=False))


def test_kernel_survives_any_hand_and_any_target_bytes():
    """Compiled code must stay in bounds whatever it is given: random two-deck hands
    of up to 30 cards, and previous plays made of arbitrary bytes."""
    rng = np.random.default_rng(10)
    n = 3000
    los = np.zeros(n, dtype=np.uint64)
    his = np.zeros(n, dtype=np.uint64)
    for i in range(n):
        faces = rng.choice(108, size=int(rng.integers(0, 31)), replace=False) % 54
        for f in faces:
            b = np.uint64(1) << np.uint64(f)
            if los[i] & b:
                his[i] |= b
            else:
                los[i] |= b
    targets = rng.integers(0, 256, size=(n, 4), dtype=np.uint8)
    targets[::3, 0] = rng.integers(1, 10, size=len(targets[::3]))
    for rules in (Rules(decks=2), RULE_SETS["2d-everything"]):
        assert kernel_count(los, his, rules=rules, collapse_suits=True) > 0
        assert kernel_count(los, his, targets, rules=rules) >= 0
