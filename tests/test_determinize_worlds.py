"""The cheap worlds of determinize: the engine alone (``determinize_card_play``), the
tribute phase's draw in C (exactly uniform where the tribute still to come constrains the
hands: chi-square against the deals listed by brute force), the options of a world's
pending decision read from its re-dealt hands, and every game's world keeping the
observer's view (Chinese Ten included)."""
from __future__ import annotations

import pickle

import numpy as np
import pytest
from test_determinize import check_uniform, gd_consistent, gd_split, positions

from chupai import chinese_ten, gandengyan, guandan
from chupai.cards import Cards
from chupai.registry import GAMES as REGISTRY
from chupai.guandan import tribute as gd_tribute
from chupai.guandan._world import options, return_faces, top_faces
from chupai.guandan.deal import _low_faces

GAMES = [entry.module() for entry in REGISTRY.values()]


def engine_bytes(engine):
    """What an engine holds (its struct, rules and extras), comparable."""
    return None if engine is None else engine.__reduce__()[1]


def world_positions(game, n, seed):
    if game is chinese_ten:  # no tribute nor exchange: random deals and matches
        rng = np.random.default_rng(seed)
        out = []
        for i in range(n):
            m = chinese_ten.Match(seed=seed + i)
            while not m.is_terminal() and len(out) < 40 * (i + 1):
                if rng.random() < 0.2:
                    out.append(m.clone())
                acts = m.legal_actions()
                m.apply(acts[rng.integers(len(acts))])
        return out
    return positions(game, n, 0.05, seed)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.__name__)
def test_determinize_card_play_is_the_worlds_engine(game):
    """``determinize_card_play(p, rng)`` is ``determinize(p, rng).card_play()`` for the same
    seed, on a Deal and on a Match, in every phase (``None`` outside the card play)."""
    states = world_positions(game, 3, 40)
    seen = set()
    for k, state in enumerate(states):
        for target in (state, state.deal):
            p = k % target.players
            engine = target.determinize_card_play(p, k)
            world = target.determinize(p, k)
            assert engine_bytes(engine) == engine_bytes(world.card_play())
            seen.add(engine is None)
        assert engine_bytes(state.determinize_card_play(0, np.random.default_rng(k))) == \
            engine_bytes(state.determinize(0, np.random.default_rng(k)).card_play())
    assert seen == {False, True} or game in (gandengyan, chinese_ten)
    state = states[0]
    for bad, err in (("0", TypeError), (1.0, TypeError), (state.players, ValueError), (-1, ValueError)):
        with pytest.raises(err, match="player|seat"):
            state.determinize_card_play(bad, 1)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.__name__)
def test_a_world_keeps_the_observers_view_and_pickles(game):
    """The player's observation is the world's; the world plays on and pickles (its
    record of the public history is shared in parts, not copied)."""
    rng = np.random.default_rng(8)
    for state in world_positions(game, 2, 60)[::3]:
        p = int(rng.integers(state.players))
        before = state.observation(p)
        world = state.determinize(p, rng)
        assert world.observation(p) == before and state.observation(p) == before
        assert world.history == state.history
        again = pickle.loads(pickle.dumps(world))
        assert str(again) == str(world) and again.observation(p) == before
        deal_world = state.deal.determinize(p, rng)
        assert pickle.loads(pickle.dumps(deal_world)).observation(p) == state.deal.observation(p)


# --- the tribute phase's draw ------------------------------------------------------------------------
TRIBUTE_SCENARIOS = {
    # a double tribute: payer 1 decides among two aces (hidden from seat 0), payer 3 has not
    # paid yet: payer 1 holds tied suits (so no joker), the payers hold one red joker at most
    "double-pending-pay": (["3S 4S", "AS AD 3D", "RJ 5D 6D", "RJ 7D 8D"], 0),
    # the same seen by the deciding payer: payer 3 (hidden) cannot hold both red jokers
    "double-other-payer": (["3S 4S", "AS AD 3D", "RJ 5D 6D", "RJ 7D 8D"], 1),
    # seen by payer 3: payer 1 (hidden) decides, so its cards show a tie
    "double-seen-by-payer": (["3S 4S", "AS AD 3D", "RJ 5D 6D", "RJ 7D 8D"], 3),
}


