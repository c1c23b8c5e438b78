"""The state-machine contract (``chupai.contract``) checked on every registered game, in
the spirit of OpenSpiel's random-simulation and resample tests."""
from __future__ import annotations

import copy
import inspect
import pickle
from collections import Counter
from enum import Enum

import numpy as np
import pytest
from conftest import play_random, samples, snapshot

from chupai.players import bots
from chupai.registry import GAMES, game_of
from chupai.core.play import PlayRecord
from chupai.actions import PASS
from chupai.contract import OBSERVATION_KEYS, TERMINAL, Event
from chupai.errors import ActionTypeError, IllegalActionError


def players_of(state):
    return state.observation(0)["players"]


# --- random playthroughs -------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_random_playthrough_with_clone_independence(entry, seed):
    """Deals played to the end at random: at each step a clone is played one step
    further and the original must not change; the contract holds at every step."""
    rng = np.random.default_rng(seed)
    state = entry.new(seed)
    n = players_of(state)
    while not state.is_terminal():
        assert 0 <= state.current_player < n
        assert isinstance(state.phase, entry.phases) and state.phase is not entry.phases.OVER
        actions = state.legal_actions()
        assert actions
        before = snapshot(state)
        other = state.clone()
        other.apply(actions[int(rng.integers(len(actions)))])
        assert snapshot(state) == before
        state.apply(actions[int(rng.integers(len(actions)))])
    assert state.current_player == TERMINAL and state.legal_actions() == [] and state.card_play() is None
    assert state.phase is entry.phases.OVER


def test_returns_at_the_end(entry):
    """At the end: one return per seat, a zero sum (every game scores against the others),
    integer ``scores()`` per seat; before the end of a deal the returns are all zero."""
    rng = np.random.default_rng(5)
    for seed in range(4):
        state = entry.new(seed)
        n = players_of(state)
        assert state.returns() == [0.0] * n
        play_random(state, rng, 10**6)
        returns, scores = state.returns(), state.scores()
        assert len(returns) == n and sum(returns) == pytest.approx(0.0)
        assert isinstance(scores, tuple) and len(scores) == n and all(isinstance(x, int) for x in scores)
        with pytest.raises(IllegalActionError):
            state.apply(PASS)


def test_history_is_events_of_the_games_phases(sample):
    entry, state = sample
    for event in state.history:
        assert isinstance(event, Event) and isinstance(event.phase, entry.phases)
        assert isinstance(event.seat, int) and isinstance(event.automatic, bool)


def test_played_cards_are_the_cards_of_the_plays_in_the_history(sample):
    """What the compact history says each seat played (read in C) is the sum of the
    cards of that seat's ``Play`` events, whichever way the events were recorded (by
    index, as objects, or as whole events of a replayed history)."""
    entry, state = sample
    deal = state.deal if hasattr(state, "deal") else state
    n = len(deal.hand_sizes())
    expected = [Counter() for _ in range(n)]
    for event in deal.history:
        if isinstance(event.action, PlayRecord):
            expected[event.seat].update(event.action.cards.faces())
    played = deal._played_cards(n)
    assert [Counter(c.faces()) for c in played] == expected
    if hasattr(deal, "played_cards"):
        assert deal.played_cards() == played
    rebuilt = deal.clone()
    rebuilt._history = deal.history  # every entry a whole event
    assert rebuilt._played_cards(n) == played


def test_observation_has_the_common_keys(sample):
    entry, state = sample
    for p in range(players_of(state)):
        obs = state.observation(p)
        assert OBSERVATION_KEYS <= obs.keys()
        assert obs["player"] == p and obs["phase"] == state.phase and isinstance(obs["phase"], Enum)
        assert obs["current_player"] == state.current_player and obs["over"] == state.is_terminal()
        assert obs["hand_sizes"] == state.hand_sizes() and len(obs["hand"]) == obs["hand_sizes"][p]
        assert list(obs["history"]) == state.history


# --- illegal actions ------------------------------------------------------------------------
def test_illegal_actions_leave_the_state_unchanged(sample):
    entry, state = sample
    before = snapshot(state)
    legal = state.legal_actions()
    strangers = [a for s in samples(entry.name) for a in s.legal_actions() if a not in legal]
    tried = 0
    for action in strangers[:25] + ([PASS] if PASS not in legal else []) + ["7S", None, 3]:
        with pytest.raises(IllegalActionError):
            state.apply(action)
        assert snapshot(state) == before
        tried += 1
    assert tried >= 4


