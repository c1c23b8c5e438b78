"""The rule options that settle the sources' readings: one test per value.

Each option is documented in ``docs/rules/<game>.md`` (the source's words, the decision).
"""
from __future__ import annotations

import pytest

from chupai import guandan, zhengshangyou
from chupai.guandan import ChooseLeader


# --- Guan Dan: tribute_lead ---------------------------------------------------------------
def _returned(deal: guandan.Deal) -> guandan.Deal:
    """Make every pending return (the first option) and return the deal."""
    while deal.phase == "return":
        deal.apply(deal.legal_actions()[0])
    return deal


@pytest.mark.parametrize("lead, leader", [("payer", 3), ("receiver", 0)])
def test_guandan_tribute_lead_only_tribute(lead, leader):
    """After a 1-3 the last finisher (3) pays the first (0): payer or receiver leads."""
    rules = guandan.Rules(tribute_lead=lead)
    d = _returned(guandan.Deal.from_hands(["3S 4S", "5D 6D", "8D 9D", "AS 6S"], previous=(0, 1, 2, 3),
                                          rules=rules))
    assert d.tribute["paid"] == ((3, "AS"),)
    assert d.phase == "play" and d.current_player == leader == d.leader


@pytest.mark.parametrize("lead, leader", [("payer", 3), ("receiver", 0)])
def test_guandan_tribute_lead_higher_tribute(lead, leader):
    """After a 1-2, 3 pays AS (to the first finisher 0) and 1 pays KS (to 2)."""
    rules = guandan.Rules(tribute_lead=lead)
    d = _returned(guandan.Deal.from_hands(["3S 4S", "KS 5D", "8D 9D", "AS 6S"], previous=(0, 2), rules=rules))
    assert d.tribute["received"] == ((3, 0, "AS"), (1, 2, "KS"))
    assert d.phase == "play" and d.current_player == leader


EQUAL = ["3S 4S", "AS 5D", "8D 9D", "AS 6S"]


@pytest.mark.parametrize("lead, chooser, options", [("payer", 1, (1, 3)), ("receiver", 0, (0, 2))])
def test_guandan_equal_tributes_the_leading_side_chooses(lead, chooser, options):
    rules = guandan.Rules(tribute_lead=lead)
    d = _returned(guandan.Deal.from_hands(EQUAL, previous=(0, 2), rules=rules))
    assert d.phase == "lead" and d.current_player == chooser
    assert d.legal_actions() == [ChooseLeader(s) for s in options]
    d.apply(ChooseLeader(options[1]))
    assert d.phase == "play" and d.current_player == options[1]


@pytest.mark.parametrize("lead, first, leader", [("payer", 0, 1), ("payer", 2, 3), ("receiver", 0, 0),
                                                 ("receiver", 2, 2)])
def test_guandan_equal_tributes_seat_order(lead, first, leader):
    rules = guandan.Rules(tribute_lead=lead, equal_tribute_lead="seat_order")
    d = _returned(guandan.Deal.from_hands(EQUAL, previous=(first, (first + 2) % 4), rules=rules))
    assert d.phase == "play" and d.current_player == leader


def test_guandan_tribute_lead_presets_and_bad_values():
    assert guandan.Rules.pagat().tribute_lead == guandan.Rules.competition().tribute_lead == "payer"
    with pytest.raises(ValueError, match="tribute_lead"):
        guandan.Rules(tribute_lead="winner")
    with pytest.raises(TypeError, match="tribute_lead"):
        guandan.Rules(tribute_lead=1)


def test_guandan_tribute_lead_receiver_in_a_match():
    """A match under ``tribute_lead="receiver"``: the second deal's leader is the first
    finisher of the first unless the tribute was resisted (then they lead anyway)."""
    rules = guandan.Rules(tribute_lead="receiver")
    m = guandan.Match(5, rules=rules)
    while m.deals_played == 0:
        m.apply(m.legal_actions()[0])
    while m.deal.phase != "play":
        m.apply(m.legal_actions()[0])
    assert m.deal.leader == m.deals[0]["finishing_order"][0]


# --- Zheng Shangyou: next_dealer ----------------------------------------------------------
def _first_deal_played(match: zhengshangyou.Match) -> None:
    while match.deals_played == 0:
        match.apply(match.legal_actions()[0])


