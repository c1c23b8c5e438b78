"""The adapter that runs RLCard's Dou Dizhu rule agent as a chupai bot
(``bench/doudizhu/rlcard_rule.py``; RLCard from the ``parity`` extra): every action the
agent returns is one of the deal's legal actions, and a run is reproducible."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from chupai import arena
from chupai.doudizhu import Rules
from chupai.players.bots import GreedyBot

ADAPTER = Path(__file__).resolve().parents[1] / "bench" / "doudizhu" / "rlcard_rule.py"


def adapter() -> ModuleType:
    pytest.importorskip("rlcard")
    spec = importlib.util.spec_from_file_location("rlcard_rule", ADAPTER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cards_in_rlcards_notation() -> None:
    from chupai.cards import Cards

    rr = adapter()
    assert rr.rlcard_cards(Cards("RJ 2S TH 3D BJ 3C")) == "33T2BR"


def test_the_agent_plays_legal_actions_reproducibly() -> None:
    rr = adapter()
    results = []
    for _ in range(2):
        agent = rr.RLCardRuleBot()
        result = arena("doudizhu", (GreedyBot(), agent), 12, 5, 1, rules=Rules.rlcard())
        assert agent.decisions > 100 and agent.unmatched == 0
        results.append((result.wins, result.games, agent.decisions))
    assert results[0] == results[1]
