"""The compiled engine base shared by the four games (chupai.engine.base).

The tests check the base's contract on every game: copies, pickling, batches,
validation, constants, and the checks of every argument Python can reach.
"""
from __future__ import annotations

import copy
import importlib
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from chupai import Cards
from chupai.core.records import PLAY_DTYPE
from chupai.engine.base import DEAL_OVER, Engine, NotAPlayError
from chupai.registry import GAMES as REGISTRY
from chupai.errors import IllegalActionError
from chupai.guandan import _engine as gd_engine

GAMES = list(REGISTRY)
#: each game's compiled engine module
ENGINES = {name: importlib.import_module(f"{entry.package}._engine") for name, entry in REGISTRY.items()}


def fresh(game: str, seed: int = 7) -> Any:
    return ENGINES[game].DealEngine.random(seed)


def advance(engine: Any, steps: int, seed: int = 0) -> Any:
    """Make `steps` moves of the C random policy (fewer if the deal ends)."""
    for k in range(steps):
        if engine.over:
            break
        play = engine.policy_choice("random", seed + k)
        if play is None:
            engine.pass_turn()
        else:
            engine.play(play)
    return engine


def mid_deal(game: str) -> Any:
    engine = advance(fresh(game), 9)
    assert not engine.over
    return engine


def snapshot(engine: Any) -> tuple[Any, ...]:
    return (repr(engine), engine.current, engine.hand_sizes(), [engine.hand(s) for s in range(engine.players)],
            engine.legal_plays().to_numpy().tobytes(), engine.can_pass(), engine.returns())


def finished(game: str) -> Any:
    engine = fresh(game)
    while not engine.over:
        advance(engine, 50)
    return engine


# --- one base ---------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_every_dealcore_is_an_engine_and_writes_no_mechanism_itself(game: str) -> None:
    cls = ENGINES[game].DealEngine
    assert issubclass(cls, Engine)
    for name in ("clone", "playout", "policy_choice", "evaluate", "play", "pass_turn", "legal_plays",
                 "can_pass", "hand", "hand_sizes", "current", "last_play", "_run_chunk", "__reduce__"):
        assert name not in vars(cls), f"{game}.DealEngine defines {name} again"


@pytest.mark.parametrize("game", GAMES)
def test_the_deal_is_over_is_spelled_one_way(game: str) -> None:
    engine = finished(game)
    plays = fresh(game).legal_plays()
    for action in (lambda: engine.play(plays[0]), engine.pass_turn, engine.policy_choice,
                   lambda: engine.evaluate(plays, False, 1, 0)):
        with pytest.raises(IllegalActionError) as err:
            action()
        assert str(err.value) == DEAL_OVER


# --- one validation path ----------------------------------------------------------------------
def forged(engine: Any, play: Any, **fields: Any) -> Any:
    """A copy of `play` with some record fields changed (through the private factory)."""
    rec = play._lo, play._hi, play._type, play._key, play._length, play._cls, play._decl, play._context
    names = ["lo", "hi", "type_", "key", "length", "cls_", "decl", "context"]
    args = dict(zip(names, rec)) | fields
    return type(play)._from_record(*[args[n] for n in names])


@pytest.mark.parametrize("game", ["guandan", "zhengshangyou", "gandengyan"])
def test_a_forged_record_is_refused(game: str) -> None:
    """A Play whose fields claim more than its cards (a single with a higher key) is not
    a play the generator lists: play() refuses it (Zheng Shangyou trusted the fields)."""
    engine = fresh(game)
    single = next(p for p in engine.legal_plays() if p.type.name == "SINGLE")
    before = snapshot(engine)
    for fake in (forged(engine, single, key=single._key + 1), forged(engine, single, length=2),
                 forged(engine, single, cls_=single._cls + 1)):
        assert not engine.is_legal(fake)
        with pytest.raises(IllegalActionError):
            engine.play(fake)
    assert snapshot(engine) == before
    engine.play(single)


