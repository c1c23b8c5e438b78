"""The contract's corners, each a named test: the state machines, bots, arena and
argument checks hold one meaning in every game."""
from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import chupai
from chupai import chinese_ten, gandengyan, guandan, zhengshangyou
from chupai.evaluation import arena
from chupai.engine import backends
from chupai.registry import GAMES
from chupai.players.bots import GreedyBot, MonteCarloBot, RandomBot
from chupai.contract import TERMINAL, Event
from chupai.errors import ActionTypeError, ReplayError

SRC = Path(chupai.__file__).parent


def test_chinese_ten_card_play_is_a_copy_not_the_live_engine():
    """``Deal.card_play()`` hands out a copy of the engine: playing on it leaves the deal's
    hands and history as they were."""
    deal = chinese_ten.Deal(seed=1)
    sizes = deal.hand_sizes()
    engine = deal.card_play()
    engine.play(engine.legal_plays()[0])
    assert engine.hand_sizes() != sizes and deal.hand_sizes() == sizes and deal.history == []
    assert engine is not deal.card_play()


@pytest.mark.parametrize("name", list(GAMES))
def test_states_pickle_and_deepcopy(name):
    """Every state pickles and deep-copies, so states cross process boundaries."""
    import copy

    for state in (GAMES[name].new(3), GAMES[name].new(3, match=True)):
        for other in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
            assert other.observation(0) == state.observation(0)


def test_match_deals_is_the_summaries_in_every_game():
    """``Match.deals`` is the tuple of finished deals' summaries in every game; the number
    of deals a Gan Deng Yan match lasts is ``max_deals``."""
    m = gandengyan.Match(seed=1, max_deals=2)
    assert m.deals == () and m.max_deals == 2
    while not m.is_terminal():
        m.apply(m.legal_actions()[0])
    assert len(m.deals) == 2 and m.deals[0]["deal"] == 0
    for entry in GAMES.values():
        assert entry.new(1, match=True).deals == ()


def test_match_dealer_is_a_seat_in_every_game_that_has_one():
    """``Match(dealer=)`` is a seat wherever a game has a dealer; Guan Dan's given-hands
    hook is ``hands=`` (it has no dealer)."""
    for module in (zhengshangyou, gandengyan, chinese_ten):
        assert module.Match(seed=1, players=3, dealer=2).deal.dealer == 2
        with pytest.raises(TypeError, match="dealer"):
            module.Match(seed=1, players=3, dealer=lambda i: None)
    with pytest.raises(TypeError, match="dealer"):
        guandan.Match(seed=1, dealer=0)
    with pytest.raises(TypeError, match="hands must be a function"):
        guandan.Match(seed=1, hands=0)


def test_scores_is_a_method_in_every_game():
    """``scores`` is a method in every game."""
    for entry in GAMES.values():
        for state in (entry.new(1), entry.new(1, match=True)):
            assert callable(state.scores) and isinstance(state.scores(), tuple)


def test_constructors_from_given_hands_have_one_name():
    """Given hands are ``Deal.from_hands(hands, *, ...)`` in every game."""
    assert guandan.Deal.from_hands(["3S", "4S", "5S", "6S"], leader=0).current_player == 0
    assert zhengshangyou.Deal.from_hands(["3S", "4S"], dealer=1).current_player == 1
    assert gandengyan.Deal.from_hands(["3S", "4S"], talon=["5S"], dealer=1).current_player == 1
    deck = [r + s for r in "23456789TJQKA" for s in "SHCD"]
    deal = chinese_ten.Deal.from_hands([deck[:12], deck[12:24]], layout=deck[24:28], stock=deck[28:])
    assert deal.players == 2
    assert not hasattr(chinese_ten.Deal, "from_cards")


def test_history_entries_have_one_shape():
    """History entries are ``Event``s in every game."""
    for entry in GAMES.values():
        state = entry.new(2)
        state.apply(state.legal_actions()[0])
        assert all(type(e) is Event for e in state.history)


