"""The fuzz targets (``fuzz/targets.py``) replay their seed corpus and random inputs
cleanly, and each one reports what it must: the contract checks can fail."""
from __future__ import annotations

import os
import random
import sys

import pytest

FUZZ = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fuzz")
sys.path.insert(0, FUZZ)
import targets  # noqa: E402
from chupai.contract import Event  # noqa: E402

NAMES = sorted(targets.TARGETS)
def seeds(name: str) -> list[bytes]:
    folder = os.path.join(FUZZ, "corpus", name)
    out = []
    for entry in sorted(os.listdir(folder)):
        with open(os.path.join(folder, entry), "rb") as f:
            out.append(f.read())
    return out


def test_every_registered_game_is_fuzzed() -> None:
    """A game's plays and rules need a target of their own: a registered game without
    one would be left out of the plays target silently."""
    from chupai.registry import GAMES

    for name in GAMES:
        assert name in targets.PLAY_TARGETS and name in targets.RULE_OPTIONS, name
        assert name in targets.ACTION_TARGETS and name in targets.MODULES, name


def test_every_target_has_a_seed_corpus() -> None:
    assert NAMES and all(seeds(name) for name in NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_target_replays_its_corpus_and_random_inputs(name: str) -> None:
    rng = random.Random(name)
    inputs = seeds(name) + [rng.randbytes(rng.randrange(1, 400)) for _ in range(60)]
    for data in inputs:
        targets.TARGETS[name](data)


def test_documented_swallows_only_the_documented_exceptions() -> None:
    with targets.documented():
        raise ValueError("bad value")
    with targets.documented():
        raise TypeError("bad type")
    with targets.documented(memory=True):
        raise MemoryError
    with pytest.raises(MemoryError), targets.documented():
        raise MemoryError
    with pytest.raises(IndexError), targets.documented(memory=True):
        raise IndexError


def test_action_target_catches_a_refusal_that_changes_the_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Deal whose apply() refuses an action after changing the state is reported."""
    from chupai.gandengyan import Deal

    real = Deal.apply

    def leaky(self, action):  # type: ignore[no-untyped-def]
        if action not in self.legal_actions():
            self._record_event(Event(self.current_player, "leak", self.phase, False))
        return real(self, action)

    monkeypatch.setattr(Deal, "apply", leaky)
    target = targets.ACTION_TARGETS["gandengyan"]
    rng = random.Random(3)
    with pytest.raises(AssertionError, match="changed the state"):
        for _ in range(200):
            target(rng.randbytes(300))
