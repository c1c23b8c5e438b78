"""The compiled heuristic policy of every game (``policy="heuristic"``) and HeuristicBot.

The hook must return a legal play (or pass only where passing is allowed) in every
position, checked against the generator on random positions of every game and table
size; it must be deterministic and leave the state alone; and the name must work
everywhere a policy or a bot is named.  Its strength is measured by the ladder (see
``docs/search.md``), not asserted here.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from chupai.bots import HeuristicBot
from chupai.chinese_ten import _engine as ct_engine
from chupai.gandengyan import _engine as gdy_engine
from chupai.gandengyan.rules import Rules as GdyRules
from chupai.guandan import _engine as gd_engine
from chupai.search.registry import BOT_NAMES, make_bot
from chupai.zhengshangyou import _engine as zs_engine

#: fresh deals of every game, over table sizes and options
DEALS: dict[str, Callable[[int], Any]] = {
    "guandan": lambda seed: gd_engine.DealCore.random(seed, level="23456789TJQKA"[seed % 13]),
    "zhengshangyou": lambda seed: zs_engine.DealCore.random(seed, players=2 + seed % 7),
    "gandengyan": lambda seed: gdy_engine.DealCore.random(
        seed, players=2 + seed % 5, rules=GdyRules(decks=1 + seed % 2)
    ),
    "chinese_ten": lambda seed: ct_engine.DealCore.random(seed, players=2 + seed % 3),
}


def _step(core: Any, play: Any) -> None:
    if play is None:
        core.pass_turn()
    else:
        core.play(play)


def _positions(game: str, deals: int) -> Any:
    """Every position of `deals` deals, each played out by a mix of the random and the
    heuristic policies (so the heuristic meets both ordinary and odd positions)."""
    rng = np.random.default_rng(sum(map(ord, game)))
    for k in range(deals):
        core = DEALS[game](k)
        while not core.over:
            yield core
            policy = "random" if rng.random() < 0.5 else "heuristic"
            _step(core, core.policy_choice(policy, int(rng.integers(2**31))))


@pytest.mark.parametrize("game", list(DEALS))
def test_heuristic_choice_is_legal_and_deterministic(game: str) -> None:
    positions = 0
    for core in _positions(game, 12):
        before = (core.current, core.hand_sizes(), [core.hand(s) for s in range(core.players)], core.last_play)
        choice = core.policy_choice("heuristic", 1)
        assert core.policy_choice("heuristic", 2) == choice  # no randomness
        assert core.clone().policy_choice("heuristic") == choice
        assert (core.current, core.hand_sizes(), [core.hand(s) for s in range(core.players)], core.last_play) == before
        if choice is None:
            assert core.can_pass(), f"{game}: the heuristic passes where passing is not allowed"
        else:
            assert core.is_legal(choice)
            assert choice in list(core.legal_plays(collapse_suits=True))
        positions += 1
    assert positions > 100


@pytest.mark.parametrize("game", list(DEALS))
def test_heuristic_playouts_finish(game: str) -> None:
    """Whole deals under the heuristic: every one ends; the same seed, the same deal."""
    for k in range(6):
        core = DEALS[game](100 + k)
        out = core.playout(k, policy="heuristic")
        assert out == core.playout(k, policy="heuristic")
        assert not core.over  # playout plays a copy


@pytest.mark.parametrize("game", list(DEALS))
def test_heuristic_batch_and_evaluate(game: str) -> None:
    core = DEALS[game](3)
    cands = core.legal_plays(collapse_suits=True)
    sums = core.evaluate(cands, core.can_pass(), 3, 5, policy="heuristic")
    assert sums.shape == (len(cands) + core.can_pass(),)
    assert np.array_equal(sums, core.evaluate(cands, core.can_pass(), 3, 5, policy="heuristic"))
    out = np.zeros((4, core.batch_width))
    core._run_chunk(9, 0, 4, "heuristic", out)
    again = np.zeros_like(out)
    core._run_chunk(9, 0, 4, "heuristic", again)
    assert np.array_equal(out, again)


def test_heuristic_is_not_greedy() -> None:
    """A different policy from greedy: the choices differ in some positions of each game."""
    for game in ["guandan"]:
        differ = sum(core.policy_choice("heuristic") != core.policy_choice("greedy") for core in _positions(game, 4))
        assert differ > 0, game


def test_bot_names() -> None:
    assert "heuristic" in BOT_NAMES
    bot = make_bot("heuristic")
    assert isinstance(bot, HeuristicBot) and repr(bot) == "HeuristicBot()"
    with pytest.raises(ValueError, match="no budget"):
        make_bot("heuristic:5")
    assert make_bot("mc:20:policy=heuristic").policy == "heuristic"
    with pytest.raises(ValueError, match="policy"):
        make_bot("mc:20:policy=clever")


@pytest.mark.parametrize("game", ["guandan", "zhengshangyou", "gandengyan", "chinese_ten"])
def test_heuristic_bot_plays_whole_deals(game: str) -> None:
    """HeuristicBot through the state machines: legal actions to the end, decisions too."""
    from chupai._games import GAMES

    state = GAMES[game].new(4, match=False, rules=None, players=None)
    bot = HeuristicBot()
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        action = bot.choose(state, rng)
        assert action in state.legal_actions()
        state.apply(action)
