"""Information-set MCTS (chupai.players.search): tree statistics, determinism, keys, outcomes,
legal play in full games of every game, tree reuse, root parallelism, errors."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from chupai.registry import GAMES, game_of
from chupai.actions import PASS
from chupai.players.bots import GreedyBot, ISMCTSBot, RandomBot
from chupai.players.search import ISMCTS, Node, make_bot
from chupai.players.search.ismcts import engine_actions, root_actions
from chupai.players.search.registry import parse_budget

GAME_NAMES = list(GAMES)


def new_state(game: str, seed: int, match: bool = False) -> Any:
    entry = GAMES[game]
    cls = entry.module().Match if match else entry.module().Deal
    return cls(seed) if entry.fixed_players else cls(seed, players=4)


def advance(state: Any, moves: int, seed: int = 0) -> Any:
    """``state`` after up to ``moves`` random actions (stops before the end)."""
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        actions = state.legal_actions()
        probe = state.clone()
        a = actions[int(rng.integers(len(actions)))]
        probe.apply(a)
        if probe.is_terminal():
            break
        state.apply(a)
    return state


def walk(node: Node, is_root: bool = True) -> list[tuple[Node, bool]]:
    out = [(node, is_root)]
    for ch in node.children.values():
        out.extend(walk(ch, False))
    return out


# -- tree statistics -----------------------------------------------------------------------
@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("moves", [0, 9])
@pytest.mark.parametrize("per_world", [1, 4])
def test_tree_statistics(game: str, moves: int, per_world: int) -> None:
    state = advance(new_state(game, 11), moves)
    search = ISMCTS(iterations_per_world=per_world)
    tree = search.new_tree(state)
    n = 300
    result = search.search(state, iterations=n, seed=5, tree=tree)
    root = tree.root
    assert result.iterations == n and root.visits == n
    assert sum(s.visits for s in result.stats) == n
    keys, actions = root_actions(state)
    assert [s.action for s in result.stats] == actions
    # each root action is available in every world: a child made at iteration t (the
    # t-th distinct one, all made first) has been available n - t + 1 times
    made = sorted((ch.avail for ch in root.children.values()), reverse=True)
    assert made == list(range(n, n - len(made), -1))
    limit = len(keys) if state.card_play() is None else min(len(keys), 24)
    assert len(root.children) == min(limit, n)
    for node, is_root in walk(root):
        kids = list(node.children.values())
        if kids:
            # the root is never a leaf; any other node ended exactly one iteration (its
            # expansion) and passed every other one on to a child
            assert node.visits == sum(c.visits for c in kids) + (0 if is_root else 1)
        for c in kids:
            assert 1 <= c.visits <= c.avail <= node.visits
            assert tree.low - 1e-9 <= c.total / c.visits <= tree.high + 1e-9
            assert c.player >= 0
        if not is_root and not kids:
            assert node.visits >= 1


@pytest.mark.parametrize("game", GAME_NAMES)
def test_players_of_nodes(game: str) -> None:
    """A child's player is the seat that chose its action: the root's children are the
    observer's, and below them each node's player is the seat to move in the world."""
    state = new_state(game, 4)
    search = ISMCTS()
    tree = search.new_tree(state)
    search.search(state, iterations=200, seed=1, tree=tree)
    assert {c.player for c in tree.root.children.values()} == {state.current_player}
    # replay one path in the real deal as far as its actions are legal there
    world = state.clone()
    node = tree.root
    while node.children and not world.is_terminal():
        nxt = max(node.children.values(), key=lambda c: c.visits)
        if nxt.action not in world.legal_actions():
            break  # an action of another world's hidden cards
        assert nxt.player == world.current_player
        world.apply(nxt.action)
        node = nxt


def test_availability_below_the_root() -> None:
    """Below the root an action is available only in some worlds: its avail counts the
    passes through its parent in which it was legal, not all of them."""
    state = new_state("guandan", 2)
    search = ISMCTS()
    tree = search.new_tree(state)
    search.search(state, iterations=600, seed=2, tree=tree)
    partial = [
        c for node, is_root in walk(tree.root) if not is_root for c in node.children.values()
        if c.avail < node.visits - 1
    ]
    assert partial  # opponents' hands differ between worlds


@pytest.mark.parametrize("game", GAME_NAMES)
def test_root_order_and_candidates(game: str) -> None:
    """The root tries the greedy policy's choice first, then passing, then the rest of
    root_order, and considers at most max_candidates plays during card play."""
    from chupai.players.search.ismcts import root_order

    for moves in (0, 3, 12):
        state = advance(new_state(game, 13), moves)
        keys, actions = root_actions(state)
        order = root_order(state, actions)
        assert sorted(order) == list(range(len(actions)))
        engine = state.card_play()
        if engine is None:
            assert order == list(range(len(actions)))
            continue
        greedy = GreedyBot().choose(state, np.random.default_rng(0))
        assert actions[order[0]] == greedy
        if engine.can_pass() and greedy is not PASS:
            assert actions[order[1]] is PASS
        for k in (1, 2, 3):
            r = ISMCTS(max_candidates=3).search(state, iterations=k, seed=0)
            assert {s.action for s in r.stats if s.visits} == {actions[i] for i in order[:k]}
        r = ISMCTS(max_candidates=3).search(state, iterations=30, seed=0)
        assert {s.action for s in r.stats if s.visits} <= {actions[i] for i in order[:3]}
        assert ISMCTS(max_candidates=None).search(state, iterations=1, seed=0).action == greedy


# -- determinism ---------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAME_NAMES)
def test_deterministic_for_a_seed(game: str) -> None:
    state = advance(new_state(game, 3), 5)
    a = ISMCTS().search(state, iterations=150, seed=42)
    b = ISMCTS().search(state, iterations=150, seed=42)
    assert a.stats == b.stats and a.action == b.action
    results = {ISMCTS().search(state, iterations=150, seed=s).stats for s in range(4)}
    assert len(results) > 1  # the seed matters


def test_bot_deterministic_for_an_rng() -> None:
    state = new_state("guandan", 8)
    picks = {ISMCTSBot(200).choose(state, np.random.default_rng(3)) for _ in range(2)}
    assert len(picks) == 1


# -- keys and outcomes ---------------------------------------------------------------------
@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("collapse", [True, False])
def test_record_keys_are_play_values(game: str, collapse: bool) -> None:
    """Equal plays have equal record keys and different plays different ones, across the
    listings of many states (the tree keys plays by record)."""
    seen: dict[Any, Any] = {}
    for seed in range(4):
        state = new_state(game, seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            engine = state.card_play()
            if engine is not None:
                keys, plays = engine_actions(engine, collapse)
                assert len(keys) == len(plays) + engine.can_pass()
                assert len(set(keys)) == len(keys)
                for k, p in zip(keys, plays):
                    assert seen.setdefault(k, p) == p
                if engine.can_pass():
                    assert keys[-1] is PASS
            actions = state.legal_actions()
            state.apply(actions[int(rng.integers(len(actions)))])
    by_play: dict[Any, Any] = {}
    for k, p in seen.items():
        assert by_play.setdefault(p, k) == k


@pytest.mark.parametrize("game", GAME_NAMES)
def test_root_actions_are_legal(game: str) -> None:
    for moves in (0, 7, 20):
        state = advance(new_state(game, 6), moves)
        legal = state.legal_actions()
        _, actions = root_actions(state, collapse_suits=False)
        assert sorted(map(repr, actions)) == sorted(map(repr, legal))
        _, collapsed = root_actions(state)
        assert all(a in legal for a in collapsed)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_outcome_matches_deal_returns(game: str) -> None:
    """The playout outcome of the engine equals the Deal's returns at the same end."""
    outcome = GAMES[game].outcome
    for seed in range(6):
        state = new_state(game, seed)
        rng = np.random.default_rng(seed)
        while True:
            actions = state.legal_actions()
            a = actions[int(rng.integers(len(actions)))]
            engine = state.card_play()
            engine = engine.clone() if engine is not None else None  # Chinese Ten's is live
            state.apply(a)
            if state.is_terminal():
                break
        assert engine is not None
        if a is PASS:
            engine.pass_turn()
        else:
            engine.play(a)
        assert engine.current < 0
        assert outcome(state.rules, engine.playout(seed, "random")) == pytest.approx(state.returns())
    assert game_of(state) is GAMES[game]