# --- card_play() ---------------------------------------------------------------------------
def test_card_play_is_isolated(sample):
    """``card_play()`` is a copy: playing on it leaves the state as it was."""
    _entry, state = sample
    engine = state.card_play()
    if engine is None:
        assert state.is_terminal() or state.phase.name != "PLAY"
        return
    before = snapshot(state)
    for _ in range(3):
        if engine.current < 0:
            break
        play = engine.policy_choice("random", 1)
        engine.pass_turn() if play is None else engine.play(play)
    assert snapshot(state) == before
    assert state.card_play() is not state.card_play()


# --- determinize ------------------------------------------------------------------------------
def test_determinize_keeps_what_the_player_knows(sample):
    """The player's observation (their hand, the public history) is the same in the
    determinized state, which is a working state of its own."""
    _entry, state = sample
    before = snapshot(state)
    rng = np.random.default_rng(3)
    for p in range(players_of(state)):
        world = state.determinize(p, rng)
        assert world.observation(p) == state.observation(p)
        assert world.history == state.history and world.hand_sizes() == state.hand_sizes()
        play_random(world, rng, 30)
    assert snapshot(state) == before


def test_determinize_is_reproducible(sample):
    _entry, state = sample
    a, b = state.determinize(1, 99), state.determinize(1, np.random.default_rng(99))
    assert snapshot(a) == snapshot(b)


# --- seeds ------------------------------------------------------------------------------------
def test_seed_reproducibility(entry):
    for match in (False, True):
        a, b = entry.new(7, match=match), entry.new(7, match=match)
        assert snapshot(a) == snapshot(b)
        play_random(a, np.random.default_rng(1), 40)
        play_random(b, np.random.default_rng(1), 40)
        assert snapshot(a) == snapshot(b)
    hands = {str(entry.new(seed).observation(0)["hand"]) for seed in range(5)}
    assert len(hands) == 5


def test_numpy_int_seeds_are_ints(entry):
    assert snapshot(entry.new(np.uint64(5))) == snapshot(entry.new(5)) == snapshot(entry.new(np.int32(5)))


# --- copies ------------------------------------------------------------------------------------
@pytest.mark.parametrize("how", ["pickle", "deepcopy", "copy"])
def test_copy_round_trip_same_observation_actions_and_future(sample, how):
    entry, state = sample
    if how == "pickle":
        other = pickle.loads(pickle.dumps(state))
    else:
        other = copy.deepcopy(state) if how == "deepcopy" else copy.copy(state)
    assert type(other) is type(state) and snapshot(other) == snapshot(state) and other.seed == state.seed
    if isinstance(state, entry.match_class):
        assert other.deal.seed == state.deal.seed
    play_random(state, np.random.default_rng(8), 25)
    play_random(other, np.random.default_rng(8), 25)
    assert snapshot(other) == snapshot(state)


def test_pickle_of_a_determinized_state(sample):
    _entry, state = sample
    world = state.determinize(0, 4)
    again = pickle.loads(pickle.dumps(world))
    assert snapshot(again) == snapshot(world)
    assert all(again.observation(p) == world.observation(p) for p in range(players_of(world)))


def test_deepcopy_is_independent(sample):
    _entry, state = sample
    before = snapshot(state)
    other = copy.deepcopy(state)
    play_random(other, np.random.default_rng(2), 5)
    assert snapshot(state) == before


# --- the games' surface ---------------------------------------------------------------------------
def test_the_same_names_in_every_game(entry):
    """Constructors, matches, scores: one name, one shape."""
    deal, match = entry.deal_class, entry.match_class
    params = list(inspect.signature(deal.from_hands).parameters.values())
    assert params[0].name == "hands" and all(p.kind is p.KEYWORD_ONLY for p in params[1:])
    assert "rules" in inspect.signature(deal.from_hands).parameters
    assert list(inspect.signature(deal).parameters)[:2] == ["seed", "rules"]
    assert list(inspect.signature(match).parameters)[:2] == ["seed", "rules"]
    m = entry.new(3, match=True)
    assert m.deals == () and m.deals_played == 0 and (m.max_deals is None or m.max_deals >= 1)
    play_random(m, np.random.default_rng(0), 3000)
    assert m.deals_played == len(m.deals) >= 1 and all(isinstance(d, dict) and d["deal"] == i
                                                        for i, d in enumerate(m.deals))
    assert isinstance(m.scores(), tuple) and len(m.scores()) == players_of(m)
    assert {p.name for p in entry.phases} >= {"PLAY", "OVER"}
    assert deal.game == match.game == entry.name and game_of(m) is entry
    assert type(m).__module__.startswith(entry.package) and entry.rules_class() == entry.presets()[entry.rule_presets[0]]


