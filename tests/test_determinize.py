"""The compiled determinization (chupai.engine.determinize and each game's ``_world`` hook):
exactly uniform over the consistent deals (chi-square against the deals listed by brute
force, consistency judged by the slow reference that replays the public history), the
observer's view kept at random positions of every phase, determinism, bad input."""
from __future__ import annotations

import inspect

import itertools
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np
import pytest

from chupai import doudizhu, gandengyan, guandan, rl, zhengshangyou
from chupai.registry import GAMES as REGISTRY
from chupai.engine.determinize import MUST_TRIES, deal, redeal_hands
from chupai.cards import Cards, parse_face
from chupai.doudizhu.deal import MAX_REDEALS
from chupai.errors import ReplayError
from chupai.guandan import PayTribute, ReturnCard
from chupai.guandan import Rules as GdRules
from chupai.zhengshangyou import GiveCard, PayCard, TakeCard

#: a chi-square test fails below this p-value (fixed seeds: each test is one draw of it)
P_MIN = 1e-3
#: multinomial samples behind each p-value (enough to resolve P_MIN)
NULL_SAMPLES = 20_000


def chi_square_pvalue(observed: Sequence[int], expected: Sequence[float]) -> float:
    """P(statistic >= the observed one) under the hypothesis, by sampling numpy's
    multinomial with the expected proportions (exact for small counts, where the
    asymptotic chi-square distribution is not, and with no extra dependency)."""
    obs = np.asarray(observed, dtype=float)
    exp = np.asarray(expected, dtype=float)
    stat = float(((obs - exp) ** 2 / exp).sum())
    null = np.random.default_rng(0).multinomial(int(obs.sum()), exp / exp.sum(), size=NULL_SAMPLES)
    stats = ((null - exp) ** 2 / exp).sum(axis=1)
    return float((stats >= stat - 1e-9).mean())


def assignments(pool: Sequence[int], sizes: Sequence[int]) -> Counter[tuple[tuple[int, ...], ...]]:
    """Every way to deal the copies ``pool`` (distinct, as a shuffle deals them) to hands
    of ``sizes``: how many of them give each split (hands as sorted face tuples)."""
    out: Counter[tuple[tuple[int, ...], ...]] = Counter()
    for who in itertools.product(range(len(sizes)), repeat=len(pool)):
        if all(who.count(j) == n for j, n in enumerate(sizes)):
            out[tuple(tuple(sorted(f for f, w in zip(pool, who) if w == j)) for j in range(len(sizes)))] += 1
    return out


def check_uniform(weights: dict[Hashable, int], draw: Callable[[], Hashable], n: int) -> None:
    """``n`` draws fall only on the keys of ``weights`` and fit their proportions."""
    assert len(weights) >= 2
    seen = Counter(draw() for _ in range(n))
    assert set(seen) <= set(weights), set(seen) - set(weights)
    keys = sorted(weights, key=repr)
    total = sum(weights.values())
    observed = [seen[k] for k in keys]
    expected = [n * weights[k] / total for k in keys]
    assert chi_square_pvalue(observed, expected) > P_MIN, (observed, expected)


# --- the shared sampler --------------------------------------------------------------------------
@pytest.mark.parametrize("pool, sizes, forbid, must", [
    ([0, 1, 2, 3, 4, 5], [2, 2, 2], None, None),
    ([0, 0, 1, 1, 2, 3, 52], [3, 2, 2], None, None),
    ([0, 0, 1, 2, 3, 4, 5, 53], [3, 3, 2], [0b111, 0, 1 << 53], None),
    ([0, 0, 1, 2, 3, 4, 5, 53], [3, 3, 2], [0b11, 0b100, 0], [0, 1 << 53, 0]),
    ([0, 1, 2, 3, 4, 5, 6, 7], [3, 3, 1, 1], [0, 0b11, 0b11, 0b1100], [1 << 7, 0, 0, 0]),
])
def test_deal_is_uniform_over_the_allowed_deals(pool, sizes, forbid, must):
    allowed = {}
    for split, w in assignments(pool, sizes).items():
        ok = all(not any((forbid or [0] * len(sizes))[j] >> f & 1 for f in hand) for j, hand in enumerate(split))
        ok = ok and all(not m or any(m >> f & 1 for f in hand) for m, hand in zip(must or [0] * len(sizes), split))
        if ok:
            allowed[split] = w
    seeds = itertools.count()
    check_uniform(allowed, lambda: tuple(tuple(sorted(h)) for h in deal(pool, sizes, forbid, must, seed=next(seeds))),
                  60 * len(allowed))


