"""pytest-benchmark cases for ``determinize`` (``bench/determinize.py`` is the plain
runner with CPU time): ``pytest bench/test_bench_determinize.py --benchmark-only``.

One round determinizes every position (every 7th decision of two seeded random
matches) once for its current player: the compiled path, and where a game's deal keeps
one (Guan Dan, Zheng Shangyou) the reference that replays the public history.
"""
import numpy as np
import pytest

from chupai.evaluation.speed import Surface
from chupai.registry import GAMES as REGISTRY

GAMES = list(REGISTRY)
#: the games with a decision before the card play (a tribute, an exchange)
DECISION_GAMES = [name for name, entry in REGISTRY.items() if entry.decision_policy is not None]
#: the games whose deal keeps the slow reference that replays the public history
REFERENCE_GAMES = [name for name, entry in REGISTRY.items() if hasattr(entry.module().Deal, "_determinize_replay")]


@pytest.fixture(scope="module", params=GAMES)
def states(request):
    return request.param, Surface(request.param, 1).decision_states(2)


@pytest.mark.benchmark(group="determinize")
def test_determinize_compiled(benchmark, states):
    name, group = states
    rng = np.random.default_rng(1)
    benchmark.extra_info["positions"] = len(group)
    benchmark(lambda: [s.determinize(s.current_player, rng) for s in group])


@pytest.mark.benchmark(group="determinize-reference")
@pytest.mark.parametrize("name", REFERENCE_GAMES)
def test_determinize_reference(benchmark, name):
    group = Surface(name, 1).decision_states(1)[::4]
    rng = np.random.default_rng(1)
    benchmark.extra_info["positions"] = len(group)
    benchmark.pedantic(lambda: [s.deal._determinize_replay(s.current_player, rng) for s in group], rounds=3)


@pytest.mark.benchmark(group="determinize-decision-phases")
@pytest.mark.parametrize("name", DECISION_GAMES)
def test_determinize_decision_phases(benchmark, name):
    """Every decision of the tribute / exchange phases of two seeded random matches,
    determinized for every seat (the decider hidden from the others)."""
    from determinize import phase_positions

    items = [it for phase, group in phase_positions(name, 2, []).items() if phase != "card play" for it in group]
    rng = np.random.default_rng(1)
    benchmark.extra_info["positions"] = len(items)
    benchmark(lambda: [s.determinize(p, rng) for s, p in items])
