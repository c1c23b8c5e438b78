"""The compiled Play base shared by the four games: records checked where they enter
compiled code, values, hashing and immutability, ``classify`` returning plays
everywhere, argument types, another game's play refused by name, and the one bound on a
concrete list."""
import copy
import gc
import pickle
import random

import pytest

from chupai import chinese_ten, doudizhu, gandengyan, guandan, zhengshangyou
from chupai.cards import Cards
from chupai.core import play as play_machinery
from chupai.registry import GAMES as REGISTRY

#: per registered game: ``legal_plays`` with the position's other arguments fixed
#: (``f(hand, previous=None, **options)``), a hand to lead from, and whether a play
#: follows one to beat (a fishing game has none)
POSITIONS = {
    "guandan": (lambda hand, previous=None, **kw: guandan.legal_plays(hand, "7", previous, **kw),
                "3D 4S 5C 6H 7S 7H 8S 8D BJ", True),
    "zhengshangyou": (zhengshangyou.legal_plays, "3S 4S 5D 5H 6C BJ", True),
    "gandengyan": (gandengyan.legal_plays, "3S 4S 5D 5H 6C BJ", True),
    "chinese_ten": (lambda hand, previous=None, **kw: chinese_ten.legal_plays(hand, "QD 3S 3H 6C", **kw),
                    "7D AH QS", False),
    "doudizhu": (doudizhu.legal_plays, "3S 4S 5D 5H 6C BJ", True),
}
GAMES = [entry.module() for entry in REGISTRY.values()]
SHEDDING = [game for game in GAMES if POSITIONS[game.GAME.name][2]]


def sample(game):
    """A few plays of the game: a lead's PlayList."""
    legal_plays, hand, _ = POSITIONS[game.GAME.name]
    return legal_plays(hand)


def follow(game, hand, previous, **kw):
    return POSITIONS[game.GAME.name][0](hand, previous, **kw)


# --- the compiled base ---------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.__name__)
def test_plays_are_compiled_records(game):
    plays = sample(game)
    assert issubclass(game.Play, play_machinery.PlayRecord) and len(plays) > 1
    for p in plays:
        assert type(p) is game.Play and isinstance(p, play_machinery.PlayBase)
        assert game.Play._from_record(*p._record()) == p
        assert p.type is game.PlayType(p._type)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.__name__)
def test_plays_are_immutable_values(game):
    plays = sample(game)
    again = sample(game)
    for p, q in zip(plays, again):
        assert p == q and hash(p) == hash(q) and p is not q and not (p != q)
        with pytest.raises(AttributeError):
            p._key = 3
        with pytest.raises(AttributeError):
            p.anything = 1
        if hasattr(p, "rank"):  # a RecordView, cached in C, is read-only too
            with pytest.raises(AttributeError):
                p.rank = "2"
        assert pickle.loads(pickle.dumps(p)) == p
        assert copy.copy(p) is p and copy.deepcopy(p) is p
    assert len(set(plays)) == len(plays)
    with pytest.raises(TypeError, match="Play objects come from"):
        game.Play()


def test_plays_of_generators_are_not_cycle_collector_objects():
    """A Play holds only ints: it is untracked, as CPython does for tuples of atoms."""
    assert not any(gc.is_tracked(p) for p in sample(guandan))


def test_playlist_iteration_indexing_and_slices_agree():
    plays = sample(guandan)
    assert list(plays) == [plays[i] for i in range(len(plays))] == plays[:]
    assert list(reversed(list(plays))) == plays[::-1]
    it = iter(plays)
    assert it.__length_hint__() == len(plays) and next(it) == plays[0]


# --- records entering compiled code -------------------------------------------
def test_negative_key_is_refused_when_the_record_is_built():
    """A previous play with a negative key is refused when its record is built (the
    generators index windows by the key)."""
    with pytest.raises(ValueError, match="key = -1 out of range"):
        guandan.Play._from_record(0, 0, int(guandan.PlayType.TUBE), -1, 6, 0, b"", 3)


@pytest.mark.parametrize(
    "fields,error,match",
    [
        ((1 << 60, 0, 1, 0, 1, 0, b"", 0), ValueError, "beyond the 54 faces"),
        ((1, 2, 1, 0, 1, 0, b"", 0), ValueError, "subset"),
        ((1, 0, 99, 0, 1, 0, b"", 0), ValueError, "not a chupai.guandan.play.PlayType"),
        ((1, 0, 1, 256, 1, 0, b"", 0), ValueError, "out of range 0..255"),
        ((1, 0, 1, 0, 1, 0, bytes(11), 0), ValueError, "at most 10"),
        ((1, 0, 1, 0, 1, 0, bytes([60]), 0), ValueError, "not a face"),
        ((1, 0, 1, 0, 1, 0, "", 0), TypeError, "decl must be bytes"),
        (("1", 0, 1, 0, 1, 0, b"", 0), TypeError, "lo must be an int"),
        ((1, 0, 1.0, 0, 1, 0, b"", 0), TypeError, "type must be an int"),
    ],
)
def test_record_fields_are_checked(fields, error, match):
    with pytest.raises(error, match=match):
        guandan.Play._from_record(*fields)