def test_deal_refuses_impossible_and_bad_input():
    with pytest.raises(ReplayError):
        deal([0, 1], [1, 1], [1, 1], None, seed=0)  # face 0 fits nowhere
    with pytest.raises(ReplayError):
        deal([0, 1, 2], [2, 1], [0b011, 0], None, seed=0)  # hand 0 would need 2 of face 2
    with pytest.raises(RuntimeError, match="draws"):
        deal([0, 1], [1, 1], None, [1 << 5, 0], seed=0, tries=10)
    with pytest.raises(ValueError, match="add up"):
        deal([0, 1], [1, 2], seed=0)
    with pytest.raises(ValueError, match="pool"):
        deal([54], [1], seed=0)
    with pytest.raises(TypeError, match="forbid"):
        deal([0, 1], [1, 1], ["x", 0], seed=0)
    with pytest.raises(ValueError, match="forbid"):
        deal([0, 1], [1, 1], [1 << 54, 0], seed=0)
    with pytest.raises(ValueError, match="forbid"):
        deal([0, 1], [1, 1], [0], seed=0)
    with pytest.raises(TypeError, match="seed"):
        deal([0, 1], [1, 1], seed="x")
    with pytest.raises(RuntimeError, match="128-bit"):  # 108 cards, 4 constrained hands
        deal([f % 54 for f in range(108)], [27] * 4, [1, 2, 4, 8], None, seed=0)
    with pytest.raises(RuntimeError, match="constrained hands"):
        deal(list(range(10)), [2] * 5, [1, 2, 4, 8, 16], None, seed=0)
    big = deal([f % 54 for f in range(108)][27:], [27] * 3, [1, 2, 0], None, seed=0)  # Guan Dan's largest
    assert [len(h) for h in big] == [27] * 3 and 0 not in big[0] and 1 not in big[1]
    assert deal([0, 1, 2], [1, 2], seed=9) == deal([0, 1, 2], [1, 2], seed=9)
    assert MUST_TRIES >= 1000


def test_redeal_hands_checks_its_input():
    hands = [Cards("3S 4S"), Cards("5S 6S"), Cards("7S 8S")]
    known = [Cards()] * 3
    out = redeal_hands(hands, 0, known, None, None, 1)
    assert out[0] == hands[0] and sum(out[1:], Cards()) == hands[1] + hands[2]
    with pytest.raises(TypeError, match="player"):
        redeal_hands(hands, "0", known, None, None, 1)
    with pytest.raises(ValueError, match="player"):
        redeal_hands(hands, 3, known, None, None, 1)
    with pytest.raises(ValueError, match="known"):
        redeal_hands(hands, 0, known[:2], None, None, 1)
    with pytest.raises(TypeError, match="known"):
        redeal_hands(hands, 0, ["3S"] * 3, None, None, 1)
    with pytest.raises(ReplayError):  # known cards not in the hand
        redeal_hands(hands, 0, [Cards(), Cards("AS"), Cards()], None, None, 1)