def test_game_of_refuses_other_objects() -> None:
    with pytest.raises(TypeError, match="registered game"):
        game_of(object())


# -- full games ----------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("match", [False, True])
def test_bot_plays_legal_actions_to_the_end(game: str, match: bool) -> None:
    state = new_state(game, 21, match)
    bot = ISMCTSBot(25)
    rng = np.random.default_rng(0)
    steps = 0
    while not state.is_terminal() and steps < 350:
        if steps % 2:
            action = bot.choose(state, rng)
            assert action in state.legal_actions()
        else:
            action = RandomBot().choose(state, rng)
        state.apply(action)
        steps += 1
    assert state.is_terminal() or match  # a match may need more than 350 actions


def test_tribute_decisions_go_through_the_search() -> None:
    """In a Guan Dan match the tribute decisions are searched (a SearchResult is made),
    unless the bot is told to leave them to GreedyBot."""
    for decisions, expect in (("search", True), ("greedy", False)):
        match = new_state("guandan", 4, match=True)  # its second deal has tribute choices
        bot = ISMCTSBot(20, decisions=decisions)
        rng = np.random.default_rng(0)
        searched = []
        while match.deals_played < 2 and not match.is_terminal():
            if match.card_play() is None and len(match.legal_actions()) > 1:
                bot.last = None
                action = bot.choose(match, rng)
                assert action in match.legal_actions()
                searched.append(bot.last is not None)
            else:
                action = GreedyBot().choose(match, rng)
            match.apply(action)
        assert searched and all(s == expect for s in searched)