def test_tribute_and_exchange_steps_are_enums():
    """The tribute sub-machine's steps are enum members naming their phase."""
    d = guandan.Deal.from_hands(["3S 4S", "2H KS 5D", "3D 4D", "AS 6D 7D"], previous=(0, 2))
    assert d.phase is guandan.Phase.RETURN and d.history[0].phase is guandan.Phase.TRIBUTE
    assert guandan.game.TributeStep.RETURN.phase is guandan.Phase.RETURN
    z = zhengshangyou.Deal.from_hands(["3S 4S", "3H 4H", "3C 2C 2D"], previous=(0, 1, 2))
    assert z.phase is zhengshangyou.Phase.EXCHANGE


@pytest.mark.parametrize("name", list(GAMES))
def test_terminal_current_player_is_openspiel_terminal(name):
    """Decision: ``current_player`` of a finished state is -4 (OpenSpiel's terminal id)
    in every game; there are no chance nodes (-1 is never returned)."""
    state = GAMES[name].new(1)
    while not state.is_terminal():
        assert state.current_player >= 0
        state.apply(state.legal_actions()[-1])
    assert state.current_player == TERMINAL == -4


# --- argument checks ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(GAMES))
def test_seeds_do_not_wrap_modulo_2_64(name):
    """A seed outside [0, 2**64) is refused, never wrapped."""
    entry = GAMES[name]
    with pytest.raises(ValueError, match=r"\[0, 2\*\*64\)"):
        entry.new(2**64 + 5)
    with pytest.raises(ValueError, match=r"\[0, 2\*\*64\)"):
        entry.module().playouts(2, seed=2**64 + 5)
    assert entry.new(2**64 - 1).seed == 2**64 - 1


@pytest.mark.parametrize("name", list(GAMES))
def test_negative_seeds_refused_the_same_way_in_deal_playouts_and_arena(name):
    """A negative seed is refused alike by every entry point."""
    entry = GAMES[name]
    for call in (lambda: entry.new(-1), lambda: entry.deal_class(-1), lambda: entry.match_class(-1),
                 lambda: entry.module().playouts(2, seed=-1),
                 lambda: arena.arena(name, [RandomBot(), RandomBot()], 1, seed=-1, progress=False)):
        with pytest.raises(ValueError, match=r"seed must be an int in \[0, 2\*\*64\)"):
            call()


@pytest.mark.parametrize("name", list(GAMES))
def test_playouts_checks_its_shared_arguments(name):
    """Every game's ``playouts`` refuses a bad policy, thread count, seed type and deal
    count alike (``chupai.engine.batch.check_batch``), and plays no deal for ``n=0``."""
    playouts = GAMES[name].module().playouts
    with pytest.raises(ValueError, match="policy"):
        playouts(10, seed=1, policy="clever")
    with pytest.raises(ValueError, match="threads"):
        playouts(10, seed=1, threads=0)
    for bad in ({"threads": "2"}, {"threads": 1.5}):  # a wrong type: TypeError, as everywhere
        with pytest.raises(TypeError, match="threads must be an int"):
            playouts(10, seed=1, **bad)
    with pytest.raises(TypeError, match="n must be an int"):
        playouts(True, seed=1)
    with pytest.raises(TypeError, match="seed"):
        playouts(10, seed="x")
    with pytest.raises(ValueError, match="n must"):
        playouts(-1, seed=1)
    assert all(len(field) == 0 for field in playouts(0, seed=1))


@pytest.mark.parametrize("name", list(GAMES))
def test_the_bench_module_gives_seeded_lead_calls(name):
    """``lead_calls(n, seed)`` of a game's bench module (``bench/surface.py``'s positions):
    ``n`` calls, each making a fresh list of the game's plays, the same for the same seed."""
    entry = GAMES[name]
    calls = entry.bench_module().lead_calls(3, 7)
    again = entry.bench_module().lead_calls(3, 7)
    assert len(calls) == 3
    for call, same in zip(calls, again):
        plays = call()
        assert plays and all(isinstance(p, entry.module().Play) for p in plays)
        assert list(plays) == list(call()) == list(same())


