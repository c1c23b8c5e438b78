"""The lazy legal actions (``chupai.state.compiled.ActionList``), the checked-once ``apply()`` of
their items, ``apply_index()`` and the compact history, on every registered game."""
from __future__ import annotations

import pickle
from collections.abc import Sequence

import numpy as np
import pytest
from conftest import play_random, samples, snapshot

from chupai.registry import GAMES
from chupai.state.compiled import ActionList
from chupai.players.bots import GreedyBot, HeuristicBot, ISMCTSBot, MonteCarloBot, RandomBot
from chupai.actions import PASS
from chupai.errors import IllegalActionError


def _deal(state):
    """The deal of a state (a match's current deal)."""
    return getattr(state, "deal", state)


def _expected_actions(state):
    """The legal actions by an independent path: the engine's own list and ``can_pass``
    in the card play, the phase's options (a list) otherwise."""
    deal = _deal(state)
    if state.is_terminal():
        return []
    engine = deal._engine
    if engine is None:  # a decision phase before the card play
        return list(deal._options())
    plays = list(engine.clone().legal_plays())
    return plays + ([PASS] if engine.can_pass() else [])


def _untagged(action):
    """An equal action that did not come from any list (a pickled copy of a Play)."""
    return pickle.loads(pickle.dumps(action))


# --- the sequence ---------------------------------------------------------------------------
def test_legal_actions_is_a_lazy_sequence(sample):
    _entry, state = sample
    actions = state.legal_actions()
    assert isinstance(actions, ActionList) and isinstance(actions, Sequence)
    expected = _expected_actions(state)
    assert len(actions) == len(expected) and bool(actions) == bool(expected)
    assert list(actions) == expected and actions == expected and actions == tuple(expected)
    assert [actions[i] for i in range(len(actions))] == expected
    if expected:
        assert actions[-1] == expected[-1] and actions[0] is actions[0]
        assert actions[1:3] == expected[1:3] and list(reversed(actions)) == expected[::-1]
        assert expected[-1] in actions and actions.index(expected[-1]) == expected.index(expected[-1])
        assert actions.count(expected[0]) == expected.count(expected[0])
        assert actions[np.int64(0)] is actions[0]
        assert list(actions) == [a for a in actions]  # the same objects on every read
        assert all(a is b for a, b in zip(actions, actions))
    with pytest.raises(IndexError):
        actions[len(expected)]
    with pytest.raises(IndexError):
        actions[-len(expected) - 1]
    with pytest.raises(TypeError):
        actions["0"]
    with pytest.raises(TypeError):
        actions[True]
    assert state.legal_actions() is actions  # cached until the state changes
    assert actions == state.clone().legal_actions()
    assert actions != expected + [object()]


def _other_games_plays(entry):
    """A play of every other registered game (an action of none of this game's lists)."""
    out = []
    for name, other in GAMES.items():
        if name != entry.name:
            out += [a for a in other.new(5).legal_actions() if a is not PASS][:1]
    return out


def test_membership_and_index_find_equal_actions_by_record(sample):
    """``in``, ``index`` and ``count`` (a search over the generator's records) agree with
    equality: an equal action that came from no list is found at its place, an action
    of another deal is found exactly when an item equals it, anything else is absent."""
    entry, state = sample
    actions = state.legal_actions()
    expected = _expected_actions(state)
    for i, action in enumerate(expected):
        copy = _untagged(action)
        assert copy in actions and actions.index(copy) == i and actions.count(copy) == 1
    assert all(actions.index(actions[i]) == i for i in range(len(actions)))
    stranger = play_random(entry.new(77), np.random.default_rng(1), 3)
    for action in list(stranger.legal_actions()) + _other_games_plays(entry) + ["PASS", ("x",), None, 3]:
        equal = [i for i, a in enumerate(expected) if a == action]
        assert (action in actions) == bool(equal) and actions.count(action) == len(equal)
        if equal:
            assert actions.index(action) == equal[0]
        else:
            with pytest.raises(ValueError):
                actions.index(action)
    if len(expected) > 1:
        last = _untagged(expected[-1])
        with pytest.raises(ValueError):
            actions.index(last, 0, len(expected) - 1)
        assert actions.index(last, len(expected) - 1) == len(expected) - 1