# -- tree reuse ----------------------------------------------------------------------------
def test_tree_reuse_follows_the_history() -> None:
    from chupai.zhengshangyou import Deal

    state = Deal(9, players=2)  # two players: the opponent's reply is often in the tree
    bot = ISMCTSBot(300)
    other = GreedyBot()
    rng = np.random.default_rng(2)
    me = state.current_player
    reused = 0
    while not state.is_terminal():
        if state.current_player == me:
            before = bot._trees.get(me)
            expected = None
            if before is not None:
                node = before.root
                for ev in state.history[len(before.history):]:
                    node = next((c for c in node.children.values() if c.action == ev.action), None)
                    if node is None:
                        break
                expected = node
            visits = expected.visits if expected is not None else 0
            bot.last = None
            action = bot.choose(state, rng)
            assert action in state.legal_actions()
            if bot.last is None:  # a forced move: no search, the tree kept as it was
                assert len(root_actions(state)[1]) == 1 and bot._trees.get(me) is before
                state.apply(action)
                continue
            assert bot.last.reused == visits
            if expected is not None:
                assert bot._trees[me].root is expected
                reused += 1
        else:
            action = other.choose(state, rng)
        state.apply(action)
    assert reused > 0


def test_tree_reuse_refused_for_another_deal() -> None:
    bot = ISMCTSBot(100)
    a, b = new_state("guandan", 1), new_state("guandan", 2)
    bot.choose(a, np.random.default_rng(0))
    seat = a.current_player
    assert seat in bot._trees
    if b.current_player == seat:
        bot.choose(b, np.random.default_rng(0))
        assert bot.last is not None and bot.last.reused == 0
    bot.reset()
    assert not bot._trees
    off = ISMCTSBot(100, reuse=False)
    off.choose(a, np.random.default_rng(0))
    off.choose(a, np.random.default_rng(0))
    assert off.last is not None and off.last.reused == 0


def test_search_continues_a_tree() -> None:
    state = new_state("zhengshangyou", 2)
    search = ISMCTS()
    tree = search.new_tree(state)
    search.search(state, iterations=100, seed=1, tree=tree)
    r = search.search(state, iterations=50, seed=2, tree=tree)
    assert r.reused == 100 and tree.root.visits == 150 and sum(s.visits for s in r.stats) == 150


# -- budgets, parallelism, errors ----------------------------------------------------------
def test_time_budget() -> None:
    state = new_state("chinese_ten", 1)
    r = ISMCTS().search(state, seconds=0.02, seed=0)
    assert r.iterations >= 1 and sum(s.visits for s in r.stats) == r.iterations
    r = ISMCTS().search(state, iterations=5, seconds=10.0, seed=0)
    assert r.iterations == 5


def test_root_parallel() -> None:
    state = new_state("guandan", 3)
    picks = [ISMCTSBot(120, workers=2).choose(state, np.random.default_rng(4)) for _ in range(2)]
    assert picks[0] == picks[1] and picks[0] in state.legal_actions()


def test_single_action_needs_no_search() -> None:
    state = new_state("guandan", 3)
    while len(root_actions(state)[1]) != 1 and not state.is_terminal():
        state.apply(GreedyBot().choose(state, np.random.default_rng(0)))
    if not state.is_terminal():
        bot = ISMCTSBot(10)
        assert bot.choose(state, np.random.default_rng(0)) in state.legal_actions()
        assert bot.last is None


