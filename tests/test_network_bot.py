"""NetworkBot: ONNX networks the tests build themselves, each a known function of its
inputs, prove that the bot feeds the layout, the card order and the fill it is told,
batches every legal action in one call, and hands the other decisions to its fallback."""
from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from chupai import arena, guandan  # noqa: E402
from chupai.registry import GAMES  # noqa: E402
from chupai.players.bots import GreedyBot  # noqa: E402
from chupai.players.network import NetworkBot  # noqa: E402
from chupai.guandan import danzero  # noqa: E402
from chupai.rl import (  # noqa: E402
    legal_action_features,
    legal_action_ids,
    num_distinct_actions,
    observation_tensor,
)
from chupai.players.search.registry import make_bot  # noqa: E402

WIDTH = danzero.STATE_SIZE + danzero.ACTION_SIZE


def save(graph: Any, path: Path) -> Path:
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return path


def linear(path: Path, weights: np.ndarray, bias: np.ndarray | None = None, width: int = WIDTH) -> Path:
    """``y = x @ weights + bias`` for rows ``x`` of ``width`` inputs."""
    outputs = weights.shape[1]
    bias = np.zeros(outputs, dtype=np.float32) if bias is None else bias.astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["xw"]), helper.make_node("Add", ["xw", "b"], ["y"])],
        "linear",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", width])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", outputs])],
        [numpy_helper.from_array(weights.astype(np.float32), "w"), numpy_helper.from_array(bias, "b")],
    )
    return save(graph, path)


def product(path: Path, a: int, b: int) -> Path:
    """``y = x[:, a] * x[:, b]``, one value per row."""
    graph = helper.make_graph(
        [helper.make_node("Gather", ["x", "ia"], ["xa"], axis=1), helper.make_node("Gather", ["x", "ib"], ["xb"], axis=1),
         helper.make_node("Mul", ["xa", "xb"], ["y"])],
        "product",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", WIDTH])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 1])],
        [numpy_helper.from_array(np.array([a], dtype=np.int64), "ia"),
         numpy_helper.from_array(np.array([b], dtype=np.int64), "ib")],
    )
    return save(graph, path)


def rank_major_index(face: str) -> int:
    """The rank-major DanZero index of a card such as ``"7S"``."""
    from chupai import Cards

    counts = np.asarray(Cards(face).counts(), dtype=np.float32)
    return int(np.flatnonzero(danzero.card_vector(counts))[0])


def deal_with_a_card_to_pick(first_holds: bool) -> tuple[Any, str]:
    """A first-deal lead and a card some but not all of its plays hold, the first legal
    play among them or not (so that picking by the card differs from picking the first)."""
    deal = guandan.Deal(seed=5)
    legal = deal.legal_actions()
    for face in deal.hand(deal.current_player):
        holding = [i for i, p in enumerate(legal) if face in list(p.cards)]
        if 0 < len(holding) < len(legal) and (holding[0] == 0) == first_holds:
            return deal, face
    raise AssertionError("no card to pick")


@pytest.mark.parametrize("order", ["rank_major", "suit_major", "custom"])
def test_the_card_order_is_the_one_the_network_was_given(tmp_path: Path, order: str) -> None:
    # a network whose Q is the count of one card in the action: the bot plays the first
    # action holding that card exactly when it feeds the order the network reads
    rng = np.random.default_rng(1)
    card_order: Any = rng.permutation(54) if order == "custom" else order
    perm = danzero.card_permutation(card_order)
    deal, face = deal_with_a_card_to_pick(first_holds=False)
    weights = np.zeros((WIDTH, 1))
    weights[danzero.STATE_SIZE + perm[rank_major_index(face)], 0] = 1
    net = linear(tmp_path / "count.onnx", weights)
    legal = deal.legal_actions()
    first = next(i for i, p in enumerate(legal) if face in list(p.cards))
    assert NetworkBot(net, card_order=card_order).choose(deal, 0) is legal[first]
    wrong = "suit_major" if order != "suit_major" else "rank_major"
    assert NetworkBot(net, card_order=wrong).choose(deal, 0) is not legal[first]