def test_policy_action_is_the_engines_choice_as_an_item(sample):
    """``policy_action`` returns the list's own item of the engine's ``policy_choice``
    (the same draw for the same seed); ``None`` in a decision phase and once over."""
    _entry, state = sample
    actions = state.legal_actions()
    engine = state.card_play()
    if engine is None:
        assert state.policy_action("greedy") is None
        return
    for policy in ("random", "greedy", "heuristic"):
        for seed in (0, 1, 2**62):
            action = state.policy_action(policy, seed)
            choice = engine.policy_choice(policy, seed)
            assert any(action is a for a in actions)
            assert action == (PASS if choice is None else choice)
    with pytest.raises(ValueError):
        state.policy_action("best-guess")


def test_every_bot_returns_an_item_of_the_list(entry):
    """The bot contract (chupai.players.bots.Bot): the very object of ``legal_actions()``."""
    rng = np.random.default_rng(9)
    makers = [RandomBot, GreedyBot, HeuristicBot, lambda: MonteCarloBot(playouts=8),
              lambda: ISMCTSBot(iterations=8), lambda: ISMCTSBot(iterations=8, decisions="greedy")]
    for state in samples(entry.name)[:6]:
        if state.is_terminal():
            continue
        for make in makers:
            copy = state.clone()
            action = make().choose(copy, rng)
            assert any(action is a for a in copy.legal_actions()), (make, action)


def test_action_lists_are_made_by_states_only():
    with pytest.raises(TypeError):
        ActionList()


def test_plays_and_can_pass_views(sample):
    _entry, state = sample
    actions = state.legal_actions()
    engine = _deal(state)._engine
    if engine is None or state.is_terminal():
        assert actions.plays is None or len(actions.plays) == 0
        return
    assert list(actions.plays) == list(engine.legal_plays())
    assert actions.can_pass == engine.can_pass() == (PASS in actions)


