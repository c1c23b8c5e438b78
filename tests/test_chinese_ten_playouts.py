"""C playouts, the engine's policies, and invariants over many random games
(``docs/rules/chinese_ten.md``: conservation of the 52 cards, "Scoring", "Variants")."""
from __future__ import annotations

import random

import numpy as np
import pytest
from chinese_ten_reference import reference_plays

from chupai import Cards
from chupai.players.bots import GreedyBot, RandomBot
from chupai.chinese_ten import Deal, Match, Rules, legal_plays
from chupai.chinese_ten._engine import DealEngine
from chupai.chinese_ten.classify import classify
from chupai.chinese_ten.playouts import playout, playouts
from chupai.chinese_ten.rules import RED_FIVE_BONUS, VARIANTS
from chupai.errors import IllegalActionError

DECK = [r + s for r in "23456789TJQKA" for s in "SHCD"]
#: every (variant, players) the spec allows
TABLES = [(v, n) for v in VARIANTS for n in (2, 3, 4) if n in {
    "pagat": (2, 3, 4), "taiwanese": (4,), "barraco": (2, 4), "gob_dum_gob_dang": (2, 3, 4),
    "main_merah": (2, 3)}[v]]


# --- invariants over 5000 random games per table, in C --------------------------------------------
@pytest.mark.parametrize("variant, players", TABLES)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_5000_random_games_per_table(variant, players, policy):
    """Forced capture guarantees every card is captured: the scores add up to the total,
    the results to zero; the red five bonus moves 10 from each other player."""
    rules = Rules(variant=variant)
    r = playouts(5000, seed=players * 100 + VARIANTS.index(variant), policy=policy, rules=rules, players=players)
    assert r.scores.shape == (5000, players) and r.returns.shape == (5000, players)
    assert (r.scores.sum(axis=1) == rules.total(players)).all()
    assert (r.scores >= 0).all()
    assert np.allclose(r.returns.sum(axis=1), 0)
    assert ((r.bonus >= -1) & (r.bonus < players)).all()
    base = r.scores - rules.par(players)
    extra = r.returns - base
    if rules.red_five_bonus:
        got = r.bonus >= 0
        assert np.allclose(extra[~got], 0)
        rows = np.nonzero(got)[0]
        assert np.allclose(extra[rows, r.bonus[rows]], RED_FIVE_BONUS * (players - 1))
    else:
        assert np.allclose(extra, 0)
    assert 0.05 < (r.bonus >= 0).mean() < 0.6     # the red fives meet in a fair share of deals
    if variant == "main_merah":
        assert (r.redeals > 0).any() and (r.redeals >= 0).all()
    else:
        assert (r.redeals == 0).all()


def test_without_forced_capture_cards_may_stay_on_the_layout():
    rules = Rules(forced_capture=False)
    r = playouts(5000, seed=3, rules=rules, players=4)
    total = r.scores.sum(axis=1)
    assert (total <= 280).all() and (total < 280).any()
    assert np.allclose(r.returns.sum(axis=1), total - 280)


# --- invariants step by step, through the Python state machine ------------------------------------
def check_step(deal: Deal) -> None:
    """The 52 cards are each in one place; the turn structure holds."""
    engine = deal.card_play()
    places = [deal.hand(s) for s in range(deal.players)] + list(deal.piles) + [deal.layout]
    cards = [c for p in places for c in p] + (engine.stock() if engine else [])
    if deal.turned:
        cards.append(deal.turned)
    assert sorted(cards) == sorted(DECK)
    pts = deal.rules.points(deal.players)
    assert deal.scores() == tuple(sum(pts[DECK.index(c)] for c in p) for p in deal.piles)
    assert all(len(p) % 2 == 0 for p in deal.piles)   # captures take 2 or 4 cards
    assert sum(deal.hand_sizes()) == deal.stock_size


