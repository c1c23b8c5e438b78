"""``clone()`` stays independent whichever copy a class made first (found by the
surface bench: a ``determinize`` before the first ``clone`` of a class made every later
clone share the compiled engine with its original)."""
import numpy as np
import pytest

from chupai.state import base as state_base
from chupai.registry import GAMES


@pytest.mark.parametrize("name", list(GAMES))
def test_clone_independent_after_a_first_determinize(monkeypatch, name):
    monkeypatch.setattr(state_base, "_CLONERS", {})  # as in a fresh process
    module = GAMES[name].module()
    for cls in (module.Deal, module.Match):
        state = cls(seed=3)
        state.determinize(state.current_player, np.random.default_rng(0))  # the class's first copy
        copy = state.clone()
        before = (copy.current_player, copy.hand_sizes() if hasattr(copy, "hand_sizes") else None,
                  len(copy.history))
        for _ in range(6):
            if state.is_terminal():
                break
            state.apply(state.legal_actions()[0])
        after = (copy.current_player, copy.hand_sizes() if hasattr(copy, "hand_sizes") else None,
                 len(copy.history))
        assert after == before, (cls, before, after)
