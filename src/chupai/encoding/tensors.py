"""The tensor views of any game state: observation tensors, action ids, masks, features.

Every function takes a ``Deal`` or a ``Match`` of any registered game (a match is
encoded through its current deal).  The layouts and id spaces are documented in
``docs/rl.md``.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from chupai.core.records import NUM_FACES
from chupai.registry import game as registry_entry, game_of
from chupai.state.base import check_seat, is_int
from chupai.encoding.layout import Layout
from chupai.encoding.spaces import ActionSpace

__all__ = [
    "action_space",
    "action_to_id",
    "game_name",
    "id_to_action",
    "legal_action_features",
    "legal_action_ids",
    "legal_actions_mask",
    "num_distinct_actions",
    "observation_layout",
    "observation_size",
    "observation_tensor",
]

@lru_cache(maxsize=None)
def _encoder(name: str) -> Any:
    """The RL encoder of the registered game ``name`` (its registry entry's ``encoder``)."""
    return registry_entry(name).make_encoder()


def game_name(state: Any) -> str:
    """The registry name of the game ``state`` (a ``Deal`` or ``Match``) belongs to."""
    return game_of(state).name


def _deal(state: Any) -> Any:
    return state.deal if hasattr(state, "deal") else state


def _check_game(game: Any) -> str:
    if not isinstance(game, str):
        raise TypeError(f"game must be a game name (str), not {type(game).__name__}")
    return registry_entry(game).name


@lru_cache(maxsize=None)
def action_space(game: str) -> ActionSpace:
    """The fixed action-id space of ``game`` (the same for every rules object and number
    of players: ids a variant cannot produce are never legal)."""
    space: ActionSpace = _encoder(_check_game(game)).space()
    return space


def num_distinct_actions(game: str) -> int:
    """The number of action ids of ``game``.

    >>> num_distinct_actions("guandan"), num_distinct_actions("chinese_ten")
    (360, 292)
    """
    return action_space(game).size


@lru_cache(maxsize=None)
def observation_layout(game: str, players: int | None = None) -> Layout:
    """The observation layout of ``game`` with ``players`` players (default: the game's)."""
    entry = registry_entry(_check_game(game))
    low, high = entry.players
    n = entry.default_players if players is None else players
    if not is_int(n) or not low <= n <= high:
        raise ValueError(f"players must be an int {low}..{high} for {game}, not {players!r}")
    layout: Layout = _encoder(entry.name).layout(int(n))
    return layout


def observation_size(game: str, players: int | None = None) -> int:
    """The length of ``game``'s observation tensor with ``players`` players.

    >>> observation_size("guandan")
    616
    """
    return observation_layout(game, players).size


def observation_tensor(state: Any, player: int) -> np.ndarray:
    """The float32 observation of ``state`` for seat ``player``: only what that player may
    know (their hand and the public record), laid out as ``docs/rl.md`` documents."""
    name = game_name(state)
    deal = _deal(state)
    n = len(deal.hand_sizes())
    p = check_seat(player, n)
    obs: np.ndarray = _encoder(name).encode(deal, p, observation_layout(name, n))
    return obs


# --- actions --------------------------------------------------------------------------------
def _legal_with_records(state: Any) -> tuple[Any, np.ndarray, np.ndarray | None, Any]:
    """The legal actions (the state's ``ActionList``), their ids, the play records
    (``None`` without plays) and the ``PlayList`` of the plays (the first
    ``len(records)`` legal actions): the list's own records, nothing generated again."""
    legal = state.legal_actions()
    plays = legal.plays if legal else None
    return legal, _ids(_space_of(state), legal), None if plays is None else plays.to_numpy(), plays


#: the action space of each state class (one lookup per call on the hot path)
_SPACES: dict[type, ActionSpace] = {}


def _space_of(state: Any) -> ActionSpace:
    space = _SPACES.get(type(state))
    if space is None:
        space = _SPACES[type(state)] = action_space(game_name(state))
    return space


def _ids(space: ActionSpace, legal: Any) -> np.ndarray:
    """The id of each item of ``legal`` (an ``ActionList``): the plays' from their records."""
    ids = np.empty(len(legal), dtype=np.int64)
    plays = legal.plays
    if plays is None:  # a decision
        for i, action in enumerate(legal):
            ids[i] = space.decision_id(action)
        return ids
    space.play_ids(plays, ids)
    if legal.can_pass:
        ids[-1] = space.pass_id
    return ids


def legal_action_ids(state: Any) -> np.ndarray:
    """The id of each action of ``state.legal_actions()``, in that order (several plays
    share an id where the space collapses them)."""
    return _ids(_space_of(state), state.legal_actions())


def legal_actions_mask(state: Any) -> np.ndarray:
    """An int8 vector over the ids of ``state``'s game: 1 for each id legal now."""
    space = _space_of(state)
    mask = np.zeros(space.size, dtype=np.int8)
    legal = state.legal_actions()
    plays = legal.plays
    if plays is None:  # a decision
        for action in legal:
            mask[space.decision_id(action)] = 1
        return mask
    space.mark_plays(plays, mask)  # the list's own records, in C
    if legal.can_pass:
        mask[space.pass_id] = 1
    return mask


def action_to_id(state: Any, action: Any) -> int:
    """The id of ``action``, which must be legal in ``state`` (``ValueError`` if not)."""
    legal, ids, _, _ = _legal_with_records(state)
    try:
        return int(ids[legal.index(action)])  # by the item's stamp, or by its record
    except ValueError:
        raise ValueError(f"{action!r} is not a legal action now") from None


def _check_id(space: ActionSpace, action_id: Any) -> int:
    if not is_int(action_id):
        raise TypeError(f"action id must be an int, not {type(action_id).__name__}")
    if not 0 <= action_id < space.size:
        raise ValueError(f"action id {action_id!r} is outside 0..{space.size - 1} ({space.game})")
    return int(action_id)


def _concrete_index(ids: np.ndarray, rec: np.ndarray | None, action_id: int) -> int:
    """The index in the legal list of the concrete action of ``action_id`` (-1 if not legal)."""
    hits = np.flatnonzero(ids == action_id)
    if len(hits) == 0:
        return -1
    if rec is None or hits[0] >= len(rec) or len(hits) == 1:
        return int(hits[0])
    order = ActionSpace.concrete_order(rec[hits], np.zeros(len(hits), dtype=np.int64))
    return int(hits[order[0]])


def id_to_action(state: Any, action_id: int) -> Any:
    """The concrete legal action of ``action_id`` now (``docs/rl.md``: among plays of one
    pattern, the fewest wild cards, then the smallest masks); ``ValueError`` naming the id
    when it is not legal now."""
    space = action_space(game_name(state))
    aid = _check_id(space, action_id)
    legal, ids, rec, plays = _legal_with_records(state)
    i = _concrete_index(ids, rec, aid)
    if i < 0:
        raise ValueError(f"action id {aid} ({space.describe(aid)}) is not legal now")
    return legal[i]


def _record_counts(rec: np.ndarray) -> np.ndarray:
    """The 54 copy counts of the cards of each record (``lo`` + ``hi`` masks, plus the
    ``taken`` layout cards of a Chinese Ten capture; 0 in the other games)."""
    def bits(mask: np.ndarray) -> np.ndarray:
        b = np.ascontiguousarray(mask.astype("<u8")).view(np.uint8).reshape(-1, 8)
        return np.unpackbits(b, axis=1, bitorder="little")[:, :NUM_FACES]

    counts: np.ndarray = (bits(rec["lo"]) + bits(rec["hi"]) + bits(rec["taken"])).astype(np.float32)
    return counts


def legal_action_features(state: Any) -> tuple[np.ndarray, np.ndarray]:
    """Every concrete legal action as features: ``(ids, cards)``, ``ids[i]`` the id of
    ``state.legal_actions()[i]`` and ``cards[i]`` its 54 card counts (a play's physical
    cards, wild cards as themselves; zeros for pass; a decision's card, or zeros for a
    seat choice).  Chinese Ten rows are the played card plus the captured cards."""
    legal, ids, rec, _ = _legal_with_records(state)
    return ids, _features(legal, rec)


def _features(legal: Sequence[Any], rec: np.ndarray | None) -> np.ndarray:
    """The card counts of each legal action (see :func:`legal_action_features`)."""
    from chupai.cards import parse_face

    cards = np.zeros((len(legal), NUM_FACES), dtype=np.float32)
    k = 0 if rec is None else len(rec)
    if rec is not None and k:
        cards[:k] = _record_counts(rec)
    for i in range(k, len(legal)):
        card = getattr(legal[i], "card", None)
        if card is not None:
            cards[i, parse_face(card)] = 1.0
    return cards