@pytest.mark.parametrize("fill", [-1.0, 0.0])
def test_the_fill_of_the_empty_play_blocks(tmp_path: Path, fill: float) -> None:
    # Q = last_action[0] * (count of a card in the action): before any play the block
    # holds the fill, so -1 prefers the actions without the card and 0 ties them all
    deal, face = deal_with_a_card_to_pick(first_holds=True)
    last = danzero.LAYOUT.offset("last_action")
    net = product(tmp_path / "fill.onnx", last, danzero.STATE_SIZE + rank_major_index(face))
    chosen = NetworkBot(net, fill=fill).choose(deal, 0)
    legal = deal.legal_actions()
    if fill == 0.0:
        assert chosen is legal[0]
    else:
        assert face not in list(chosen.cards) and chosen is next(p for p in legal if face not in list(p.cards))
    assert np.all(danzero.observation(deal, deal.current_player, fill=fill)[last:last + 54] == fill)


def test_every_legal_action_is_scored_in_one_call(tmp_path: Path) -> None:
    weights = np.random.default_rng(2).normal(size=(WIDTH, 1))
    bot = NetworkBot(linear(tmp_path / "random.onnx", weights))
    deal = guandan.Deal(seed=9)
    calls = []
    net = bot._nets[""]
    bot._nets[""] = type("Spy", (), {"get_inputs": lambda self: net.get_inputs(),
                                     "run": lambda self, out, feeds: calls.append(feeds["x"].shape) or net.run(out, feeds)})()
    values = bot.scores(deal)
    assert calls == [(len(deal.legal_actions()), WIDTH)]
    rows = np.hstack([np.repeat(danzero.observation(deal, deal.current_player)[None], len(values), 0), danzero.action_features(deal)])
    np.testing.assert_allclose(values, (rows.astype(np.float64) @ weights).ravel(), rtol=1e-4, atol=1e-4)


def test_tribute_and_return_go_to_the_fallback(tmp_path: Path) -> None:
    net = linear(tmp_path / "zero.onnx", np.zeros((WIDTH, 1)))
    chosen = []

    class Recorder(GreedyBot):
        def choose(self, state: Any, rng: Any) -> Any:
            chosen.append(state.phase)
            return super().choose(state, rng)

    bot = NetworkBot(net, fallback=Recorder())
    deal = guandan.Deal.from_hands(["3S 4S", "2H KS 5D", "3D 4D", "AS 6D 7D"], previous=(0, 2))
    while deal.phase != "play":
        deal.apply(bot.choose(deal, 0))
    assert chosen and all(p != "play" for p in chosen)


@pytest.mark.parametrize("name", list(GAMES))
def test_the_observation_layout_plays_the_best_legal_id_in_every_game(tmp_path: Path, name: str) -> None:
    state = GAMES[name].new(3)
    ids = legal_action_ids(state)
    width = observation_tensor(state, state.current_player).shape[0]
    bias = np.zeros(num_distinct_actions(name))
    target = int(ids[-1])
    bias[target] = 1
    bot = NetworkBot(linear(tmp_path / "ids.onnx", np.zeros((width, bias.size)), bias, width), layout="observation")
    chosen = bot.choose(state, 0)
    legal = state.legal_actions()
    assert chosen is legal[int(np.flatnonzero(ids == target)[0])]


@pytest.mark.parametrize("name", list(GAMES))
def test_the_rows_layout_scores_each_legal_action_in_every_game(tmp_path: Path, name: str) -> None:
    # Q = the number of cards of the action above the observation: the bot plays the
    # first of the legal actions with the most cards
    state = GAMES[name].new(3)
    width = observation_tensor(state, state.current_player).shape[0]
    weights = np.zeros((width + 54, 1))
    weights[width:, 0] = 1
    bot = NetworkBot(linear(tmp_path / "rows.onnx", weights, width=width + 54), layout="rows")
    sizes = legal_action_features(state)[1].sum(axis=1)
    assert bot.choose(state, 0) is state.legal_actions()[int(np.argmax(sizes))]


