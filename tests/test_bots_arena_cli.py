"""Bots, the arena and the ``chupai`` command."""
from __future__ import annotations

import numpy as np
import pytest

from chupai import PASS, arena
from chupai.players.bots import Bot, GreedyBot, MonteCarloBot, RandomBot
from chupai.cli import main
from chupai.guandan import Deal, Match, playout
import chupai.evaluation.arena as arena_mod
from chupai.evaluation.arena import wilson_interval
from chupai.evaluation.ladder import ladder
from chupai.registry import GAMES


@pytest.mark.parametrize("bot", [RandomBot(), GreedyBot(), MonteCarloBot(20)], ids=repr)
def test_bots_choose_legal_actions_through_whole_matches(bot):
    """Every phase: tribute, returns, leads, follows (a few deals of a match)."""
    assert isinstance(bot, Bot)
    rng = np.random.default_rng(1)
    state = Match(seed=4)
    phases = set()
    for _ in range(600):
        if state.is_terminal() or state.deals_played >= 3:
            break
        actions = state.legal_actions()
        action = bot.choose(state, rng)
        assert any(action == a for a in actions), (action, state.deal.phase)
        phases.add(state.deal.phase)
        state.apply(action)
    assert "play" in phases


def test_bots_are_deterministic_given_the_rng():
    for bot in (RandomBot(), MonteCarloBot(30)):
        a = bot.choose(Deal(seed=8), np.random.default_rng(3))
        b = bot.choose(Deal(seed=8), np.random.default_rng(3))
        assert a == b


def test_greedy_bot_never_beats_its_partner():
    state = Deal(seed=12)
    rng = np.random.default_rng(0)
    bot = GreedyBot()
    for _ in range(400):
        if state.is_terminal():
            break
        engine = state.card_play()
        action = bot.choose(state, rng)
        if engine is not None and engine.last_player >= 0 and engine.last_player % 2 == state.current_player % 2:
            assert action is PASS
        state.apply(action)


def test_monte_carlo_bot_rejects_bad_settings():
    with pytest.raises(ValueError, match="playouts"):
        MonteCarloBot(0)
    with pytest.raises(ValueError, match="policy"):
        MonteCarloBot(10, policy="clever")


def test_playout_of_a_state_in_any_phase():
    match = Match(seed=2)
    while match.deals_played < 1:  # reach a deal that starts with tribute
        match.apply(GreedyBot().choose(match, np.random.default_rng(0)))
    before = str(match)
    r = playout(match, seed=5)
    assert r.result in (1, 2, 3) and r.winner == r.order[0] % 2
    assert str(match) == before and playout(match, seed=5) == r


def test_arena_results_and_determinism():
    a = arena("guandan", [GreedyBot(), RandomBot()], 6, seed=3, progress=False)
    b = arena("guandan", [GreedyBot(), RandomBot()], 6, seed=3, progress=False)
    assert a.games == 6 and (a.returns == b.returns).all() and a.wins == b.wins
    lo, hi = a.interval
    assert 0 <= lo <= a.win_rate <= hi <= 1
    assert "GreedyBot() vs RandomBot()" in str(a)


@pytest.mark.slow
def test_arena_with_workers_gives_the_same_result():
    a = arena("guandan", [GreedyBot(), RandomBot()], 4, seed=9, progress=False)
    b = arena("guandan", [GreedyBot(), RandomBot()], 4, seed=9, workers=2, progress=False)
    assert (a.returns == b.returns).all()


def test_arena_bad_input():
    with pytest.raises(ValueError, match="game"):
        arena("poker", [RandomBot(), RandomBot()], 1, seed=0)
    with pytest.raises(ValueError, match="two bots"):
        arena("guandan", [RandomBot()], 1, seed=0)
    with pytest.raises(TypeError, match="each of bots must be a bot"):
        arena("guandan", [RandomBot(), object()], 1, seed=0)


def test_arena_takes_bot_specs_as_well_as_bots():
    by_object = arena("gandengyan", [RandomBot(), GreedyBot()], 4, seed=3, progress=False)
    by_spec = arena("gandengyan", ["random", "greedy"], 4, seed=3, progress=False)
    assert (by_spec.bots, by_spec.wins) == (by_object.bots, by_object.wins)
    assert np.array_equal(by_spec.returns, by_object.returns)
    with pytest.raises(ValueError, match="each of bots: unknown bot"):
        arena("gandengyan", ["random", "alpha"], 1, seed=0)


def test_wilson_interval():
    lo, hi = wilson_interval(90, 100)
    assert 0.82 < lo < 0.83 and 0.94 < hi < 0.95
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(6, 6)[1] == 1.0 and wilson_interval(0, 6)[0] == 0.0  # no rounding inside [0, 1]


