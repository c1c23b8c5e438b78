"""Invariants of the Guan Dan state machines over random play.

docs/rules/guandan.md "Players, cards, levels" (108 cards, 27 each), "A deal", "Levels and the end of the
game", "Tribute"; docs/design.md "State machines" (clone, observation, determinize, illegal
actions leave the state unchanged, same seed same result).
"""
from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from chupai import Cards
from chupai.cards import RANKS, face_name, parse_face
from chupai.contract import TERMINAL
from chupai.errors import IllegalActionError
from chupai.guandan import (
    PASS,
    ChooseLeader,
    Deal,
    Match,
    PayTribute,
    Play,
    ReturnCard,
    Rules,
    TakeTribute,
    legal_plays,
)

RULES = [
    Rules(),
    Rules.competition(),
    Rules(ace_attempts=None, ace_loss_to_aces=False, equal_tribute_lead="seat_order"),
    Rules.competition(ace_attempts=1, equal_tribute="winners_choose", tribute_lead="receiver"),
]
ACE = RANKS.index("A")


# --- helpers --------------------------------------------------------------------------------
def table_cards(deal):
    """Tribute cards paid and not yet received."""
    t = deal.tribute
    return [c for _, c in t["paid"]] if not t["received"] else []


def check_cards(deal, full=True):
    """docs/rules/guandan.md "Players, cards, levels": every card in exactly one place (hand, played, on the table)."""
    counts = [0] * 54
    for s in range(4):
        for f, n in enumerate(deal.hand(s).counts()):
            counts[f] += n
    for cards in deal.played_cards():
        for f, n in enumerate(cards.counts()):
            counts[f] += n
    for c in table_cards(deal):
        counts[parse_face(c)] += 1
    if full:
        assert counts == [2] * 54
    for s in range(4):
        assert deal.known_cards[s] <= deal.hand(s)
    assert deal.hand_sizes() == tuple(len(deal.hand(s)) for s in range(4))


def check_finished_deal(deal, summary, rules, match):
    """docs/rules/guandan.md "A deal" and "Levels and the end of the game"."""
    order = deal.finishing_order
    assert order == summary["finishing_order"] and len(order) == 4
    first = order[0]
    result = deal.result
    if order[1] == (first + 2) % 4:
        assert result == "1-2" and order[2:] == (-1, -1)
    else:
        assert sorted(order) == [0, 1, 2, 3]
        assert result == ("1-3" if order[2] == (first + 2) % 4 else "1-4")
    gains = dict(zip(("1-2", "1-3", "1-4"), rules.promotion))
    w = first % 2
    assert deal.returns() == [gains[result] if s % 2 == w else -gains[result] for s in range(4)]
    before = [RANKS.index(x) for x in summary["levels_before"]]
    after = [RANKS.index(x) for x in summary["levels_after"]]
    decl = summary["declarers"]
    assert deal.level == summary["levels_before"][decl if decl is not None else 0]
    if decl == w and before[w] == ACE and result in ("1-2", "1-3"):
        assert match.is_terminal() and match.winner == w and after == before
        return
    if before[w] < ACE:
        assert after[w] == min(ACE, before[w] + gains[result])
    else:
        assert after[w] in (ACE, 0)
        if after[w] == 0:
            assert decl == w and rules.ace_attempts is not None
    lose = 1 - w
    if after[lose] != before[lose]:
        assert before[lose] == ACE and after[lose] == 0 and decl == lose
    fails = summary["ace_failures"]
    if rules.ace_attempts is not None:
        assert all(0 <= f < rules.ace_attempts for f in fails)


def play_random_match(seed, rules, rng, check_prob=0.02, max_deals=1000):
    m = Match(seed=seed, rules=rules, max_deals=max_deals)
    steps = 0
    while not m.is_terminal():
        d = m.deal
        n = m.deals_played
        acts = m.legal_actions()
        assert acts and m.current_player == d.current_player >= 0
        m.apply(acts[rng.integers(len(acts))])
        steps += 1
        assert steps < 200_000
        if m.deals_played != n:
            assert d.is_terminal()
            check_finished_deal(d, m.deals[-1], rules, m)
            check_cards(d)
            if not m.is_terminal():
                nd = m.deal
                assert nd.previous == d.finishing_order
                assert nd.declarers == d.winners and nd.level == m.levels[nd.declarers]
                check_cards(nd)
        elif rng.random() < check_prob:
            check_cards(m.deal)
        assert all(lv in RANKS for lv in m.levels)
    # docs/rules/guandan.md "Levels and the end of the game": the game ends, won at A
    if m.winner is None:
        assert m.deals_played == max_deals and m.returns() == [0.0] * 4
    else:
        last = m.deals[-1]
        assert last["declarers"] == m.winner and last["levels_before"][m.winner] == "A"
        assert last["result"] in ("1-2", "1-3")
        assert m.returns() == [1.0 if s % 2 == m.winner else -1.0 for s in range(4)]
    assert m.current_player == TERMINAL and m.legal_actions() == []
    return m


