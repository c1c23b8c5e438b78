"""The Dou Dizhu generator against the brute force of ``doudizhu_reference`` (built on
``classify`` alone), leading and following, concrete and suit-collapsed, under every
combination of the rule options and every preset."""
from __future__ import annotations

import itertools
import random
from dataclasses import fields

import numpy as np
import pytest

from chupai.cards import Cards
from chupai.doudizhu import Play, Rules, legal_plays, legal_plays_batch
from chupai.doudizhu.classify import value_counts
from doudizhu_reference import dense_hand, key, reference_collapsed, reference_plays

#: the options of the card play (the generator's flags): every switch of Rules
OPTIONS = [f.name for f in fields(Rules) if f.type == "bool"]
EVERY_RULES = [Rules(**dict(zip(OPTIONS, flags))) for flags in itertools.product((False, True), repeat=len(OPTIONS))]
PRESETS = {"default": Rules(), "openspiel": Rules.openspiel(), "rlcard": Rules.rlcard(), "douzero": Rules.douzero()}


def _cards(lo: int) -> Cards:
    return Cards.from_masks(lo)


def _follows(rng: random.Random, rules: Rules, n: int) -> list[Play]:
    """``n`` plays to beat, drawn from the leads of other dense hands."""
    out: list[Play] = []
    while len(out) < n:
        plays = legal_plays(_cards(dense_hand(rng, rng.randrange(4, 15))), rules=rules, collapse_suits=True)
        if len(plays):
            out.append(plays[rng.randrange(len(plays))])
    return out


def _check(hand: int, rules: Rules, previous: Play | None) -> int:
    got = legal_plays(_cards(hand), previous, rules=rules)
    keys = [key(p) for p in got]
    assert len(set(keys)) == len(keys), "a play listed twice"
    want = reference_plays(hand, rules, previous)
    assert set(keys) == want, (Cards.from_masks(hand), rules, previous, set(keys) ^ want)
    return len(keys)


@pytest.mark.parametrize("rules", EVERY_RULES, ids=lambda r: format(r._flags, "02x"))
def test_concrete_plays_equal_the_brute_force_under_every_option(rules: Rules) -> None:
    rng = random.Random(rules._flags)
    listed = 0
    for _ in range(6):
        hand = dense_hand(rng, rng.randrange(6, 13))
        listed += _check(hand, rules, None)
        for previous in _follows(rng, rules, 3):
            _check(hand, rules, previous)
    assert listed > 50  # the hands are not trivial


def _check_collapsed(hand: int, rules: Rules, previous: Play | None) -> None:
    got = [key(p) for p in legal_plays(_cards(hand), previous, rules=rules, collapse_suits=True)]
    assert len(set(got)) == len(got), "a play listed twice"
    want = reference_collapsed(hand, rules, previous)
    assert set(got) == want, (Cards.from_masks(hand), rules, previous, set(got) ^ want)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_collapsed_plays_of_game_sized_hands_equal_the_brute_force(preset: str) -> None:
    rules = PRESETS[preset]
    rng = random.Random(preset)
    for _ in range(12):
        hand = dense_hand(rng, rng.choice((17, 20)))
        _check_collapsed(hand, rules, None)
        for previous in _follows(rng, rules, 2):
            _check_collapsed(hand, rules, previous)


@pytest.mark.slow
@pytest.mark.parametrize("preset", list(PRESETS))
def test_collapsed_plays_of_many_hands_equal_the_brute_force(preset: str) -> None:
    """250 hands per preset (1,000 in all), 12 to 18 cards, each led and followed."""
    rules = PRESETS[preset]
    rng = random.Random(f"slow {preset}")
    for _ in range(250):
        hand = dense_hand(rng, rng.randrange(12, 19))
        _check_collapsed(hand, rules, None)
        _check_collapsed(hand, rules, _follows(rng, rules, 1)[0])


def test_the_concrete_list_expands_the_collapsed_one() -> None:
    """Each collapsed play stands for the concrete plays with its type, key and ranks."""
    rng = random.Random(7)
    for rules in PRESETS.values():
        for _ in range(30):
            hand = _cards(dense_hand(rng, 17))
            concrete = legal_plays(hand, rules=rules)
            collapsed = legal_plays(hand, rules=rules, collapse_suits=True)

            def shape(p: Play) -> tuple[object, ...]:
                return (int(p.type), p.key, p.length, tuple(value_counts(p.cards.lo)))

            assert {shape(p) for p in concrete} == {shape(p) for p in collapsed}
            assert len({shape(p) for p in collapsed}) == len(collapsed)


