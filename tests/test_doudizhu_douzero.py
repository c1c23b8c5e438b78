"""Dou Dizhu's DouZero layout (chupai.doudizhu.douzero) against DouZero itself.

DouZero's environment (``douzero`` from the package index) plays the same deals with the
same moves beside chupai; at every decision its ``get_obs`` must give the features
chupai builds, and the same legal plays.  Then DouZero's own network classes, with
random weights, exported to ONNX, play as ``net:DIR:layout=douzero`` and score every
legal play as DouZero's model does in PyTorch.
"""
from __future__ import annotations

import importlib.util
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from chupai import arena
from chupai.actions import PASS
from chupai.doudizhu import Deal, Rules, douzero
from chupai.players.network import NetworkBot
from chupai.players.search.registry import make_bot

game = pytest.importorskip("douzero.env.game")
env = pytest.importorskip("douzero.env.env")


def env_cards(counts: Any) -> list[int]:
    """A multiset of chupai face counts as DouZero's card list (3..14 for 3..A, 17 for
    the 2, 20 and 30 the jokers), sorted."""
    out: list[int] = []
    for face, n in enumerate(counts):
        if face >= 52:
            out += [20 if face == 52 else 30] * n
        else:
            rank = face // 4
            out += [17 if rank == 0 else rank + 2] * n
    return sorted(out)


def move_cards(action: Any) -> list[int]:
    return [] if action is PASS else env_cards(action.cards.counts())


class Scripted:
    """A DouZero player that makes the move it is told."""

    def __init__(self) -> None:
        self.next: list[int] = []

    def act(self, infoset: Any) -> list[int]:
        return self.next


def side_by_side(seed: int, choose: Any):
    """Deal ``seed`` under ``Rules.douzero()`` played in chupai and in DouZero's env, the
    moves chosen by ``choose(deal)``; yields (deal, DouZero's observation) before each."""
    deal = Deal(seed=seed, rules=Rules.douzero())
    players = {p: Scripted() for p in douzero.POSITIONS}
    g = game.GameEnv(players)
    data = {douzero.position(deal, s): env_cards(deal.hand(s).counts()) for s in range(3)}
    g.card_play_init({**data, "three_landlord_cards": env_cards(deal.kitty.counts())})
    while not deal.is_terminal():
        assert g.acting_player_position == douzero.position(deal, deal.current_player)
        yield deal, env.get_obs(g.game_infoset)
        action = choose(deal)
        players[g.acting_player_position].next = move_cards(action)
        deal.apply(action)
        g.step()
    assert g.game_over


def random_and_heuristic(seed: int) -> Any:
    rng = np.random.default_rng(seed)

    def choose(deal: Deal) -> Any:
        actions = deal.legal_actions()
        if rng.random() < 0.5:
            return actions[int(rng.integers(len(actions)))]
        return deal.policy_action("heuristic")
    return choose


@pytest.mark.parametrize("seed", range(12))
def test_features_and_legal_plays_are_douzeros(seed: int) -> None:
    decisions = 0
    for deal, obs in side_by_side(seed, random_and_heuristic(seed)):
        p = deal.current_player
        z, x = douzero.features(deal, p)
        np.testing.assert_array_equal(z, obs["z"])
        np.testing.assert_array_equal(x, obs["x_no_action"])
        assert x.shape[0] + 54 == (373 if p == deal.landlord else 484)
        actions = deal.legal_actions()
        assert {tuple(move_cards(a)) for a in actions} == {tuple(a) for a in obs["legal_actions"]}
        (zs, xs), ids = douzero.network_rows(deal, p)
        assert ids is None and zs.shape == (len(actions), 5, 162) and (zs == z).all()
        for a, row in zip(actions, xs):
            np.testing.assert_array_equal(row[: x.shape[0]], x)
            np.testing.assert_array_equal(row[x.shape[0]:], env._cards2array(move_cards(a)))
        decisions += 1
    assert decisions > 20


def douzero_models() -> Any:
    """DouZero's network classes from its installed ``dmc/models.py``."""
    torch = pytest.importorskip("torch")
    spec = importlib.util.find_spec("douzero.dmc.models")
    assert spec is not None
    return torch, importlib.import_module("douzero.dmc.models")


