"""The shared layer the games reuse: Play machinery, batch playouts, state helpers,
timing loops and the registry of games."""

import numpy as np
import pytest

from chupai import chinese_ten, gandengyan, guandan
from chupai.engine import batch
from chupai.state import base as state_base
from chupai import registry
from chupai.core.play import PlayBase, RecordPlay
from chupai.cli import common as cli_common
from chupai.core.seeds import match_deal
from chupai.evaluation.timing import Calls, mean_per_args, median_run, per_call, timed_calls



# --- core.play -------------------------------------------------------------------------------
def test_every_game_play_uses_the_shared_machinery():
    assert issubclass(guandan.Play, RecordPlay) and issubclass(gandengyan.Play, RecordPlay)
    assert issubclass(chinese_ten.Play, PlayBase)
    for cls in (guandan.Play, gandengyan.Play, chinese_ten.Play):
        with pytest.raises(TypeError, match="Play objects come from"):
            cls()


def test_identity_hash_and_class():
    a, b = guandan.classify("7S 7H", "2")[0], guandan.classify("7S 7H", "2")[0]
    assert a is not b and a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != guandan.classify("7S 7H", "3")[0]  # the level is part of the identity
    g = gandengyan.classify("7S 7H")[0]
    assert g == gandengyan.classify("7S 7H")[0] and g != a and a != g
    c = chinese_ten.legal_plays("7D", "3S")[0]
    assert c == chinese_ten.legal_plays("7D", "3S 4S")[0] and hash(c) == hash(chinese_ten.legal_plays("7D", "3S")[0])
    assert repr(c) == "<Play 7D takes 3S>"


def test_declared_and_text_for_both_kinds_of_wild_card():
    (p,) = guandan.classify("3D 4S 7H 6C 7S", "7")
    assert p.wilds == ("5H",)
    assert sorted(p.declared) == sorted(["3D", "4S", "5H", "6C", "7S"])
    assert str(p).endswith("7H(=5H)")
    q = next(p for p in gandengyan.classify("9S TS BJ") if p.rank == "J")
    assert q.wilds == ("JS",) and sorted(q.declared) == sorted(["9S", "TS", "JS"]) and str(q).endswith("BJ(=J)")


# --- engine.batch ------------------------------------------------------------------------------
def test_run_chunks_covers_every_deal_once_whatever_the_threads():
    for threads in (1, 3):
        seen: list[int] = []
        batch.run_chunks(10, 3, lambda a, b, out=seen: out.extend(range(a, b)), threads=threads)
        assert sorted(seen) == list(range(10))
    calls = []
    batch.run_chunks(0, 3, lambda a, b: calls.append((a, b)))
    assert calls == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((-1, 1, "random", 1), "n must"),
        ((1, 1, "random", 0), "threads"),
        ((1, -1, "random", 1), "seed"),
        ((1, 2**64, "random", 1), "seed"),
        ((1, 1, "clever", 1), "policy"),
    ],
)
def test_check_batch(args, message):
    with pytest.raises(ValueError, match=message):
        batch.check_batch(*args, {"random": 0})


@pytest.mark.parametrize(("args", "message"), [
    ((True, 1, "random", 1), "n must be an int"),
    ((1.0, 1, "random", 1), "n must be an int"),
    ((1, 1, "random", "2"), "threads must be an int"),
])
def test_check_batch_types(args, message):
    with pytest.raises(TypeError, match=message):
        batch.check_batch(*args, {"random": 0})


@pytest.mark.parametrize("seed", [None, 1.0, "1"])
def test_check_batch_seed_types(seed):
    with pytest.raises(TypeError, match="seed"):
        batch.check_batch(1, seed, "random", 1, {"random": 0})