@pytest.mark.parametrize("name", sorted(TRIBUTE_SCENARIOS))
def test_tribute_phase_is_uniform_over_the_consistent_deals(name):
    hands, p = TRIBUTE_SCENARIOS[name]
    d = guandan.Deal.from_hands(hands, previous=(0, 2, 1, 3))
    assert d.phase == "tribute" and d._tribute.pending.step is gd_tribute.TributeStep.PAY
    allowed = gd_consistent(d, p)
    rng = np.random.default_rng(31)
    check_uniform(allowed, lambda: gd_split(d.determinize(p, rng), p), 80 * len(allowed))


def reference_options(tribute):
    """The pending decision's options from the tribute's hands, by the Python rules."""
    step, seat, _ = tribute.pending
    if step is gd_tribute.TributeStep.PAY:
        return tuple(gd_tribute.PAY_TRIBUTE[f] for f in gd_tribute.top_faces(tribute.hands[seat], tribute.lv))
    received = tribute.receipts[len(tribute.returns)][2]
    return tribute._return_options(seat, received)


@pytest.mark.parametrize("rules", [guandan.Rules(), guandan.Rules(return_max_rank="T")], ids=["plain", "cap-T"])
def test_a_worlds_pending_tribute_options_are_its_deciders(rules):
    """A world whose tribute decider is hidden makes its options from the decider's
    re-dealt cards, as the rules (Python) make them."""
    rng = np.random.default_rng(4)
    checked = set()
    for seed in range(12):
        m = guandan.Match(seed=seed, rules=rules, max_deals=4)
        while not m.is_terminal():
            d = m.deal
            pending = d._tribute.pending if d._tribute is not None else None
            if pending is not None and pending.step in (gd_tribute.TributeStep.PAY, gd_tribute.TributeStep.RETURN):
                for p in range(4):
                    world = d.determinize(p, rng)._tribute
                    assert world.pending.options == reference_options(world)
                    assert (world.pending.options == pending.options) or p != pending.seat
                    checked.add(pending.step)
            acts = m.legal_actions()
            m.apply(acts[rng.integers(len(acts))])
    assert checked == {gd_tribute.TributeStep.PAY, gd_tribute.TributeStep.RETURN}


def test_the_tribute_option_masks_match_the_rules():
    """``top_faces`` and ``return_faces`` (C) against the tribute's Python rules, on random
    two-deck hands at every level, with and without ``return_max_rank``."""
    rng = np.random.default_rng(6)
    deck = [f for f in range(54) for _ in range(2)]
    for trial in range(600):
        lv = trial % 13
        hand = Cards.from_counts(np.bincount(rng.choice(deck, size=int(rng.integers(1, 28)), replace=False),
                                             minlength=54).tolist())
        want = sum(1 << f for f in gd_tribute.top_faces(hand, lv))
        assert top_faces(hand, lv) == want
        received = int(rng.choice(list(hand.faces())))
        for cap in (None, "T", "5"):
            low = _low_faces(cap, lv)
            t = object.__new__(gd_tribute.Tribute)
            t.hands, t.lv, t.rules = [hand], lv, guandan.Rules(return_max_rank=cap)
            got = options(return_faces(hand, received, low), gd_tribute.RETURN_CARD)
            assert got == t._return_options(0, received)
    with pytest.raises(ValueError, match="level"):
        top_faces(Cards("AS"), 13)
    with pytest.raises(ValueError, match="received"):
        return_faces(Cards("AS"), 54, None)
    with pytest.raises(ValueError, match="mask"):
        options(1 << 54, gd_tribute.RETURN_CARD)
    with pytest.raises(ValueError, match="table"):
        options(1, (1, 2))


