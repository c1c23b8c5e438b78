"""The DanZero layout rebuilt by hand, from the definitions, for a few positions.

Cards are handled here as strings only (no chupai card code): DanZero's index of a card
is ``rank*4 + suit`` with ranks 2..A and suits H S C D, the black joker 52 and the red
joker 53; counts 0..2.
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from chupai.actions import PASS
from chupai.guandan import Deal, Match
from chupai.guandan import danzero

RANKS = "23456789TJQKA"


def dz(cards: str | list[str]) -> np.ndarray:
    """DanZero's 54 counts of some card names."""
    out = np.zeros(54)
    for c in cards.split() if isinstance(cards, str) else cards:
        out[52 if c == "BJ" else 53 if c == "RJ" else RANKS.index(c[0]) * 4 + "HSCD".index(c[1])] += 1
    return out


def left(n: int) -> np.ndarray:
    out = np.zeros(28)
    out[n] = 1
    return out


def level(r: str) -> np.ndarray:
    out = np.zeros(13)
    out[RANKS.index(r)] = 1
    return out


def play(deal: Deal, cards: str) -> None:
    """Apply the legal play of exactly these cards (the first such one), or PASS."""
    if cards == "PASS":
        deal.apply(PASS)
        return
    want = Counter(cards.split())
    for a in deal.legal_actions():
        if a is not PASS and Counter(str(a.cards).split()) == want:
            deal.apply(a)
            return
    raise AssertionError(f"{cards} is not legal")


def expected(hands: list[str], moves: list[tuple[int, str]], p: int, flags: list[int],
             levels: tuple[str, str], lvl: str, last: str | None, partner_last: str | None) -> np.ndarray:
    """The 513 values from the definitions; ``last``/``partner_last`` None for all -1."""
    played = [Counter() for _ in range(4)]
    for s, cards in moves:
        if cards != "PASS":
            played[s].update(cards.split())
    hand = Counter(hands[p].split()) - played[p]
    all_played = sum(played, Counter())
    unseen = 2 - dz(list(hand.elements())) - dz(list(all_played.elements()))
    sizes = [len(hands[s].split()) - sum(played[s].values()) for s in range(4)]

    def vec(x: str | None) -> np.ndarray:
        return -np.ones(54) if x is None else np.zeros(54) if x == "PASS" else dz(x)

    team = p % 2
    return np.concatenate([
        dz(list(hand.elements())), np.array(flags, float), unseen, vec(last), vec(partner_last),
        dz(list(played[(p + 1) % 4].elements())), dz(list(played[(p + 2) % 4].elements())),
        dz(list(played[(p + 3) % 4].elements())),
        left(sizes[(p + 1) % 4]), left(sizes[(p + 2) % 4]), left(sizes[(p + 3) % 4]),
        level(levels[team]), level(levels[1 - team]), level(lvl),
    ])


def test_sizes():
    assert danzero.STATE_SIZE == 513 == 54 + 12 + 54 * 6 + 3 * 28 + 3 * 13
    assert danzero.ACTION_SIZE == 54


def test_start_of_play_with_wild_flags():
    # level 2: 2H is the wild card.  Seat 0: spades 3-4-5-6 (4 of the window 2..6),
    # three suits of 9 -> flags 0, 1 and the thermometer of 3 (5, 6, 7).
    hands = ["2H 3S 4S 5S 6S 9D 9C 9H KD KD", "3H 4H 8C", "TS TD JC", "QS QD AC AD"]
    deal = Deal.from_hands(hands, leader=0)
    got = danzero.observation(deal, 0)
    want = expected(hands, [], 0, [1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0], ("2", "2"), "2", None, None)
    np.testing.assert_array_equal(got, want)
    # seat 1 holds no wild card: all 12 flags are zero
    want1 = expected(hands, [], 1, [0] * 12, ("2", "2"), "2", None, None)
    np.testing.assert_array_equal(danzero.observation(deal, 1), want1)


def test_reference_quirks_of_the_flags():
    # level 7: 7H is wild.  T..A of spades lacks only the K: the reference's window
    # scan stops before T-A, so flag 1 stays 0.  Suits per rank: T 2, J 2, Q 3, K 1,
    # A 1: the run ending at A is 5 long (8), J-Q is (2, 3) (9), J-Q-K (2, 3, 1) (10),
    # T-J two pairs (11); thermometer of 3 (5, 6, 7).
    hands = ["7H TS TD JS JD QS QH QC KD AS", "3H", "4H", "5H"]
    deal = Deal.from_hands(hands, leader=0, levels=("5", "7"), declarers=1)
    want = expected(hands, [], 0, [1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1], ("5", "7"), "7", None, None)
    np.testing.assert_array_equal(danzero.observation(deal, 0), want)
    # seat 3 is on the declarers' team: own level 7, opponents 5
    want3 = expected(hands, [], 3, [0] * 12, ("5", "7"), "7", None, None)
    np.testing.assert_array_equal(danzero.observation(deal, 3), want3)


def test_positions_during_play_and_after_a_seat_goes_out():
    hands = ["9D 9S 4C KH", "6D 6H 8S", "JC JD 3S", "5D"]
    deal = Deal.from_hands(hands, leader=3, levels=("3", "3"))
    moves: list[tuple[int, str]] = []

    def do(seat: int, cards: str) -> None:
        assert deal.current_player == seat
        play(deal, cards)
        moves.append((seat, cards))

    do(3, "5D")  # seat 3 goes out
    # seat 0 to act: the last play is seat 3's own (not a placeholder yet)
    np.testing.assert_array_equal(
        danzero.observation(deal, 0), expected(hands, moves, 0, [0] * 12, ("3", "3"), "3", "5D", None))
    do(0, "9D")
    do(1, "PASS")
    # seat 2: last action a pass (zeros); partner seat 0's last play 9D
    np.testing.assert_array_equal(
        danzero.observation(deal, 2), expected(hands, moves, 2, [0] * 12, ("3", "3"), "3", "PASS", "9D"))
    do(2, "PASS")
    # seat 0 leads again; the seat before it (3) is out: DanZero's placeholder -1
    assert deal.current_player == 0
    np.testing.assert_array_equal(
        danzero.observation(deal, 0), expected(hands, moves, 0, [0] * 12, ("3", "3"), "3", None, "PASS"))
    # seat 1's partner (3) is out: partner action -1; last action seat 2's pass
    np.testing.assert_array_equal(
        danzero.observation(deal, 1), expected(hands, moves, 1, [0] * 12, ("3", "3"), "3", "PASS", None))


def test_action_features():
    hands = ["2H 3S 3D BJ", "3H", "4H", "5H"]
    deal = Deal.from_hands(hands, leader=0)
    feats = danzero.action_features(deal)
    legal = deal.legal_actions()
    assert feats.shape == (len(legal), 54)
    for a, row in zip(legal, feats):
        np.testing.assert_array_equal(row, dz(str(a.cards)))
    play(deal, "3S")
    rows = danzero.action_features(deal)
    assert deal.legal_actions()[-1] is PASS and not rows[-1].any()


def test_every_moment_of_a_match_has_a_state():
    match = Match(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(300):
        if match.is_terminal():
            break
        for p in range(4):
            obs = danzero.observation(match, p)
            assert obs.shape == (513,) and obs.dtype == np.float32
        acts = match.legal_actions()
        match.apply(acts[int(rng.integers(len(acts)))])
    with pytest.raises(TypeError):
        danzero.observation(object(), 0)
