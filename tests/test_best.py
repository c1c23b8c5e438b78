"""``BestBot`` (``make_bot("best")``): legal in every game, deterministic for a seed and
a world budget, its input checked; and ``bench/guandan/rulebots.py``'s argument checks (which
need none of the outside bots).  No win rate is asserted: figures live in ``bench/``."""
from __future__ import annotations

import importlib
import importlib.util
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from chupai.registry import GAMES
from chupai.players.bots import HeuristicBot
from chupai.players.search import make_bot
from chupai.players.search.best import BestBot

GAME_NAMES = list(GAMES)
RULEBOTS = Path(__file__).resolve().parent.parent / "bench" / "guandan" / "rulebots.py"


def _play(game: str, bot: Any, seed: int, decisions: int = 40) -> list[Any]:
    """The first ``decisions`` actions of a match of ``game`` with ``bot`` in every seat."""
    state = GAMES[game].new(seed, match=True, rules=None, players=None)
    rng = np.random.default_rng(seed)
    made: list[Any] = []
    while not state.is_terminal() and len(made) < decisions:
        action = bot.choose(state, rng)
        assert action in state.legal_actions(), (game, action)
        made.append(action)
        state.apply(action)
    return made


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("candidates", ["lowest", "types"])
@pytest.mark.parametrize("drop", [None, 0.5])
def test_best_is_legal_and_deterministic(game: str, candidates: str, drop: float | None) -> None:
    first = _play(game, BestBot(worlds=6, min_worlds=3, z=0.5, candidates=candidates, drop=drop), 11)
    again = _play(game, BestBot(worlds=6, min_worlds=3, z=0.5, candidates=candidates, drop=drop), 11)
    assert first == again


def test_drop_keeps_the_proposal_and_the_candidates_not_shown_worse() -> None:
    """``drop``: a candidate whose mean gain over the proposal is below zero by more than
    ``drop`` standard errors stops being played out; the proposal and candidates level
    with it or better stay."""
    base = np.random.default_rng(0).normal(0.0, 1.0, 32)
    swing = np.tile([0.9, -1.1], 16)  # mean -0.1, standard error 0.18 over the 32 worlds
    values = np.stack([base, base - 0.5 + swing / 10, base + swing, base + 0.3, base], axis=1)
    assert BestBot(drop=1.0)._kept(values, 0) == [0, 2, 3, 4]
    assert BestBot(drop=0.0)._kept(values, 0) == [0, 3, 4]
    # the proposal in another column, every other worse than it
    assert BestBot(drop=1.0)._kept(values[:, [1, 3]], 1) == [1]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_drop_without_effect_plays_as_without_dropping(game: str) -> None:
    """With a huge ``drop`` (only a candidate worse than the proposal in every world so far
    can go, and it could not have been chosen) the bot plays as with none: the
    bookkeeping of the candidates still played out loses nothing."""
    made = _play(game, BestBot(worlds=24, min_worlds=8, z=0.5, drop=None), 17, decisions=20)
    assert made == _play(game, BestBot(worlds=24, min_worlds=8, z=0.5, drop=1e9), 17, decisions=20)


def test_candidates_types_takes_each_type_s_lowest_first() -> None:
    """``candidates="types"``: the plays compared are the policy's and each type's lowest
    in the greedy order (as many types as fit); ``"lowest"``: the lowest plays."""
    from chupai.guandan import Deal

    engine = Deal(seed=4).card_play()
    plays = engine.legal_plays(collapse_suits=True)
    rec = plays.to_numpy()
    order = np.lexsort((-rec["length"].astype(int), rec["key"], rec["nwild"], rec["cls"])).tolist()
    lowest_of_type: dict[int, int] = {}
    for i in order:
        lowest_of_type.setdefault(int(rec["type"][i]), i)
    heads = sorted(lowest_of_type.values(), key=order.index)
    assert len(heads) >= 7 and heads != order[:7]  # the two ways differ on this hand
    for candidates, expected in (("lowest", order[:7]), ("types", heads[:7])):
        # no proposal (the policy would pass): the seven plays beside it are the candidates
        chosen, include_pass, _ = BestBot(worlds=2, max_candidates=8, candidates=candidates)._candidates(engine, None)
        assert not include_pass and list(chosen) == [plays[i] for i in expected]