def dealt_hands(deal):
    """The hands as dealt, from the hands now and the public record (independent of game.py)."""
    start = [deal.hand(s).counts() for s in range(4)]
    for s, cards in enumerate(deal.played_cards()):
        for f, n in enumerate(cards.counts()):
            start[s][f] += n
    t = deal.tribute
    for payer, card in t["paid"]:
        start[payer][parse_face(card)] += 1
    for payer, receiver, card in t["received"]:
        start[receiver][parse_face(card)] -= 1
    for receiver, payer, card in t["returned"]:
        start[receiver][parse_face(card)] += 1
        start[payer][parse_face(card)] -= 1
    return [Cards.from_counts(c) for c in start]


def replays_to(deal, hands):
    """Deal ``hands`` and replay ``deal``'s public decisions: the same public history?"""
    history = deal.history
    leader = history[0].seat if history else deal.current_player
    try:
        new = Deal.from_hands(hands, leader=leader, levels=deal.levels, declarers=deal.declarers,
                              previous=deal.previous, rules=deal.rules)
        for event in history:
            if event.automatic:
                continue
            if new.current_player != event.seat:
                return None
            new.apply(event.action)
    except (IllegalActionError, ValueError):
        return None
    if (new.history != history or new.phase != deal.phase
            or new.current_player != deal.current_player
            or new.tribute["resisted"] != deal.tribute["resisted"]):
        return None
    return new


def check_determinization(state, p, seed):
    """docs/design.md "How a play travels" (observed): everything ``p`` knows is kept; the deal is reachable."""
    dm = state.determinize(p, seed)
    deal, ddeal = (state.deal, dm.deal) if isinstance(state, Match) else (state, dm)
    assert dm.observation(p) == state.observation(p)
    assert ddeal.hand(p) == deal.hand(p)
    assert ddeal.hand_sizes() == deal.hand_sizes()
    assert ddeal.played_cards() == deal.played_cards()
    assert ddeal.known_cards == deal.known_cards
    check_cards(ddeal)
    new = replays_to(ddeal, dealt_hands(ddeal))
    assert new is not None and [new.hand(s) for s in range(4)] == [ddeal.hand(s) for s in range(4)]
    # the determinized state is a working state
    c = dm.clone()
    rng = np.random.default_rng(seed)
    start = c.deals_played if isinstance(c, Match) else None
    while not c.is_terminal() and (start is None or c.deals_played == start):
        acts = c.legal_actions()
        c.apply(acts[rng.integers(len(acts))])
    return any(ddeal.hand(s) != deal.hand(s) for s in range(4))


def snapshot(state):
    return (str(state), [state.observation(p) for p in range(4)], state.history,
            state.legal_actions(), state.current_player, state.returns(), state.is_terminal())


GARBAGE = [None, 0, 7, 2.5, "PASS", "3S", b"PASS", object(), [], ["Single"], ("Single", "3"),
           {"type": "Single"}, np.int64(1), np.zeros(3), [1, 2, 3], ["Bomb", "3", ["S3"] * 4],
           ["PASS", "PASS"], Cards("3S"), PayTribute, Deal]


