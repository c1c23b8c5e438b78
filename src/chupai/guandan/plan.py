"""The hand planner of the Guan Dan heuristic policy, as a Python view.

The heuristic policy (``chupai.guandan._engine``, "the heuristic policy") scores a hand
by its *plan*: the hand split into combinations the cheapest way, each combination
costing more the lower it ranks.  Straights, tubes and plates are taken out first, by a
bounded depth-first search over the runs the hand's natural cards form (never a card of
a rank held four or more times: bombs stay whole); the rest splits into bombs, triples
(each carrying the lowest free non-joker pair as a full house), pairs and singles; the
wild cards (the hearts of the level rank) stay free, counted as assets.

:func:`plan` returns that split as concrete cards, so that it can be read and checked.

>>> p = plan("3S 4H 5D 6C 7S 9S 9H", "2")
>>> [str(c) for c in p.combinations]
['3S 4H 5D 6C 7S', '9S 9H']
>>> p.units
2
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from chupai.cards import RANKS, Cards
from chupai.guandan._policies import _plan
from chupai.guandan._movegen import parse_rank

__all__ = ["Plan", "plan"]

@dataclass(frozen=True)
class Plan:
    """A hand's plan.

    Attributes:
        burden: the plan's cost on the heuristic's scale (lower is a better hand).
        units: the combinations that need a play of their own (bombs, the four jokers
            and wild cards not counted).
        combinations: the split, every card of the hand in exactly one: the runs first
            (in the order the search took them), then bombs, full houses, triples, pairs
            and singles by rank, the four jokers, then each wild card alone.
        nodes: the search nodes the planner visited.
    """

    burden: int
    units: int
    combinations: tuple[Cards, ...]
    nodes: int


def plan(hand: Cards | str, level: str, *, nodes: int | None = None, slack: int | None = None) -> Plan:
    """The heuristic's plan of ``hand`` (``Cards`` or a card string) at ``level`` (the
    level rank, ``'2'`` .. ``'A'``).

    ``nodes`` and ``slack`` bound the search (``None``: the policy's bounds): at most
    ``nodes`` nodes, none searched on that is more than ``slack`` heavier than its parent.
    ``TypeError``/``ValueError`` name a bad argument.
    """
    if isinstance(hand, str):
        hand = Cards(hand)
    if not isinstance(hand, Cards):
        raise TypeError(f"hand must be Cards or a card string, not {type(hand).__name__}")
    lvl = parse_rank(level, "level")
    for name, value in (("nodes", nodes), ("slack", slack)):
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name} must be an int or None, not {type(value).__name__}")
            if not 0 <= value < 2**30:
                raise ValueError(f"{name} must be in [0, 2**30), not {value}")
    if nodes is not None and nodes < 1:
        raise ValueError(f"nodes must be positive, not {nodes}")
    burden, units, runs, visited = _plan(hand.lo, hand.hi, lvl, nodes, slack)
    wild = RANKS[lvl] + "H"
    pool: dict[str, list[str]] = {}
    wilds: list[str] = []
    for card in list(hand):
        if card == wild:
            wilds.append(card)
        else:
            pool.setdefault(card[0], []).append(card)
    combos: list[list[str]] = []
    for mult, ranks in runs:
        combo: list[str] = []
        for r in ranks:
            held = pool[RANKS[r]]
            combo.extend(held[:mult])
            del held[:mult]
        combos.append(combo)
    jokers = pool.pop("B", []) + pool.pop("R", [])
    # the natural ranks in the level order (the level rank above the ace), then jokers
    order = [r for r in RANKS if r != RANKS[lvl]] + [RANKS[lvl]]
    groups = [(r, pool.get(r, [])) for r in order]
    four_jokers = len(jokers) == 4
    if not four_jokers:
        count = Counter(c[0] for c in jokers)
        groups += [(j, [c for c in jokers if c[0] == j]) for j in "BR" if count[j]]
    triples = [cards for _, cards in groups if len(cards) == 3]
    free = list(triples)
    rest = [cards for _, cards in groups if cards and len(cards) != 3]
    for name, cards in groups:
        if len(cards) == 2 and free and name not in "BR":
            free.pop(0).extend(cards)  # a full house: the triple carries the pair
            rest.remove(cards)
    # triples (with their pairs) in rank order among the rest
    by_rank = {id(cards): k for k, (_, cards) in enumerate(groups)}
    ordered = sorted(rest + triples, key=lambda cards: by_rank[id(cards)])
    combos.extend(ordered)
    if four_jokers:
        combos.append(jokers)
    combos.extend([w] for w in wilds)
    return Plan(burden, units, tuple(Cards(" ".join(c)) for c in combos), visited)
