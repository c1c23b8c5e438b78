"""The Guan Dan heuristic's hand planner (``chupai.guandan.plan``): the split covers the
hand exactly with legal combinations, bombs stay whole, and on small hands the search
finds the cheapest split a brute force over every set of runs finds."""
from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement

import numpy as np
import pytest

from chupai.cards import Cards
from chupai.guandan import classify
from chupai.guandan._engine import DealEngine
from chupai.guandan.plan import plan

RANKS = "23456789TJQKA"
# the cost model of the planner (chupai.guandan._engine, "the plan"), written out again
TOP, PAIR_BONUS, BOMB_ASSET, WILD_ASSET, RUN_TOP = 11, 0, 16, 6, 12


def _hands(n: int, seed: int) -> list[tuple[Cards, str]]:
    """``n`` hands of 1..27 cards drawn from seeded deals, each with a level."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(n):
        level = RANKS[int(rng.integers(0, 13))]
        cards = list(DealEngine.random(seed * 1000 + k, level=level).hand(int(rng.integers(0, 4))))
        size = int(rng.integers(1, len(cards) + 1))
        pick = sorted(rng.choice(len(cards), size, replace=False).tolist())
        out.append((Cards(" ".join(cards[i] for i in pick)), level))
    return out


def _value(rank: str, level: str) -> int:
    """The level-order value of a natural rank (the level rank 12, jokers 13 and 14)."""
    if rank == "B":
        return 13
    if rank == "R":
        return 14
    r, lv = RANKS.index(rank), RANKS.index(level)
    return 12 if r == lv else (r if r < lv else r - 1)


def _burden(counts: Counter[int], wild: int) -> int:
    """hx_burden: singles, pairs and triples by rank, a pair carried by a triple, bombs
    and wild cards as assets."""
    s, top = 0, 15
    if counts[13] == 2 and counts[14] == 2:
        s -= 2 * BOMB_ASSET
        top = 13
    triples = sum(1 for v in range(top) if counts[v] == 3)
    for v in range(top):
        c = counts[v]
        if c >= 4:
            s -= BOMB_ASSET
        elif c == 3:
            s += TOP - v
        elif c == 2:
            if triples and v < 13:
                triples -= 1
            else:
                s += TOP - v - PAIR_BONUS
        elif c == 1:
            s += TOP - v
    return s - WILD_ASSET * wild


def _runs(counts: Counter[int], level: str) -> list[tuple[int, list[int], int]]:
    """Every straight, tube and plate of natural cards the counts allow (no rank held
    four or more times): (cards per rank, level-order values, cost)."""
    out = []
    for mult, span in ((1, 5), (2, 3), (3, 2)):
        for top in range(span - 2, 13):
            ranks = [RANKS[t] if t >= 0 else "A" for t in range(top, top - span, -1)]
            values = [_value(r, level) for r in ranks]
            if all(mult <= counts[v] < 4 for v in values):
                out.append((mult, values, RUN_TOP - top))
    return out


def _brute(hand: Cards, level: str) -> int:
    """The cheapest split over every multiset of runs (small hands only)."""
    wild_card = level + "H"
    counts: Counter[int] = Counter()
    wild = 0
    for c in list(hand):
        if c == wild_card:
            wild += 1
        else:
            counts[_value(c[0], level)] += 1
    runs = _runs(counts, level)
    best = _burden(counts, wild)
    for k in range(1, len(hand) // 5 + 2):
        for chosen in combinations_with_replacement(range(len(runs)), k):
            rest = Counter(counts)
            cost = 0
            for i in chosen:
                mult, values, price = runs[i]
                for v in values:
                    rest[v] -= mult
                cost += price
            if min(rest.values(), default=0) >= 0:
                best = min(best, cost + _burden(rest, wild))
    return best


@pytest.mark.parametrize("seed", [1, 2])
def test_the_split_covers_the_hand_with_legal_combinations(seed: int) -> None:
    for hand, level in _hands(150, seed):
        p = plan(hand, level)
        together = Counter(c for combo in p.combinations for c in list(combo))
        assert together == Counter(list(hand))
        for combo in p.combinations:
            assert classify(combo, level), (str(hand), level, str(combo))
        wild = level + "H"
        # bombs and the wild cards need no play of their own
        own = [combo for combo in p.combinations if list(combo) != [wild] and not classify(combo, level)[0].is_bomb]
        assert p.units == len(own), (str(hand), level, [str(c) for c in p.combinations])


def test_bombs_stay_whole() -> None:
    seen = 0
    for hand, level in _hands(200, 3):
        wild = level + "H"
        natural = Counter(c[0] for c in list(hand) if c != wild)
        p = plan(hand, level)
        for rank, n in natural.items():
            if n >= 4 and rank not in "BR":
                seen += 1
                holding = [combo for combo in p.combinations if rank in {c[0] for c in list(combo)}]
                assert len(holding) == 1 and Counter(c[0] for c in list(holding[0])) == {rank: n}
    assert seen > 0  # the sample holds bombs


def test_runs_replace_singles() -> None:
    p = plan("3S 4H 5D 6C 7S TS JD QC KS AS 9S 9H", "2")
    assert [str(c) for c in p.combinations[:2]] == ["3S 4H 5D 6C 7S", "TS JD QC KS AS"]
    assert p.units == 3
    assert plan("AS 2D 3C 4D 5S", "9").units == 1  # the ace low
    # two straights from five pairs: two plays, not five
    assert plan("3S 3H 4S 4H 5S 5H 6S 6H 7S 7H", "2", slack=64).units == 2


def test_search_finds_the_brute_force_minimum_on_small_hands() -> None:
    checked = 0
    for hand, level in _hands(400, 4):
        if len(hand) > 14:
            continue
        exact = _brute(hand, level)
        assert plan(hand, level, nodes=10**6, slack=10**6).burden == exact, (str(hand), level)
        bounded = plan(hand, level).burden
        assert bounded >= exact
        checked += 1
    assert checked > 100


def test_bad_arguments() -> None:
    with pytest.raises(TypeError, match="hand"):
        plan(3, "2")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="level"):
        plan("3S", "1")
    with pytest.raises(ValueError, match="nodes"):
        plan("3S", "2", nodes=0)
    with pytest.raises(TypeError, match="slack"):
        plan("3S", "2", slack=1.5)  # type: ignore[arg-type]