@pytest.mark.parametrize("players", [4, 5, 6])
@pytest.mark.parametrize("option", ["third_out", "second_last_out"])
def test_zhengshangyou_next_dealer(players, option):
    rules = zhengshangyou.Rules(next_dealer=option, target=1000)
    m = zhengshangyou.Match(3, players=players, rules=rules)
    _first_deal_played(m)
    order = m.deals[0]["finishing_order"]
    expected = order[2] if option == "third_out" else order[players - 2]
    assert m.deal.dealer == expected == rules.dealer_after(order)
    if players == 4:
        assert order[2] == order[players - 2]
    else:
        assert order[2] != order[players - 2]
    # an explicit deal after that order: the same dealer, another one refused
    hands = [m.deal.observation(s)["hand"] for s in range(players)]
    d = zhengshangyou.Deal.from_hands(hands, previous=order, rules=rules)
    assert d.dealer == expected
    with pytest.raises(ValueError, match="next_dealer"):
        zhengshangyou.Deal.from_hands(hands, previous=order, dealer=(expected + 1) % players, rules=rules)


@pytest.mark.parametrize("players", [2, 3])
def test_zhengshangyou_third_out_with_few_players(players):
    """With 2 or 3 players nobody but the last runs out third: the (n-1)th finisher deals."""
    order = tuple(range(players))[::-1]
    assert zhengshangyou.Rules().dealer_after(order) == order[players - 2]


def test_zhengshangyou_next_dealer_bad_values():
    assert zhengshangyou.Rules().next_dealer == "third_out"
    with pytest.raises(ValueError, match="next_dealer"):
        zhengshangyou.Rules(next_dealer="first_out")
    with pytest.raises(TypeError, match="next_dealer"):
        zhengshangyou.Rules(next_dealer=3)


# --- Gan Deng Yan: joker_bombs_in_hand, max_payment, Match.winner -------------------------
from itertools import combinations  # noqa: E402

import numpy as np  # noqa: E402

from chupai import gandengyan  # noqa: E402
from chupai.cards import Cards  # noqa: E402
from chupai.gandengyan import classify  # noqa: E402
from chupai.gandengyan.playouts import playout  # noqa: E402
from chupai.gandengyan.scoring import bomb_factor, held_bombs_factor, own_multiplier  # noqa: E402

GDY = gandengyan.Rules


def _brute_held_bombs(hand: Cards, rules: GDY) -> int:
    """Independent path: every sub-multiset the classifier reads as a bomb, then the
    best product over disjoint choices of them."""
    tokens = str(hand).split()
    bombs: dict[tuple[int, ...], int] = {}
    for size in (2, 3, 4):
        for idx in combinations(range(len(tokens)), size):
            plays = [p for p in classify(" ".join(tokens[i] for i in idx), rules=rules) if p.is_bomb]
            if plays:
                bombs[idx] = max(bomb_factor(p.type, p.is_soft, rules) for p in plays)

    def best(used: frozenset[int], start: int) -> int:
        out = 1
        for idx, f in bombs.items():
            if min(idx) >= start and not used.intersection(idx):
                out = max(out, f * best(used | set(idx), min(idx) + 1))
        return out

    return best(frozenset(), 0)


HELD_RULES = [
    GDY(multipliers=True),
    GDY(multipliers=True, soft_bombs=True),
    GDY(multipliers=True, triples_are_bombs=False),
    GDY(multipliers=True, joker_as_two=False),
    GDY(multipliers=True, decks=2),
    GDY(multipliers=True, decks=2, soft_bombs=True),
]


@pytest.mark.parametrize("rules", HELD_RULES, ids=repr)
def test_gandengyan_held_bombs_match_the_classifier(rules):
    """``joker_bombs_in_hand=True``: the split of a hand into bombs with the largest
    factor, against the brute force over the classifier's bombs; hands rich in jokers."""
    rng = np.random.default_rng(14)
    deck = _deck(rules.decks)
    jokers = [c for c in deck if c in ("BJ", "RJ")]
    naturals = [c for c in deck if c not in ("BJ", "RJ")]
    ranks = sorted({c[:-1] for c in naturals})
    for _ in range(120):
        few = rng.choice(ranks, size=3, replace=False)  # few ranks: many bombs
        pool = [c for c in naturals if c[:-1] in few]
        n_nat = int(rng.integers(1, min(9, len(pool)) + 1))
        n_jok = int(rng.integers(0, len(jokers) + 1))
        cards = list(rng.choice(pool, size=n_nat, replace=False)) + list(rng.choice(jokers, size=n_jok, replace=False))
        hand = Cards(" ".join(cards), decks=rules.decks)
        assert held_bombs_factor(hand.counts(), rules) == _brute_held_bombs(hand, rules), str(hand)


def _deck(decks: int) -> list[str]:
    one = [r + s for r in "23456789TJQKA" for s in "SHCD"] + ["BJ", "RJ"]
    return [c for c in one for _ in range(decks)]