@pytest.mark.parametrize("name", list(GAMES))
def test_kernel_count_names_the_argument_it_refuses(name):
    """Each game's bare-kernel counter (``kernel_count``, for ``bench/``) takes the arrays
    of its bench module's ``kernel_arrays`` as they are; an array of another dtype, a
    list, a strided view, a non-bool ``collapse_suits`` or a ``repeat`` below 1 is
    refused with the argument's name (TypeError or ValueError), before any work."""
    import importlib
    import inspect

    runner = GAMES[name].bench_module()
    kernel_count = importlib.import_module(f"{GAMES[name].package}._movegen").kernel_count
    arrays = runner.kernel_arrays(runner.positions(4))
    names = list(inspect.signature(kernel_count).parameters)[: len(arrays)]
    assert kernel_count(*arrays) >= 0
    for k, (arg, array) in enumerate(zip(names, arrays)):
        wrong = {np.dtype(np.uint64): np.int64, np.dtype(np.uint8): np.int16}[array.dtype]
        for bad in (array.astype(wrong), array.tolist(), np.repeat(array, 2, axis=0)[::2]):
            given = list(arrays)
            given[k] = bad
            with pytest.raises(TypeError, match=f"^{arg} must be a C-contiguous {array.ndim}-D numpy array of "
                                                f"{array.dtype}"):
                kernel_count(*given)
    with pytest.raises(TypeError, match="^collapse_suits must be True or False"):
        kernel_count(*arrays, collapse_suits=1)
    with pytest.raises(TypeError, match="^repeat must be an int"):
        kernel_count(*arrays, repeat="2")
    with pytest.raises(ValueError, match="^repeat must be an int 1..2147483647, not 0"):
        kernel_count(*arrays, repeat=0)
    assert kernel_count(*arrays, repeat=np.int64(2)) == 2 * kernel_count(*arrays)


@pytest.mark.parametrize("name", list(GAMES))
def test_numpy_int_seeds_in_deal_and_playouts(name):
    """A numpy integer seed is taken alike by states and playouts."""
    module = GAMES[name].module()
    a, b = module.playouts(3, seed=np.int64(1)), module.playouts(3, seed=1)
    assert (a.order == b.order).all() if hasattr(a, "order") else (a.returns == b.returns).all()
    assert module.Deal(seed=np.int64(1)).observation(0) == module.Deal(seed=1).observation(0)


@pytest.mark.parametrize("name", list(GAMES))
def test_rules_as_a_string_is_a_type_error(name):
    """``rules`` of the wrong type (a preset's name) is a TypeError naming the class."""
    with pytest.raises(TypeError, match=rf"rules must be a chupai\.{name}\.Rules or None, not 'pagat'"):
        GAMES[name].deal_class(1, rules="pagat")


def test_previous_as_a_string_is_a_type_error():
    """``from_hands(previous=...)`` of the wrong type is a TypeError."""
    with pytest.raises(TypeError, match="previous"):
        guandan.Deal.from_hands(["3S 4S", "5S 6S", "7S 8S", "9S TS"], previous="0123")


def test_a_play_of_another_game_names_the_game_and_class_expected():
    """``apply`` of another game's play names both games and the class expected."""
    play = guandan.Deal(seed=1).legal_actions()[0]
    with pytest.raises(ActionTypeError, match=r"chupai\.guandan\.play\.Play\) is not an action of "
                                              r"chupai\.chinese_ten; expected a chupai\.chinese_ten\.Play"):
        chinese_ten.Deal(seed=1).apply(play)


@pytest.mark.parametrize("bot", [RandomBot(), GreedyBot(), MonteCarloBot(8)], ids=repr)
def test_bots_choose_with_an_int_seed(bot):
    """A bot's ``choose(state, rng)`` takes an int seed as ``determinize`` does."""
    for entry in GAMES.values():
        state = entry.new(1)
        assert bot.choose(state, 0) == bot.choose(state, 0) in state.legal_actions()