def test_objective_win_scores_who_won_alone() -> None:
    """``objective="win"`` (Guan Dan, which declares ``evaluate_win``): each playout
    counts +1 or -1 for the player's side whatever the levels, where the game's own
    score counts the levels won; the bot stays legal and deterministic."""
    from chupai.guandan import Deal

    entry = GAMES["guandan"]
    deal = Deal(seed=5)
    engine = deal.card_play()
    plays = engine.legal_plays(collapse_suits=True).take([0, 1, 2])
    score = engine.evaluate(plays, False, 40, 1, "heuristic", *entry.evaluate_args(deal.rules))
    win = engine.evaluate(plays, False, 40, 1, "heuristic", *entry.evaluate_args(deal.rules, "win"))
    assert entry.evaluate_args(deal.rules, "win") == ((1, 1, 1),)
    # the same playouts (same seed): every won one counts 1 instead of its 1, 2 or 4 levels
    assert np.all(np.abs(win) <= 40) and np.all(np.abs(score) >= np.abs(win))
    assert np.all(np.sign(score) * np.sign(win) >= 0) and not np.array_equal(score, win)
    first = _play("guandan", BestBot(worlds=6, min_worlds=3, z=0.5, objective="win"), 12)
    assert first == _play("guandan", BestBot(worlds=6, min_worlds=3, z=0.5, objective="win"), 12)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_default_objective_is_the_game_s(game: str) -> None:
    """``objective=None`` (the default) is the game's: ``"win"`` where its entry declares
    ``evaluate_win`` (Guan Dan), else ``"score"``; the bot then plays as with it named."""
    entry = GAMES[game]
    assert entry.objective == ("score" if entry.evaluate_win is None else "win")
    assert BestBot().objective is None
    made = _play(game, BestBot(worlds=6, min_worlds=3, z=0.5), 13, decisions=25)
    assert made == _play(game, BestBot(worlds=6, min_worlds=3, z=0.5, objective=entry.objective), 13, decisions=25)


@pytest.mark.parametrize("game", [g for g in GAME_NAMES if GAMES[g].evaluate_win is None])
def test_objective_win_is_refused_where_the_game_has_no_win_measure(game: str) -> None:
    state = GAMES[game].new(3, match=False, rules=None, players=None)
    before = state.legal_actions()
    with pytest.raises(ValueError, match="objective"):
        BestBot(worlds=4, objective="win").choose(state, np.random.default_rng(0))
    assert state.legal_actions() == before and not state.is_terminal()


def test_best_overrules_the_heuristic_somewhere() -> None:
    """With a loose threshold the playouts change some choice of the heuristic (the
    search is not dead code); with an infinite budget of evidence it never would."""
    from chupai.guandan import Deal

    bot, heuristic = BestBot(worlds=12, min_worlds=4, z=0.0), HeuristicBot()
    rng = np.random.default_rng(0)
    differ = 0
    for seed in range(3):
        deal = Deal(seed=seed)
        while not deal.is_terminal():
            action = bot.choose(deal, rng)
            differ += action != heuristic.choose(deal, rng)
            deal.apply(action)
    assert differ > 0


