"""Trained networks as bots: an ONNX network scores the legal actions, the best is played.

:class:`NetworkBot` loads a network with ONNX Runtime (the optional extra
``chupai[onnx]``) and plays it in any state of a game its input layout covers. A
layout names what the network reads and what it answers:

a game's own layout (its registry entry's ``observations`` with ``network_rows``;
Guan Dan's ``"danzero"``, :mod:`chupai.guandan.danzero`)
    one row per legal action, the 513 state values of the player to act joined to the
    action's 54 card values (567 inputs); the network answers one Q per row and the
    bot plays the argmax. DanZero's network and its published reproductions have this
    layout. The card order and the fill of the empty play blocks must be those the
    network was trained with (``card_order``, ``fill``: see :mod:`chupai.guandan.danzero`):
    a network fed another order plays like a weak bot, and nothing raises. The tribute
    and the return are not card plays: the ``fallback`` bot decides them.
Dou Dizhu's ``"douzero"`` (its registry entry's ``networks``; :mod:`chupai.doudizhu.douzero`)
    DouZero's network per position: ``path`` is a directory of ``landlord.onnx``,
    ``landlord_down.onnx`` and ``landlord_up.onnx``, each taking ``z`` (the last 15
    moves, 5 x 162 a row) and ``x`` (the position's state values joined to the
    action's 54: 373 for the landlord, 484 for a farmer), one row per legal action, and
    answering one Q per row. The auction is not a card play: the ``fallback`` bids.
``"rows"`` (every game; :mod:`chupai.rl`)
    one row per legal action, the game's observation tensor of the player to act
    (:func:`chupai.rl.observation_tensor`) joined to the action's 54 card counts in
    chupai's face order (:func:`chupai.rl.legal_action_features`); the network answers
    one value per row, in every phase. The training example
    (``examples/dmc_guandan.py --export``) writes networks of this layout.
``"observation"`` (every game; :mod:`chupai.rl`)
    one row, the game's observation tensor of the player to act
    (:func:`chupai.rl.observation_tensor`); the network answers one value per action id
    of the game's fixed action space (:func:`chupai.rl.num_distinct_actions`), and the
    bot plays the legal id of the highest value (:func:`chupai.rl.legal_actions_mask`),
    in every phase.

The bot is deterministic (ties go to the first action) and picklable (a worker process
loads the network again from its path). ONNX Runtime runs on one thread per bot unless
``threads`` says otherwise.
"""
from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from chupai.core.validate import check_positive_int
from chupai.registry import GAMES

__all__ = ["NetworkBot", "NetworkLayout", "layouts"]


@dataclass(frozen=True)
class NetworkLayout:
    """What a network of one layout reads and answers.

    Attributes:
        name: the layout's name (``NetworkBot(layout=...)``, ``net:PATH:layout=...``).
        rows: ``rows(state, player, card_order, fill) -> (inputs, actions)``: the network's
            input rows for the decision of ``player``, and for each output value the
            index into ``state.legal_actions()`` it scores (``None``: the values are the
            game's action ids, masked by the legal ones); ``None`` for a decision the
            layout does not cover (the fallback bot takes it).
        card_options: the layout reads ``card_order`` and ``fill``.
        module: the game's module of a game's own layout (where it reads
            ``card_order`` and ``fill``, it checks them: ``card_permutation``,
            ``check_fill``).
        positions: the positions that each have their own network (the files
            ``POSITION.onnx`` of the directory a bot is given), and ``position(state,
            player)`` the one whose network decides; ``()``: one network, a file.
            ``rows`` gives a network of several inputs a tuple of arrays, in the
            network's input order.
    """

    name: str
    rows: Callable[[Any, int, Any, float], tuple[Any, np.ndarray | None] | None]
    card_options: bool
    module: Any = None
    positions: tuple[str, ...] = ()
    position: Callable[[Any, int], str] | None = None


def _joined(state_values: np.ndarray, actions: np.ndarray) -> np.ndarray:
    """One float32 row per action: the state's values, then the action's."""
    rows = np.empty((len(actions), state_values.shape[0] + actions.shape[1]), dtype=np.float32)
    rows[:, : state_values.shape[0]] = state_values
    rows[:, state_values.shape[0] :] = actions
    return rows