# --- state.base ------------------------------------------------------------------------------
def test_state_checks():
    assert state_base.check_seed(np.int64(3)) == 3 and type(state_base.check_seed(np.int64(3))) is int
    assert 0 <= state_base.check_seed(None) < 2**63
    for bad in (True, "1", 1.5):
        with pytest.raises(TypeError, match="seed"):
            state_base.check_seed(bad)
    for bad in (-1, 2**64):
        with pytest.raises(ValueError, match=r"seed must be an int in \[0, 2\*\*64\)"):
            state_base.check_seed(bad)
    assert state_base.check_seat(np.int8(2), 3) == 2
    for bad in (3, -1):
        with pytest.raises(ValueError, match="player must be a seat 0-2"):
            state_base.check_seat(bad, 3)
    for bad in (True, "0"):
        with pytest.raises(TypeError, match="player must be a seat"):
            state_base.check_seat(bad, 3)
    assert state_base.check_players(6, 2, 6) == 6
    with pytest.raises(ValueError, match="players must be an int 2..6"):
        state_base.check_players(7, 2, 6)
    assert state_base.check_rules(None, guandan.Rules, "guandan") == guandan.Rules()
    with pytest.raises(TypeError, match="rules must be a chupai.guandan.Rules or None, not 'pagat'"):
        state_base.check_rules("pagat", guandan.Rules, "guandan")


def test_rng_and_derived_seeds():
    g = np.random.default_rng(1)
    assert state_base.as_rng(g) is g
    assert state_base.as_rng(7).integers(1000) == np.random.default_rng(7).integers(1000)
    with pytest.raises(TypeError, match="rng"):
        state_base.as_rng("x")
    seeds = [match_deal(11, i) for i in range(50)]
    assert len(set(seeds)) == 50 and all(0 <= s < 2**63 for s in seeds)
    assert match_deal(-11, 0) == match_deal(2**64 - 11, 0)
    # computed in C: numpy's SeedSequence([seed, index]), below 2**63, for seeds and
    # indices of one and of two 32-bit words
    rng = np.random.default_rng(3)
    cases = [(0, 0), (2**64 - 1, 2**64 - 1), (2**32, 1), (5, 2**32 + 7)] + \
        [(int(rng.integers(0, 2**63)) >> int(rng.integers(0, 63)), int(rng.integers(0, 9))) for _ in range(500)]
    for seed, index in cases:
        expected = int(np.random.SeedSequence([seed, index]).generate_state(1, np.uint64)[0]) & (2**63 - 1)
        assert match_deal(seed, index) == expected, (seed, index)
    for bad in (1.5, "1", True):
        with pytest.raises(TypeError, match="seed must be an int"):
            match_deal(bad, 0)
        with pytest.raises(TypeError, match="index must be an int"):
            match_deal(1, bad)
    for bad in (-1, 2**64):
        with pytest.raises(ValueError, match="index must be an int in"):
            match_deal(1, bad)


@pytest.mark.parametrize("match", [guandan.Match(seed=1), gandengyan.Match(seed=1, max_deals=2), chinese_ten.Match(seed=1)],
                         ids=["guandan", "gandengyan", "chinese_ten"])
def test_matches_share_the_surface(match):
    assert isinstance(match, state_base.MatchSurface)
    assert match.seed == 1 and match.deal.current_player == match.current_player
    copy = match.determinize(match.current_player, 3)
    assert copy.deal is not match.deal and copy.history == match.history
    match.apply(match.legal_actions()[0])
    assert len(match.history) >= 1 and not match.is_terminal()
    assert match.card_play() is not None or match.deal.phase != "play"


@pytest.mark.parametrize("name", list(registry.GAMES))
def test_deals_share_the_surface(name):
    module = registry.GAMES[name].module()
    assert issubclass(module.Deal, state_base.DealSurface)
    assert not {"rules", "seed", "history"} & set(vars(module.Deal))  # written once, in DealSurface
    deal = module.Deal(5)
    assert not hasattr(deal, "__dict__")  # the slots still hold every attribute
    assert deal.seed == 5 and deal.rules == module.Rules()
    assert deal.hand_sizes() == tuple(len(h) for h in deal.hands)
    copy = deal.clone()
    events = deal.history
    events.append("not an event")  # a copy: the deal is unchanged
    assert deal.history == [] and copy.history == []
    while not deal.is_terminal() and len(deal.history) < 3:
        seat = deal.current_player
        deal.apply(deal.legal_actions()[0])
        made = [e for e in deal.history if not e.automatic]  # (an automatic step may follow)
        assert made[-1][0] == seat
    assert copy.history == [] and copy.current_player == module.Deal(5).current_player
    assert deal.hand_sizes() == tuple(len(h) for h in deal.hands)


