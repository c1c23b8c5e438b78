"""The Chinese Ten state machines ``Deal`` and ``Match`` on scripted and seeded deals.

Each test names the section of ``docs/rules/chinese_ten.md`` it checks: "Table and deal",
"A turn", "Special opening layouts", "Scoring", "Variants".
"""
from __future__ import annotations

import numpy as np
import pytest

from chupai import Cards
from chupai.contract import TERMINAL, Event
from chupai.chinese_ten import Deal, Match, Phase, Play, PlayType, Rules, captures, legal_plays
from chupai.chinese_ten._engine import RED_FIVE_BONUS as ENGINE_BONUS
from chupai.chinese_ten._engine import redeal_needed
from chupai.chinese_ten.game import next_dealer
from chupai.chinese_ten.rules import RED_FIVE_BONUS, VARIANTS
from chupai.errors import IllegalActionError

RANKS = "23456789TJQKA"
DECK = [r + s for r in RANKS for s in "SHCD"]
TABLES = [(v, n) for v in VARIANTS for n in (2, 3, 4) if n in {
    "pagat": (2, 3, 4), "taiwanese": (4,), "barraco": (2, 4), "gob_dum_gob_dang": (2, 3, 4),
    "main_merah": (2, 3)}[v]]


# --- helpers ----------------------------------------------------------------------------------
def find(state, text):
    """The legal action of ``state`` whose ``str`` is ``text``."""
    found = [a for a in state.legal_actions() if str(a) == text]
    assert found, f"{text!r} not among {[str(a) for a in state.legal_actions()]}"
    return found[0]


def full_deal(hands, layout, stock_top, rules=None, players=2):
    """A fresh deal with these cards first: hands and layout as given, ``stock_top`` the
    first stock cards; everything else filled from the unused cards in deck order."""
    rules = rules or Rules()
    h, lay, st = rules.deal_sizes(players)
    hands = [c.split() for c in hands] + [[] for _ in range(players - len(hands))]
    layout, stock = layout.split(), stock_top.split()
    used = set(layout) | set(stock) | {c for hd in hands for c in hd}
    rest = [c for c in DECK if c not in used]
    for hd in hands:
        while len(hd) < h:
            hd.append(rest.pop(0))
    while len(layout) < lay:
        layout.append(rest.pop(0))
    stock += rest
    assert len(stock) == st
    return Deal.from_hands([" ".join(x) for x in hands], layout=" ".join(layout), stock=stock, rules=rules)


def accounted(state):
    """Every one of the 52 cards is in exactly one place."""
    engine = state.card_play() if hasattr(state, "card_play") and state.card_play() else None
    places = [str(state.hand(s)) for s in range(state.players)]
    places += [str(state.pile(s)) for s in range(state.players)] + [str(state.layout)]
    cards = [c for p in places for c in p.split()]
    if engine is not None:
        cards += engine.stock()
    if state.turned:
        cards.append(state.turned)
    return sorted(cards) == sorted(DECK)