def test_guandan_evaluate_refuses_a_pair_on_a_single() -> None:
    """Issue 9: Guan Dan's evaluate() played out a pair candidate on a single lead."""
    from chupai.guandan import legal_plays

    engine = gd_engine.DealEngine.from_hands(["3S", "5S 5D 7C", "9S 9D", "KS"], current=0)
    engine.play(engine.legal_plays()[0])             # seat 0 leads the single 3S and goes out
    leads = legal_plays(engine.hand(1), "2")
    pairs = leads.take([i for i, p in enumerate(leads) if p.type.name == "PAIR"])
    assert len(pairs) == 1 and engine.current == 1
    with pytest.raises(IllegalActionError, match="candidate 0"):
        engine.evaluate(pairs, False, 4, seed=1)
    assert len(engine.evaluate(engine.legal_plays(), True, 2, seed=1)) == len(engine.legal_plays()) + 1


@pytest.mark.parametrize("game", ["guandan", "zhengshangyou"])
def test_evaluate_refuses_candidates_that_do_not_beat_the_table(game: str) -> None:
    """Issue 16 #7: candidates that do not beat the play on the table are refused."""
    mod = importlib.import_module(f"chupai.{game}")
    engine = ENGINES[game].DealEngine.from_hands(["8S 3D", "5S 9D", "4S", "6S"], current=0)
    engine.play(next(p for p in engine.legal_plays() if str(p.cards) == "8S"))
    leads = mod.legal_plays("5S 9D", "2") if game == "guandan" else mod.legal_plays("5S 9D")
    low = [i for i, p in enumerate(leads) if str(p.cards) == "5S"]
    with pytest.raises(IllegalActionError, match="candidate 0"):
        engine.evaluate(leads.take(low), False, 2, seed=3)
    high = [i for i, p in enumerate(leads) if str(p.cards) == "9D"]
    assert engine.evaluate(leads.take(high), True, 2, seed=3).shape == (2,)


@pytest.mark.parametrize("game", GAMES)
def test_a_play_of_another_game_is_refused_naming_the_class(game: str) -> None:
    engine = mid_deal(game)
    other = fresh("zhengshangyou" if game == "guandan" else "guandan")
    before = snapshot(engine)
    for bad in (other.legal_plays()[0], "3S", None):
        with pytest.raises(NotAPlayError, match=f"{game}.Play"):
            engine.play(bad)
        assert isinstance(NotAPlayError("x"), TypeError) and isinstance(NotAPlayError("x"), IllegalActionError)
    with pytest.raises(TypeError, match=f"{game} plays"):
        engine.evaluate(other.legal_plays(), False, 1, 0)
    assert snapshot(engine) == before


@pytest.mark.parametrize("game", GAMES)
def test_is_legal_agrees_with_the_generator(game: str) -> None:
    engine = mid_deal(game)
    for p in engine.legal_plays():
        assert engine.is_legal(p)
    for p in engine.legal_plays(collapse_suits=True):
        assert engine.is_legal(p)


# --- copies and pickling ----------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("how", ["pickle", "deepcopy", "copy", "clone"])
def test_copies_round_trip_mid_deal_and_are_independent(game: str, how: str) -> None:
    engine = mid_deal(game)
    makers: dict[str, Callable[[Any], Any]] = {
        "pickle": lambda c: pickle.loads(pickle.dumps(c)), "deepcopy": copy.deepcopy,
        "copy": copy.copy, "clone": lambda c: c.clone()}
    twin = makers[how](engine)
    assert type(twin) is type(engine) and twin is not engine
    assert snapshot(twin) == snapshot(engine)
    assert twin.playout(5, "greedy") == engine.playout(5, "greedy")
    assert twin.rules == engine.rules
    before = snapshot(engine)
    advance(twin, 3)
    assert snapshot(engine) == before


def test_chinese_ten_pickle_keeps_the_redeals() -> None:
    from chupai.chinese_ten import Rules

    rules = Rules(variant="main_merah")
    engine = next(c for c in (ENGINES["chinese_ten"].DealEngine.random(s, players=3, rules=rules) for s in range(500)) if c.redeals)
    assert pickle.loads(pickle.dumps(engine)).redeals == engine.redeals == engine.clone().redeals == copy.deepcopy(engine).redeals