def test_cli_helpers_name_the_bad_input(capsys):
    with pytest.raises(ValueError, match="unknown play type 'x-y'; one of single, pair"):
        cli_common.check_type_name(cli_common.type_member_name("x-y"), "x-y", guandan.PlayType)
    cli_common.check_type_name("STRAIGHT_FLUSH", "straight flush", guandan.PlayType)
    seven = guandan.classify("7S", "2")[0]
    assert cli_common.choose_reading("7S", [seven], guandan.PlayType, None, None) is seven
    with pytest.raises(ValueError, match=r"'7S 7H' is not a play at level 2"):
        cli_common.choose_reading("7S 7H", [], guandan.PlayType, None, None, " at level 2")
    with pytest.raises(ValueError, match=r"can be played 2 ways \(1 = single 7: 7S; 2 = single 7: 7S\)"):
        cli_common.choose_reading("7S", [seven, seven], guandan.PlayType, None, None)
    assert cli_common.dump_json([1, "a"]) == 0 and cli_common.print_plays("h:", [], or_pass=True) == 0
    assert capsys.readouterr().out == '[1, "a"]\nh:\n  (or pass)\n'


# --- evaluation.timing and the registry ---------------------------------------------------------------
def test_timing_loops():
    arglists = [(k,) for k in range(20)]
    assert mean_per_args(abs, arglists, 2) > 0
    mean, calls = per_call(abs, arglists, 2)
    assert mean > 0 and len(calls.us) == 20 and calls.sizes == (None,) * 20
    assert timed_calls(divmod, [(7, 2), (9, 4)]).sizes == (2, 2)  # each tuple is one call's arguments
    assert 0 < calls.median <= calls.p99 == max(calls.us)  # fewer than 100 calls: the slowest
    many = Calls(tuple(float(k) for k in range(1, 201)), (None,) * 200)
    assert many.median == 100.5 and many.p99 == pytest.approx(198.01)
    seconds, result = median_run(lambda: 42, 3)
    assert seconds >= 0 and result == 42


def test_registry_names_every_game_once():
    from chupai.evaluation import arena

    assert arena._GAMES == tuple(registry.GAMES) == tuple(p.rpartition(".")[2] for p in registry.PACKAGES)
    assert len(set(registry.PACKAGES)) == len(registry.PACKAGES)
    for entry in registry.GAMES.values():
        module = entry.module()
        assert hasattr(module, "Deal") and hasattr(module, "Match")
        cli = entry.cli_module()
        assert callable(cli.cmd_plays) and callable(cli.cmd_playout) and callable(cli.rules_of)
        assert callable(entry.bench_module().main)
    assert registry.game("guandan").fixed_players and not registry.game("gandengyan").fixed_players
    with pytest.raises(ValueError, match="unknown game"):
        registry.game("chess")


def test_progress_bars_only_on_a_terminal(capsys, monkeypatch):
    """A bar is drawn only when asked and stderr is a terminal (in a log every refresh
    would be kept); the library's batch functions draw none unless asked (the command
    line asks unless --quiet)."""
    import io

    from chupai import arena
    from chupai.cli import main
    from chupai.engine.backends import progress_bar

    assert progress_bar(10, "deal", False).disable
    assert progress_bar(10, "deal", True).disable  # pytest's captured stderr is no terminal

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stderr", Terminal())
    assert not progress_bar(10, "deal", True).disable
    monkeypatch.undo()
    for name in registry.GAMES:
        arena(name, ("random", "greedy"), deals=2, seed=1)
        assert main(["playout", name, "--deals", "50"]) == 0
        assert capsys.readouterr().err == "", name
