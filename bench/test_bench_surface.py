"""pytest-benchmark suite for the Python surface of every game:
``pytest bench/test_bench_surface.py --benchmark-only``.

The same paths as the surface section of ``chupai bench GAME``
(``chupai.evaluation.speed``): a random deal through ``legal_actions()`` + ``apply()``,
``determinize``, ``observation``, a MonteCarloBot(200) decision, ``Cards`` parsing,
``list(legal_plays())`` and the first reads of fresh Plays; and OpenSpiel's Dou Dizhu
through the same loop where ``open_spiel`` is installed (``pip install ".[bench]"``).
pytest-benchmark reports wall-clock rounds; ``chupai bench`` gives CPU time.
"""

import numpy as np
import pytest

from chupai import Cards
from chupai.evaluation.speed import Surface, openspiel_loop
from chupai.registry import GAMES
from chupai.players.bots import MonteCarloBot

DEALS = 10
GAME_NAMES = list(GAMES)


@pytest.fixture(scope="module", params=GAME_NAMES)
def surface(request):
    return Surface(request.param, DEALS)


@pytest.mark.benchmark(group="surface-random-deal")
def test_random_deal(benchmark, surface):
    """One seeded deal played at random through legal_actions() + apply()."""
    actions, _ = zip(*[surface.random_deal(s)[1:] for s in range(DEALS)])
    benchmark.extra_info["actions_per_round"] = sum(actions)
    benchmark(lambda: [surface.random_deal(s) for s in range(DEALS)])


@pytest.mark.benchmark(group="surface-random-deal")
def test_random_deal_by_index(benchmark, surface):
    """The same deals through apply_index() (the search code's path)."""
    benchmark(lambda: [surface.random_deal(s, by_index=True) for s in range(DEALS)])


@pytest.mark.benchmark(group="surface-determinize")
def test_determinize(benchmark, surface):
    states = surface.decision_states(2)
    rng = np.random.default_rng(1)
    benchmark.extra_info["calls_per_round"] = len(states)
    benchmark(lambda: [s.determinize(s.current_player, rng) for s in states])


@pytest.mark.benchmark(group="surface-observation")
def test_observation(benchmark, surface):
    states = surface.decision_states(2)
    benchmark.extra_info["calls_per_round"] = len(states)
    benchmark(lambda: [s.observation(s.current_player) for s in states])


@pytest.mark.benchmark(group="surface-mc")
def test_monte_carlo_decision(benchmark, surface):
    bot, state, rng = MonteCarloBot(200), surface.deal(seed=3), np.random.default_rng(0)
    benchmark.pedantic(bot.choose, args=(state, rng), rounds=5)


@pytest.mark.benchmark(group="surface-cards")
def test_cards_parsing(benchmark, surface):
    texts = surface.hand_texts()
    benchmark.extra_info["hands_per_round"] = len(texts)
    benchmark(lambda: [Cards(t) for t in texts])


@pytest.mark.benchmark(group="surface-plays")
def test_materialise_plays(benchmark, surface):
    lists = list(surface.play_lists())
    benchmark.extra_info["plays_per_round"] = sum(len(make()) for make in lists)
    benchmark(lambda: [list(make()) for make in lists])


@pytest.mark.benchmark(group="surface-play-reads")
@pytest.mark.parametrize("read", ["type", "cards", "str", "to_protocol"])
def test_first_reads(benchmark, surface, read):
    """``read`` on every Play of fresh lists (setup makes new Plays each round)."""
    lists = list(surface.play_lists())
    probe = lists[0]()[0]
    if read == "to_protocol" and not hasattr(probe, "to_protocol"):
        pytest.skip(f"{surface.name}'s Play has no to_protocol()")
    fn = {"type": lambda p: p.type, "cards": lambda p: p.cards, "str": str, "to_protocol": lambda p: p.to_protocol()}[read]

    def setup():
        return ([p for make in lists for p in make()],), {}

    benchmark.pedantic(lambda plays: [fn(p) for p in plays], setup=setup, rounds=20)


@pytest.mark.benchmark(group="surface-random-deal")
def test_openspiel_dou_dizhu_random_deal(benchmark):
    """The reference: OpenSpiel's Dou Dizhu through the same loop."""
    pytest.importorskip("pyspiel")
    benchmark.extra_info["actions_per_round"] = openspiel_loop(DEALS)[1]
    benchmark(openspiel_loop, DEALS)