def illegal_candidates(state, rng):
    deal = state.deal if isinstance(state, Match) else state
    seat = deal.current_player
    hand = deal.hand(seat)
    legal = deal.legal_actions()
    out = list(GARBAGE)
    held = hand.counts()
    unheld = [face_name(f) for f in range(54) if not held[f]]
    out.append(PayTribute(unheld[0]))
    out.append(ReturnCard(unheld[-1]))
    out.append(TakeTribute(unheld[0]))
    out.extend(ChooseLeader(s) for s in range(4))
    out.extend(PayTribute(face_name(f)) for f in range(54) if held[f])
    out.extend(ReturnCard(face_name(f)) for f in range(54) if held[f])
    # a play of cards not held
    out.append(legal_plays(Cards(unheld[0]), deal.level)[0])
    # a play formed at another level
    other = RANKS[(RANKS.index(deal.level) + 1) % 13]
    out.append(legal_plays(Cards(str(hand).split()[0]), other)[0])
    # plays from the hand that do not beat the trick (or any play outside the phase)
    own = legal_plays(hand, deal.level)
    idx = rng.choice(len(own), size=min(len(own), 6), replace=False)
    out.extend(own[int(i)] for i in idx)
    out.append(PASS)
    out.append(["Single", str(hand).split()[0][0], [str(hand).split()[0][1] + str(hand).split()[0][0]]])
    return [a for a in out if not any(a is b or (type(a) is type(b) and a == b) for b in legal)
            and not (a is PASS and PASS in legal)
            and not (isinstance(a, list) and len(a) == 3 and a[0] == "Single" and deal.phase == "play"
                     and any(isinstance(b, Play) and b.to_protocol() == a for b in legal))]


# --- random matches ---------------------------------------------------------------------------------
def run_matches(n, base, check_prob=0.02):
    for i in range(n):
        rules = RULES[i % len(RULES)]
        rng = np.random.default_rng(base + i)
        play_random_match(base + i, rules, rng, check_prob=check_prob)


def test_random_matches_quick():
    """50 random matches played to the end: cards, levels, the end of the game."""
    run_matches(50, 1000)


@pytest.mark.slow
def test_random_matches_2000():
    """2000 random matches played to the end (docs/rules/guandan.md "Levels and the end of the game")."""
    run_matches(2000, 50_000, check_prob=0.005)


def test_random_match_with_max_deals_cap():
    m = play_random_match(3, Rules(), np.random.default_rng(3), max_deals=2)
    assert m.deals_played <= 2


# --- determinize ----------------------------------------------------------------------------------
def test_determinize_keeps_what_the_observer_knows_over_random_positions():
    """docs/design.md "How a play travels" (observed), over random positions of random matches (tribute included)."""
    rng = np.random.default_rng(7)
    checked, varied, phases = 0, 0, Counter()
    for i in range(24):
        rules = RULES[i % len(RULES)]
        m = Match(seed=700 + i, rules=rules, max_deals=4)
        while not m.is_terminal():
            if m.deal.phase != "play" or rng.random() < 0.03:
                p = int(rng.integers(4))
                varied += check_determinization(m, p, int(rng.integers(1 << 30)))
                checked += 1
                phases[m.deal.phase] += 1
            acts = m.legal_actions()
            m.apply(acts[rng.integers(len(acts))])
    assert checked > 200 and varied > checked // 2
    assert phases["play"] > 50 and phases["return"] > 10