def test_cli_plays_and_errors(capsys):
    assert main(["plays", "guandan", "3D 4S 5C 6H 7S 7H", "--level", "7"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("19 plays to lead") and "straight 4-8" in out
    assert main(["plays", "guandan", "3D 4S 5C 6H 7S 7H", "--level", "7", "--previous", "5S 5D"]) == 0
    assert "(or pass)" in capsys.readouterr().out
    assert main(["plays", "guandan", "3D 1S", "--level", "7"]) == 2
    assert "'1S'" in capsys.readouterr().err
    assert main(["plays", "guandan", "8S 8D 2H KS KD", "--level", "2", "--previous", "8S 8D 2H KS KD"]) == 2
    assert "--previous-type" in capsys.readouterr().err


def test_cli_playout_and_arena(capsys):
    assert main(["playout", "guandan", "--deals", "200", "--seed", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "200 deals" in out and "1-2:" in out
    assert main(["arena", "guandan", "--bots", "greedy,random", "--deals", "2", "--seed", "1"]) == 0
    assert "GreedyBot() vs RandomBot(): 2 deals," in capsys.readouterr().out
    assert main(["arena", "guandan", "--bots", "greedy", "--deals", "2"]) == 2


def test_arena_takes_bot_specs_as_the_command_line_does():
    from chupai import arena
    from chupai.players.bots import GreedyBot, HeuristicBot

    by_spec = arena("guandan", ("heuristic", "greedy"), 2, 1, progress=False)
    by_object = arena("guandan", (HeuristicBot(), GreedyBot()), 2, 1, progress=False)
    assert by_spec.bots == by_object.bots and by_spec.wins == by_object.wins
    import pytest

    with pytest.raises(ValueError, match="unknown bot"):
        arena("guandan", ("alphago", "greedy"), 2, 1, progress=False)


@pytest.mark.parametrize("game", list(GAMES))
def test_arena_plays_each_deal_twice_with_the_seats_swapped(game):
    """Two copies of one deterministic bot: game 2k + 1 replays game 2k's deal with the
    seats swapped, so the first bot's return there is its opponent's in game 2k."""
    r = arena(game, ["greedy", "greedy"], 6, seed=4, progress=False)
    assert (r.returns[1::2] == -r.returns[0::2]).all() and r.returns.any()


def test_arena_reports_dou_dizhu_results_by_role():
    r = arena("doudizhu", ["heuristic", "random"], 20, seed=2, progress=False)
    roles = {role: (seats, ret) for role, seats, ret in r.roles}
    # the first bot plays the landlord in even games, both farmers in odd ones
    assert roles["landlord"][0] == 10 and roles["farmer"][0] == 20 and set(roles) == {"landlord", "farmer"}
    assert "as landlord" in str(r) and "as farmer" in str(r)
    assert arena("guandan", ["greedy", "random"], 2, seed=2, progress=False).roles == ()
    # the ladder too: each deal twice, the first bot the landlord once and the farmers once
    pair = ladder("doudizhu", ["heuristic", "random"], deals=4, seed=1, progress=False).pairs[0]
    assert {role: seats for role, seats, _ in pair.roles} == {"landlord": 4, "farmer": 8}


class SeatRecorder:
    """A deterministic bot (the greedy policy) that records the seat and role of each
    decision it is asked for."""

    def __init__(self, game: str) -> None:
        self.entry, self.asked = GAMES[game], []

    def choose(self, state, rng):
        self.asked.append((state.current_player, self.entry.roles_of(state)[state.current_player]))
        return GreedyBot().choose(state, rng)


@pytest.mark.parametrize("game", [name for name, entry in GAMES.items() if entry.side_role is not None])
def test_a_game_seated_by_role_gives_each_bot_one_side_of_each_deal(game):
    """The first bot plays only the side role in even games and only the other seats in
    odd ones; the game's decision policy, not a bot, decides the roles; the same deal
    seated the other way round gives the opposite result (deterministic bots)."""
    side_role = GAMES[game].side_role
    for index in range(6):
        bots = (SeatRecorder(game), SeatRecorder(game))
        arena_mod._play_one((game, bots, 5, index, False, None, None))
        first = {role for _, role in bots[0].asked}
        second = {role for _, role in bots[1].asked}
        mine, theirs = (first, second) if index % 2 == 0 else (second, first)
        assert mine <= {side_role} and side_role not in theirs
    r = arena(game, ["greedy", "heuristic"], 8, seed=3, progress=False)
    swapped = arena(game, ["heuristic", "greedy"], 8, seed=3, progress=False)
    assert (r.returns[0::2] == -swapped.returns[1::2]).all() and r.returns.any()


#: a spec option and a value other than its default, for each bot that takes options
#: (chupai.players.search.registry's; net's are tested with a network in test_network_bot)
CHANGED = {
    "mc": ["policy=heuristic"],
    "mc:2ms": ["policy=heuristic"],
    "ismcts:20": ["policy=random", "exploration=1.5", "iterations_per_world=2", "max_candidates=5",
                  "decisions=greedy", "reuse=false", "collapse_suits=false"],
    "best:20": ["policy=greedy", "max_candidates=3", "z=1.5", "min_worlds=2"],
}


@pytest.mark.parametrize(("spec", "option"), [(s, o) for s, options in CHANGED.items() for o in options])
def test_a_bots_repr_names_each_option_that_sets_it_apart(spec: str, option: str) -> None:
    """Two bots that differ in one option read apart in reports (the arena and ladder name
    them by repr): ``mc:2ms:policy=heuristic`` was ``TimedMonteCarloBot(seconds=0.002)`` like
    ``mc:2ms:policy=random``."""
    from chupai.players.search.registry import make_bot

    plain, changed = repr(make_bot(spec)), repr(make_bot(f"{spec}:{option}"))
    assert plain != changed and option.split("=")[0] in changed