@pytest.mark.parametrize(
    "game,fields",
    [
        (guandan, (0, 0, int(guandan.PlayType.TUBE), 200, 6, 0, b"", 5)),
        (guandan, (0, 0, int(guandan.PlayType.PAIR), 15, 2, 0, b"", 5)),
        (guandan, (0, 0, int(guandan.PlayType.BOMB), 3, 4, 0, b"", 5)),  # class 0 for a bomb
        (zhengshangyou, (1, 0, int(zhengshangyou.PlayType.SET), 200, 2, 2, b"", None)),
        (zhengshangyou, (1, 0, int(zhengshangyou.PlayType.SET), 3, 3, 2, b"", None)),
        # a run longer than its ranks allow, or a length that is not its number of cards
        # (the refusal's message is made from the record's fields alone)
        (zhengshangyou, (0x1110, 0, int(zhengshangyou.PlayType.SEQUENCE), 37, 30, 1, b"", None)),
        (zhengshangyou, (0x1110, 0, int(zhengshangyou.PlayType.SEQUENCE), 37, 4, 1, b"", None)),
        (gandengyan, (0x1110, 0, int(gandengyan.PlayType.SEQUENCE), 1, 30, 0, b"", None)),
        (gandengyan, (0x1110, 0, int(gandengyan.PlayType.SEQUENCE), 3, 60, 0, b"", None)),
        (guandan, (0x1, 0, int(guandan.PlayType.PAIR), 3, 2, 0, b"", 5)),
        (zhengshangyou, (1, 0, int(zhengshangyou.PlayType.SET), 3, 2, 0, b"", None)),
        (gandengyan, (1, 0, int(gandengyan.PlayType.PAIR), 40, 2, 0, b"", None)),
        (gandengyan, (1, 0, int(gandengyan.PlayType.FOUR_BOMB), 3, 4, 0, b"", None)),
    ],
    ids=lambda v: getattr(v, "__name__", None),
)
def test_a_previous_play_that_no_game_makes_is_refused(game, fields):
    previous = game.Play._from_record(*fields)
    with pytest.raises(ValueError, match="is not a .* play"):
        follow(game, "3S 4S 5S 6S 7S 8S", previous)


# --- another game's play, argument types ------------------------------------------
@pytest.mark.parametrize("game", SHEDDING, ids=lambda g: g.__name__)
def test_a_play_of_another_game_names_the_game_and_class(game):
    name = game.__name__
    for other in GAMES:
        if other is game:
            continue
        stranger = sample(other)[0]
        with pytest.raises(TypeError, match=rf"previous must be a {name}\.Play or None, not a {other.__name__}\.Play"):
            follow(game, "3S 4S", stranger)
    with pytest.raises(TypeError, match="previous must be"):
        follow(game, "3S 4S", "3S")


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.__name__)
@pytest.mark.parametrize("flag", ["yes", 1, None])
def test_collapse_suits_must_be_a_bool(game, flag):
    with pytest.raises(TypeError, match="collapse_suits must be True or False"):
        follow(game, "4D", None, collapse_suits=flag)


@pytest.mark.parametrize("game", SHEDDING, ids=lambda g: g.__name__)
def test_hands_of_the_wrong_type(game):
    for hand in (None, b"3S"):
        with pytest.raises(TypeError, match="hand must be"):
            follow(game, hand, None)


# --- classify: a list of plays in every game --------------------------------------------------
def test_classify_returns_plays_in_every_game():
    assert [str(p) for p in guandan.classify("7S 7D", "2")] == ["pair 7: 7S 7D"]
    assert [str(p) for p in zhengshangyou.classify("7S 7D")] == ["pair 7: 7S 7D"]
    assert [str(p) for p in gandengyan.classify("7S 7D")] == ["pair 7: 7S 7D"]
    assert chinese_ten.classify("7S", "3H") == [p for p in chinese_ten.legal_plays("7S", "3H") if p.is_capture]
    assert chinese_ten.classify("AS", "AD") == []
    assert [p.type for p in chinese_ten.classify("5C", "5S 5H 5D")] == [chinese_ten.PlayType.TRIPLE]


# --- the shared bound on a concrete list -------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("game", [gandengyan, zhengshangyou], ids=lambda g: g.__name__)
def test_a_whole_deck_stops_with_one_clear_memory_error(game):
    """A whole deck in one hand ends at the one bound on a concrete list with one clear
    MemoryError (and the suit-collapsed list stays small)."""
    with pytest.raises(MemoryError, match=r"more than 20,000,000 plays in one list: use collapse_suits=True"):
        game.legal_plays(Cards.from_counts([1] * 54))
    assert len(game.legal_plays(Cards.from_counts([1] * 54), collapse_suits=True)) > 0


def test_the_games_that_cannot_reach_the_bound():
    """Guan Dan's 108 cards and Chinese Ten's whole deck stay far below it."""
    assert len(guandan.legal_plays(Cards.from_counts([2] * 54), "2")) == 135070
    assert len(chinese_ten.legal_plays(Cards.from_counts([1] * 26 + [0] * 28), Cards.from_counts([0] * 26 + [1] * 26 + [0] * 2))) < 200


# --- the declared view may hold a face more than twice ------------------------------------------
def test_declared_view_of_two_copies_and_a_wild():
    rng = random.Random(5)
    plays = guandan.legal_plays("TH TH 7H 7H TS", "7")
    bombs = [p for p in plays if p.type == guandan.PlayType.BOMB]
    assert bombs and all(len(p.declared) == len(p.cards) for p in plays)
    assert any(p.declared.count("TH") == 4 for p in bombs)
    p = rng.choice(bombs)
    assert pickle.loads(pickle.dumps(p.declared)) == p.declared
