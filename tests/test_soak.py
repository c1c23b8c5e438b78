"""Soak: many random games of every game with every invariant checked at every step,
and memory that stays flat over a million generator calls and 10^5 new states.

``CHUPAI_SOAK_GAMES`` sets the number of random games (default 10^5 across the four
games; CI runs 10^4).  These tests are ``slow``: ``pytest tests/test_soak.py -m slow``.
"""
from __future__ import annotations

import os
import random
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from chupai import chinese_ten, doudizhu, gandengyan, guandan, zhengshangyou
from chupai.registry import GAMES as REGISTRY
from chupai.cards import Cards
from chupai.contract import TERMINAL

pytestmark = pytest.mark.slow

GAMES = int(os.environ.get("CHUPAI_SOAK_GAMES", "100000"))
#: more actions than any deal of these games takes (Guan Dan: 108 cards and passes)
MAX_ACTIONS = 2000
#: the allowed growth of the resident set over a run (a leak check, not a timing test)
RSS_TOLERANCE = 0.05


def get(state: Any, name: str) -> Any:
    """An attribute of a state, whether the game has it as a property or a method."""
    value = getattr(state, name)
    return value() if callable(value) else value


def full_deck(decks: int, jokers: bool = True) -> tuple[int, int, int]:
    """The face counts of ``decks`` decks as :func:`counts_of` returns them."""
    return counts_of([Cards.from_counts([decks] * 52 + [decks if jokers else 0] * 2)])


def counts_of(places: list[Cards]) -> tuple[int, int, int]:
    """The number of copies of each face over all ``places``, as three bit planes
    (bit f of plane k = bit k of face f's count; counts up to 7), added with masks."""
    b0 = b1 = b2 = 0
    for cards in places:
        for layer in cards.layers:
            carry = b0 & layer
            b0 ^= layer
            carry2 = b1 & carry
            b1 ^= carry
            b2 ^= carry2
    return b0, b1, b2


# Per game: how to make a random deal, where every card is, the deck, and the end checks.
def _places_shedding(deal: Any) -> list[Cards]:
    return list(get(deal, "hands")) + list(get(deal, "played_cards"))


def _places_gandengyan(deal: Any) -> list[Cards]:
    talon = Cards(get(deal, "talon"), decks=deal.rules.decks)
    return list(get(deal, "hands")) + list(get(deal, "played_cards")) + [talon]


def _places_chinese_ten(deal: Any) -> list[Cards]:
    stock = deal.card_play().stock() if not deal.is_terminal() else []
    turned = [get(deal, "turned")] if get(deal, "turned") else []
    layout = get(deal, "layout")
    return list(get(deal, "hands")) + list(get(deal, "piles")) + [layout, Cards(stock + turned, decks=1)]


def _end_guandan(deal: Any) -> None:
    order = [seat for seat in get(deal, "finishing_order") if seat >= 0]  # -1: not out
    assert len(set(order)) == len(order) >= 2 and set(order) <= set(range(4))
    assert sum(deal.returns()) == 0 and deal.returns()[0] == deal.returns()[2]
    assert sum(1 for n in deal.hand_sizes() if n == 0) >= 2


def _end_zhengshangyou(deal: Any) -> None:
    n = deal.players
    assert sorted(get(deal, "points"), reverse=True)[:2] == ([2, 1] if n > 2 else [2, 0])
    assert abs(sum(deal.returns())) < 1e-9
    assert sum(1 for s in deal.hand_sizes() if s) <= 1


def _end_gandengyan(deal: Any) -> None:
    scores = get(deal, "scores")
    assert sum(scores) == 0 and len(scores) == deal.players
    winner = get(deal, "winner")
    if winner is not None:
        assert deal.hand_sizes()[winner] == 0 and scores[winner] >= 0


def _end_chinese_ten(deal: Any) -> None:
    assert sum(get(deal, "scores")) == deal.rules.total(deal.players) or not deal.rules.forced_capture
    assert abs(sum(deal.returns())) < 1e-9
    assert sum(deal.hand_sizes()) == 0 and deal.stock_size == 0


def _places_doudizhu(deal: Any) -> list[Cards]:
    kitty = [get(deal, "kitty")] if get(deal, "landlord") is None else []  # then in the landlord's hand
    return list(get(deal, "hands")) + list(get(deal, "played_cards")) + kitty


def _end_doudizhu(deal: Any) -> None:
    landlord, winner, returns = get(deal, "landlord"), get(deal, "winner"), deal.returns()
    assert sum(returns) == 0 and deal.hand_sizes()[winner] == 0
    farmers = [returns[s] for s in range(3) if s != landlord]
    assert farmers[0] == farmers[1] and returns[landlord] == -2 * farmers[0] != 0
    assert (returns[landlord] > 0) == (winner == landlord)


def _doudizhu_deal(rng: random.Random) -> Any:
    rules = doudizhu.Rules(bidding=rng.choice(("once", "rob", "none")), airplane_repeat_kickers=rng.random() < 0.5)
    return doudizhu.Deal(rng.randrange(1 << 30), rules=rules, first=rng.randrange(3))


def _chinese_ten_deal(rng: random.Random) -> Any:
    rules = chinese_ten.Rules(variant=rng.choice(chinese_ten.rules.VARIANTS))
    players = rng.choice([n for n in (2, 3, 4) if _plays_with(rules, n)])
    return chinese_ten.Deal(rng.randrange(1 << 30), players=players, rules=rules)


def _plays_with(rules: Any, players: int) -> bool:
    try:
        rules.check_players(players)
    except ValueError:
        return False
    return True