def test_tribute_and_exchange_draws_check_their_input_and_give_up():
    """The C draws of the decision phases: bad input is a TypeError / ValueError naming
    the argument; a test no deal passes is a RuntimeError after MUST_TRIES draws."""
    from chupai.guandan._world import tribute_hands
    from chupai.zhengshangyou._world import exchange_hands

    hands = [Cards("3S 4S"), Cards("5S 6S"), Cards("7S 8D"), Cards("9S TS")]
    known = (Cards(),) * 4
    out = tribute_hands(hands, 0, known, None, None, 3, 0, 0b1010, 0b1010, 0, -1)
    assert out[0] == hands[0] and sum(out, Cards()) == sum(hands, Cards())
    with pytest.raises(RuntimeError, match="draws"):  # seat 1 can never hold tied suits here
        tribute_hands(hands, 0, known, None, None, 3, 0, 0b1010, 0b1010, 0, 1)
    reds = [Cards("3S 4S"), Cards("RJ 6S"), Cards("7S 8D"), Cards("RJ TS")]
    with pytest.raises(RuntimeError, match="draws"):  # the payers 1 and 3 hold both red jokers
        tribute_hands(reds, 0, (Cards(), Cards(), reds[2], Cards()), None, None, 3, 0, 0b1010, 0b1010, 0, -1)
    fine = tribute_hands(reds, 0, known, None, None, 3, 0, 0b1010, 0b1010, 0, -1)  # seat 2 takes one
    assert fine[2].count("RJ") >= 1
    with pytest.raises(TypeError, match="hands"):
        tribute_hands(hands[:3], 0, known, None, None, 3, 0, 0, 0, 0, -1)
    with pytest.raises(TypeError, match="hands"):
        tribute_hands(["3S"] * 4, 0, known, None, None, 3, 0, 0, 0, 0, -1)
    with pytest.raises(ValueError, match="level"):
        tribute_hands(hands, 0, known, None, None, 3, 13, 0, 0, 0, -1)
    with pytest.raises(ValueError, match="tied"):
        tribute_hands(hands, 0, known, None, None, 3, 0, 0, 0, 0, 4)
    with pytest.raises(ValueError, match="player"):
        tribute_hands(hands, 4, known, None, None, 3, 0, 0, 0, 0, -1)
    for bad, error in (("1", TypeError), (16, ValueError), (-1, ValueError)):
        with pytest.raises(error, match="payers"):
            tribute_hands(hands, 0, known, None, None, 3, 0, bad, 0, 0, -1)
        with pytest.raises(error, match="unpaid"):
            tribute_hands(hands, 0, known, None, None, 3, 0, 0, bad, 0, -1)
    with pytest.raises(ValueError, match="reds"):
        tribute_hands(hands, 0, known, None, None, 3, 0, 0, 0, 1 << 70, -1)
    with pytest.raises(TypeError, match="reds"):
        tribute_hands(hands, 0, known, None, None, 3, 0, 0, 0, None, -1)
    masks = [h.lo for h in hands]
    assert sorted(exchange_hands(masks, 0, [0] * 4, None, None, 5, -1)[1:]) != [] and \
        sum(exchange_hands(masks, 0, [0] * 4, None, None, 5, -1)) == sum(masks)
    with pytest.raises(RuntimeError, match="draws"):
        exchange_hands(masks, 0, [0] * 4, None, None, 5, 2)
    with pytest.raises(TypeError, match="hands"):
        exchange_hands([1.5] * 4, 0, [0] * 4, None, None, 5, -1)
    with pytest.raises(ValueError, match="one-deck"):
        exchange_hands([Cards("3S 3S")] + masks[1:], 0, [0] * 4, None, None, 5, -1)
    with pytest.raises(ValueError, match="tied"):
        exchange_hands(masks, 0, [0] * 4, None, None, 5, 7)