def test_each_list_keeps_its_plays_whatever_is_listed_after_it() -> None:
    """Lists are built in one buffer reused between calls (a long one takes it whole):
    a list is the same after later calls, long or short, as when it was returned."""
    every_four = "3S 3H 3C 3D 4S 4H 4C 4D 5S 5H 5C 5D 6S 6H 6C 6D 7S 7H 7C 7D 8S 8H 8C 8D"
    long = legal_plays(every_four)
    long_records = long.to_numpy().copy()
    short = legal_plays("3S 4S 4H BJ")
    short_records = short.to_numpy().copy()
    assert len(long) > 100_000 and len(short) == 5
    again = legal_plays(every_four)
    legal_plays("9S 9H 9C 9D")
    assert (long.to_numpy() == long_records).all() and (again.to_numpy() == long_records).all()
    assert (short.to_numpy() == short_records).all()
    assert [str(p) for p in short] == [str(p) for p in legal_plays("3S 4S 4H BJ")]


@pytest.mark.parametrize("collapse", [False, True])
def test_a_batch_lists_what_legal_plays_lists_for_each_position(collapse: bool) -> None:
    """``legal_plays_batch`` is ``legal_plays`` of each position, in order, with masks or
    hands, leading and following, under every preset."""
    rng = random.Random(11)
    for rules in PRESETS.values():
        hands = [_cards(dense_hand(rng, rng.randrange(1, 18))) for _ in range(60)]
        previous: list[Play | None] = [None if rng.random() < 0.3 else p for p in _follows(rng, rules, 60)]
        each = [legal_plays(h, p, rules=rules, collapse_suits=collapse) for h, p in zip(hands, previous)]
        masks = np.array([h.lo for h in hands], dtype=np.uint64)
        for batch_hands in (masks, hands, [str(h) for h in hands]):
            plays, offsets = legal_plays_batch(batch_hands, previous, rules=rules, collapse_suits=collapse)
            assert offsets.tolist() == [0, *itertools.accumulate(len(e) for e in each)]
            records = plays.to_numpy()
            for i, e in enumerate(each):
                assert (records[offsets[i]:offsets[i + 1]] == e.to_numpy()).all()
        leads, offsets = legal_plays_batch(masks, rules=rules, collapse_suits=collapse)
        assert len(leads) == sum(len(legal_plays(h, rules=rules, collapse_suits=collapse)) for h in hands)
    empty, offsets = legal_plays_batch(np.zeros(0, dtype=np.uint64))
    assert len(empty) == 0 and offsets.tolist() == [0]


def test_a_batch_refuses_bad_input_naming_the_position() -> None:
    one = legal_plays("3D")[0]
    with pytest.raises(TypeError, match="hands must be"):
        legal_plays_batch("3S 4S")
    with pytest.raises(TypeError, match="numpy.uint64"):
        legal_plays_batch(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError, match=r"hands\[1\]"):
        legal_plays_batch(["3S", "3S 3S"])
    with pytest.raises(ValueError, match="beyond the 54 faces"):
        legal_plays_batch(np.array([1 << 60], dtype=np.uint64))
    with pytest.raises(ValueError, match="one Play or None per hand"):
        legal_plays_batch(["3S"], [None, one])
    with pytest.raises(TypeError, match=r"previous\[0\]"):
        legal_plays_batch(["3S"], ["3D"])
    with pytest.raises(TypeError, match="rules"):
        legal_plays_batch(["3S"], rules="openspiel")


def test_kernel_count_matches_the_lists():
    """The bare kernel (bench's kernel_count) counts what legal_plays lists, leading and
    following, concrete and collapsed; bad masks and rows are refused."""
    from chupai.doudizhu._movegen import kernel_count

    rng = random.Random(12)
    hands = [_cards(dense_hand(rng, 17)) for _ in range(30)]
    prev = [rng.choice(list(legal_plays(_cards(dense_hand(rng, 17))))) for _ in hands]
    masks = np.array([h.lo for h in hands], dtype=np.uint64)
    rows = np.array([[int(p.type), p.length, p.bomb_class, p.key] for p in prev], dtype=np.uint8)
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
    bad[4, 0] = 200
    with pytest.raises(ValueError, match="previous row 4 is not a Dou Dizhu play"):
        kernel_count(masks, bad)