def test_world_hooks_check_the_engine_and_player():
    from chupai.gandengyan._world import world as gdy_world
    from chupai.guandan._world import world as gd_world
    from chupai.zhengshangyou._world import world as zs_world

    gd, zs, gdy = guandan.Deal(seed=1), zhengshangyou.Deal(seed=1), gandengyan.Deal(seed=1)
    with pytest.raises(TypeError, match="guandan"):
        gd_world(zs._engine, 0, (Cards(),) * 4, None, None, 0)
    with pytest.raises(TypeError):
        gd_world(None, 0, (Cards(),) * 4, None, None, 0)
    with pytest.raises(TypeError, match="zhengshangyou"):
        zs_world(gd._engine, 0, [0] * 4, None, None, 0)
    with pytest.raises(TypeError, match="gandengyan"):
        gdy_world(gd._engine, 0, (Cards(),) * 4, 0)
    with pytest.raises(ValueError, match="player"):
        gd_world(gd._engine, 4, (Cards(),) * 4, None, None, 0)
    with pytest.raises(ValueError, match="known"):
        zs_world(zs._engine, 0, [0] * 3, None, None, 0)
    with pytest.raises(ValueError, match="forbid"):
        gd_world(gd._engine, 0, (Cards(),) * 4, (0,) * 3, None, 0)
    before = [gd.hand(s) for s in range(4)]
    other = gd_world(gd._engine, 0, (Cards(),) * 4, None, None, 0)
    assert [gd.hand(s) for s in range(4)] == before and other.hand(0) == before[0]
    assert gdy_world(gdy._engine, 0, (Cards(),) * gdy.players, 0).talon_size == gdy.talon_size


# --- exact uniformity per game, against the reference replay ---------------------------------------
def gd_consistent(d: guandan.Deal, p: int) -> dict[Hashable, int]:
    """The splits of the cards hidden from ``p`` that replay to ``d``'s public history."""
    others = [s for s in range(4) if s != p]
    known = [k.counts() for k in d.known_cards]
    hidden = [d.hand(s) - d.known_cards[s] for s in others]
    pool = [f for h in hidden for f in h.faces()]
    played = [c.counts() for c in d.played_cards()]
    out = {}
    for split, w in assignments(pool, [len(h) for h in hidden]).items():
        now = [d.hand(p).counts()] * 4
        for s, faces in zip(others, split):
            c = list(known[s])
            for f in faces:
                c[f] += 1
            now[s] = c
        if d._replay(now, played) is not None:
            out[split] = w
    return out


def gd_split(world: guandan.Deal, p: int) -> Hashable:
    return tuple(tuple(sorted((world.hand(s) - world.known_cards[s]).faces())) for s in range(4) if s != p)


GD_SCENARIOS = {
    # seat 3 paid a 9 without a choice (nothing above it, no other 9), then the return
    "payer-cap": (["3S 9D", "4S 8D", "5S KD", "9S 6S 7D"], (0, 1, 2, 3), GdRules(), [ReturnCard("3S")], 1),
    # seat 3 chose among two aces: it held another one (a "must"), returned card known
    "pay-decision": (["3S 9D 4D", "4S 8D", "5S KD", "AS AD 6D"], (0, 1, 2, 3), GdRules(),
                     [PayTribute("AD"), ReturnCard("3S")], 1),
    # the payer (seat 3) is deciding and hidden from seat 1: it holds tied suits
    "pending-pay": (["3S 9D", "4S 8D", "5S KD", "AS AD 6D"], (0, 1, 2, 3), GdRules(), [], 1),
    # a receiver returned a J under return_max_rank T: nothing at or below T in its hand
    "return-cap": (["JS QD", "4S 8D", "5S KD", "AS 6D 7D"], (0, 1, 2, 3), GdRules(return_max_rank="T"),
                   [ReturnCard("JS")], 1),
    # a 1-2: both losers pay (double tribute), two copies of some faces, the return pending
    "double-tribute": (["3S 3S", "4S 8D 5D", "5S 6S", "KD 7D 7D"], (0, 2, 1, 3), GdRules(), [], 0),
    # a first deal (no tribute) in the card play, two decks
    "play": (["3S 3S 9D", "4S 8D 4S", "5S 9D", "6D 7D 8D"], None, GdRules(), [], 2),
}


@pytest.mark.parametrize("name", sorted(GD_SCENARIOS))
def test_guandan_is_uniform_over_the_consistent_deals(name):
    hands, previous, rules, actions, p = GD_SCENARIOS[name]
    if previous is None:
        d = guandan.Deal.from_hands(hands, leader=0, rules=rules)
        d.apply(d.legal_actions()[0])
    else:
        d = guandan.Deal.from_hands(hands, previous=previous, rules=rules)
    for a in actions:
        d.apply(a)
    allowed = gd_consistent(d, p)
    rng = np.random.default_rng(11)
    check_uniform(allowed, lambda: gd_split(d.determinize(p, rng), p), 80 * len(allowed))