def export(directory: Path) -> dict[str, Any]:
    """DouZero's three networks (random weights, seeded) as ``POSITION.onnx`` files."""
    torch, models = douzero_models()
    pytest.importorskip("onnx")

    class Values(torch.nn.Module):  # the values DouZero's agent takes the argmax of
        def __init__(self, model: Any) -> None:
            super().__init__()
            self.model = model

        def forward(self, z: Any, x: Any) -> Any:
            return self.model.forward(z, x, return_value=True)["values"]

    torch.manual_seed(1)
    nets = {}
    for position in douzero.POSITIONS:
        net = Values(models.model_dict[position]()).eval()
        width = 373 if position == "landlord" else 484
        with warnings.catch_warnings():  # PyTorch's tracer and its LSTM batch-size note (values checked below)
            warnings.simplefilter("ignore")
            torch.onnx.export(net, (torch.zeros(2, 5, 162), torch.zeros(2, width)),
                              str(directory / f"{position}.onnx"), input_names=["z", "x"], output_names=["values"],
                              dynamic_axes={"z": {0: "n"}, "x": {0: "n"}, "values": {0: "n"}}, dynamo=False)
        nets[position] = net
    return nets


def test_douzeros_networks_exported_to_onnx_score_every_play_as_in_pytorch(tmp_path: Path) -> None:
    pytest.importorskip("onnxruntime")
    torch, _ = douzero_models()
    nets = export(tmp_path)
    bot = NetworkBot(tmp_path, layout="douzero")
    seen = set()
    for deal, obs in side_by_side(3, random_and_heuristic(3)):
        position = douzero.position(deal, deal.current_player)
        seen.add(position)
        with torch.no_grad():
            theirs = nets[position](torch.from_numpy(obs["z_batch"]), torch.from_numpy(obs["x_batch"])).numpy().ravel()
        by_cards = {tuple(a): v for a, v in zip(obs["legal_actions"], theirs)}
        ours = bot.scores(deal)
        want = [by_cards[tuple(move_cards(a))] for a in deal.legal_actions()]
        np.testing.assert_allclose(ours, want, rtol=1e-4, atol=1e-5)
    assert seen == set(douzero.POSITIONS)


def test_a_douzero_network_plays_whole_deals_as_a_bot(tmp_path: Path) -> None:
    pytest.importorskip("onnxruntime")
    export(tmp_path)
    # under DouZero's rules and under the default ones, whose auction the fallback bids
    for rules in (Rules.douzero(), Rules()):
        r = arena("doudizhu", (f"net:{tmp_path}:layout=douzero", "random"), 2, seed=1, rules=rules, progress=False)
        assert r.games == 2 and {role for role, _, _ in r.roles} <= {"landlord", "farmer"}


def test_a_douzero_bot_needs_its_three_networks(tmp_path: Path) -> None:
    pytest.importorskip("onnxruntime")
    with pytest.raises(ValueError, match="landlord.onnx is not there"):
        NetworkBot(tmp_path, layout="douzero")
    export(tmp_path)
    with pytest.raises(ValueError, match="card_order and fill apply to the layouts"):
        NetworkBot(tmp_path, layout="douzero", fill=0)
    (tmp_path / "landlord_up.onnx").unlink()
    with pytest.raises(ValueError, match="landlord_up.onnx is not there"):
        make_bot(f"net:{tmp_path}:layout=douzero")


def test_a_network_of_another_input_count_is_refused_by_name(tmp_path: Path) -> None:
    pytest.importorskip("onnxruntime")
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    for position in douzero.POSITIONS:  # one input x, the sum of its values
        graph = helper.make_graph([helper.make_node("ReduceSum", ["x"], ["y"], keepdims=1)], "sum",
                                  [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 373])],
                                  [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 1])])
        onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
                  str(tmp_path / f"{position}.onnx"))
    deal = Deal(seed=2, rules=Rules.douzero())
    with pytest.raises(ValueError, match="layout 'douzero' takes 2 inputs, not 1"):
        NetworkBot(tmp_path, layout="douzero").scores(deal)
