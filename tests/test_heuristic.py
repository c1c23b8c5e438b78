"""The compiled heuristic policy of every game (``policy="heuristic"``) and HeuristicBot.

The hook must return a legal play (or pass only where passing is allowed) in every
position, checked against the generator on random positions of every game and table
size; it must be deterministic and leave the state alone, and read nothing the player
to act cannot see (its choice is the same in every determinized world of theirs); and
the name must work everywhere a policy or a bot is named.  Constructed positions pin
the rules each game's heuristic adds to greedy's (Chinese Ten: safe discards, no ace
fed, the contested capture; Gan Deng Yan: when a bomb or a 2 stops an opponent about to
go out, and the single led against a player down to one card).  Its strength is
measured by the ladder (see ``docs/search.md``), not asserted here.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from chupai.registry import GAMES
from chupai.players.bots import HeuristicBot
from chupai.chinese_ten import _engine as ct_engine
from chupai.doudizhu import _engine as ddz_engine
from chupai.doudizhu.rules import Rules as DdzRules
from chupai.gandengyan import _engine as gdy_engine
from chupai.gandengyan.rules import Rules as GdyRules
from chupai.guandan import _engine as gd_engine
from chupai.players.search.registry import BOT_NAMES, make_bot
from chupai.zhengshangyou import _engine as zs_engine

#: fresh deals of each game, over table sizes and options (read for every registered game)
DEALS: dict[str, Callable[[int], Any]] = {
    "guandan": lambda seed: gd_engine.DealEngine.random(seed, level="23456789TJQKA"[seed % 13]),
    "zhengshangyou": lambda seed: zs_engine.DealEngine.random(seed, players=2 + seed % 7),
    "gandengyan": lambda seed: gdy_engine.DealEngine.random(
        seed, players=2 + seed % 5, rules=GdyRules(decks=1 + seed % 2)
    ),
    "chinese_ten": lambda seed: ct_engine.DealEngine.random(seed, players=2 + seed % 3),
    "doudizhu": lambda seed: ddz_engine.DealEngine.random(seed, rules=DdzRules(kicker_rocket=seed % 2 == 0)),
}


def _step(engine: Any, play: Any) -> None:
    if play is None:
        engine.pass_turn()
    else:
        engine.play(play)


def _positions(game: str, deals: int) -> Any:
    """Every position of `deals` deals, each played out by a mix of the random and the
    heuristic policies (so the heuristic meets both ordinary and odd positions)."""
    rng = np.random.default_rng(sum(map(ord, game)))
    for k in range(deals):
        engine = DEALS[game](k)
        while not engine.over:
            yield engine
            policy = "random" if rng.random() < 0.5 else "heuristic"
            _step(engine, engine.policy_choice(policy, int(rng.integers(2**31))))


@pytest.mark.parametrize("game", list(GAMES))
def test_heuristic_choice_is_legal_and_deterministic(game: str) -> None:
    positions = 0
    for engine in _positions(game, 12):
        before = (engine.current, engine.hand_sizes(), [engine.hand(s) for s in range(engine.players)], engine.last_play)
        choice = engine.policy_choice("heuristic", 1)
        assert engine.policy_choice("heuristic", 2) == choice  # no randomness
        assert engine.clone().policy_choice("heuristic") == choice
        assert (engine.current, engine.hand_sizes(), [engine.hand(s) for s in range(engine.players)], engine.last_play) == before
        if choice is None:
            assert engine.can_pass(), f"{game}: the heuristic passes where passing is not allowed"
        else:
            assert engine.is_legal(choice)
            assert choice in list(engine.legal_plays(collapse_suits=True))
        positions += 1
    assert positions > 100


@pytest.mark.parametrize("game", list(GAMES))
def test_heuristic_playouts_finish(game: str) -> None:
    """Whole deals under the heuristic: every one ends; the same seed, the same deal."""
    for k in range(6):
        engine = DEALS[game](100 + k)
        out = engine.playout(k, policy="heuristic")
        assert out == engine.playout(k, policy="heuristic")
        assert not engine.over  # playout plays a copy


@pytest.mark.parametrize("game", list(GAMES))
def test_heuristic_batch_and_evaluate(game: str) -> None:
    engine = DEALS[game](3)
    cands = engine.legal_plays(collapse_suits=True)
    sums = engine.evaluate(cands, engine.can_pass(), 3, 5, policy="heuristic")
    assert sums.shape == (len(cands) + engine.can_pass(),)
    assert np.array_equal(sums, engine.evaluate(cands, engine.can_pass(), 3, 5, policy="heuristic"))
    out = np.zeros((4, engine.batch_width))
    engine._run_chunk(9, 0, 4, "heuristic", out)
    again = np.zeros_like(out)
    engine._run_chunk(9, 0, 4, "heuristic", again)
    assert np.array_equal(out, again)


def test_heuristic_is_not_greedy() -> None:
    """A different policy from greedy: the choices differ in some positions of each game."""
    for game in DEALS:
        differ = sum(engine.policy_choice("heuristic") != engine.policy_choice("greedy") for engine in _positions(game, 4))
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


@pytest.mark.parametrize("game", list(GAMES))
def test_heuristic_bot_plays_whole_deals(game: str) -> None:
    """HeuristicBot through the state machines: legal actions to the end, decisions too."""
    state = GAMES[game].new(4, match=False, rules=None, players=None)
    bot = HeuristicBot()
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        action = bot.choose(state, rng)
        assert action in state.legal_actions()
        state.apply(action)


# --- what the heuristic may see ----------------------------------------------------------
def _world(game: str, engine: Any, seed: int) -> Any:
    """A determinized world of the player to act: the cards they cannot see dealt again."""
    from chupai.doudizhu import _world as ddz_world
    from chupai.gandengyan import _world as gdy_world
    from chupai.guandan import _world as gd_world
    from chupai.zhengshangyou import _world as zs_world

    n, p = engine.players, engine.current
    if game == "guandan":
        return gd_world.world(engine, p, [0] * n, None, None, seed)
    if game == "zhengshangyou":
        return zs_world.world(engine, p, [0] * n, None, None, seed)
    if game == "gandengyan":
        return gdy_world.world(engine, p, [0] * n, seed)
    if game == "doudizhu":  # the kitty's cards the landlord holds are known
        return ddz_world.world(engine, p, [engine.kitty.lo & engine.hand(s).lo if s == engine.landlord else 0
                                           for s in range(n)], seed)
    return engine.determinize(p, seed)


@pytest.mark.parametrize("game", list(GAMES))
def test_heuristic_reads_only_what_the_player_may_know(game: str) -> None:
    """The choice is the same in every world the player cannot tell apart (the other
    hands and the stock or talon dealt again): it never reads where an unseen card is."""
    checked = 0
    for k, engine in enumerate(_positions(game, 6)):
        choice = str(engine.policy_choice("heuristic"))
        for w in range(2):
            assert str(_world(game, engine, 1000 * k + w).policy_choice("heuristic")) == choice
            checked += 1
    assert checked > 100


# --- Chinese Ten: constructed positions ---------------------------------------------------
def _ct(hands: list[str], layout: str, stock: str, piles: list[str]) -> Any:
    return ct_engine.DealEngine.from_hands(hands, layout=layout, stock=stock, piles=piles)


def test_chinese_ten_discards_the_card_nobody_else_can_take() -> None:
    # nothing captures; 2C and QS are worth nothing.  Every other queen is in a pile,
    # so QS on the layout is safe, while the 8s that take 2C are unseen
    engine = _ct(["2C QS", "8S 9C"], "3S 4S JC KS", "5C 6C 7C 8C", ["QH", "QD QC"])
    assert str(engine.policy_choice("greedy")) == "2C to the layout"  # the first of the cheapest
    assert str(engine.policy_choice("heuristic")) == "QS to the layout"
    # with QC unseen instead (the opponent holds it) the queen is no longer safe
    engine = _ct(["2C QS", "8S QC"], "3S 4S JC KS", "5C 6C 7C 8C", ["QH", "QD"])
    assert str(engine.policy_choice("heuristic")) == "2C to the layout"


def test_chinese_ten_does_not_feed_an_ace() -> None:
    # 9S and KS are worth nothing, but a 9 on the layout is taken by the red aces (20 each)
    engine = _ct(["9S KS", "AH 2D"], "3S 4S JC 5H", "AD 6C 7C KC", ["", ""])
    assert str(engine.policy_choice("greedy")) == "9S to the layout"
    assert str(engine.policy_choice("heuristic")) == "KS to the layout"


def test_chinese_ten_takes_the_contested_card() -> None:
    # two captures of no points: 3C takes 7S, 6C takes 4S.  The 6s that could take 4S
    # are unseen, every 3 is in a pile: take the 4 before someone else does
    engine = _ct(["3C 6C", "6S 6H"], "4S 7S", "6D 2C 2D 2H", ["3S 3H 3D 7H 7D 7C", "4H 4D 4C"])
    assert str(engine.policy_choice("greedy")) == "3C takes 7S"
    assert str(engine.policy_choice("heuristic")) == "6C takes 4S"
    # the other way round: the 3s unseen, the 6s seen
    engine = _ct(["3C 6C", "3S 3H"], "4S 7S", "3D 2C 2D 2H", ["6S 6H 6D 7H 7D 7C", "4H 4D 4C"])
    assert str(engine.policy_choice("heuristic")) == "3C takes 7S"


# --- Gan Deng Yan: constructed positions --------------------------------------------------
def _gdy_after_lead(hands: list[str], talon: str, lead: str) -> Any:
    """Seat 0 has led `lead` (its cards); seat 1 is to follow."""
    engine = gdy_engine.DealEngine.from_hands(hands, current=0, talon=talon)
    engine.play(next(p for p in engine.legal_plays() if str(p.cards) == lead))
    return engine


def test_gandengyan_bombs_only_a_player_about_to_go_out() -> None:
    # seat 0 keeps two cards after its lead.  While the talon lasts it draws a third
    # before leading again: not worth the bomb; with the talon empty it is
    hands = ["5C KS QH", "7S 7H 7D 3C 9D", "4D 8C JC"]
    assert _gdy_after_lead(hands, "3D 4S 6H", "5C").policy_choice("heuristic") is None
    engine = _gdy_after_lead(hands, "", "5C")
    assert str(engine.policy_choice("heuristic")) == "three bomb 7: 7S 7H 7D"


def test_gandengyan_stops_the_next_player_with_one_card() -> None:
    # the 2 would be kept, unless the next player (one card) may follow the single
    engine = _gdy_after_lead(["5C KS QH 8H 9S", "2S 3C 9D TD", "JC"], "3D 4S 6H", "5C")
    assert str(engine.policy_choice("heuristic")) == "single 2: 2S"
    engine = _gdy_after_lead(["5C KS QH 8H 9S", "2S 3C 9D TD", "JC QD"], "3D 4S 6H", "5C")
    assert engine.policy_choice("heuristic") is None


def test_gandengyan_leads_the_single_a_one_card_player_can_least_follow() -> None:
    # three unseen 5s follow the 4, one unseen T the 9: with seat 1 down to one card
    # lead the 9 (the burden alone, and greedy, lead the 4)
    engine = gdy_engine.DealEngine.from_hands(["4S 9H", "5D", "5C 5H TS KD"], current=0)
    assert str(engine.policy_choice("greedy")) == "single 4: 4S"
    assert str(engine.policy_choice("heuristic")) == "single 9: 9H"
    engine = gdy_engine.DealEngine.from_hands(["4S 9H", "5D 6C", "5C 5H TS KD"], current=0)
    assert str(engine.policy_choice("heuristic")) == "single 4: 4S"