SPECS: dict[str, tuple[Callable[[random.Random], Any], Callable[[Any], list[Cards]], Callable[[Any], tuple[int, int, int]],
                       Callable[[Any], None]]] = {
    "guandan": (lambda r: guandan.Deal(r.randrange(1 << 30)), _places_shedding,
                lambda d: full_deck(2), _end_guandan),
    "zhengshangyou": (lambda r: zhengshangyou.Deal(r.randrange(1 << 30), players=r.randint(2, 8)), _places_shedding,
                      lambda d: full_deck(1), _end_zhengshangyou),
    "gandengyan": (lambda r: gandengyan.Deal(r.randrange(1 << 30), players=r.randint(2, 6),
                                             rules=gandengyan.Rules(decks=r.choice((1, 1, 2)))),
                   _places_gandengyan, lambda d: full_deck(d.rules.decks), _end_gandengyan),
    "chinese_ten": (_chinese_ten_deal, _places_chinese_ten, lambda d: full_deck(1, jokers=False), _end_chinese_ten),
    "doudizhu": (_doudizhu_deal, _places_doudizhu, lambda d: full_deck(1), _end_doudizhu),
}


def play_random_deal(name: str, rng: random.Random) -> int:
    """One random deal of ``name`` to the end, every invariant checked after every
    action; returns the number of actions."""
    make, places, deck, end = SPECS[name]
    deal = make(rng)
    expected = deck(deal)
    for step in range(MAX_ACTIONS):
        hands = get(deal, "hands")
        assert deal.hand_sizes() == tuple(len(h) for h in hands)
        # every card is in exactly one place: the counts add up to the deck, face by face
        assert counts_of(places(deal)) == expected, f"{name} seed {deal.seed}: cards not conserved at step {step}"
        if deal.is_terminal():
            assert deal.legal_actions() == [] and deal.current_player == TERMINAL
            end(deal)
            return step
        seat = deal.current_player
        assert 0 <= seat < len(hands)
        actions = deal.legal_actions()
        assert actions, f"{name} seed {deal.seed}: no legal action at step {step}"
        deal.apply(actions[rng.randrange(len(actions))])
    raise AssertionError(f"{name} seed {deal.seed}: not over after {MAX_ACTIONS} actions")


def test_random_games_keep_every_invariant() -> None:
    rng = random.Random(16)
    names = list(REGISTRY)  # every registered game: one without a SPECS row fails
    actions = 0
    for i in range(GAMES):
        actions += play_random_deal(names[i % len(names)], rng)
    assert actions > GAMES  # every deal took actions


# -- memory ------------------------------------------------------------------------------
def rss_bytes() -> int:
    """The resident set size of this process now (``/proc/self/statm``)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _generator_calls(rng: random.Random) -> list[Callable[[], Any]]:
    """Generator calls over prepared positions of every game, leading and following."""
    calls: list[Callable[[], Any]] = []
    for seed in range(20):
        d = guandan.Deal(seed)
        hand, level = d.hand(d.current_player), d.level
        lead = guandan.legal_plays(hand, level)
        prev = lead[rng.randrange(len(lead))]
        calls += [partial(guandan.legal_plays, hand, level), partial(guandan.legal_plays, hand, level, prev),
                  partial(guandan.legal_plays, hand, level, collapse_suits=True)]
        z = zhengshangyou.Deal(seed)
        zh = z.hand(z.current_player)
        zprev = zhengshangyou.legal_plays(zh)[0]
        calls += [partial(zhengshangyou.legal_plays, zh), partial(zhengshangyou.legal_plays, zh, zprev)]
        g = gandengyan.Deal(seed)
        gh = g.hand(g.current_player)
        calls += [partial(gandengyan.legal_plays, gh)]
        c = chinese_ten.Deal(seed)
        ch, lay = c.hand(c.current_player), c.layout
        calls += [partial(chinese_ten.legal_plays, ch, lay)]
    return calls


def _use(plays: Any, i: int) -> None:
    """Touch the result the ways a caller does: length, a Play, numpy, the protocol form."""
    if len(plays):
        plays[i % len(plays)]
    if i % 7 == 0:
        plays.to_numpy()
    if i % 13 == 0 and len(plays) and hasattr(plays[0], "to_protocol"):  # not every game has a protocol form
        plays.to_protocol()


def _flat(run: Callable[[int], None], n: int, warmup: int) -> tuple[int, int]:
    for i in range(warmup):
        run(i)
    before = rss_bytes()
    for i in range(n):
        run(i)
    return before, rss_bytes()


def test_memory_flat_over_a_million_generator_calls() -> None:
    calls = _generator_calls(random.Random(1))

    def run(i: int) -> None:
        _use(calls[i % len(calls)](), i)

    before, after = _flat(run, 1_000_000, 50_000)
    assert after <= before * (1 + RSS_TOLERANCE), f"RSS grew {before} -> {after} bytes"


def test_memory_flat_over_1e5_state_creations() -> None:
    makers: list[Callable[[int], Any]] = [
        guandan.Deal, partial(zhengshangyou.Deal, players=5), gandengyan.Deal, chinese_ten.Deal, guandan.Match,
        partial(chinese_ten.Match, players=3),
    ]

    def run(i: int) -> None:
        state = makers[i % len(makers)](i)
        state.legal_actions()
        state.clone().observation(0)

    before, after = _flat(run, 100_000, 5_000)
    assert after <= before * (1 + RSS_TOLERANCE), f"RSS grew {before} -> {after} bytes"