def test_best_spec_and_input_checks() -> None:
    bot = make_bot("best")
    assert isinstance(bot, BestBot) and (bot.seconds, bot.worlds, bot.max_candidates, bot.drop) == (0.12, 1536, 12, 1.0)
    assert make_bot("best:drop=none").drop is None
    bot = make_bot("best:20ms:z=1.5:max_candidates=5:min_worlds=4:policy=greedy:candidates=types:objective=win:drop=1")
    assert (bot.seconds, bot.worlds, bot.z, bot.max_candidates, bot.min_worlds, bot.policy, bot.candidates,
            bot.objective, bot.drop) == (0.02, None, 1.5, 5, 4, "greedy", "types", "win", 1.0)
    assert make_bot("best:30").worlds == 30 and make_bot("best:30").seconds is None
    for spec in ("best:depth=3", "best:z=x", "best:policy=clever", "best:candidates=highest",
                 "best:objective=levels", "best:drop=x"):
        with pytest.raises(ValueError):
            make_bot(spec)
    for kwargs, error in (({"seconds": "1"}, TypeError), ({"seconds": 0.0}, ValueError),
                          ({"worlds": 0}, ValueError), ({"worlds": 2.5}, TypeError),
                          ({"z": -1.0}, ValueError), ({"z": "2"}, TypeError),
                          ({"policy": "clever"}, ValueError), ({"max_candidates": 0}, ValueError),
                          ({"min_worlds": 0}, ValueError), ({"candidates": "highest"}, ValueError),
                          ({"candidates": 1}, TypeError), ({"objective": "levels"}, ValueError),
                          ({"objective": 1}, TypeError), ({"drop": -0.5}, ValueError),
                          ({"drop": "1"}, TypeError), ({"drop": math.inf}, ValueError),
                          ({"belief": 0.0}, ValueError), ({"belief": 1.5}, ValueError),
                          ({"belief": "0.3"}, TypeError), ({"pool": 0}, ValueError), ({"pool": 2.0}, TypeError)):
        with pytest.raises(error):
            BestBot(**kwargs)
    bot = make_bot("best:30:belief=0.25:pool=64")
    assert (bot.belief, bot.pool) == (0.25, 64) and make_bot("best:belief=none").belief is None
    assert repr(bot) == "BestBot(worlds=30, policy='heuristic', belief=0.25, pool=64)"
    assert repr(BestBot(worlds=9)) == "BestBot(worlds=9, policy='heuristic')"
    assert repr(BestBot(worlds=9, candidates="types")) == "BestBot(worlds=9, policy='heuristic', candidates='types')"
    assert repr(BestBot(worlds=9, objective="win")) == "BestBot(worlds=9, policy='heuristic', objective='win')"


def _bench_script(path: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A script of ``bench/`` loaded as the module ``name`` (registered: dataclasses look
    their module up)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)
    return module


def _rulebots(monkeypatch: pytest.MonkeyPatch) -> Any:
    return _bench_script(RULEBOTS, "rulebots", monkeypatch)


def test_rulebots_checks_its_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    rulebots = _rulebots(monkeypatch)
    with pytest.raises(SystemExit) as e:
        rulebots.parse_args([str(tmp_path / "nowhere")])
    assert e.value.code == 2 and "Danzero_plus" in capsys.readouterr().err
    folder = tmp_path / "wintest" / "ai1"
    folder.mkdir(parents=True)
    for n in range(3):  # client3 missing
        (folder / f"client{n}.py").write_text(f"ws = Client('ws://127.0.0.1:23456/game/client{n}')\n")
    (folder / "client9.py").write_text("# ws = Client('ws://127.0.0.1:23456/game/client3')\n")
    with pytest.raises(SystemExit):
        rulebots.parse_args([str(tmp_path), "--ais", "ai1"])
    assert "client3" in capsys.readouterr().err
    (folder / "client3.py").write_text("ws = Client('ws://127.0.0.1:23456/game/client3')\n")
    args = rulebots.parse_args([str(tmp_path), "--ais", "ai1", "--bot", "heuristic", "--deals", "4"])
    assert sorted(args.clients["ai1"]) == ["client0", "client1", "client2", "client3"]
    for bad in (["--deals", "3"], ["--deals", "0"], ["--bot", "alpha"], ["--timeout", "0"], ["--ais", ","]):
        with pytest.raises(SystemExit):
            rulebots.parse_args([str(tmp_path), "--ais", "ai1", *bad])
    assert rulebots.wilson(0, 0) == (0.0, 1.0)
    lo, hi = rulebots.wilson(50, 100)
    assert lo < 0.5 < hi and abs((lo + hi) / 2 - 0.5) < 1e-12


CEILING = Path(__file__).resolve().parent.parent / "bench" / "best_ceiling.py"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_world_comes_through_the_hook(game: str) -> None:
    """``draw_world`` draws every world (a subclass that knows more replaces the drawing):
    with ``drop=None`` and a world budget, one call a world at a decision with choices."""

    class Counting(BestBot):
        calls = 0

        def draw_world(self, state: Any, player: int, rng: np.random.Generator) -> Any:
            self.calls += 1
            return super().draw_world(state, player, rng)

    state = GAMES[game].new(5, match=True, rules=None, players=None)
    rng = np.random.default_rng(5)
    for _ in range(60):
        engine = state.card_play()
        if engine is not None and len(engine.legal_plays(collapse_suits=True)) + engine.can_pass() > 1:
            break
        state.apply(HeuristicBot().choose(state, rng))
    bot = Counting(worlds=12, drop=None)
    assert bot.choose(state, rng) in state.legal_actions()
    assert bot.calls == 12, game