def _state_rows(state: Any, player: int, card_order: Any, fill: float) -> tuple[np.ndarray, None]:
    from chupai.encoding.tensors import legal_action_features, observation_tensor

    return _joined(observation_tensor(state, player), legal_action_features(state)[1]), None


def _observation_rows(state: Any, player: int, card_order: Any, fill: float) -> tuple[np.ndarray, np.ndarray]:
    from chupai.encoding.tensors import legal_action_ids, observation_tensor

    return observation_tensor(state, player)[None, :], legal_action_ids(state)


def _game_layouts() -> list[NetworkLayout]:
    """The games' own layouts that networks are trained on: each registry entry's
    ``observations`` whose module has ``network_rows``, and its ``networks`` (a module
    with ``POSITIONS`` and ``position`` has a network per position; one with
    ``card_permutation`` reads ``card_order`` and ``fill``)."""
    out = []
    for entry in GAMES.values():
        for name, module_name in (*entry.observations, *entry.networks):
            module = importlib.import_module(module_name)
            if hasattr(module, "network_rows"):
                positions = tuple(getattr(module, "POSITIONS", ())) if hasattr(module, "position") else ()
                out.append(NetworkLayout(name, module.network_rows, card_options=hasattr(module, "card_permutation"),
                                         module=module, positions=positions,
                                         position=module.position if positions else None))
    return out


@functools.cache
def layouts() -> dict[str, NetworkLayout]:
    """The input layouts a network may have, by name (the games' own, read from the
    registry the first time it is asked: importing this module imports no game)."""
    return {
        layout.name: layout
        for layout in (
            *_game_layouts(),
            NetworkLayout("rows", _state_rows, card_options=False),
            NetworkLayout("observation", _observation_rows, card_options=False),
        )
    }