def test_errors() -> None:
    state = new_state("guandan", 1)
    s = ISMCTS()
    with pytest.raises(ValueError, match="iterations or seconds"):
        s.search(state)
    with pytest.raises(TypeError, match="iterations"):
        s.search(state, iterations="10")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="iterations"):
        s.search(state, iterations=0)
    with pytest.raises(ValueError, match="seconds"):
        s.search(state, seconds=-1.0)
    with pytest.raises(TypeError, match="seed"):
        s.search(state, iterations=1, seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="policy"):
        ISMCTS(policy="smart")
    with pytest.raises(TypeError, match="policy"):
        ISMCTS(policy=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="exploration"):
        ISMCTS(exploration=-1)
    with pytest.raises(TypeError, match="collapse_suits"):
        ISMCTS(collapse_suits=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="decisions"):
        ISMCTSBot(decisions="never")
    with pytest.raises(ValueError, match="workers"):
        ISMCTSBot(workers=0)
    with pytest.raises(ValueError, match="iterations_per_world"):
        ISMCTS(iterations_per_world=0)
    with pytest.raises(ValueError, match="max_candidates"):
        ISMCTS(max_candidates=0)
    done = advance(new_state("chinese_ten", 1), 1000)
    done.apply(done.legal_actions()[0])
    assert done.is_terminal()
    with pytest.raises(ValueError, match="terminal"):
        s.search(done, iterations=1)
    tree = s.new_tree(state)
    other = state.clone()
    other.apply(other.legal_actions()[0])
    with pytest.raises(ValueError, match="tree"):
        s.search(other, iterations=1, tree=tree)


def test_registry() -> None:
    assert parse_budget("500") == (500, None)
    assert parse_budget("20ms") == (None, 0.02)
    assert parse_budget("1.5s") == (None, 1.5)
    for bad in ("", "0", "1.5", "ms", "-3", "0ms", "20 min"):
        with pytest.raises(ValueError, match="budget"):
            parse_budget(bad)
    bot = make_bot("ismcts:300")
    assert isinstance(bot, ISMCTSBot) and bot.iterations == 300 and bot.seconds is None
    assert make_bot("ismcts").iterations == 1000
    assert make_bot("mc", playouts=33).playouts == 33
    bot = make_bot("ismcts:20ms:policy=random:exploration=1.5:iterations_per_world=3:reuse=false:decisions=greedy")
    assert bot.seconds == 0.02 and bot.iterations is None and bot.search.policy == "random"
    assert bot.search.exploration == 1.5 and bot.search.iterations_per_world == 3
    assert bot.reuse is False and bot.decisions == "greedy"
    assert make_bot("ismcts:collapse_suits=false").search.collapse_suits is False
    assert make_bot("ismcts:max_candidates=5").search.max_candidates == 5
    for bad in ("ismcts:20ms:depth=3", "ismcts:reuse=maybe", "ismcts:iterations_per_world=x", "mc:10:depth=3",
                "greedy:policy=random"):
        with pytest.raises(ValueError, match="option"):
            make_bot(bad)
    assert isinstance(make_bot("random"), RandomBot) and isinstance(make_bot(" greedy"), GreedyBot)
    assert make_bot("mc:10:policy=heuristic").policy == "heuristic"
    assert make_bot("ismcts:10:policy=heuristic").search.policy == "heuristic"
    with pytest.raises(ValueError, match="no budget"):
        make_bot("greedy:5")
    from chupai.players.search.timed import TimedMonteCarloBot

    timed = make_bot("mc:20ms")
    assert isinstance(timed, TimedMonteCarloBot) and timed.seconds == 0.02
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("alpha")
    with pytest.raises(TypeError):
        make_bot(5)  # type: ignore[arg-type]


def test_bot_pickles_without_its_trees() -> None:
    import pickle

    bot = ISMCTSBot(30)
    bot.choose(new_state("zhengshangyou", 1), np.random.default_rng(0))
    assert bot._trees
    copy = pickle.loads(pickle.dumps(bot))
    assert copy._trees == {} and copy.iterations == 30 and repr(copy) == repr(bot)


def test_timed_monte_carlo_adapts_its_playouts() -> None:
    from chupai.players.search.timed import TimedMonteCarloBot

    state = new_state("zhengshangyou", 3)
    rng = np.random.default_rng(0)
    bot = TimedMonteCarloBot(0.004, start=5)
    for _ in range(3):
        assert bot.choose(state, rng) in state.legal_actions()
    assert bot.bot.playouts > 5  # a 4 ms budget holds far more than 5 playouts
    with pytest.raises(ValueError, match="seconds"):
        TimedMonteCarloBot(0)
    with pytest.raises(TypeError, match="seconds"):
        TimedMonteCarloBot("1")  # type: ignore[arg-type]