def test_determinize_deal_and_seed():
    d = Deal(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(30):
        acts = d.legal_actions()
        d.apply(acts[rng.integers(len(acts))])
    a = d.determinize(1, 123)
    b = d.determinize(1, np.random.default_rng(123))
    assert str(a) == str(b)
    assert check_determinization(d, 1, 5)
    with pytest.raises(ValueError):
        d.determinize(4)
    with pytest.raises(TypeError, match="rng must be a numpy Generator"):
        d.determinize(0, "seed")


def consistent_deals(deal, p):
    """Every re-deal of the cards hidden from ``p`` that replays to the same public history."""
    others = [s for s in range(4) if s != p]
    hidden = [deal.hand(s) - deal.known_cards[s] for s in others]
    pool = sorted(itertools.chain.from_iterable(str(h).split() for h in hidden))
    sizes = [len(h) for h in hidden]
    assert len(set(pool)) == len(pool), "scenarios use distinct hidden cards"
    out = set()
    for first in itertools.combinations(pool, sizes[0]):
        rest = [c for c in pool if c not in first]
        for second in itertools.combinations(rest, sizes[1]):
            third = [c for c in rest if c not in second]
            hands = [None] * 4
            hands[p] = deal.hand(p)
            for s, part in zip(others, (first, second, third)):
                hands[s] = Cards(list(part)) + deal.known_cards[s]
            if replays_to(deal, dealt_hands_from(deal, hands)) is not None:
                out.add(tuple(str(h) for h in hands))
    return out


def dealt_hands_from(deal, hands_now):
    class View:
        pass
    v = View()
    v.hand = lambda s: hands_now[s]
    v.played_cards = deal.played_cards
    v.tribute = deal.tribute
    return dealt_hands(v)


SCENARIOS = {
    # a payer (seat 3) paid a 9 without a choice: nothing above it, no other 9 (KD, 9D
    # are elsewhere)
    "payer-cap": (["3S 9D", "4S 8D", "5S KD", "9S 6S 7D"], (0, 1, 2, 3), Rules(),
                  [ReturnCard("3S")], 9),
    # a payer chose among two aces: they held another ace
    "pay-decision": (["3S 9D", "4S 8D", "5S KD", "AS AD 6D"], (0, 1, 2, 3), Rules(),
                     [PayTribute("AD"), ReturnCard("3S")], 12),
    # a receiver returned a J with return_max_rank T: nothing at or below T in hand
    "return-cap": (["JS QD", "4S 8D", "5S KD", "AS 6D 7D"], (0, 1, 2, 3), Rules(return_max_rank="T"),
                   [ReturnCard("JS")], 12),
    # a payer is deciding: they hold two suits of their highest rank
    "pending-pay": (["3S 9D", "4S 8D", "5S KD", "AS AD 6D"], (0, 1, 2, 3), Rules(), [], None),
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_determinize_is_uniform_over_consistent_deals(name):
    """determinize draws uniformly among exactly the deals the public history allows."""
    hands, previous, rules, actions, expected = SCENARIOS[name]
    d = Deal.from_hands(hands, previous=previous, rules=rules)
    for a in actions:
        d.apply(a)
    p = 1
    allowed = consistent_deals(d, p)
    if expected is not None:
        assert len(allowed) == expected
    assert 2 <= len(allowed) < 200
    per = 100  # expected draws per deal; the bounds are 4.5 standard deviations
    rng = np.random.default_rng(42)
    draws = (d.determinize(p, rng) for _ in range(per * len(allowed)))
    seen = Counter(tuple(str(x.hand(s)) for s in range(4)) for x in draws)
    assert set(seen) == allowed
    for k, c in seen.items():
        assert abs(c - per) <= 45, (k, c)


# --- clone, illegal actions, seeds -------------------------------------------------------------------
def test_clone_is_independent():
    rng = np.random.default_rng(9)
    for i in range(6):
        m = Match(seed=900 + i, rules=RULES[i % 4], max_deals=3)
        while not m.is_terminal():
            if rng.random() < 0.05 or m.deal.phase != "play":
                before = snapshot(m)
                c = m.clone()
                assert snapshot(c) == before
                for _ in range(40):
                    if c.is_terminal():
                        break
                    acts = c.legal_actions()
                    c.apply(acts[rng.integers(len(acts))])
                assert snapshot(m) == before
                cb = snapshot(c)
                dc = m.deal.clone()
                dsnap = snapshot(dc)
                acts = m.legal_actions()
                m.apply(acts[rng.integers(len(acts))])
                assert snapshot(c) == cb and snapshot(dc) == dsnap
                continue
            acts = m.legal_actions()
            m.apply(acts[rng.integers(len(acts))])


def test_illegal_actions_leave_state_unchanged_over_random_positions():
    """docs/design.md "How a play travels" (applied): an illegal action raises IllegalActionError naming it; nothing changes."""
    rng = np.random.default_rng(11)
    tried = Counter()
    for i in range(8):
        m = Match(seed=1100 + i, rules=RULES[i % 4], max_deals=3)
        while not m.is_terminal():
            if m.deal.phase != "play" or rng.random() < 0.04:
                before = snapshot(m)
                for bad in illegal_candidates(m, rng):
                    with pytest.raises(IllegalActionError) as err:
                        m.apply(bad)
                    assert isinstance(err.value, ValueError) and str(err.value)
                    tried[m.deal.phase] += 1
                assert snapshot(m) == before
            acts = m.legal_actions()
            m.apply(acts[rng.integers(len(acts))])
    assert tried["play"] > 100 and tried["return"] > 50


def test_same_seed_same_match():
    def play(seed, action_seed):
        m = Match(seed=seed, max_deals=5)
        rng = np.random.default_rng(action_seed)
        while not m.is_terminal():
            acts = m.legal_actions()
            m.apply(acts[rng.integers(len(acts))])
        return m
    a, b = play(21, 1), play(21, 1)
    assert a.history == b.history and a.deals == b.deals and a.levels == b.levels
    assert str(a) == str(b)
    assert play(22, 1).history != a.history
    assert str(Match(seed=21).deal) == str(Match(seed=21).deal)
    assert str(Match(seed=21).deal) != str(Match(seed=23).deal)
