"""chupai.rl encodings over every registered game: observation tensors, action ids,
masks, features, and what an observer may know."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from chupai import rl
from chupai import registry
from chupai.chinese_ten._rl import CARDS

GAMES = list(registry.GAMES)
DOCS = Path(__file__).resolve().parents[1] / "docs" / "rl.md"


def _states(game: str, seed: int, players: int | None = None, match: bool = False, limit: int = 400):
    """The states of a random game (random ids), at most ``limit`` of them."""
    mod = registry.game(game).module()
    kwargs = {} if players is None else {"players": players}
    state = (mod.Match if match else mod.Deal)(seed=seed, **kwargs)
    rng = np.random.default_rng(seed)
    for _ in range(limit):
        if state.is_terminal():
            return
        yield state
        legal = np.flatnonzero(rl.legal_actions_mask(state))
        state.apply(rl.id_to_action(state, int(rng.choice(legal))))


def _players(state) -> int:
    deal = state.deal if hasattr(state, "deal") else state
    return len(deal.hand_sizes())


def _check_pattern(game, space, action, aid):
    """The id's pattern, read from the action object itself (not from the records)."""
    from chupai.actions import PASS
    from chupai.cards import parse_face

    if action is PASS:
        assert aid == space.pass_id
    elif aid >= space.num_plays:
        assert space.describe(aid).startswith(type(action).__name__)
    elif game == "chinese_ten":
        type_, card, captured, _ = space.patterns[aid]
        assert (type_, card) == (int(action.type), parse_face(action.card))
        if captured:
            assert captured == min(parse_face(c) for c in action.captured)
    else:
        type_, key, length, _ = space.patterns[aid]
        assert (type_, key, length) == (int(action.type), action.key, len(action.cards))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("match", [False, True])
def test_ids_cover_every_legal_action_both_ways(game, match):
    space = rl.action_space(game)
    n_ids = rl.num_distinct_actions(game)
    for state in _states(game, seed=11, match=match):
        legal = state.legal_actions()
        ids = rl.legal_action_ids(state)
        assert len(ids) == len(legal) and ((0 <= ids) & (ids < n_ids)).all()
        for action, aid in zip(legal, ids):
            assert rl.action_to_id(state, action) == aid
            _check_pattern(game, space, action, int(aid))
        mask = rl.legal_actions_mask(state)
        assert mask.dtype == np.int8 and mask.shape == (n_ids,)
        assert set(np.flatnonzero(mask)) == set(ids.tolist())
        for aid in np.flatnonzero(mask):
            chosen = rl.id_to_action(state, int(aid))
            assert any(chosen is a for a in legal)
            assert rl.action_to_id(state, chosen) == aid
        bad = np.flatnonzero(mask == 0)
        if len(bad):
            with pytest.raises(ValueError, match=str(int(bad[0]))):
                rl.id_to_action(state, int(bad[0]))
    with pytest.raises(ValueError, match=str(space.size)):
        rl.id_to_action(state, space.size)
    with pytest.raises(TypeError):
        rl.id_to_action(state, "3")


@pytest.mark.parametrize("game", GAMES)
def test_observation_shape_and_fields(game):
    entry = registry.game(game)
    for players in sorted({entry.players[0], entry.default_players, entry.players[1]}):
        layout = rl.observation_layout(game, players)
        for state in _states(game, seed=3, players=None if entry.fixed_players else players, limit=60):
            deal = state.deal if hasattr(state, "deal") else state
            for p in range(players):
                obs = rl.observation_tensor(state, p)
                assert obs.dtype == np.float32 and obs.shape == (rl.observation_size(game, players),)
                hand = obs[layout.slice("hand")]
                want = np.asarray(deal.hand(p).counts(), dtype=np.float32)[: hand.size]
                assert np.array_equal(hand, want)
                sizes = obs[layout.slice("hand_sizes")]
                assert sizes.tolist() == [deal.hand_sizes()[(p + k) % players] for k in range(players)]
                to_act = obs[layout.slice("to_act")]
                assert to_act.sum() == 1 and to_act[(deal.current_player - p) % players] == 1
    with pytest.raises(ValueError, match="player"):
        rl.observation_tensor(state, 99)


@pytest.mark.parametrize("game", GAMES)
def test_observation_hides_what_the_player_cannot_know(game):
    """Re-dealing the hidden cards (determinize) never changes a player's tensor, and the
    tensor of another seat changes with its hand."""
    for i, state in enumerate(_states(game, seed=5, match=True, limit=120)):
        if i % 7:
            continue
        p = state.current_player
        rng = np.random.default_rng(i)
        other = state.determinize(p, rng)
        assert np.array_equal(rl.observation_tensor(other, p), rl.observation_tensor(state, p))


def test_guandan_concrete_choice_spends_fewest_wild_cards():
    from chupai.guandan import Deal

    # level 2: 2H is the wild card; pairs of 9 can be 9S 9D or 9S + 2H ...
    deal = Deal.from_hands(["9S 9D 2H 5C", "3S", "4S", "6S"], leader=0)
    by_id: dict[int, list] = {}
    for action, aid in zip(deal.legal_actions(), rl.legal_action_ids(deal)):
        by_id.setdefault(int(aid), []).append(action)
    shared = [aid for aid, acts in by_id.items() if len(acts) > 1]
    assert shared, "some pattern must have several concrete plays"
    for aid in shared:
        chosen = rl.id_to_action(deal, aid)
        assert len(chosen.wilds) == min(len(a.wilds) for a in by_id[aid])


def test_features_are_the_concrete_cards():
    from chupai.guandan import Deal

    deal = Deal(seed=9)
    ids, cards = rl.legal_action_features(deal)
    legal = deal.legal_actions()
    assert cards.shape == (len(legal), 54) and list(ids) == list(rl.legal_action_ids(deal))
    for action, row in zip(legal, cards):
        assert row.tolist() == [float(c) for c in action.cards.counts()]


def test_chinese_ten_ids_are_exact():
    for state in _states("chinese_ten", seed=2):
        ids = rl.legal_action_ids(state)
        assert len(set(ids.tolist())) == len(ids)
        assert rl.observation_size("chinese_ten", 4) == rl.observation_layout("chinese_ten", 4).size
        assert CARDS == 52


def test_unknown_game_and_players():
    with pytest.raises(ValueError, match="unknown game"):
        rl.num_distinct_actions("chess")
    with pytest.raises(TypeError):
        rl.num_distinct_actions(3)
    with pytest.raises(ValueError, match="players"):
        rl.observation_size("guandan", 5)
    with pytest.raises(TypeError):
        rl.observation_tensor(object(), 0)


@pytest.mark.parametrize("game", GAMES)
def test_docs_hold_the_layout_tables(game):
    text = DOCS.read_text()
    assert rl.observation_layout(game, registry.GAMES[game].default_players).table() in text
    assert f"`{game}`" in text and str(rl.num_distinct_actions(game)) in text