def test_terminal_match(entry):
    """A finished match: TERMINAL, no actions, no engine, the returns of the end."""
    m = entry.new(4, match=True)
    play_random(m, np.random.default_rng(4), 10**6)
    assert m.is_terminal() and m.current_player == TERMINAL and m.legal_actions() == [] and m.card_play() is None
    assert m.deals_played == len(m.deals) and len(m.returns()) == players_of(m)
    with pytest.raises(IllegalActionError, match="over"):
        m.apply(PASS)


# --- cross-game refusal -----------------------------------------------------------------------------
@pytest.mark.parametrize("other", list(GAMES))
def test_a_play_of_another_game_is_refused_naming_the_game(entry, other):
    if other == entry.name:
        return
    state = entry.new(1)
    foreign = next(a for a in GAMES[other].new(1).legal_actions() if a is not PASS)
    before = snapshot(state)
    with pytest.raises(ActionTypeError, match=rf"not an action of chupai\.{entry.name}; expected a chupai\.{entry.name}\.Play"):
        state.apply(foreign)
    with pytest.raises(TypeError):
        state.apply(foreign)
    assert snapshot(state) == before


# --- argument checks ----------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["deal", "match"])
def test_argument_types_and_values(entry, kind):
    cls = entry.deal_class if kind == "deal" else entry.match_class
    for bad in ("1", 1.0, True, [1]):
        with pytest.raises(TypeError, match="seed"):
            cls(bad)
    for bad in (-1, 2**64, 2**64 + 5):
        with pytest.raises(ValueError, match=r"seed must be an int in \[0, 2\*\*64\)"):
            cls(bad)
    for bad in ("pagat", 1, next(g for g in GAMES.values() if g is not entry).rules_class()):
        with pytest.raises(TypeError, match=rf"rules must be a chupai\.{entry.name}\.Rules"):
            cls(1, rules=bad)
    if not entry.fixed_players:
        with pytest.raises(TypeError, match="players"):
            cls(1, players="4")
        with pytest.raises(ValueError, match="players"):
            cls(1, players=entry.players[1] + 1)
    state = cls(1)
    n = players_of(state)
    for bad in ("0", 1.0, None, True):
        with pytest.raises(TypeError, match="player"):
            state.observation(bad)
        with pytest.raises(TypeError, match="player"):
            state.determinize(bad)
    for bad in (-1, n):
        with pytest.raises(ValueError, match="player"):
            state.observation(bad)
        with pytest.raises(ValueError, match="player"):
            state.determinize(bad)
    with pytest.raises(TypeError, match="rng"):
        state.determinize(0, "x")
    with pytest.raises(ValueError, match="rng"):
        state.determinize(0, -1)


@pytest.mark.parametrize("bot", [bots.RandomBot(), bots.GreedyBot(), bots.MonteCarloBot(8, max_worlds=2)],
                         ids=repr)
def test_bots_take_what_as_rng_takes(sample, bot):
    _entry, state = sample
    if state.is_terminal():
        return
    for rng in (0, np.int64(3), None, np.random.default_rng(1)):
        assert bot.choose(state, rng) in state.legal_actions()
    with pytest.raises(TypeError, match="rng"):
        bot.choose(state, "seed")


CONTRACT_NAMES = ("Deal", "Match", "Rules", "Play", "PlayType", "Phase", "PASS", "legal_plays", "classify",
                  "playout", "playouts")


def test_every_package_exports_the_contract_names(entry):
    """``docs/adding_a_game.md``: what the registry and the shared layers rely on."""
    module = entry.module()
    for name in CONTRACT_NAMES:
        if name == "PASS" and entry.name == "chinese_ten":
            continue  # nobody passes in Chinese Ten
        assert name in module.__all__, name
    assert issubclass(entry.phases, Enum) and entry.phases.PLAY == "play" and entry.phases.OVER == "over"
    assert entry.options_for("plays") is not None and entry.bench_module().main
    outside = [s for s in samples(entry.name) if not s.is_terminal() and s.card_play() is None]
    assert bool(outside) == (entry.decision_policy is not None)  # the games with a tribute or exchange
    for state in outside:
        assert entry.choose_decision(state, state.legal_actions()) in state.legal_actions()