def zs_consistent(d: zhengshangyou.Deal, p: int) -> dict[Hashable, int]:
    others = [s for s in range(d.players) if s != p]
    hidden = [d.hand(s).lo & ~d.known_cards[s].lo for s in others]
    pool = [f for h in hidden for f in range(54) if h >> f & 1]
    out = {}
    for split, w in assignments(pool, [h.bit_count() for h in hidden]).items():
        now = [d.hand(s).lo for s in range(d.players)]
        for s, faces in zip(others, split):
            now[s] = d.known_cards[s].lo | sum(1 << f for f in faces)
        if d._replay(now) is not None:
            out[split] = w
    return out


def zs_split(world: zhengshangyou.Deal, p: int) -> Hashable:
    return tuple(tuple(sorted((world.hand(s) - world.known_cards[s]).faces())) for s in range(world.players) if s != p)


ZS_SCENARIOS = {
    # 4 players after (0, 1, 2, 3): seats 2 and 3 pay their highest card, 0 takes, 0 and
    # 1 give one back; seat 2 chose among two aces (it held another)
    "pay-decision": (["3S 4S 5S", "6S 7S 8S", "AS AD 9S", "KS 9D TS"], (0, 1, 2, 3),
                     [PayCard("AS"), TakeCard("KS"), GiveCard("3S"), GiveCard("6S")], 1),
    # seat 2 (hidden from 0) is about to choose among its tied suits
    "pending-pay": (["3S 4S 5S", "6S 7S 8S", "AS AD 9S", "KS 9D TS"], (0, 1, 2, 3), [], 0),
    # 3 players after (0, 1, 2): seat 2 paid its only king, then the card play
    "after-exchange": (["3S 4S 5S", "6S 7S 8S QS", "KS 9D TS"], (0, 1, 2),
                       [GiveCard("3S")], 1),
}


@pytest.mark.parametrize("name", sorted(ZS_SCENARIOS))
def test_zhengshangyou_is_uniform_over_the_consistent_deals(name):
    hands, previous, actions, p = ZS_SCENARIOS[name]
    d = zhengshangyou.Deal.from_hands(hands, previous=previous)
    for a in actions:
        d.apply(a)
    if d.phase == "play":
        d.apply(d.legal_actions()[0])
    allowed = zs_consistent(d, p)
    rng = np.random.default_rng(12)
    check_uniform(allowed, lambda: zs_split(d.determinize(p, rng), p), 80 * len(allowed))


def test_gandengyan_is_uniform_over_hands_and_talon_order():
    d = gandengyan.Deal.from_hands(["3S 4S 5S", "6S 7S", "8S 9S"], talon="TS JS", dealer=0)
    d.apply(d.legal_actions()[0])
    p = 1
    known = d.known_cards
    hidden = [d.hand(s) - known[s] for s in (0, 2)]
    pool = sorted(f for h in hidden for f in h.faces()) + [parse_face(c) for c in d._engine.talon]
    sizes = [len(h) for h in hidden]
    allowed = {}
    for order in itertools.permutations(pool):  # one deck: every order is one deal
        a, b, talon = order[:sizes[0]], order[sizes[0]:sizes[0] + sizes[1]], order[sizes[0] + sizes[1]:]
        allowed[(tuple(sorted(a)), tuple(sorted(b)), talon)] = 1

    rng = np.random.default_rng(13)

    def draw() -> Hashable:
        w = d.determinize(p, rng)
        return (tuple(sorted((w.hand(0) - known[0]).faces())), tuple(sorted((w.hand(2) - known[2]).faces())),
                tuple(parse_face(c) for c in w._engine.talon))

    check_uniform(allowed, draw, 40 * len(allowed))