def random_games(count: int, seed: int):
    rng = random.Random(seed)
    for k in range(count):
        variant, players = TABLES[k % len(TABLES)]
        rules = Rules(variant=variant, forced_capture=rng.random() < 0.8, red_five_bonus=rng.random() < 0.5)
        yield Deal(rng.randrange(1 << 40), rules=rules, players=players, dealer=rng.randrange(players)), rng


@pytest.mark.parametrize("count, seed", [
    (150, 12), pytest.param(1000, 13, marks=pytest.mark.slow)], ids=["150", "1000"])
def test_random_games_step_by_step(count, seed):
    """Every event is a legal capture (checked against the brute-force reference), the
    cards are conserved at every step, and a forced-capture game ends with all captured."""
    for deal, rng in random_games(count, seed):
        check_step(deal)
        while not deal.is_terminal():
            seat, phase = deal.current_player, deal.phase
            hand = deal.hand(seat).lo if phase == "play" else Cards(deal.turned, decks=1).lo
            layout = deal.layout.lo
            actions = deal.legal_actions()
            assert {(a._card, a._captured) for a in actions} == reference_plays(hand, layout, deal.rules)
            action = actions[rng.randrange(len(actions))]
            before = len(deal.history)
            deal.apply(action)
            for event in deal.history[before:]:
                assert event.seat == seat and classify(event.action.card, str(event.action.captured)) == [event.action]
            check_step(deal)
        assert deal.hand_sizes() == (0,) * deal.players and deal.stock_size == 0
        if deal.rules.forced_capture:
            assert not deal.layout and sum(len(p) for p in deal.piles) == 52
            assert sum(deal.returns()) == pytest.approx(0)
        if deal.bonus_player is not None:
            assert Cards("5H 5D") <= deal.pile(deal.bonus_player)
        plays = sum(1 for e in deal.history if e.phase == "play")
        assert plays == sum(deal.rules.deal_sizes(deal.players)[0] for _ in range(deal.players))


# --- the batch and single playouts -----------------------------------------------------------------
def test_same_seed_same_arrays_whatever_the_threads():
    a = playouts(6000, seed=5, threads=1)
    b = playouts(6000, seed=5, threads=2)
    c = playouts(6000, seed=5, threads=3)
    for x in (b, c):
        assert (a.scores == x.scores).all() and (a.bonus == x.bonus).all()
    assert not (a.scores == playouts(6000, seed=6).scores).all()


@pytest.mark.parametrize("rules, players", [(Rules(), 4), (Rules.barraco(), 2), (Rules.main_merah(), 3)])
def test_deal_seed_is_the_first_batch_deal(rules, players):
    """``Deal(seed)`` deals what deal 0 of ``playouts(seed=seed)`` deals: the greedy policy
    uses no randomness, so both play out the same, and the C and Python results agree."""
    for seed in range(10):
        deal = Deal(seed, rules=rules, players=players)
        bot = GreedyBot()
        while not deal.is_terminal():
            deal.apply(bot.choose(deal, np.random.default_rng(0)))
        r = playouts(1, seed=seed, policy="greedy", rules=rules, players=players)
        assert tuple(r.scores[0]) == deal.scores() and r.redeals[0] == deal.redeals
        assert r.returns[0].tolist() == pytest.approx(deal.returns())


def test_playout_of_a_state_leaves_it_unchanged():
    deal = Deal(4)
    deal.apply(deal.legal_actions()[0])
    before = (str(deal), deal.history)
    a = playout(deal, seed=1)
    assert (str(deal), deal.history) == before
    assert a == playout(deal, seed=1) and sum(a.scores) == 280
    m = Match(4, players=2)
    assert sum(playout(m, seed=2, policy="greedy").scores) == 210
    done = Deal(1, players=2)
    while not done.is_terminal():
        done.apply(done.legal_actions()[0])
    with pytest.raises(ValueError, match="terminal"):
        playout(done, seed=1)