def test_the_ceiling_bench_sees_the_true_hands(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    ceiling = _bench_script(CEILING, "best_ceiling", monkeypatch)
    state = GAMES["guandan"].new(2, match=False, rules=None, players=None)
    world = ceiling.SeeingBestBot(worlds=8).draw_world(state, state.current_player, np.random.default_rng(0))
    assert [str(world.hand(s)) for s in range(4)] == [str(state.hand(s)) for s in range(4)]
    assert ceiling.main(["--deals", "1", "--seed", "1"]) == 0
    assert "SeeingBestBot(worlds=8, policy='heuristic')" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        ceiling.main(["--worlds", "0"])
    with pytest.raises(SystemExit):
        ceiling.main(["--decisions", "1", "--bots", "heuristic,nope"])


def test_the_decision_screen_scores_every_bot_on_the_same_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--decisions``: the same positions for every bot; a bot's score is the true deal's
    outcome after its choice (the heuristic scores as the heuristic's own play out)."""
    ceiling = _bench_script(CEILING, "best_ceiling", monkeypatch)
    states = ceiling.positions("guandan", 1, 7)
    assert states and all(len(s.legal_actions()) > 1 and s.card_play() is not None for s in states)
    rows = ceiling.decisions("guandan", [make_bot("heuristic"), make_bot("heuristic"), make_bot("best:16")], 1, 7)
    assert [len(scores) for _, scores in rows] == [len(states)] * 3
    assert (rows[0][1] == rows[1][1]).all()  # the same positions, the same choices, the same outcomes
    final = states[-1].clone()  # the deal's last choice: the heuristic plays it out to the end
    mover = final.current_player
    heuristic = make_bot("heuristic")
    final.apply(heuristic.choose(final, np.random.default_rng(7 + len(states) - 1)))
    while not final.is_terminal():
        final.apply(heuristic.choose(final, np.random.default_rng(0)))
    assert rows[0][1][-1] == final.returns()[mover]
    assert "difference to the first bot" in ceiling.report(rows)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_belief_is_legal_and_deterministic_where_the_card_play_replays(game: str) -> None:
    bot = BestBot(worlds=6, min_worlds=3, z=0.5, belief=0.3, pool=8)
    state = GAMES[game].new(21, match=False, rules=None, players=None)
    rng = np.random.default_rng(21)
    while state.card_play() is None or len(state.legal_actions()) < 2:
        state.apply(HeuristicBot().choose(state, rng))
    if state.card_play_replay(()) is None:
        with pytest.raises(ValueError, match="belief"):
            bot.choose(state, rng)
        return
    first = _play(game, bot, 11)
    assert first == _play(game, BestBot(worlds=6, min_worlds=3, z=0.5, belief=0.3, pool=8), 11)


def test_belief_draws_the_worlds_the_opponents_decisions_allow_best() -> None:
    """With a belief near 0 every world drawn is one of the pool's with the fewest
    misses (so all miss alike, no more than uniform worlds do on average); the true
    deal's hands miss none of the opponents' heuristic decisions."""
    game = GAME_NAMES[0]
    state = GAMES[game].new(8, match=False, rules=None, players=None)
    rng = np.random.default_rng(8)
    for _ in range(40):
        state.apply(HeuristicBot().choose(state, rng))
    while state.card_play() is None or len(state.legal_actions()) < 2:
        state.apply(HeuristicBot().choose(state, rng))
    player = state.current_player
    seen: list[Any] = []

    class Watching(BestBot):
        def draw_world(self, state: Any, player: int, rng: np.random.Generator) -> Any:
            world = super().draw_world(state, player, rng)
            seen.append(world)
            return world

    Watching(worlds=16, drop=None, belief=1e-9, pool=32).choose(state, np.random.default_rng(3))
    replay = state.card_play_replay(BestBot._opponents(state, player))
    assert replay is not None and replay.checked > 0
    assert replay.misses(state.card_play()) == 0
    misses = {replay.misses(w) for w in seen}
    uniform = [replay.misses(state.determinize_card_play(player, rng)) for _ in range(32)]
    assert len(seen) == 16 and len(misses) == 1 and misses.pop() <= np.mean(uniform)
    assert len(set(uniform)) > 1