@pytest.mark.parametrize("game", GAMES)
def test_corrupted_pickles_are_refused(game: str) -> None:
    engine = mid_deal(game)
    fn, (cls, tag, version, state, rules, extra) = engine.__reduce__()
    assert fn(cls, tag, version, state, rules, extra).current == engine.current
    with pytest.raises(ValueError, match="deal, not"):
        fn(cls, "guandan" if game != "guandan" else "chinese_ten", version, state, rules, extra)
    with pytest.raises(ValueError, match="version"):
        fn(cls, tag, version + 1, state, rules, extra)
    with pytest.raises(ValueError, match="bytes"):
        fn(cls, tag, version, state[:-1], rules, extra)
    with pytest.raises(TypeError, match="Rules"):
        fn(cls, tag, version, state, "pagat", extra)
    # every byte set to 0xFF: seats, masks and counts out of range
    with pytest.raises(ValueError, match="not a valid"):
        fn(cls, tag, version, b"\xff" * len(state), rules, extra)
    # one flipped byte at a time never yields an out-of-range state that loads
    rng = np.random.default_rng(1)
    for pos in rng.choice(len(state), size=min(64, len(state)), replace=False):
        bad = bytearray(state)
        bad[pos] ^= 0x80
        try:
            loaded = fn(cls, tag, version, bytes(bad), rules, extra)
        except ValueError:
            continue
        loaded.legal_plays()
        loaded.playout(1)
        loaded.clone()


def test_a_corrupted_trick_play_is_refused() -> None:
    """The trick's last play must be a play the generator lists (its key drives the
    follow generator's tables): a pickled single 3S claiming key 200 is refused."""
    engine = gd_engine.DealEngine.from_hands(["3S 4S", "5S 5D 7C", "9S 9D", "KS"], current=0)
    three = next(p for p in engine.legal_plays() if str(p.cards) == "3S")
    engine.play(three)
    fn, (cls, tag, version, state, rules, extra) = engine.__reduce__()
    record = three._lo.to_bytes(8, "little") + bytes(16) + bytes([three._type, three._key])
    at = state.find(record)
    assert at >= 0 and state.find(record, at + 1) < 0
    raw = bytearray(state)
    raw[at + PLAY_DTYPE.fields["key"][1]] = 200
    with pytest.raises(ValueError, match="not a valid guandan deal"):
        fn(cls, tag, version, bytes(raw), rules, extra)


# --- batches ----------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_batch_playouts_do_not_depend_on_threads(game: str) -> None:
    playouts = importlib.import_module(f"chupai.{game}.playouts").playouts
    a = playouts(2500, seed=11, threads=1, policy="greedy")
    b = playouts(2500, seed=11, threads=2, policy="greedy")
    for x, y in zip(a, b):
        assert x.dtype == y.dtype and np.array_equal(x, y)


@pytest.mark.parametrize("game", GAMES)
def test_run_chunk_checks_its_arguments(game: str) -> None:
    """Issue 16 #2: Guan Dan's _run_chunk wrote past its arrays for a stop beyond them."""
    engine = fresh(game)
    w = engine.batch_width
    out = np.zeros((10, w))
    engine._run_chunk(1, 0, 10, "random", out)
    assert out.any()
    for start, stop in [(0, 11), (-1, 5), (6, 5), (0, 10**9)]:
        with pytest.raises(ValueError, match="start and stop"):
            engine._run_chunk(1, start, stop, "random", out)
    with pytest.raises(ValueError, match="columns"):
        engine._run_chunk(1, 0, 5, "random", np.zeros((10, w + 1)))
    with pytest.raises(ValueError):
        engine._run_chunk(1, 0, 5, "random", np.zeros((10, w), dtype=np.int8))
    with pytest.raises(ValueError, match="policy"):
        engine._run_chunk(1, 0, 5, "best", out)
    # a worker's own array: row 0 is deal `first`, the rows equal the whole batch's
    part = np.zeros((4, w))
    engine._run_chunk(1, 6, 10, "random", part, 6)
    np.testing.assert_array_equal(part, out[6:10])
    for start, stop, first in [(5, 8, 6), (6, 11, 6), (0, 4, -1)]:
        with pytest.raises(ValueError, match="start and stop"):
            engine._run_chunk(1, start, stop, "random", part, first)


def test_guandan_levels_out_of_range_are_refused() -> None:
    """Issue 16 #2: a level of 200 reached the kernels (shift exponent 801)."""
    with pytest.raises(ValueError, match="level"):
        gd_engine.DealEngine.random(0, level=200)
    with pytest.raises(ValueError, match="level"):
        gd_engine.DealEngine.from_hands(["3S", "4S", "5S", "6S"], level=-1)