def test_bad_arguments():
    """The game's own checks (the shared ones: the conformance suite)."""
    with pytest.raises(ValueError, match="played by"):
        playouts(10, seed=1, players=5)
    with pytest.raises(TypeError, match="rules"):
        playouts(10, seed=1, rules="pagat")
    assert playouts(0, seed=1).scores.shape == (0, 4)


# --- policies, evaluate, bots ----------------------------------------------------------------------
def test_greedy_takes_the_most_points():
    engine = DealEngine.from_hands(["7S 9D 2C", "3C 4C 5C"], layout="3H AD 8S", stock=["KS", "QS", "JS", "TS", "6S", "6C"],
                               current=0)
    assert str(engine.policy_choice("greedy")) == "9D takes AD"         # 30 points beat 3
    engine = DealEngine.from_hands(["7S 9D", "3C 4C"], layout="KH QC", stock=["KS", "QS", "JS", "TS"], current=0)
    assert str(engine.policy_choice("greedy")) == "7S to the layout"     # no capture: lay the 0-point card
    bonus = Rules(red_five_bonus=True)
    engine = DealEngine.from_hands(["5H KD", "3C 4C"], layout="5D KH", stock=["KS", "QS", "JS", "TS"], current=0, rules=bonus)
    assert str(engine.policy_choice("greedy")) == "5H takes 5D"          # 10 + 10 bonus beat 20


def test_random_policy_is_uniform_over_the_collapsed_choices():
    engine = DealEngine.from_hands(["7S 7C 7H", "3C 4C 5C"], layout="3S 3D", stock=["KS", "QS", "JS", "TS", "6S", "6C"], current=0)
    collapsed = {str(p) for p in engine.legal_plays(collapse_suits=True)}
    assert collapsed == {"7S takes 3S", "7S takes 3D", "7H takes 3S", "7H takes 3D"}
    counts = {}
    for s in range(4000):
        k = str(engine.policy_choice("random", s))
        counts[k] = counts.get(k, 0) + 1
    assert set(counts) == collapsed and min(counts.values()) > 850


def test_evaluate_sums_the_players_results():
    deal = Deal(17, players=3)
    engine = deal.card_play()
    cands = engine.legal_plays(collapse_suits=True)
    sums = engine.evaluate(cands, False, 1, 99)
    me = engine.current
    first = engine.clone()
    first.play(cands[0])
    assert sums[0] == pytest.approx(first.playout(99)[1][me])
    many = engine.evaluate(cands, False, 200, 1, "greedy")
    assert many.shape == (len(cands),) and np.all(np.abs(many / 200) <= 240)
    with pytest.raises(IllegalActionError, match="passing"):
        engine.evaluate(cands, True, 1, 1)
    other = legal_plays(deal.hand((me + 1) % 3), deal.layout)
    with pytest.raises(IllegalActionError):
        engine.evaluate(other, False, 1, 1)
    with pytest.raises(ValueError, match="n must"):
        engine.evaluate(cands, False, 0, 1)


@pytest.mark.parametrize("bot", [RandomBot(), GreedyBot()], ids=["random", "greedy"])
def test_bots_play_whole_matches(bot):
    rng = np.random.default_rng(3)
    for players in (2, 3, 4):
        m = Match(players, players=players)
        while not m.is_terminal():
            action = bot.choose(m, rng)
            assert action in m.legal_actions()
            m.apply(action)
        assert sum(m.returns()) == pytest.approx(0)


def test_greedy_beats_random():
    """A sanity check of the greedy policy (not of speed): seat 0 greedy against three
    random players, over seeded deals, gains on average."""
    rng = np.random.default_rng(0)
    gains = []
    for seed in range(300):
        deal = Deal(seed)
        while not deal.is_terminal():
            bot = GreedyBot() if deal.current_player == 0 else RandomBot()
            deal.apply(bot.choose(deal, rng))
        gains.append(deal.returns()[0])
    assert np.mean(gains) > 5