def test_arena_never_starts_more_workers_than_deals_or_cores(monkeypatch):
    """``arena(..., workers=N)`` starts no more processes than there are chunks of work."""
    started = []

    class FakePool:
        """Counts the processes asked for and runs the jobs here."""

        def __init__(self, n, **kwargs):
            started.append(n)

        def map(self, f, jobs):
            return map(f, jobs)

        def shutdown(self, **kwargs):
            pass

    # every process pool of the library is chupai.engine.backends' executor
    monkeypatch.setattr(backends, "ProcessPoolExecutor", FakePool)
    monkeypatch.setattr(arena, "_cores", lambda: 2)
    bots = [RandomBot(), RandomBot()]
    one = arena.arena("chinese_ten", bots, 4, seed=1, workers=1, progress=False)
    many = arena.arena("chinese_ten", bots, 4, seed=1, workers=1000, progress=False)
    assert started == [2] and (one.returns == many.returns).all()
    arena.arena("chinese_ten", bots, 3, seed=1, workers=1000, max_workers=1000, progress=False)
    assert started == [2, 3]
    with pytest.raises(TypeError, match="max_workers"):
        arena.arena("chinese_ten", bots, 3, seed=1, workers=2, max_workers=2.0, progress=False)


def test_no_shared_module_sniffs_a_games_modules_or_attributes():
    """Bots and the arena take a game's decision choice and its outcome weights from the
    registry, never by looking into the state's module or rules."""
    for name in ("players/bots.py", "evaluation/arena.py", "state/base.py"):
        text = (SRC / name).read_text()
        for sniff in ("hasattr(", "import_module(", "type(state).__module__", "getattr(state", "getattr(type(state)"):
            assert sniff not in text, (name, sniff)


@pytest.mark.parametrize("module", [guandan, zhengshangyou])
def test_a_replay_bug_raises_a_clear_error_at_once(module, monkeypatch):
    """Replaying the public history replays the deal's own cards, and a ReplayError says
    what is wrong (never a search that gives up after its retries).  (The reference path that replays: ``determinize`` itself deals in
    C without replaying, see tests/test_determinize.py.)"""
    deal = module.Deal(seed=4)
    deal.apply(deal.legal_actions()[0])
    monkeypatch.setattr(type(deal), "_replays", lambda self, history: False)
    calls = []
    real = module.deal.redeal_and_replay

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(module.deal, "redeal_and_replay", counting)
    with pytest.raises(ReplayError, match="do not replay"):
        deal._determinize_replay(1, np.random.default_rng(0))
    assert calls == [1]


def test_chinese_ten_first_player_with_zero_players_does_not_kill_the_interpreter():
    """Issue 16, item 1: ``first_player(Rules(), 0, 0)`` died of SIGFPE (a ``%`` by zero)."""
    code = ("from chupai.chinese_ten.game import first_player\nfrom chupai.chinese_ten import Rules\n"
            "try:\n    first_player(Rules(), 0, 0)\nexcept ValueError as e:\n    print('refused:', e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.startswith("refused: the pagat variant is played by ")
    assert out.stdout.rstrip().endswith("players, not 0")
    from chupai.chinese_ten.game import first_player

    assert first_player(chinese_ten.Rules(), 4, 3) == 0
    with pytest.raises(ValueError, match="dealer"):
        first_player(chinese_ten.Rules(), 4, 4)
    with pytest.raises(TypeError, match="players"):
        first_player(chinese_ten.Rules(), "4", 0)


def _small_hands(i):
    return ["3S 4S 5S", "6S 7S 8S", "9S TS JS", "QS KS AS"]


def test_a_guandan_match_of_given_hands_pickles_with_its_function():
    """``Match(hands=f)`` (the old ``dealer=f``) rebuilds from ``f`` when ``f`` pickles."""
    m = guandan.Match(seed=3, hands=_small_hands, max_deals=2)
    m.apply(m.legal_actions()[0])
    again = pickle.loads(pickle.dumps(m))
    assert again.observation(0) == m.observation(0) and again.legal_actions() == m.legal_actions()