def test_doudizhu_is_uniform_over_the_hidden_hands_with_the_kitty_kept():
    """In the card play, the kitty's cards the landlord still holds stay with it (shown
    to all); the rest of the other two hands is every split alike (compiled world)."""
    d = doudizhu.Deal.from_hands(["3S 4S", "5S 6S", "7S 8S 9H"], kitty="9S TS JS",
                                 rules=doudizhu.Rules(bidding="none"))
    d.apply(next(a for a in d.legal_actions() if str(a.cards) == "9S"))
    p = 1
    known = d.known_cards
    assert str(known[0]) == "TS JS"
    hidden = [d.hand(s) - known[s] for s in (0, 2)]
    pool = sorted(f for h in hidden for f in h.faces())
    allowed = dict.fromkeys(((tuple(sorted(a)), tuple(sorted(set(pool) - set(a))))
                             for a in itertools.combinations(pool, len(hidden[0]))), 1)
    assert len(allowed) == 10
    rng = np.random.default_rng(14)

    def draw() -> Hashable:
        w = d.determinize(p, rng)
        assert known[0] <= w.hand(0) and w.hand(1) == d.hand(1)
        return tuple(sorted((w.hand(0) - known[0]).faces())), tuple(sorted(w.hand(2).faces()))

    check_uniform(allowed, draw, 80 * len(allowed))


# --- the observer's view at random positions of every phase ----------------------------------------
#: every registered game's package
GAMES = [entry.module() for entry in REGISTRY.values()]
#: per game: unseen cards lie outside the hands too (a talon, a stock), so a world may
#: deal the hands other cards than the state's
HIDDEN_BEYOND_HANDS = {"guandan": False, "zhengshangyou": False, "gandengyan": True, "chinese_ten": True,
                      "doudizhu": True}


def positions(game: Any, n_matches: int, rate: float, seed: int) -> list[Any]:
    """Copies of random matches at random decisions (every decision before the play)."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n_matches):
        # (Chinese Ten's Match has no max_deals: its length is the rules' match_deals)
        bound = {"max_deals": 3} if "max_deals" in inspect.signature(game.Match).parameters else {}
        m = game.Match(seed=seed + i, **bound)
        steps = 0
        while not m.is_terminal() and steps < 600:
            if getattr(m.deal, "phase", "play") != "play" or rng.random() < rate:
                out.append(m.clone())
            acts = m.legal_actions()
            m.apply(acts[rng.integers(len(acts))])
            steps += 1
    return out


def gd_reached(world: guandan.Deal, state: guandan.Deal, p: int) -> bool:
    """Guan Dan: the world's cards replay (reference path) to its public history, the
    tribute and the return included."""
    new = world._replay([world.hand(s).counts() for s in range(4)], [c.counts() for c in world.played_cards()])
    return new is not None and [new.hand(s) for s in range(4)] == [world.hand(s) for s in range(4)]


def zs_reached(world: zhengshangyou.Deal, state: zhengshangyou.Deal, p: int) -> bool:
    """Zheng Shangyou: the world's cards replay (reference path) to its public history,
    the exchange included."""
    new = world._replay([world.hand(s).lo for s in range(world.players)])
    return new is not None and new.hands == world.hands


def ddz_reached(world: doudizhu.Deal, state: doudizhu.Deal, p: int) -> bool:
    """Dou Dizhu: the world's hands with what each seat played (the landlord's less the
    kitty) and its kitty, dealt anew, replay the history (the auction's bids, the card
    play) to the world's hands."""
    if world.phase == "over":
        return world.hands == state.hands
    kitty = world.kitty
    start = [world.hand(s) + world.played_cards()[s] for s in range(3)]
    if world.landlord is not None:
        if not kitty <= start[world.landlord]:
            return False
        start[world.landlord] = start[world.landlord] - kitty
    seen = world.observation(p)
    # this deal's events: those after the last deal thrown in (a redeal, its event's action None)
    events = seen["history"]
    events = events[max((i + 1 for i, e in enumerate(events) if e.action is None), default=0):]
    rules = world.rules.replace(all_pass="first_bidder") if seen["redeals"] == MAX_REDEALS else world.rules
    new = doudizhu.Deal.from_hands(start, kitty=kitty, first=seen["first"], rules=rules)
    for event in events:
        new.apply(event.action)
    return new.hands == world.hands and new.phase == world.phase