def _session(path: str, threads: int) -> Any:
    try:
        import onnxruntime  # type: ignore[import-untyped]
    except ImportError:
        raise ImportError("NetworkBot needs ONNX Runtime: pip install 'chupai[onnx]'") from None
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    try:
        return onnxruntime.InferenceSession(path, sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as e:  # ONNX Runtime raises its own error types for a bad model file
        raise ValueError(f"path {path!r} is not an ONNX network ONNX Runtime can load: {e}") from None


class NetworkBot:
    """Plays the action a trained ONNX network scores highest (module doc).

    Args:
        path: the ``.onnx`` file (a layout with a network per position: the directory
            of their files).
        layout: ``"danzero"`` (Guan Dan's), ``"douzero"`` (Dou Dizhu's), ``"rows"`` or
            ``"observation"`` (:func:`layouts`).
        card_order: the card order of a ``danzero`` network (read and checked by a game's
            own layout only): ``"rank_major"`` (DanZero's reference code),
            ``"suit_major"`` (the published ONNX reproductions) or an array of the 54
            positions (:func:`chupai.guandan.danzero.card_permutation`).
        fill: the value of the empty play blocks of a ``danzero`` network: -1 (the
            reference) or 0 (the reproductions).
        fallback: the bot that takes the decisions the layout does not cover (Guan Dan's
            tribute and return under ``danzero``); ``None``:
            :class:`~chupai.players.bots.HeuristicBot` (a spec string names it in
            ``net:PATH:fallback=SPEC``).
        threads: ONNX Runtime's threads for one evaluation.

    >>> NetworkBot("missing.onnx")
    Traceback (most recent call last):
    ...
    ValueError: path 'missing.onnx' is not a file
    """

    def __init__(self, path: str | Path, *, layout: str = "danzero", card_order: Any = "rank_major",
                 fill: float = -1.0, fallback: Any = None, threads: int = 1) -> None:
        from chupai.players.bots import HeuristicBot

        if not isinstance(path, (str, Path)):
            raise TypeError(f"path must be a str or Path of an .onnx file, not {type(path).__name__}")
        if not isinstance(layout, str):
            raise TypeError(f"layout must be a str, one of {tuple(layouts())}, not {type(layout).__name__}")
        if layout not in layouts():
            raise ValueError(f"layout must be one of {tuple(layouts())}, not {layout!r}")
        made = layouts()[layout]
        if made.positions:
            for name in made.positions:
                if not (Path(path) / f"{name}.onnx").is_file():
                    raise ValueError(f"path {str(path)!r} must be a directory holding a network per position "
                                     f"of layout {layout!r} ({', '.join(n + '.onnx' for n in made.positions)}); "
                                     f"{name}.onnx is not there")
        elif not Path(path).is_file():
            raise ValueError(f"path {str(path)!r} is not a file")
        if made.card_options:  # a game's own layout checks its card options
            made.module.card_permutation(card_order)
            fill = made.module.check_fill(fill)
        if not layouts()[layout].card_options and (
                not (isinstance(card_order, str) and card_order == "rank_major") or fill != -1.0):
            takers = tuple(name for name, made in layouts().items() if made.card_options)
            raise ValueError(f"card_order and fill apply to the layouts {takers}, not to {layout!r}")
        self.fill = fill
        self.path = str(path)
        self.layout = layout
        self.card_order = card_order if isinstance(card_order, str) else tuple(int(x) for x in card_order)
        self.threads = check_positive_int(threads, "threads")
        if fallback is not None and not callable(getattr(fallback, "choose", None)):
            raise TypeError(f"fallback must be a bot (with choose(state, rng)) or None, not {fallback!r}")
        self.fallback = HeuristicBot() if fallback is None else fallback
        self._load()

    def _load(self) -> None:
        positions = layouts()[self.layout].positions
        files = {name: str(Path(self.path) / f"{name}.onnx") for name in positions} or {"": self.path}
        self._nets = {name: _session(file, self.threads) for name, file in files.items()}

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_nets"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._load()

    def __repr__(self) -> str:
        extra = "" if not layouts()[self.layout].card_options else (
            f", card_order={self.card_order if isinstance(self.card_order, str) else 'custom'!r}, fill={self.fill:g}")
        return f"NetworkBot({self.path!r}, layout={self.layout!r}{extra}, fallback={self.fallback!r})"

    def scores(self, state: Any) -> np.ndarray | None:
        """The network's value of each of ``state.legal_actions()`` (``None``: the layout
        does not cover this decision)."""
        layout = layouts()[self.layout]
        made = layout.rows(state, state.current_player, self.card_order, self.fill)
        if made is None:
            return None
        given, ids = made
        arrays = given if isinstance(given, tuple) else (given,)
        net = self._nets[layout.position(state, state.current_player) if layout.position else ""]
        inputs = net.get_inputs()
        if len(inputs) != len(arrays):
            raise ValueError(f"path {self.path!r}: a network of layout {self.layout!r} takes {len(arrays)} "
                             f"input{'s' if len(arrays) > 1 else ''}, not {len(inputs)}")
        for spec, array in zip(inputs, arrays):
            width = spec.shape[-1] if spec.shape else None
            if isinstance(width, int) and array.shape[-1] != width:
                raise ValueError(f"path {self.path!r}: the network's input {spec.name!r} takes {width} values a "
                                 f"row, layout {self.layout!r} gives {array.shape[-1]} for this game")
        rows = arrays[-1]
        out = np.asarray(net.run(None, {spec.name: array for spec, array in zip(inputs, arrays)})[0],
                         dtype=np.float64)
        if ids is None:
            values = out.reshape(-1)
            if values.shape[0] != rows.shape[0]:
                raise ValueError(f"path {self.path!r}: expected one value per row ({rows.shape[0]}), "
                                 f"not an output of shape {out.shape}")
            return values
        values = out.reshape(-1)
        if values.shape[0] <= int(ids.max(initial=0)):
            raise ValueError(f"path {self.path!r}: expected a value per action id, not an output of shape {out.shape}")
        scored: np.ndarray = values[ids]
        return scored

    def choose(self, state: Any, rng: Any) -> Any:
        """The legal action the network scores highest (the first of equal ones), or the
        fallback bot's choice where the layout does not cover the decision."""
        values = self.scores(state)
        if values is None:
            return self.fallback.choose(state, rng)
        return state.legal_actions()[int(np.argmax(values))]

