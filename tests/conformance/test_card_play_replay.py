"""Every game's card play replayed on other hands (``card_play_replay``,
``CardPlayReplay.misses``, ``Engine.policy_misses``): the true hands of a deal the
heuristic plays replay every heuristic decision; other worlds miss some; a game whose card
play cannot be replayed says so (``None``), and ``best`` with a belief refuses it."""
from __future__ import annotations

import numpy as np
import pytest

from chupai.errors import IllegalActionError
from chupai.players.bots import HeuristicBot
from chupai.players.search.best import BestBot


def heuristic_positions(entry, seed, every=4):
    """Copies of the card-play positions of a deal the heuristic plays at every seat
    (every ``every``-th decision), with the deal's true engine at each."""
    state, bot, rng = entry.new(seed), HeuristicBot(), np.random.default_rng(seed)
    out = []
    k = 0
    while not state.is_terminal():
        if state.card_play() is not None:
            if k % every == 0:
                out.append(state.clone())
            k += 1
        state.apply(bot.choose(state, rng))
    return out


@pytest.mark.parametrize("seed", range(2))
def test_true_hands_replay_the_heuristics_decisions_and_worlds_miss_some(entry, seed):
    positions = heuristic_positions(entry, 40 + seed)
    assert positions
    replays = [(s, s.card_play_replay([p for p in range(s.players) if p != s.current_player])) for s in positions]
    if all(r is None for _, r in replays):  # a game whose card play is not replayable
        choice = next(s for s in positions if len(s.legal_actions()) > 1)
        with pytest.raises(ValueError, match="belief"):
            BestBot(worlds=4, belief=0.5).choose(choice, np.random.default_rng(0))
        return
    assert all(r is not None for _, r in replays)
    rng = np.random.default_rng(seed)
    worlds_missed = 0
    for state, replay in replays:
        before = state.history
        assert replay.misses(state.card_play()) == 0
        worlds_missed += sum(replay.misses(state.determinize_card_play(state.current_player, rng)) for _ in range(4))
        assert state.history == before
    assert worlds_missed > 0
    assert sum(r.checked for _, r in replays) > 0


def test_policy_misses_checks_its_arguments_and_leaves_the_engine_unchanged(entry):
    positions = [s for s in heuristic_positions(entry, 50, every=1) if s.card_play_replay([0]) is not None]
    if not positions:
        assert all(s.card_play_replay([0]) is None for s in heuristic_positions(entry, 50))
        return
    state = positions[-1]
    engine = state.card_play()
    plays = engine.legal_plays()
    before = (engine.current, [engine.hand(s) for s in range(engine.players)])
    with pytest.raises(ValueError, match="checked"):
        engine.policy_misses([], [True])
    with pytest.raises(TypeError):
        engine.policy_misses(["not a play"], [False])
    with pytest.raises(ValueError):
        engine.policy_misses([plays[0]], [True], "no such policy")
    if engine.can_pass():
        # after a pass the same player cannot play again: the second action is illegal
        with pytest.raises(IllegalActionError):
            engine.policy_misses([None, plays[0], plays[0], plays[0], plays[0], plays[0], plays[0], plays[0],
                                  plays[0]], [False] * 9)
    assert (engine.current, [engine.hand(s) for s in range(engine.players)]) == before
    # one decision checked: the policy's own choice is no miss, another play of another kind is
    choice = engine.policy_choice("heuristic")
    assert engine.policy_misses([choice], [True]) == 0
    other = [p for p in plays if choice is None or (p.type, p.key, p.length) != (choice.type, choice.key, choice.length)]
    if other:
        assert engine.policy_misses([other[0]], [True]) == 1
        assert engine.policy_misses([other[0]], [False]) == 0


def test_card_play_replay_refuses_bad_seats(entry):
    state = entry.new(3)
    with pytest.raises(TypeError, match="seats"):
        state.card_play_replay(1)
    with pytest.raises(ValueError, match="seats"):
        state.card_play_replay([state.players])