# --- apply of an item, apply_index, and the validated path ---------------------------------
def test_an_item_an_index_and_an_equal_action_do_the_same(sample):
    """``apply(item)`` (no search), ``apply_index(i)`` and ``apply`` of an equal action that
    came from no list (validated in full) leave equal states."""
    _entry, state = sample
    n = len(state.legal_actions())
    for i in sorted({0, n // 2, n - 1}) if n else []:
        by_item, by_index, by_value = state.clone(), state.clone(), state.clone()
        by_item.apply(by_item.legal_actions()[i])
        by_index.apply_index(i)
        by_value.apply(_untagged(state.legal_actions()[i]))
        assert snapshot(by_item) == snapshot(by_index) == snapshot(by_value)
        assert by_index.history == by_value.history


def test_apply_index_refuses_bad_input_state_unchanged(sample):
    _entry, state = sample
    before = snapshot(state)
    n = len(state.legal_actions())
    for bad in ("0", 1.0, None, True):
        with pytest.raises(TypeError, match="index"):
            state.apply_index(bad)
        assert snapshot(state) == before
    # no index from the end: -1 pads action ids, and must not play the last action
    for bad in (n, -1, np.int64(-1), -n, -n - 1, 10**30):
        with pytest.raises(IllegalActionError, match="out of range"):
            state.apply_index(bad)
        assert snapshot(state) == before
    if n:
        other = state.clone()
        other.apply_index(np.int64(n - 1))
        last = state.clone()
        last.apply(last.legal_actions()[n - 1])
        assert snapshot(other) == snapshot(last)


def test_a_stale_or_foreign_item_is_validated(entry):
    """An item of an earlier list, or of another deal's list, goes through the full
    check: refused (state unchanged) when it is not legal now, accepted when it is."""
    rng = np.random.default_rng(5)
    state = entry.new(31)
    stranger = entry.new(32)
    refused = accepted = 0
    old: list = []
    for _ in range(400):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        for item in old + list(stranger.legal_actions()):
            legal_now = any(type(item) is type(a) and item == a for a in actions)
            trial = state.clone()
            before = snapshot(trial)
            if legal_now:
                trial.apply(item)
                expected = state.clone()
                expected.apply(_untagged(item))
                assert snapshot(trial) == snapshot(expected)
                accepted += 1
            else:
                with pytest.raises(IllegalActionError):
                    trial.apply(item)
                assert snapshot(trial) == before
                refused += 1
        old = list(actions)[:6]
        state.apply_index(int(rng.integers(len(actions))))
    assert refused > 0 and accepted > 0


def test_a_clone_shares_the_list_and_stays_independent(sample):
    _entry, state = sample
    actions = state.legal_actions()
    if not actions:
        return
    copy = state.clone()
    before = snapshot(state)
    copy.apply(actions[-1])  # the clone is at the same position: the item is legal there
    assert snapshot(state) == before and state.legal_actions() is actions
    state.apply(actions[0])
    assert len(state.history) == len(copy.history)


def test_a_terminal_state_has_no_actions(entry):
    state = play_random(entry.new(41), np.random.default_rng(0), 10**6)
    assert state.is_terminal() and len(state.legal_actions()) == 0 and state.legal_actions() == []
    with pytest.raises(IllegalActionError):
        state.apply_index(0)
    with pytest.raises(IllegalActionError):
        state.apply(PASS)


def test_a_determinized_world_lists_its_own_actions(sample):
    """A world of determinize() lists the legal actions of its own hands (never its
    parent's cached list)."""
    _entry, state = sample
    state.legal_actions()
    if state.is_terminal():
        return
    world = state.determinize(state.current_player, 7)
    assert list(world.legal_actions()) == _expected_actions(world)
    # and an item of the parent's list is validated there, not trusted
    for item in list(state.legal_actions())[:10]:
        trial = world.clone()
        if item in world.legal_actions():
            trial.apply(item)
        else:
            with pytest.raises(IllegalActionError):
                trial.apply(item)


# --- the compact history --------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(3))
def test_history_by_index_by_item_and_read_midway_agree(entry, seed):
    """Deals played by ``apply_index`` (no Play objects), by ``apply`` of items, and one
    whose history is read after every action, have equal histories, observations and
    pickles."""
    choose = np.random.default_rng(seed)
    states = [entry.new(50 + seed) for _ in range(3)]
    while not states[0].is_terminal():
        i = int(choose.integers(len(states[0].legal_actions())))
        states[0].apply_index(i)
        states[1].apply(states[1].legal_actions()[i])
        states[2].apply(states[2].legal_actions()[i])
        assert states[2].history == states[1].history
    assert all(s.is_terminal() for s in states)
    assert states[0].history == states[1].history == states[2].history
    assert snapshot(states[0]) == snapshot(states[1]) == snapshot(states[2])
    assert snapshot(pickle.loads(pickle.dumps(states[0]))) == snapshot(states[0])


def test_history_of_a_clone_made_midway(sample):
    _entry, state = sample
    copy = state.clone()
    assert copy.history == state.history
    if not state.is_terminal():
        copy.apply_index(0)
        assert copy.history[:-1] == state.history or copy.history[: len(state.history)] == state.history
        assert len(copy.history) > len(state.history)


def test_match_surface_delegates(entry):
    match = entry.new(61, match=True)
    actions = match.legal_actions()
    assert actions is match.deal.legal_actions()
    match.apply_index(len(actions) - 1)
    assert len(match.history) >= 1
    over = play_random(entry.new(62, match=True), np.random.default_rng(1), 10**6)
    assert over.is_terminal() and over.legal_actions() == []
    with pytest.raises(IllegalActionError):
        over.apply_index(0)


def test_samples_cover_decision_phases():
    """The samples reach a phase with options (tribute, exchange) in the games that have one."""
    assert any(_deal(s)._engine is None for s in samples("guandan"))
    assert any(_deal(s)._engine is None for s in samples("zhengshangyou"))