# --- playouts refuse other games' states ------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_playout_refuses_another_games_state_naming_the_class(game: str) -> None:
    playout = importlib.import_module(f"chupai.{game}.playouts").playout
    other = importlib.import_module(f"chupai.{'zhengshangyou' if game == 'guandan' else 'guandan'}")
    for bad in (other.Deal(1), None, fresh(game)):
        with pytest.raises(TypeError, match=f"{game}.Deal or {game}.Match"):
            playout(bad, seed=1)


# --- records and constants --------------------------------------------------------------------
def test_play_dtype_is_derived_from_the_struct() -> None:
    names = list(PLAY_DTYPE.names)
    assert names == ["lo", "hi", "taken", "type", "key", "length", "cls", "nwild", "flags", "decl"]
    offsets = [PLAY_DTYPE.fields[n][1] for n in names]
    assert offsets == sorted(offsets) and PLAY_DTYPE.itemsize >= offsets[-1] + PLAY_DTYPE.fields["decl"][0].itemsize


@pytest.mark.parametrize("game", GAMES)
def test_every_records_cards_read_back_with_from_masks(game: str) -> None:
    """Issue 9: Chinese Ten kept captures in `hi` ("held twice" elsewhere)."""
    engine = mid_deal(game)
    while not engine.legal_plays():  # a player who cannot beat the trick passes
        engine.pass_turn()
    plays = engine.legal_plays()
    rows = plays.to_numpy()
    assert len(rows) == len(plays) > 0
    for row, play in zip(rows, plays):
        assert Cards.from_masks(int(row["lo"]), int(row["hi"])) == play.cards
    if game == "chinese_ten":
        assert all(int(r["taken"]) == p.captured.lo for r, p in zip(rows, plays))
    else:
        assert not rows["taken"].any()


@pytest.mark.parametrize("game", GAMES)
def test_python_constants_equal_their_c_declarations(game: str) -> None:
    mods = {"play": importlib.import_module(f"chupai.{game}.play"),
            "rules": importlib.import_module(f"chupai.{game}.rules")}
    table = ENGINES[game].C_CONSTANTS
    assert table
    for name, c_value in table.items():
        module, _, rest = name.partition(".")
        if "[" in rest:
            attr, _, index = rest[:-1].partition("[")
            parts = index.split(",")
            key = getattr(mods["play"], "PlayType")[parts[0]]
            value = getattr(mods[module], attr)[(key, int(parts[1])) if len(parts) > 1 else key]
        else:
            value = mods[module]
            for part in rest.split("."):
                value = getattr(value, part)
        assert int(value) == c_value, name


# --- Zheng Shangyou's play limit --------------------------------------------------------------
def test_zhengshangyou_dealcore_reports_the_play_limit_like_legal_plays() -> None:
    """Issue 16 #6: the 20M-play limit read "the play buffer could not grow"."""
    engine = ENGINES["zhengshangyou"].DealEngine.from_hands([Cards.from_counts([1] * 53 + [0]), "RJ"], current=0)
    with pytest.raises(MemoryError, match="collapse_suits=True"):
        engine.legal_plays()
    assert len(engine.legal_plays(collapse_suits=True)) > 0


# --- constructors -----------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_constructors_share_one_shape(game: str) -> None:
    cls = ENGINES[game].DealEngine
    engine = cls.random(3, rules=None)
    assert cls.random(3).hand_sizes() == engine.hand_sizes()
    with pytest.raises(TypeError):
        cls.random(3, None)          # everything after the seed is a keyword
    hands = [engine.hand(s) for s in range(engine.players)]
    extra: dict[str, Any] = {}
    if game == "chinese_ten":
        extra = {"layout": engine.layout, "stock": engine.stock()}
    made = cls.from_hands(hands, current=engine.current, **extra)
    assert made.current == engine.current and made.hand_sizes() == engine.hand_sizes()
    with pytest.raises(ValueError, match="current"):
        cls.from_hands(hands, current=engine.players, **extra)
    with pytest.raises(TypeError, match="current"):
        cls.from_hands(hands, current="0", **extra)
