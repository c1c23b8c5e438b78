"""Zheng Shangyou game flow (``docs/rules/zhengshangyou.md``, "Table and deal", "Play",
"Next deal and the card exchange"): the trick engine, ``Deal``, ``Match``, the
exchange, observations, determinization, C playouts and invariants."""
from __future__ import annotations

import numpy as np
import pytest

from chupai.actions import PASS
from chupai.cards import Cards
from chupai.contract import TERMINAL, Event
from chupai.errors import IllegalActionError
from chupai.zhengshangyou import (
    Deal,
    GiveCard,
    Match,
    PayCard,
    Phase,
    Play,
    PlayType,
    Rules,
    TakeCard,
    classify,
    playout,
    playouts,
)
from chupai.zhengshangyou._engine import DealEngine
from chupai.zhengshangyou.game import winner_of


def the(cards: str, type_: PlayType | None = None) -> Play:
    plays = [p for p in classify(cards) if type_ is None or p.type == type_]
    assert len(plays) == 1, plays
    return plays[0]


def play(state, cards: str, type_: PlayType | None = None) -> None:
    state.apply(the(cards, type_))


# --- dealing ------------------------------------------------------------------------------
@pytest.mark.parametrize("players", range(2, 9))
def test_dealing_one_at_a_time_from_the_dealer(players):
    """All 54 cards are dealt one at a time starting with the dealer; hands differ by at
    most one card, the dealer and the seats after them getting the extra ones; the
    dealer leads."""
    deal = Deal(seed=players, players=players)
    sizes = deal.hand_sizes()
    assert sum(sizes) == 54 and max(sizes) - min(sizes) <= 1
    extra = 54 % players
    expect = [54 // players + (1 if (s - deal.dealer) % players < extra else 0) for s in range(players)]
    assert list(sizes) == expect
    assert deal.current_player == deal.dealer and deal.phase == "play"
    total = Cards.from_masks(sum(h.lo for h in deal.hands))
    assert len(total) == 54


def test_first_dealer_is_random_or_given():
    dealers = {Deal(seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert Match(seed=1, dealer=2).deal.dealer == 2
    assert Deal.from_hands(["3S", "4S", "5S"], dealer=1).current_player == 1


def test_same_seed_same_deal():
    a, b = Deal(seed=11, players=5), Deal(seed=11, players=5)
    assert a.hands == b.hands and a.dealer == b.dealer
    assert Deal(seed=12, players=5).hands != a.hands
    engine = DealEngine.random(11, players=5)
    assert tuple(engine.hand(s) for s in range(5)) == a.hands


# --- tricks ------------------------------------------------------------------------------
def test_trick_goes_round_until_all_others_pass_and_last_player_leads():
    """The last player to play leads the next trick once all others have passed in turn."""
    deal = Deal.from_hands(["3S 9S", "4S TS", "5S JS", "6S QS"], dealer=0)
    play(deal, "3S")
    play(deal, "4S")
    deal.apply(PASS)
    deal.apply(PASS)
    assert deal.trick[1] == 1 and deal.current_player == 0
    deal.apply(PASS)                  # seats 2, 3, 0 passed: seat 1 leads
    assert deal.trick == (None, -1, 0) and deal.current_player == 1
    assert PASS not in deal.legal_actions()


def test_a_player_who_passed_may_play_later_in_the_trick():
    deal = Deal.from_hands(["3S 9S KS", "4S TS", "5S JS", "6S QS"], dealer=0)
    play(deal, "3S")
    deal.apply(PASS)                  # seat 1 passes
    play(deal, "5S")
    play(deal, "6S")
    play(deal, "9S")
    play(deal, "TS")                  # seat 1 plays after having passed
    assert deal.trick[1] == 1


def test_followers_play_the_same_shape_higher():
    deal = Deal.from_hands(["5S 5H 9S", "6S 6H 7S 7H 8S", "3C 4C", "3D 4D"], dealer=0)
    play(deal, "5S 5H")
    acts = deal.legal_actions()
    assert PASS in acts
    assert {a.shape for a in acts if a is not PASS} == {(PlayType.SET, 2, 2)}
    with pytest.raises(IllegalActionError, match="does not beat"):
        play(deal, "8S")
    with pytest.raises(IllegalActionError, match="does not beat"):
        play(deal, "6S 7S 8S", PlayType.SEQUENCE)


def test_lead_passes_on_when_the_leader_is_out():
    """"If the player due to lead has no cards, the next player in turn order who has
    cards leads."""
    deal = Deal.from_hands(["AS", "3S 4S", "5S 6S", "7S 8S"], dealer=0)
    play(deal, "AS")                  # seat 0 goes out
    assert deal.finishing_order == (0,) and deal.current_player == 1
    deal.apply(PASS)
    deal.apply(PASS)
    deal.apply(PASS)                  # seats 1, 2, 3 pass
    assert deal.current_player == 1 and deal.trick[0] is None


def test_players_without_cards_are_skipped():
    deal = Deal.from_hands(["3D", "4S 9S", "5S 6S", "7S 8S"], dealer=0)
    play(deal, "3D")                  # seat 0 out
    play(deal, "4S")
    deal.apply(PASS)
    deal.apply(PASS)                  # seats 2 and 3 pass; seat 0 is skipped
    assert deal.current_player == 1 and deal.trick[0] is None


def test_deal_goes_on_until_one_player_holds_cards_and_points():
    """First out 2 points, second out 1; the deal ends when one player holds cards."""
    deal = Deal.from_hands(["3D", "4D", "5D", "6D 7D"], dealer=0)
    play(deal, "3D")
    assert deal.points == (2, 0, 0, 0) and not deal.is_terminal()
    play(deal, "4D")
    assert deal.points == (2, 1, 0, 0) and not deal.is_terminal()
    play(deal, "5D")
    assert deal.is_terminal() and deal.finishing_order == (0, 1, 2, 3)
    assert deal.points == (2, 1, 0, 0)
    assert deal.returns() == [1.25, 0.25, -0.75, -0.75]     # points less their mean
    assert deal.legal_actions() == [] and deal.current_player == TERMINAL


def test_two_players_only_the_first_out_scores():
    deal = Deal.from_hands(["3D", "4D 5D"], dealer=0)
    play(deal, "3D")
    assert deal.is_terminal() and deal.points == (2, 0) and deal.returns() == [1.0, -1.0]
    assert deal.finishing_order == (0, 1)


# --- the card exchange ----------------------------------------------------------------------
FOUR = ["3S 4S 5S AH", "3H 4H 5H AS", "3C 4C 2S 2H", "3D 4D BJ 6C"]


def test_exchange_four_players_every_step():
    """After (0, 1, 2, 3): seats 2 and 3 pay their highest, seat 0 takes one, seat 1 the
    other, seats 0 and 1 give a card, seat 2 takes one and seat 3 the other; seat 2
    (the (n-1)th) deals and leads."""
    deal = Deal.from_hands(FOUR, previous=(0, 1, 2, 3))
    assert deal.phase == "exchange" and deal.dealer == 2
    assert deal.current_player == 2
    assert deal.legal_actions() == [PayCard("2S"), PayCard("2H")]    # tied 2s: a decision
    deal.apply(PayCard("2H"))
    # seat 3's highest is BJ alone: automatic; then seat 0 chooses
    assert deal.history[-1] == Event(3, PayCard("BJ"), Phase.EXCHANGE, True)
    assert deal.current_player == 0 and deal.table == ((2, "2H"), (3, "BJ"))
    assert deal.legal_actions() == [TakeCard("2H"), TakeCard("BJ")]
    deal.apply(TakeCard("BJ"))
    assert deal.hand(0) == Cards("3S 4S 5S AH BJ") and deal.hand(1) == Cards("3H 4H 5H AS 2H")
    assert deal.current_player == 0 and len(deal.legal_actions()) == 5   # any card
    deal.apply(GiveCard("3S"))
    assert deal.current_player == 1
    deal.apply(GiveCard("3H"))
    assert deal.current_player == 2 and deal.legal_actions() == [TakeCard("3S"), TakeCard("3H")]
    deal.apply(TakeCard("3H"))
    assert deal.history[-1] == Event(3, TakeCard("3S"), Phase.EXCHANGE, True)
    assert deal.phase == "play" and deal.current_player == 2
    assert deal.hand(2) == Cards("3C 4C 2S 3H") and deal.hand(3) == Cards("3D 4D 6C 3S")
    known = deal.known_cards
    assert known[0] == Cards("BJ") and known[1] == Cards("2H") and known[2] == Cards("3H") and known[3] == Cards("3S")
    assert sum(len(h) for h in deal.hands) == 16


def test_exchange_three_players_only_the_last_pays():
    deal = Deal.from_hands(["3S 4S", "3H 4H", "3C 2C 2D"], previous=(0, 1, 2))
    assert deal.dealer == 1
    assert deal.current_player == 2 and deal.legal_actions() == [PayCard("2C"), PayCard("2D")]
    deal.apply(PayCard("2D"))
    assert deal.history[-1] == Event(0, TakeCard("2D"), Phase.EXCHANGE, True)
    assert deal.current_player == 0
    deal.apply(GiveCard("3S"))
    assert deal.history[-1] == Event(2, TakeCard("3S"), Phase.EXCHANGE, True)
    assert deal.phase == "play" and deal.current_player == 1
    assert deal.hand(0) == Cards("4S 2D") and deal.hand(2) == Cards("3C 2C 3S")
    assert deal.hand(1) == Cards("3H 4H")


def test_no_exchange_with_two_players():
    deal = Deal.from_hands(["3S 4S", "3H 4H"], previous=(1, 0))
    assert deal.phase == "play" and deal.dealer == 1 and deal.history == []


def test_exchange_forced_steps_are_automatic():
    deal = Deal.from_hands(["3S", "3H", "AC", "KD"], previous=(0, 1, 2, 3))
    # every step has one option except seat 0 taking between AC and KD
    assert deal.current_player == 0 and deal.legal_actions() == [TakeCard("KD"), TakeCard("AC")]
    deal.apply(TakeCard("AC"))
    assert deal.current_player == 0
    deal.apply(GiveCard("3S"))
    # seat 1 holds 3H and KD: a decision
    assert deal.current_player == 1
    deal.apply(GiveCard("KD"))
    assert deal.current_player == 2
    deal.apply(TakeCard("KD"))
    assert deal.phase == "play" and deal.hand(2) == Cards("KD") and deal.hand(3) == Cards("3S")


def test_illegal_exchange_actions_leave_the_state_unchanged():
    deal = Deal.from_hands(FOUR, previous=(0, 1, 2, 3))
    before = (deal.hands, deal.history, deal.current_player)
    for bad in (PayCard("3C"), TakeCard("2S"), GiveCard("2S"), PASS, the("3C"), "2S"):
        with pytest.raises(IllegalActionError):
            deal.apply(bad)
    assert (deal.hands, deal.history, deal.current_player) == before
    with pytest.raises(ValueError, match="'1S'"):
        PayCard("1S")


def test_from_hands_validation():
    with pytest.raises(ValueError, match="repeats"):
        Deal.from_hands(["3S", "3S"], dealer=0)
    with pytest.raises(ValueError, match="dealer is required"):
        Deal.from_hands(["3S", "4S"])
    with pytest.raises(ValueError, match="every seat"):
        Deal.from_hands(["3S", "4S", "5S"], previous=(0, 1, 1))
    with pytest.raises(ValueError, match="deals"):
        Deal.from_hands(["3S", "4S", "5S"], previous=(0, 1, 2), dealer=0)
    with pytest.raises(ValueError, match="players"):
        Deal.from_hands(["3S"] , dealer=0)
    with pytest.raises(ValueError, match="players"):
        Deal(players=9)
    with pytest.raises(ValueError, match="holds no cards"):
        Deal.from_hands(["", "3S", "4S"], dealer=0)
    with pytest.raises(TypeError, match="Rules"):
        Deal(rules="pagat")


def test_illegal_plays_leave_the_state_unchanged():
    deal = Deal.from_hands(["3D 5D", "4S 9S", "6S", "7S"], dealer=0)
    before = (deal.hands, deal.history)
    with pytest.raises(IllegalActionError, match="may not pass"):
        deal.apply(PASS)
    with pytest.raises(IllegalActionError, match="does not hold"):
        play(deal, "KS")
    with pytest.raises(IllegalActionError, match="not legal"):
        deal.apply(GiveCard("3D"))
    with pytest.raises(IllegalActionError):
        deal.apply("3D")
    assert (deal.hands, deal.history) == before
    play(deal, "5D")
    before = (deal.hands, deal.history)
    with pytest.raises(IllegalActionError, match="does not beat"):
        play(deal, "4S")
    assert (deal.hands, deal.history) == before


def test_joker_pair_option_in_play():
    deal = Deal.from_hands(["BJ RJ 3S", "4S"], dealer=0, rules=Rules(joker_pair=False))
    assert not any(a.cards == Cards("BJ RJ") for a in deal.legal_actions())
    with pytest.raises(IllegalActionError):
        play(deal, "BJ RJ")


# --- the match ---------------------------------------------------------------------------------
def test_winner_of_the_tie_rule():
    """The game ends when a player reaches target at the end of a deal; if several do, the
    higher total wins, then the better finish in that deal."""
    assert winner_of([10, 9, 3, 0], (0, 1, 2, 3), 11) is None
    assert winner_of([12, 11, 3, 0], (1, 0, 2, 3), 11) == 0          # higher total
    assert winner_of([11, 11, 3, 0], (1, 0, 2, 3), 11) == 1          # tie: better finish
    assert winner_of([11, 12, 3, 0], (0, 1, 2, 3), 11) == 1


def run_random(state, rng, limit=100000):
    for _ in range(limit):
        if state.is_terminal():
            return
        acts = state.legal_actions()
        state.apply(acts[int(rng.integers(len(acts)))])
    raise AssertionError("did not finish")


def test_match_points_next_dealer_and_exchange():
    """Deals score 2 and 1; the (n-1)th finisher deals the next deal, which starts with
    the exchange; the game ends at ``target``."""
    rng = np.random.default_rng(1)
    m = Match(seed=5, rules=Rules(target=5))
    run_random(m, rng)
    assert m.winner is not None and m.scores()[m.winner] >= 5
    assert sum(m.scores()) == 3 * m.deals_played
    for before, after in zip(m.deals, m.deals[1:]):
        assert after["dealer"] == before["finishing_order"][-2]
    summary = m.deals[-1]
    assert m.winner == winner_of(summary["scores"], summary["finishing_order"], 5)
    assert m.returns()[m.winner] == 1.0 and sum(m.returns()) == pytest.approx(0)
    kinds = {type(e.action) for e in m.history}
    assert {PayCard, TakeCard, GiveCard} <= kinds


def test_match_draw_cap_and_validation():
    m = Match(seed=1, max_deals=1)
    run_random(m, np.random.default_rng(2))
    assert m.deals_played == 1 and (m.winner is None) == (m.returns() == [0.0] * 4)
    with pytest.raises(IllegalActionError, match="over"):
        m.apply(PASS)
    for bad in ({"players": 1}, {"dealer": 4}, {"max_deals": 0}):
        with pytest.raises(ValueError):
            Match(seed=1, **bad)
    for bad in ({"players": "4"}, {"dealer": 1.0}, {"max_deals": True}, {"rules": 3}):
        with pytest.raises(TypeError):
            Match(seed=1, **bad)


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_matches_of_every_size_finish(players):
    m = Match(seed=players, players=players, rules=Rules(target=4))
    run_random(m, np.random.default_rng(players))
    assert m.is_terminal() and len(m.returns()) == players


def test_clone_is_independent():
    m = Match(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(30):
        acts = m.legal_actions()
        m.apply(acts[int(rng.integers(len(acts)))])
    c = m.clone()
    snapshot = (str(m), m.history, m.scores)
    run_random(c, rng)
    assert (str(m), m.history, m.scores) == snapshot


# --- observation and determinization -----------------------------------------------------------
def test_observation_hides_other_hands():
    deal = Deal(seed=4)
    obs = deal.observation(1)
    assert obs["hand"] == deal.hand(1) and obs["hand_sizes"] == deal.hand_sizes()
    text = repr(obs)
    for s in (0, 2, 3):
        assert str(deal.hand(s)) not in text
    with pytest.raises(ValueError, match="player"):
        deal.observation(4)


def test_determinize_keeps_what_the_player_knows():
    rng = np.random.default_rng(5)
    m = Match(seed=9)
    while m.deals_played < 1:
        acts = m.legal_actions()
        m.apply(acts[int(rng.integers(len(acts)))])
    for _ in range(25):  # into the second deal's play
        acts = m.legal_actions()
        m.apply(acts[int(rng.integers(len(acts)))])
    deal = m.deal
    for player in range(4):
        d = deal.determinize(player, rng)
        assert d.hand(player) == deal.hand(player)
        assert d.hand_sizes() == deal.hand_sizes() and d.history == deal.history
        assert d.current_player == deal.current_player and d.trick == deal.trick
        for s in range(4):
            assert deal.known_cards[s] <= d.hand(s)
        obs_a, obs_b = deal.observation(player), d.observation(player)
        assert obs_a == obs_b
    assert any(deal.determinize(0, rng).hands != deal.hands for _ in range(5))


def test_determinize_respects_the_paid_highest_card():
    """A payer held nothing above the card they paid (and no other suit of it when the
    payment was forced)."""
    deal = Deal.from_hands(["3S 4S 5S 6S", "3H 4H 5H 6H", "3C 4C 5C 9D", "3D 4D 5D 7C"], previous=(0, 1, 2, 3))
    assert deal.history[0] == Event(2, PayCard("9D"), Phase.EXCHANGE, True)
    assert deal.history[1] == Event(3, PayCard("7C"), Phase.EXCHANGE, True)
    rng = np.random.default_rng(6)
    for _ in range(30):
        d = deal.determinize(0, rng)
        assert all(c[0] in "3456789" for c in d.hand(2)) and all(c[0] in "34567" for c in d.hand(3))
        assert d.current_player == deal.current_player


def test_determinize_bad_rng():
    with pytest.raises(TypeError, match="rng"):
        Deal(seed=1).determinize(0, rng="x")


# --- the trick engine and playouts --------------------------------------------------------------
def test_core_rejects_bad_hands():
    with pytest.raises(ValueError, match="players"):
        DealEngine.from_hands(["3S"], current=0)
    with pytest.raises(ValueError, match="dealt 2 times"):
        DealEngine.from_hands(["3S", "3S"], current=0)
    with pytest.raises(ValueError, match="current"):
        DealEngine.from_hands(["3S", "4S"], current=2)
    with pytest.raises(ValueError, match="two players"):
        DealEngine.from_hands(["3S", ""], current=0)


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("players", [2, 4, 6, 8])
def test_batch_results_are_valid_deals(policy, players):
    r = playouts(300, seed=11, policy=policy, players=players)
    assert r.order.shape == (300, players) and r.points.shape == (300, players)
    for order, points, winner in zip(r.order, r.points, r.winner):
        assert sorted(order) == list(range(players))
        assert winner == order[0] and points[order[0]] == 2
        assert sum(points) == (2 if players == 2 else 3)
        if players > 2:
            assert points[order[1]] == 1


def test_same_seed_same_arrays_whatever_the_threads():
    a = playouts(2500, seed=5, threads=1)
    b = playouts(2500, seed=5, threads=2)
    c = playouts(2500, seed=5, threads=3)
    for x in (b, c):
        assert (a.order == x.order).all() and (a.points == x.points).all()
    assert not (a.order == playouts(2500, seed=6).order).all()


def test_playout_of_a_state_leaves_it_unchanged():
    m = Match(seed=2)
    before = str(m)
    r = playout(m, seed=1, policy="greedy")
    assert str(m) == before and sorted(r.order) == [0, 1, 2, 3] and sum(r.points) == 3
    assert playout(m, seed=1, policy="greedy") == r
    engine = DealEngine.random(3)
    assert engine.playout(7) == engine.playout(7)


def test_playouts_bad_arguments():
    for kw, msg in (({"policy": "clever"}, "policy"), ({"threads": 0}, "threads"), ({"players": 9}, "players")):
        args = {"seed": 1} | kw
        with pytest.raises(ValueError, match=msg):
            playouts(10, **args)
    for kw, msg in (({"seed": "x"}, "seed"), ({"rules": 1}, "Rules")):
        args = {"seed": 1} | kw
        with pytest.raises(TypeError, match=msg):
            playouts(10, **args)
    with pytest.raises(ValueError, match="n must"):
        playouts(-1, seed=1)
    assert playouts(0, seed=1).order.shape == (0, 4)


def test_evaluate_and_policy_choice():
    engine = DealEngine.random(9)
    cands = engine.legal_plays(collapse_suits=True)
    sums = engine.evaluate(cands.take(range(5)), False, 3, seed=1)
    assert sums.shape == (5,) and np.all((sums >= 0) & (sums <= 3 * 2))
    assert engine.policy_choice("greedy") in set(engine.legal_plays())
    assert engine.policy_choice("random", seed=3) in set(engine.legal_plays())
    with pytest.raises(IllegalActionError, match="pass"):
        engine.evaluate(cands, True, 1, seed=1)
    with pytest.raises(IllegalActionError, match="candidate"):
        DealEngine.random(10).evaluate(cands, False, 1, seed=1)
    with pytest.raises(ValueError, match="values"):
        engine.evaluate(cands, False, 1, seed=1, values=[1, 0])


def test_greedy_keeps_wild_cards_back():
    """Following, the greedy policy passes rather than spend a 2 unless the last player
    is about to go out."""
    engine = DealEngine.from_hands(["AS 4S 5S 6S 7S 8S", "2D 9H", "9S", "TS"], current=0)
    engine.play(the("AS"))
    assert engine.policy_choice("greedy") is None
    engine = DealEngine.from_hands(["AS 4S", "2D 9H", "9S", "TS"], current=0)
    engine.play(the("AS"))
    assert engine.policy_choice("greedy") == the("2D")
    engine = DealEngine.from_hands(["3S 4S 5S 6S 7S 8S", "2D 9H", "9S", "TS"], current=0)
    engine.play(the("3S"))
    assert engine.policy_choice("greedy") == the("9H")


# --- invariants ----------------------------------------------------------------------------------
def check_invariants(deal: Deal) -> None:
    """Cards conserved and never in two places; the player to act holds cards; passing
    exactly when following; a finished deal has every seat in its finishing order."""
    n = deal.players
    sizes = deal.hand_sizes()
    played = deal.played_cards()
    union = 0
    for mk in [h.lo for h in deal.hands] + [p.lo for p in played]:
        assert not union & mk
        union |= mk
    assert union.bit_count() + len(deal.table) == 54
    if deal.is_terminal():
        assert sorted(deal.finishing_order) == list(range(n))
        assert sum(1 for s in sizes if s) <= 1
        return
    if deal.phase == "play":
        engine = deal.card_play()
        assert sizes[deal.current_player] > 0
        assert engine.can_pass() == (deal.trick[0] is not None)
        for s in deal.finishing_order:
            assert sizes[s] == 0
        assert sum(1 for s in sizes if s) >= 2


def random_action(state, rng):
    """Uniform over the suit-collapsed plays and passing (like ``RandomBot``), uniform
    over the exchange choices."""
    engine = state.card_play()
    if engine is None:
        acts = state.legal_actions()
        return acts[int(rng.integers(len(acts)))]
    plays = engine.legal_plays(collapse_suits=True)
    k = int(rng.integers(len(plays) + engine.can_pass()))
    if k == len(plays):
        return PASS
    last = state.deal.trick[0] if isinstance(state, Match) else state.trick[0]
    assert last is None or plays[k].beats(last)
    return plays[k]


@pytest.mark.slow
def test_invariants_over_2000_random_games():
    """2000 matches of 2-8 players (target 3, at most 3 deals), checked at every step."""
    rng = np.random.default_rng(2026)
    for g in range(2000):
        m = Match(seed=g, players=2 + g % 7, rules=Rules(target=3), max_deals=3)
        while not m.is_terminal():
            check_invariants(m.deal)
            m.apply(random_action(m, rng))
        check_invariants(m.deal)
        assert m.deals_played <= 3


def test_invariants_quick():
    rng = np.random.default_rng(7)
    for g in range(40):
        m = Match(seed=g, players=2 + g % 7, rules=Rules(target=3), max_deals=2)
        while not m.is_terminal():
            check_invariants(m.deal)
            m.apply(random_action(m, rng))


def test_determinize_is_uniform_over_the_hidden_cards():
    """Each hidden card lands in each other hand in proportion to its hidden size."""
    deal = Deal(seed=21, players=4)
    rng = np.random.default_rng(8)
    hidden = [f for f in range(54) if not deal.hand(0).lo >> f & 1]
    counts = np.zeros((54, 4))
    trials = 600
    for _ in range(trials):
        d = deal.determinize(0, rng)
        for s in (1, 2, 3):
            for f in range(54):
                counts[f, s] += d.hand(s).lo >> f & 1
    sizes = np.array(deal.hand_sizes(), dtype=float)
    expect = sizes[1:] / sizes[1:].sum()
    for f in hidden:
        share = counts[f, 1:] / trials
        assert np.all(np.abs(share - expect) < 0.08), (f, share, expect)
