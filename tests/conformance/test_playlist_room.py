"""Every game's ``legal_plays`` starts its list in a roomy buffer
(``chupai.core.records.roomy_playlist``): the next list gives the spare room of the one
before back if that list still lives, and a dropped list leaves its buffer to the next.
Lists kept across later calls keep their plays; a list made in a dropped one's buffer
holds its own plays alone."""
from __future__ import annotations

import numpy as np


def test_lists_kept_or_dropped_hold_their_own_plays(entry):
    calls = entry.bench_module().lead_calls(150, 7)  # seeded lead calls of legal_plays
    every = [call() for call in calls]  # none dropped: no buffer handed on
    expected = [plays.to_numpy() for plays in every]
    assert sum(map(len, expected)) > 0
    del every
    kept = {}
    for i, call in enumerate(calls):
        plays = call()
        assert np.array_equal(plays.to_numpy(), expected[i])
        if i % 5 == 0:
            kept[i] = plays  # alive at the next calls: its spare room is given back
    for i, plays in kept.items():
        assert np.array_equal(plays.to_numpy(), expected[i])
        assert list(plays) == list(calls[i]())