# --- Table and deal ---------------------------------------------------------------------------
@pytest.mark.parametrize("variant, players", TABLES)
def test_deal_sizes_of_every_variant(variant, players):
    """"Table and deal" and "Variants": 24 / n cards each, 4 face up, 24 in the stock;
    main_merah 10 / 12 / 20 (2 players) and 7 / 10 / 21 (3 players)."""
    expect = {("main_merah", 2): (10, 12, 20), ("main_merah", 3): (7, 10, 21)}.get(
        (variant, players), (24 // players, 4, 24))
    rules = Rules(variant=variant)
    assert rules.deal_sizes(players) == expect
    for seed in range(5):
        deal = Deal(seed, rules=rules, players=players)
        assert deal.hand_sizes() == (expect[0],) * players
        assert len(deal.layout) + len(deal.opening) == expect[1] and deal.stock_size == expect[2]
        assert accounted(deal)


@pytest.mark.parametrize("variant, players", [("taiwanese", 2), ("taiwanese", 3), ("barraco", 3),
                                              ("main_merah", 4), ("pagat", 5), ("pagat", 1)])
def test_variants_refuse_other_table_sizes(variant, players):
    with pytest.raises(ValueError, match="played by"):
        Deal(1, rules=Rules(variant=variant), players=players)
    with pytest.raises(ValueError, match="played by"):
        Match(1, rules=Rules(variant=variant), players=players)


def test_order_option_and_variant_defaults():
    """"Table and deal": the player after the dealer starts; ``dealer_first`` for the
    variants that say so (taiwanese, main_merah)."""
    assert Deal(1, players=3, dealer=2).first_player == 0
    assert Deal(1, players=3, dealer=1, rules=Rules(order="dealer_first")).current_player == 1
    assert Rules.taiwanese().order == "dealer_first" and Rules.main_merah().order == "dealer_first"
    assert Rules.barraco().order == "after_dealer"
    assert Deal(1, rules=Rules.taiwanese(), dealer=3).first_player == 3
    assert Deal(1, rules=Rules.main_merah(), players=2, dealer=1).first_player == 1
    with pytest.raises(ValueError, match="order"):
        Rules(order="clockwise")


def test_same_seed_same_deal():
    a, b, c = Deal(9), Deal(9), Deal(10)
    assert a.hands == b.hands and a.layout == b.layout and a.hands != c.hands
    assert a.card_play().stock() == b.card_play().stock()


def test_bad_construction():
    with pytest.raises(TypeError, match="seed"):
        Deal("x")
    with pytest.raises(TypeError, match="rules"):
        Deal(1, rules="pagat")
    with pytest.raises(ValueError, match="dealer"):
        Deal(1, players=2, dealer=2)
    with pytest.raises(ValueError, match="hand 0 has 11 cards"):
        Deal.from_hands([DECK[:11], DECK[11:24]], layout=DECK[24:28], stock=DECK[28:])
    with pytest.raises(ValueError, match=r"is dealt 2 times, more than once \(one deck\)"):
        Deal.from_hands([DECK[:12], DECK[11:23]], layout=DECK[24:28], stock=DECK[27:51])
    with pytest.raises(ValueError, match="'BJ' is a joker"):
        Deal.from_hands([DECK[:12], DECK[12:24]], layout=DECK[24:28], stock=DECK[28:51] + ["BJ"])


# --- A turn ----------------------------------------------------------------------------------
def test_a_turn_plays_a_card_then_turns_the_stock():
    """"A turn": the played card captures (one card) or joins the layout; then the top
    stock card does the same; then the next player."""
    deal = full_deal(["7C 9D", "2H"], "QD 3S 3H 6C", "4S KD")
    assert deal.current_player == 1 and deal.phase == "play"       # the player after the dealer
    deal.apply(find(deal, "2H to the layout"))
    # the turned 4S takes the 6C (its only target), automatically
    assert deal.pile(1) == Cards("4S 6C") and "2H" in deal.layout and deal.current_player == 0
    assert [(e.seat, e.phase, str(e.action), e.automatic) for e in deal.history] == [
        (1, "play", "2H to the layout", False), (1, "turn", "4S takes 6C", True)]
    deal.apply(find(deal, "7C takes 3H"))
    # the turned KD captures nothing: it joins the layout
    assert deal.pile(0) == Cards("7C 3H") and "KD" in deal.layout
    assert deal.history[-1] == Event(0, captures("KD", "QD 3S 2H")[0], Phase.TURN, True)
    assert accounted(deal)


def test_the_turned_cards_choice_is_a_decision():
    """"A turn": "the turned stock card's capture is also a choice when several targets
    exist"; the same player decides, then the next plays."""
    deal = full_deal(["9D", "2H"], "QD 3S 3H 6C", "7C")
    deal.apply(find(deal, "2H to the layout"))
    assert deal.phase == "turn" and deal.current_player == 1 and deal.turned == "7C"
    assert [str(a) for a in deal.legal_actions()] == ["7C takes 3S", "7C takes 3H"]
    obs = deal.observation(0)
    assert obs["turned"] == "7C" and obs["phase"] == "turn"
    with pytest.raises(IllegalActionError, match="turned 7C"):
        deal.apply(legal_plays("2D", "8S")[0])
    deal.apply(find(deal, "7C takes 3H"))
    assert deal.phase == "play" and deal.current_player == 0 and deal.pile(1) == Cards("7C 3H")
    assert deal.history[-1] == Event(1, find_play("7C", "3H"), Phase.TURN, False)


def find_play(card, captured):
    (p,) = [p for p in captures(card, captured) if p.captured == Cards(captured, decks=1)]
    return p


def test_forced_capture_in_play():
    """"A turn": a card that can capture must (default); ``forced_capture=False`` lets it
    join the layout, for the played and for the turned card."""
    deal = full_deal(["9D", "7C"], "QD 3S 5H 6C", "4S")
    with pytest.raises(IllegalActionError, match="not legal on the layout"):
        deal.apply(captures("7C", "")[0])
    free = full_deal(["9D", "7C"], "QD 3S 5H 6C", "4S", rules=Rules(forced_capture=False))
    free.apply(find(free, "7C to the layout"))
    # the turned 4S could take the 6C: a decision under forced_capture=False
    assert free.phase == "turn" and [str(a) for a in free.legal_actions()] == ["4S takes 6C", "4S to the layout"]
    free.apply(find(free, "4S to the layout"))
    assert {"7C", "4S", "6C", "3S"} <= set(free.layout)


def test_illegal_actions_leave_the_state_unchanged():
    deal = Deal(3, players=2)
    before = (str(deal), deal.history, deal.legal_actions())
    not_held = legal_plays(deal.hand(0), deal.layout)[0]   # seat 1 plays first
    for bad in [not_held, "7S", None, ["PASS", "PASS", "PASS"], 3]:
        with pytest.raises(IllegalActionError):
            deal.apply(bad)
        assert (str(deal), deal.history, deal.legal_actions()) == before
    assert deal.card_play().can_pass() is False
    while not deal.is_terminal():
        deal.apply(deal.legal_actions()[-1])
    with pytest.raises(IllegalActionError, match="over"):
        deal.apply(not_held)
    assert deal.legal_actions() == [] and deal.card_play() is None and deal.current_player == TERMINAL


def test_the_deal_ends_when_hands_and_stock_are_empty():
    deal = Deal(11, players=3)
    n = 0
    while not deal.is_terminal():
        assert deal.returns() == [0.0, 0.0, 0.0]
        deal.apply(deal.legal_actions()[0])
        n += 1
    assert deal.hand_sizes() == (0, 0, 0) and deal.stock_size == 0 and not deal.layout
    assert sum(1 for e in deal.history if e.phase is Phase.PLAY) == 24
    assert sum(1 for e in deal.history if e.phase is Phase.TURN) == 24
    assert n == 24 + sum(1 for e in deal.history if e.phase is Phase.TURN and not e.automatic)


# --- Special opening layouts --------------------------------------------------------------------
@pytest.mark.parametrize("rank", list("5TJQK"))
def test_opening_triple_taken_by_the_played_fourth(rank):
    """"Three of a kind among K, Q, J, T or 5 in the opening layout: the fourth card of
    that rank, when played ..., captures all three"."""
    deal = full_deal([f"{rank}D", "2C"], f"{rank}S {rank}H {rank}C 9H", "3C 3D")
    deal.apply(find(deal, "2C to the layout"))
    play = find(deal, f"{rank}D takes {rank}S {rank}H {rank}C")
    assert play.type == PlayType.TRIPLE and len(deal.legal_actions()) >= 1
    deal.apply(play)
    assert Cards(f"{rank}S {rank}H {rank}C {rank}D") <= deal.pile(0)
    assert not any(c.startswith(rank) for c in deal.layout)


def test_opening_triple_taken_by_the_turned_fourth():
    """... "or turned, captures all three" (automatically: it is the only outcome)."""
    deal = full_deal(["2C", "3C"], "KS KH KC 9H", "KD 4C")
    deal.apply(find(deal, "3C to the layout"))
    assert deal.pile(1) == Cards("KS KH KC KD") and deal.history[-1].automatic
    assert deal.history[-1].action.type == PlayType.TRIPLE


@pytest.mark.parametrize("rank", list("5TJQK"))
def test_opening_four_of_a_kind_goes_to_the_dealer(rank):
    """"Four of a kind of those ranks in the opening layout: the dealer captures all four
    at once, before play"."""
    quad = f"{rank}S {rank}H {rank}C {rank}D"
    deal = full_deal([], quad, "")
    assert deal.opening == Cards(quad) and deal.pile(0) == Cards(quad) and not deal.layout
    assert deal.scores()[0] == (20 if rank != "5" else 10) and deal.current_player == 1
    assert accounted(deal)
    # four of a rank that does not capture itself is nothing special
    plain = full_deal([], "3S 3H 3C 3D", "")
    assert not plain.opening and len(plain.layout) == 4


def test_main_merah_redeals_the_opening_layout():
    """"Variants", main_merah: a layout with three or four of K/Q/J/T/5, or five or more
    cards of one capture group (A/9, 2/8, 3/7, 4/6), is redealt."""
    assert redeal_needed("KS KH KC 2S 3S 4S 6S 7S 9S TS JS QS")          # three kings
    assert redeal_needed("AS AH 9C 9D 9S 3S 4S 6S 7H TS JS QS")          # five of A/9
    assert not redeal_needed("AS AH 9C 9D 2S 3S 4S 6S 7H TS JS QS")      # four of A/9
    assert not redeal_needed("KS KH 5C 5D 2S 3S 4S 6S 7H TS JS QS")      # pairs are fine
    rules = Rules.main_merah()
    with pytest.raises(ValueError, match="redealt"):
        full_deal([], "KS KH KC 2S 3S 4S 6S 7S 9S TS JS QS", "", rules=rules)
    assert full_deal([], "KS KH 5C 5D 2S 3S 4S 6S 7H TS JS QS", "", rules=rules).redeals == 0
    groups = ["A9", "28", "37", "46"]
    redealt = 0
    for seed in range(600):
        for players in (2, 3):
            deal = Deal(seed, rules=rules, players=players)
            redealt += deal.redeals > 0
            ranks = [c[0] for c in deal.layout]
            assert all(ranks.count(r) < 3 for r in "5TJQK")
            assert all(sum(ranks.count(r) for r in g) < 5 for g in groups)
            assert not deal.opening
    assert redealt > 100        # about a quarter of the deals need a redeal


# --- Scoring ---------------------------------------------------------------------------------
def card_points(rules, players, cards):
    pts = rules.points(players)
    return [pts[DECK.index(c)] for c in cards.split()]


def test_points_of_each_card_pagat():
    """"Scoring": red 2-8 face value, red 9-K 10, red A 20; AS 0/30/30, AC 0/0/40."""
    r = Rules()
    assert card_points(r, 4, "2H 8D 9H TD JH QD KH AH AD") == [2, 8, 10, 10, 10, 10, 10, 20, 20]
    assert [card_points(r, n, "AS AC") for n in (2, 3, 4)] == [[0, 0], [30, 0], [30, 40]]
    assert set(card_points(r, 4, "2S 9C TS KC 5S 8C")) == {0}
    assert [(r.total(n), r.par(n)) for n in (2, 3, 4)] == [(210, 105), (240, 80), (280, 70)]


def test_spec_two_player_scoring_example():
    """"Scoring" example: a pile whose red cards are K, Q, 9, 6, 7, 3, 4, 5, 5 and AH
    scores 80, a loss of 25; the other player has 130, a win of 25."""
    reds = "KH QD 9H 6D 7H 3D 4H 5H 5D AH"
    blacks = "2C 3S 4S 5S 6S 7S 9S TS JS QS KS AS AC"
    pile0 = reds + " " + blacks
    rest = [c for c in DECK if c not in set(pile0.split()) | {"8S", "2S"}]
    # the last turn: seat 0 lays its 8S, the last stock card 2S takes it
    deal = Deal.from_position(["8S", ""], layout="", stock=["2S"], current=0, piles=[pile0, " ".join(rest)])
    deal.apply(find(deal, "8S to the layout"))
    assert deal.is_terminal() and not deal.layout and deal.pile(0) == Cards(pile0 + " 8S 2S")
    assert [str(c) for c in deal.pile(0) if c[1] in "HD"] == sorted(reds.split(), key=DECK.index)
    assert deal.scores()[0] == 80 and deal.scores()[1] == 130
    assert deal.returns() == [-25.0, 25.0]


def test_returns_are_score_minus_par():
    for seed in range(20):
        for variant, players in TABLES:
            rules = Rules(variant=variant, red_five_bonus=False)
            deal = Deal(seed, rules=rules, players=players)
            while not deal.is_terminal():
                deal.apply(deal.legal_actions()[0])
            par = rules.total(players) / players
            assert deal.returns() == pytest.approx([s - par for s in deal.scores()])
            assert sum(deal.scores()) == rules.total(players)


@pytest.mark.parametrize("rules, capture, bonus", [
    (Rules(red_five_bonus=True), "5H takes 5D", True),
    (Rules.barraco(), "5H takes 5D", True),
    (Rules(red_five_bonus=True), "5S takes 5D", False),     # a black five
    (Rules(), "5H takes 5D", False),                         # the rule is off
])
def test_red_five_bonus(rules, capture, bonus):
    """"Variants", red_five_bonus: capturing a red 5 with the other red 5 earns 10 points
    from each other player (barraco has it)."""
    players = 4 if rules.variant == "barraco" else 3
    card = capture.split()[0]
    hands = [card, "2C", "2D"] + (["3D"] if players == 4 else [])
    others = hands[1:]
    rest = [c for c in DECK if c not in {card, "5D", *others, "AH", "AD", "AS", "9H"}]
    stock = ["9H", "AS", "AD", "AH"][:players]
    piles = [rest[k::players] for k in range(players)]
    deal = Deal.from_position(hands, layout="5D", stock=stock, current=0, rules=rules, piles=piles)
    deal.apply(find(deal, capture))
    while not deal.is_terminal():
        deal.apply(deal.legal_actions()[0])
    assert (deal.bonus_player == 0) == (card == "5H")
    base = [s - rules.par(players) for s in deal.scores()]
    if bonus:
        base = [b + (RED_FIVE_BONUS * (players - 1) if s == 0 else -RED_FIVE_BONUS) for s, b in enumerate(base)]
    assert deal.returns() == pytest.approx(base)
    transfers = [r - (s - rules.par(players)) for r, s in zip(deal.returns(), deal.scores())]
    assert sum(transfers) == pytest.approx(0)
    assert ENGINE_BONUS == RED_FIVE_BONUS == 10


def test_red_five_bonus_with_the_turned_card_and_the_triple():
    """The turned red 5 counts for the player who turned it; the fourth five taking the
    opening triple counts when it and a captured five are the two red fives."""
    rules = Rules(red_five_bonus=True)
    deal = full_deal(["2C", "3C"], "5H 9S 9C 8S", "5D", rules=rules)
    deal.apply(find(deal, "3C to the layout"))
    assert deal.bonus_player == 1
    deal = full_deal(["5D", "2C"], "5H 5S 5C 8S", "3D 4D", rules=rules)
    deal.apply(find(deal, "2C takes 8S"))
    deal.apply(find(deal, "5D takes 5S 5H 5C"))
    assert deal.bonus_player == 0
    deal = full_deal(["5C", "2C"], "5H 5S 5D 8S", "3D 4D", rules=rules)
    deal.apply(find(deal, "2C takes 8S"))
    deal.apply(find(deal, "5C takes 5S 5H 5D"))
    assert deal.bonus_player is None


# --- Variants ----------------------------------------------------------------------------------
def test_taiwanese_scores():
    """taiwanese: AS 0, AC 30, reds as usual; total 240, par 60; 4 players."""
    r = Rules.taiwanese()
    assert card_points(r, 4, "AS AC AH 9D 5H") == [0, 30, 20, 10, 5]
    assert (r.total(4), r.par(4)) == (240, 60)


def test_barraco_scores():
    """barraco: red A 10, red 9-K 10, red 2-8 face value, AC 30; total 220, par 110 / 55."""
    r = Rules.barraco()
    assert card_points(r, 2, "AH AD AS AC 9H KD 2H 8D") == [10, 10, 0, 30, 10, 10, 2, 8]
    assert [(r.total(n), r.par(n)) for n in (2, 4)] == [(220, 110), (220, 55)]
    assert r.red_five_bonus and not Rules.barraco(red_five_bonus=False).red_five_bonus


def test_gob_dum_gob_dang_scores():
    """gob_dum_gob_dang: red 0; black 2-9 face value, black T-K 10, AC 0, AS 50; total
    218; result = score - total / n."""
    r = Rules.gob_dum_gob_dang()
    assert card_points(r, 3, "2H AH KD 2S 9C TS KC AC AS") == [0, 0, 0, 2, 9, 10, 10, 0, 50]
    assert [r.total(n) for n in (2, 3, 4)] == [218] * 3
    assert r.par(3) == pytest.approx(218 / 3) and r.par(4) == 54.5
    deal = Deal(4, rules=r, players=3)
    while not deal.is_terminal():
        deal.apply(deal.legal_actions()[0])
    assert deal.returns() == pytest.approx([s - 218 / 3 for s in deal.scores()])


def test_main_merah_scores():
    """main_merah: black 0, red A 20, red 9-K 10, red 2-8 face value (total 210)."""
    r = Rules.main_merah()
    assert card_points(r, 2, "AS AC KS 2C AH KD 2H") == [0, 0, 0, 0, 20, 10, 2]
    assert [(r.total(n), r.par(n)) for n in (2, 3)] == [(210, 105), (210, 70)]


def test_main_merah_first_player_is_the_dealer_then_the_worst_scorer():
    """main_merah: "dealer plays first in the first deal, later the worst scorer of the
    previous deal"."""
    for seed in range(6):
        m = Match(seed, rules=Rules.main_merah(), players=3)
        assert m.deal.first_player == 0 == m.deal.dealer
        while not m.is_terminal():
            prev = m.deal
            m.apply(m.legal_actions()[0])
            if m.deal is not prev and not m.is_terminal():
                scores = prev.scores()
                worst = [s for s in range(3) if scores[s] == min(scores)]
                assert m.deal.first_player in worst and m.deal.dealer == m.deal.first_player
                assert m.deal.first_player == next_dealer(m.rules, prev)


def test_next_dealer_breaks_ties_in_play_order():
    deal = Deal.from_position(["8S", "", ""], layout="", stock=["8C"], current=0, rules=Rules.main_merah(), dealer=2,
                              piles=["", "", " ".join(c for c in DECK if c not in ("8S", "8C"))])
    deal._first = 1
    deal.apply(deal.legal_actions()[0])
    assert deal.scores()[:2] == (0, 0) and next_dealer(Rules.main_merah(), deal) == 1
    assert next_dealer(Rules(), Deal(1, players=3, dealer=2)) == 0


# --- Match ---------------------------------------------------------------------------------------
def test_match_plays_one_deal_per_player_and_adds_up():
    m = Match(5, players=3)
    dealers = []
    while not m.is_terminal():
        if not dealers or m.deal.dealer != dealers[-1]:
            dealers.append(m.deal.dealer)
        assert m.returns() == [0.0] * 3
        m.apply(m.legal_actions()[0])
    assert dealers == [0, 1, 2] and m.deals_played == 3
    totals = np.sum([d["returns"] for d in m.deals], axis=0)
    assert m.returns() == pytest.approx(totals.tolist()) and sum(m.returns()) == pytest.approx(0)
    assert m.current_player == TERMINAL and m.legal_actions() == [] and m.card_play() is None
    with pytest.raises(IllegalActionError, match="over"):
        m.apply(None)
    assert Match(5, players=3, rules=Rules(match_deals=1)).rules.deals_in_match(3) == 1
    with pytest.raises(ValueError, match="match_deals"):
        Rules(match_deals=0)


def test_match_is_reproducible_and_clones_are_independent():
    a, b = Match(8, players=2), Match(8, players=2)
    c = a.clone()
    for state in (a, b):
        while not state.is_terminal():
            state.apply(state.legal_actions()[-1])
    assert a.returns() == b.returns() and a.history == b.history
    assert c.deals_played == 0 and not c.is_terminal()
    obs = c.observation(1)
    assert obs["match"]["deals_played"] == 0 and obs["hand"] == c.deal.hand(1)


# --- observation, determinize, clone --------------------------------------------------------------
def test_observation_shows_only_the_players_hand():
    deal = Deal(21, players=4)
    for _ in range(5):
        deal.apply(deal.legal_actions()[0])
    obs = deal.observation(2)
    assert obs["hand"] == deal.hand(2) and obs["piles"] == deal.piles and obs["layout"] == deal.layout
    hidden = [c for s in (0, 1, 3) for c in deal.hand(s)] + deal.card_play().stock()
    assert obs["unseen"] == Cards(hidden, decks=1)
    assert obs["hand_sizes"] == deal.hand_sizes() and obs["stock_size"] == deal.stock_size
    assert "hands" not in obs and obs["returns"] is None
    with pytest.raises(ValueError, match="player"):
        deal.observation(4)


@pytest.mark.parametrize("phase", ["play", "turn"])
def test_determinize_redeals_only_the_unseen_cards(phase):
    rng = np.random.default_rng(0)
    deal = Deal(2, players=3)
    while deal.phase != phase:
        deal.apply(deal.legal_actions()[int(rng.integers(len(deal.legal_actions())))])
    p = deal.current_player
    worlds = [deal.determinize(p, np.random.default_rng(k)) for k in range(20)]
    for w in worlds:
        assert w.hand(p) == deal.hand(p) and w.layout == deal.layout and w.piles == deal.piles
        assert w.hand_sizes() == deal.hand_sizes() and w.stock_size == deal.stock_size
        assert w.turned == deal.turned and w.phase == deal.phase and w.current_player == p
        assert w.unseen(p) == deal.unseen(p) and w.history == deal.history
        assert w.legal_actions() == deal.legal_actions()
        assert accounted(w)
    assert len({(str(w.hands), tuple(w.card_play().stock())) for w in worlds}) == 20
    assert deal.determinize(p, 5).hands == deal.determinize(p, 5).hands


def test_determinize_is_uniform():
    """Each unseen card lands in each hidden place in proportion to its size."""
    deal = Deal(30, players=3)
    deal.apply(deal.legal_actions()[0])
    p = deal.current_player
    unseen = list(deal.unseen(p))
    sizes = {s: deal.hand_sizes()[s] for s in range(3) if s != p}
    rng = np.random.default_rng(1)
    n = 3000
    counts = {s: 0 for s in sizes}
    card = unseen[0]
    for _ in range(n):
        w = deal.determinize(p, rng)
        for s in sizes:
            counts[s] += card in w.hand(s)
    for s, size in sizes.items():
        expect = n * size / len(unseen)
        assert abs(counts[s] - expect) < 4 * (expect * (1 - size / len(unseen))) ** 0.5


def test_determinized_worlds_play_on():
    deal = Deal(6, players=2)
    world = deal.determinize(1, 3)
    while not world.is_terminal():
        world.apply(world.legal_actions()[0])
    assert sum(world.scores()) == 210 and not deal.is_terminal()


def test_clone_is_independent():
    deal = Deal(13)
    copy = deal.clone()
    copy.apply(copy.legal_actions()[0])
    assert deal.history == [] and len(copy.history) >= 1
    assert deal.hands != copy.hands or deal.layout != copy.layout


def test_str_and_repr():
    deal = full_deal([], "KS KH KC KD", "")
    text = str(deal)
    assert "opening: the dealer took KS KH KC KD" in text and "seat 1 to play" in text
    assert "chinese_ten.Deal" in repr(deal) and "Chinese Ten match" in str(Match(1))


def test_plays_from_other_games_or_builders_are_rejected():
    deal = Deal(1)
    with pytest.raises(TypeError):
        Play()
    with pytest.raises(TypeError, match="expected a chupai.chinese_ten.Play"):
        deal.apply("7S takes 3H")