@pytest.mark.parametrize("held, expected", [(True, (32, 4, 16)), (False, (4, 2, 16))])
def test_gandengyan_joker_bombs_in_hand_values(held, expected):
    """``BJ RJ`` held: x8 bomb x2 x2 jokers (or only the jokers); ``5S 5H BJ``: a three
    bomb x2 and the joker x2; pagat's 3-3-3-3-A-joker: x4 x2 x2 either way."""
    rules = GDY(multipliers=True, joker_bombs_in_hand=held)
    got = tuple(own_multiplier(Cards(h), rules) for h in ("BJ RJ", "5S 5H BJ", "3S 3H 3C 3D AS BJ"))
    assert got == expected


def _one_card_winner(hands: list[str], rules: GDY) -> gandengyan.Deal:
    """Seat 0 leads its only card and wins at once: the others keep ``hands``."""
    return gandengyan.Deal.from_hands(["7S", *hands], rules=rules)


GDY_RULES = [
    GDY(multipliers=True),
    GDY(multipliers=True, joker_bombs_in_hand=False),
    GDY(multipliers=True, soft_bombs=True),
    GDY(multipliers=True, triples_are_bombs=False),
    GDY(multipliers=True, joker_as_two=False, ace_multiplier=3),
    GDY(multipliers=True, decks=2),
    GDY(multipliers=True, decks=2, joker_bombs_in_hand=False, soft_bombs=True),
    GDY(multipliers=True, max_payment=50),
    GDY(max_payment=3),
    GDY(max_payment=3, positive_only=True),
]


@pytest.mark.parametrize("rules", GDY_RULES, ids=repr)
def test_gandengyan_c_playout_returns_agree_with_python(rules):
    """The C playout's returns (own multiplier, cap) equal the Python deal's returns."""
    rng = np.random.default_rng(7)
    deck = [c for c in _deck(rules.decks) if c != "7S"]
    for _ in range(60):
        rng.shuffle(deck)
        players = int(rng.integers(2, 5))
        # a few ranks only, and all the jokers in play, so that bombs and caps occur
        sizes = rng.integers(1, 9, size=players - 1)
        pool = [c for c in deck if c[0] in "345BR" or c[0] == "A"]
        rng.shuffle(pool)
        hands, k = [], 0
        for n in sizes:
            hands.append(" ".join(pool[k:k + n]))
            k += n
        deal = _one_card_winner(hands, rules)
        result = playout(deal, seed=int(rng.integers(1 << 30)))
        deal.apply(deal.legal_actions()[0])
        assert deal.is_terminal() and deal.winner == result.winner == 0
        assert list(result.returns) == deal.returns(), (hands, rules)


@pytest.mark.parametrize("cap", [None, 1, 7])
def test_gandengyan_max_payment(cap):
    rules = GDY(max_payment=cap)
    deal = _one_card_winner(["3S 4S 5S 6S 8H 9H TH JH QH", "KD"], rules)
    deal.apply(deal.legal_actions()[0])
    pays = [9, 1] if cap is None else [min(9, cap), min(1, cap)]
    assert deal.returns() == [float(sum(pays)), -pays[0], -pays[1]]


def test_gandengyan_new_options_bad_values():
    assert GDY().joker_bombs_in_hand is True and GDY().max_payment is None
    with pytest.raises(TypeError, match="joker_bombs_in_hand"):
        GDY(joker_bombs_in_hand=1)
    with pytest.raises(TypeError, match="max_payment"):
        GDY(max_payment=2.5)
    with pytest.raises(TypeError, match="max_payment"):
        GDY(max_payment=True)
    for bad in (0, -3, 2**60):
        with pytest.raises(ValueError, match="max_payment"):
            GDY(max_payment=bad)


def test_gandengyan_match_winner():
    """``winner``: ``None`` mid-match; once over, the highest positive total alone."""
    m = gandengyan.Match(2, players=3, max_deals=2)
    assert m.winner is None and m.observation(0)["match"]["winner"] is None
    while not m.is_terminal():
        m.apply(m.legal_actions()[0])
    scores = m.scores()
    best = max(scores)
    expected = scores.index(best) if best > 0 and scores.count(best) == 1 else None
    assert m.winner == expected and m.winner is not None
    assert m.returns()[m.winner] == best and m.observation(1)["match"]["winner"] == m.winner
    # a tie at the top and nobody positive give no winner
    for totals in ((5, 5, -10), (0, 0, 0)):
        m._scores = totals
        assert m.winner is None


# --- Chinese Ten: red_five_bonus in taiwanese, cut_card_seen, redeal_crowded_groups ------
from chupai import chinese_ten  # noqa: E402
from chupai.chinese_ten._engine import redeal_needed  # noqa: E402

CT = chinese_ten.Rules


