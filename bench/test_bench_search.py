"""pytest-benchmark suite for information-set MCTS: ``pytest bench/ --benchmark-only``.

One round is one 500-iteration search from the first decision of a seeded 4-player
deal (a round's time / 500 is the time per iteration).
"""
import pytest

from chupai.registry import GAMES
from chupai.players.search import ISMCTS

ITERATIONS = 500


@pytest.mark.benchmark(group="search")
@pytest.mark.parametrize("game", list(GAMES))
def test_ismcts_iterations(benchmark, game):
    entry = GAMES[game]
    cls = entry.module().Deal
    state = cls(1) if entry.fixed_players else cls(1, players=4)
    search = ISMCTS()
    benchmark.extra_info["iterations_per_round"] = ITERATIONS
    benchmark.pedantic(search.search, args=(state,), kwargs={"iterations": ITERATIONS, "seed": 1}, rounds=3)