def test_pickled_bots_load_their_network_again(tmp_path: Path) -> None:
    weights = np.random.default_rng(3).normal(size=(WIDTH, 1))
    bot = NetworkBot(linear(tmp_path / "p.onnx", weights), card_order="suit_major", fill=0)
    copy = pickle.loads(pickle.dumps(bot))
    deal = guandan.Deal(seed=4)
    np.testing.assert_array_equal(copy.scores(deal), bot.scores(deal))
    assert repr(copy) == repr(bot) and "suit_major" in repr(bot)


def test_the_spec_language_and_the_arena(tmp_path: Path) -> None:
    net = linear(tmp_path / "a.onnx", np.random.default_rng(4).normal(size=(WIDTH, 1)))
    bot = make_bot(f"net:{net}:card_order=suit_major:fill=0:fallback=greedy")
    assert isinstance(bot, NetworkBot) and bot.card_order == "suit_major" and bot.fill == 0
    assert isinstance(bot.fallback, GreedyBot)
    result = arena("guandan", (bot, GreedyBot()), deals=2, seed=1, progress=False)
    assert result.games == 2


def test_net_specs_in_the_ladder_and_the_server(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from chupai.cli import main
    from chupai.guandan.protocol.server import Server, ServerConfig, Table, parse_seats

    net = linear(tmp_path / "l.onnx", np.random.default_rng(5).normal(size=(WIDTH, 1)))
    assert main(["ladder", "guandan", "--bots", f"net:{net},greedy", "--deals", "2", "--seed", "1"]) == 0
    assert f"net:{net}" in capsys.readouterr().out
    seats = parse_seats(f"remote,net:{net}:fill=0,remote,greedy")
    table = Table(Server(ServerConfig(port=0, seats=seats, seed=1)), 0)
    assert isinstance(table.bots[1], NetworkBot) and table.bots[1].fill == 0


def test_bad_arguments_name_what_was_expected(tmp_path: Path) -> None:
    net = linear(tmp_path / "b.onnx", np.zeros((WIDTH, 1)))
    with pytest.raises(ValueError, match="is not a file"):
        NetworkBot(tmp_path / "none.onnx")
    (tmp_path / "junk.onnx").write_bytes(b"not a network")
    with pytest.raises(ValueError, match="not an ONNX network"):
        NetworkBot(tmp_path / "junk.onnx")
    with pytest.raises(TypeError, match="path"):
        NetworkBot(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="layout must be one of"):
        NetworkBot(net, layout="alpha")
    with pytest.raises(ValueError, match="card_order must be one of"):
        NetworkBot(net, card_order="suits")
    with pytest.raises(ValueError, match="permutation"):
        NetworkBot(net, card_order=np.zeros(54, dtype=int))
    with pytest.raises(TypeError, match="fill"):
        NetworkBot(net, fill=True)
    with pytest.raises(TypeError, match="fallback"):
        NetworkBot(net, fallback="greedy")
    with pytest.raises(ValueError, match="needs the path"):
        make_bot("net")
    with pytest.raises(ValueError, match="unknown net option"):
        make_bot(f"net:{net}:colour=red")
    # the card options of a layout that does not read them are refused, not dropped
    for options in (":card_order=suit_major", ":fill=0"):
        with pytest.raises(ValueError, match="card_order and fill apply to the layouts"):
            make_bot(f"net:{net}:layout=rows{options}")


def test_the_repr_names_the_fallback(tmp_path: Path) -> None:
    net = linear(tmp_path / "f.onnx", np.zeros((WIDTH, 1)))
    assert repr(make_bot(f"net:{net}:fallback=greedy")) != repr(make_bot(f"net:{net}"))
    assert "fallback=GreedyBot()" in repr(make_bot(f"net:{net}:fallback=greedy"))
    narrow = linear(tmp_path / "narrow.onnx", np.zeros((10, 1)), width=10)
    with pytest.raises(ValueError, match="takes 10 values a row"):
        NetworkBot(narrow).choose(guandan.Deal(seed=1), 0)