def test_chinese_ten_taiwanese_red_five_bonus():
    assert CT.taiwanese().red_five_bonus is True and CT.barraco().red_five_bonus is True
    assert CT.pagat().red_five_bonus is False and CT.taiwanese(red_five_bonus=False).red_five_bonus is False


@pytest.mark.parametrize("seen", [True, False])
def test_chinese_ten_cut_card_in_the_cutters_observation(seen):
    """The cutter (the seat after the dealer) sees the bottom stock card until it is
    turned; nobody else does; without ``cut_card_seen`` nobody."""
    rules = CT.taiwanese(cut_card_seen=seen)
    deal = chinese_ten.Deal(11, rules=rules, dealer=2)
    cutter = 3
    assert rules.cutter(4, 2) == (cutter if seen else None)
    bottom = deal.card_play().stock()[-1]
    while not deal.is_terminal():
        stock = deal.card_play().stock()
        for p in range(4):
            expected = stock[-1] if seen and p == cutter and stock else None
            assert deal.observation(p)["cut_card"] == expected
        if seen and stock:
            assert stock[-1] == bottom
        deal.apply(deal.legal_actions()[0])
    assert all(deal.observation(p)["cut_card"] is None for p in range(4))


def test_chinese_ten_cut_card_seen_defaults_and_bad_values():
    assert CT.taiwanese().cut_card_seen is True
    assert not any(getattr(CT, v)().cut_card_seen for v in ("pagat", "barraco", "gob_dum_gob_dang", "main_merah"))
    with pytest.raises(TypeError, match="cut_card_seen"):
        CT(cut_card_seen="yes")
    with pytest.raises(TypeError, match="redeal_crowded_groups"):
        CT.main_merah(redeal_crowded_groups=0)


@pytest.mark.parametrize("seen", [True, False])
def test_chinese_ten_determinize_keeps_the_cut_card_for_the_cutter_only(seen):
    """For the cutter the bottom card stays and every other unseen card is uniform over
    the other places; for the others (or without the option) the bottom card moves."""
    deal = chinese_ten.Deal(5, rules=CT.taiwanese(cut_card_seen=seen), dealer=0)
    for _ in range(3):
        deal.apply(deal.legal_actions()[0])
    bottom = deal.card_play().stock()[-1]
    rng = np.random.default_rng(0)
    runs = 3000
    for player in (1, 2):
        at_bottom = 0
        probe = str(deal.hand(2 if player == 1 else 1)).split()[0]   # a card another hand holds
        probe_in_stock = 0
        unseen = len(deal.unseen(player))
        stock = deal.stock_size
        for _ in range(runs):
            d = deal.determinize(player, rng)
            st = d.card_play().stock()
            assert len(st) == stock and d.hand_sizes() == deal.hand_sizes()
            at_bottom += st[-1] == bottom
            probe_in_stock += probe in st
        kept = seen and player == 1
        if kept:
            assert at_bottom == runs
            p = (stock - 1) / (unseen - 1)   # the probe: uniform over the other places
        else:
            assert at_bottom < runs / 4
            p = stock / unseen
        sigma = (runs * p * (1 - p)) ** 0.5
        assert abs(probe_in_stock - runs * p) < 5 * sigma, (player, probe_in_stock, runs * p)


@pytest.mark.parametrize("crowded", [True, False])
def test_main_merah_redeal_crowded_groups(crowded):
    rules = CT.main_merah(redeal_crowded_groups=crowded)
    assert redeal_needed("KS KH KC 2S 3S 4S 6S 7S 9S TS JS QS", crowded)      # three kings: always
    assert redeal_needed("AS AH 9C 9D 9S 3S 4S 6S 7H TS JS QS", crowded) == crowded   # five of A/9
    layouts = [chinese_ten.Deal(seed, rules=rules, players=2).layout for seed in range(300)]
    assert not any(redeal_needed(str(lay), False) for lay in layouts)
    assert any(redeal_needed(str(lay), True) for lay in layouts) == (not crowded)
    deck = [r + s for r in "A23456789TJQK" for s in "SHCD"]
    layout = "AS AH 9C 9D 9S 3S 4S 6S 7H TS JS QS"
    rest = [c for c in deck if c not in layout.split()]
    hands, stock = [" ".join(rest[:10]), " ".join(rest[10:20])], rest[20:]
    if crowded:
        with pytest.raises(ValueError, match="redealt"):
            chinese_ten.Deal.from_hands(hands, layout=layout, stock=stock, rules=rules)
    else:
        deal = chinese_ten.Deal.from_hands(hands, layout=layout, stock=stock, rules=rules)
        assert sorted(str(deal.layout).split()) == sorted(layout.split())
