"""Gan Deng Yan's compiled VectorEnv tables against the Python path under rules that
exercise its own observation fields."""
from __future__ import annotations

import numpy as np

from chupai.rl import VectorEnv
from vector_lockstep import lockstep


def test_gandengyan_compiled_equals_python_with_multipliers_and_shown_hands():
    """Gan Deng Yan's own fields under rules that exercise them: the general multiplier
    of the bombs played, and the cards a pass on lead shows (the known cards)."""
    from chupai.encoding.tensors import observation_layout
    from chupai.gandengyan import Rules as GanDengYanRules

    rules = GanDengYanRules(multipliers=True, joker_lead_out=False, triples_are_bombs=False, min_talon_to_win=3)
    kw = dict(num_envs=16, seed=31, players=4, rules=rules, features="ids")
    py, cc = VectorEnv("gandengyan", backend="python", **kw), VectorEnv("gandengyan", backend="compiled", **kw)
    layout = observation_layout("gandengyan", 4)
    seen = {"known": 0, "multiplied": 0}

    def count(step: int, obs: dict) -> None:
        o = obs["observation"]
        seen["known"] += int(o[:, layout.slice("known")].any(axis=1).sum())
        seen["multiplied"] += int((o[:, layout.offset("multiplier")] > 1).sum())

    lockstep(py, cc, 1500, np.random.default_rng(4), False, count)
    assert seen["known"] > 0 and seen["multiplied"] > 0