def gdy_reached(world: gandengyan.Deal, state: gandengyan.Deal, p: int) -> bool:
    """Gan Deng Yan: the cards shown by passing the lead stay with their holders, and the
    hands and the talon hold the state's cards (no private draw is constrained)."""
    def cards(d: gandengyan.Deal) -> list[str]:
        return sorted([str(c) for h in d.hands for c in h] + list(d.talon))

    return all(state.known_cards[s] <= world.hand(s) for s in range(world.players)) and cards(world) == cards(state)


def ct_reached(world: Any, state: Any, p: int) -> bool:
    """Chinese Ten: the hands and the stock hold the state's hidden cards (nothing public
    constrains where one is); the observer's own hand, the layout and the piles unchanged."""
    def hidden(d: Any) -> list[str]:
        return sorted([str(c) for s in range(d.players) if s != p for c in d.hand(s)] + list(d._engine.stock()))

    return hidden(world) == hidden(state) and world.hand(p) == state.hand(p) and \
        world.layout == state.layout and world.piles == state.piles


#: per game, what makes a world one the state's public history could have come from; a
#: game without its row fails here
REACHED: dict[str, Callable[[Any, Any, int], bool]] = {
    "guandan": gd_reached, "zhengshangyou": zs_reached, "doudizhu": ddz_reached,
    "gandengyan": gdy_reached, "chinese_ten": ct_reached,
}


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.__name__)
def test_a_world_keeps_the_observers_view(game):
    states = positions(game, 5, 0.04, 300)
    phases, varied = Counter(), 0
    rng = np.random.default_rng(5)
    for state in states:
        d = state.deal
        phases[str(getattr(d, "phase", "play"))] += 1
        p = int(rng.integers(d.players))
        before = state.observation(p)
        world = state.determinize(p, int(rng.integers(1 << 30)))
        assert state.observation(p) == before  # the state is unchanged
        assert world.observation(p) == before
        assert world.history == state.history
        assert np.array_equal(rl.observation_tensor(world, p), rl.observation_tensor(state, p))
        assert world.deal.hand_sizes() == d.hand_sizes()
        assert sorted(f for s in range(d.players) for f in world.deal.hand(s).faces()) == \
            sorted(f for s in range(d.players) for f in d.hand(s).faces()) or HIDDEN_BEYOND_HANDS[game.GAME.name]
        assert REACHED[game.GAME.name](world.deal, d, p)
        varied += any(world.deal.hand(s) != d.hand(s) for s in range(d.players))
        # a working state of its own
        c = world.clone()
        for _ in range(30):
            if c.is_terminal():
                break
            acts = c.legal_actions()
            c.apply(acts[rng.integers(len(acts))])
    assert len(states) > 40 and varied > len(states) // 2
    if game is guandan:
        assert phases["play"] > 20 and phases["return"] > 3
    if game is zhengshangyou:
        assert phases["exchange"] > 3


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.__name__)
def test_same_seed_same_world_and_bad_player(game):
    states = positions(game, 1, 0.5, 77)
    state = states[len(states) // 3]
    p = state.current_player
    a, b = state.determinize(p, 123), state.determinize(p, np.random.default_rng(123))
    assert str(a) == str(b)
    assert len({str(state.determinize(p, k)) for k in range(6)}) > 1
    before = str(state), state.history
    with pytest.raises(TypeError, match="player|seat"):
        state.determinize("0", 1)
    with pytest.raises(TypeError, match="player|seat"):
        state.determinize(1.0, 1)
    with pytest.raises(ValueError, match="player|seat"):
        state.determinize(state.deal.players, 1)
    with pytest.raises(ValueError, match="player|seat"):
        state.determinize(-1, 1)
    assert (str(state), state.history) == before


def test_reference_and_compiled_agree_on_the_consistent_set():
    """At tribute positions of real deals, every compiled world is one the reference
    (replaying) path accepts, and the reference reaches it too."""
    rng = np.random.default_rng(21)
    checked = 0
    for state in positions(guandan, 6, 0.02, 900):
        d = state.deal
        if d.tribute["previous"] is None:
            continue
        p = int(rng.integers(4))
        world = d.determinize(p, rng)
        ref = d._determinize_replay(p, rng)
        assert gd_reached(state.determinize(p, rng).deal, d, p) and world.observation(p) == ref.observation(p)
        checked += 1
    assert checked > 10
