"""Dou Dizhu in DouZero's layout: the features its three networks read, from a chupai state.

DouZero (Zha et al., ICML 2021; the ``douzero`` package) trains one network per
position, each scoring the legal plays of the player to act: the **landlord**, the
farmer who plays after the landlord (**landlord_down**) and the one who plays before
(**landlord_up**).  A network takes two inputs, one row per legal play:

``z`` (5 x 162)
    the last 15 moves of the card play (passes included, as no cards; zeros before the
    first), oldest first, three moves to a row.
``x`` (373 values for the landlord, 484 for a farmer)
    the state's values joined to the play's 54 (:data:`X_FIELDS`).

**Card vectors** (54 values, :func:`card_vector`): suits do not count.  A 4 x 13 block,
one column per rank in the order 3 4 .. K A 2, whose column of a rank held ``n`` times
has its first ``n`` entries 1, read column by column; then the black joker, then the
red joker.

**The state** of each position, in this order (:data:`X_FIELDS`; sizes in values):

* landlord: hand 54, the other two hands together 54, the last play 54, the cards
  landlord_up has played 54, landlord_down's 54, the cards landlord_up holds (one-hot
  of 1..17) 17, landlord_down's 17, the bombs and rockets played so far (one-hot of
  0..14) 15;
* a farmer: hand 54, the other two hands 54, the cards the landlord has played 54, the
  other farmer's 54, the last play 54, the landlord's last move 54, the other farmer's
  last move 54, the cards the landlord holds (one-hot of 1..20) 20, the other farmer's
  (one-hot of 1..17) 17, the bombs 15.

"The last play" is the last move of the card play, or the one before it when that was
a pass (so after two passes it is empty); a seat's "last move" is empty after a pass or
before it moved.  These are DouZero's definitions as its ``env`` builds them; the tests
compare these features with ``douzero.env.env.get_obs`` on the same positions.

Decisions taken here: the features are those of the card play under any rules (DouZero
plays ``Rules.douzero()``: no auction); the auction's decisions are not covered (a
network bot's fallback bids).  A hand larger than a one-hot's range (only in a deal
built by ``from_hands``) counts as its largest value.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from chupai.actions import PASS
from chupai.core.records import BITS_PER_RANK, NUM_FACES, NUM_RANKS
from chupai.doudizhu.phase import Phase
from chupai.doudizhu.play import PlayType

__all__ = ["HISTORY", "POSITIONS", "X_FIELDS", "Z_SHAPE", "card_vector", "features", "network_rows", "position"]

#: the positions, each with its own network: the landlord, the seat after it, the seat before it
POSITIONS = ("landlord", "landlord_down", "landlord_up")
#: the moves the history input holds, and its shape (three moves to a row)
HISTORY = 15
Z_SHAPE = (5, 3 * NUM_FACES)
#: the largest hands and bomb count of the one-hots
_LANDLORD_CARDS = 20
_FARMER_CARDS = 17
_BOMBS = 15

#: each position's state fields (name, size), in input order; the play's 54 values follow
X_FIELDS: dict[str, tuple[tuple[str, int], ...]] = {
    "landlord": (("hand", 54), ("other_hands", 54), ("last_play", 54), ("played_up", 54),
                 ("played_down", 54), ("left_up", _FARMER_CARDS), ("left_down", _FARMER_CARDS),
                 ("bombs", _BOMBS)),
    "farmer": (("hand", 54), ("other_hands", 54), ("played_landlord", 54), ("played_teammate", 54),
               ("last_play", 54), ("last_landlord", 54), ("last_teammate", 54),
               ("left_landlord", _LANDLORD_CARDS), ("left_teammate", _FARMER_CARDS), ("bombs", _BOMBS)),
}

#: rank-count patterns: _ONES[n] has its first n entries 1
_ONES = np.tril(np.ones((5, 4), dtype=np.float32), -1)
#: chupai rank (2 .. A: 0 .. 12) -> DouZero column (3 .. A, 2: 0 .. 12)
_COLUMN = np.array([NUM_RANKS - 1, *range(NUM_RANKS - 1)], dtype=np.int64)
_BOMB_TYPES = (PlayType.BOMB, PlayType.ROCKET)


def card_vector(counts: Any) -> np.ndarray:
    """DouZero's 54 values of a multiset of cards given as chupai's 54 face counts.

    >>> from chupai import Cards
    >>> v = card_vector(Cards("3S 3H 2D BJ").counts())
    >>> v[:4].tolist(), v[48:52].tolist(), v[52:].tolist()   # the 3s, the 2s, the jokers
    ([1.0, 1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [1.0, 0.0])
    """
    c = np.asarray(counts, dtype=np.int64)
    per_rank = c[: NUM_RANKS * BITS_PER_RANK].reshape(NUM_RANKS, BITS_PER_RANK).sum(axis=1)
    out = np.zeros(NUM_FACES, dtype=np.float32)
    block = np.zeros((NUM_RANKS, BITS_PER_RANK), dtype=np.float32)
    block[_COLUMN] = _ONES[np.minimum(per_rank, BITS_PER_RANK)]
    out[: NUM_RANKS * BITS_PER_RANK] = block.reshape(-1)
    out[NUM_RANKS * BITS_PER_RANK :] = np.minimum(c[NUM_RANKS * BITS_PER_RANK :], 1)
    return out


def _one_hot(n: int, size: int, first: int) -> np.ndarray:
    """A one-hot of ``n`` over ``first .. first + size - 1`` (clipped into it)."""
    out = np.zeros(size, dtype=np.float32)
    out[min(max(n - first, 0), size - 1)] = 1.0
    return out


def position(state: Any, player: int) -> str:
    """``player``'s position in ``state``'s card play (:data:`POSITIONS`)."""
    return POSITIONS[(player - state.landlord) % len(POSITIONS)]


def _cards(action: Any) -> np.ndarray:
    """The card vector of a move (a pass: no cards)."""
    if action is PASS:
        return np.zeros(NUM_FACES, dtype=np.float32)
    return card_vector(action.cards.counts())


def features(state: Any, player: int) -> tuple[np.ndarray, np.ndarray]:
    """``player``'s ``z`` (:data:`Z_SHAPE`) and state values (:data:`X_FIELDS` of its
    position, without the play's 54) in ``state``'s card play."""
    seats = len(POSITIONS)
    moves: list[np.ndarray] = []  # the card play's moves' card vectors, in order
    last_move = {s: np.zeros(NUM_FACES, dtype=np.float32) for s in range(seats)}
    bombs = 0
    for e in state.history:
        if e.phase is Phase.PLAY:
            moves.append(_cards(e.action))
            last_move[e.seat] = moves[-1]
            bombs += e.action is not PASS and e.action.type in _BOMB_TYPES
    z = np.zeros((HISTORY, NUM_FACES), dtype=np.float32)
    recent = moves[-HISTORY:]
    for k, v in enumerate(recent):
        z[HISTORY - len(recent) + k] = v
    last_play = np.zeros(NUM_FACES, dtype=np.float32)
    if moves:
        last_play = moves[-1] if moves[-1].any() or len(moves) < 2 else moves[-2]
    hand = state.hand(player).counts()
    played = [p.counts() for p in state.played_cards()]
    sizes = state.hand_sizes()
    unseen = np.ones(NUM_FACES, dtype=np.int64) - np.asarray(hand) - np.sum(played, axis=0)
    landlord = state.landlord
    down, up = (landlord + 1) % seats, (landlord + 2) % seats
    common = [card_vector(hand), card_vector(unseen)]
    bomb_hot = _one_hot(bombs, _BOMBS, 0)
    if player == landlord:
        parts = [*common, last_play, card_vector(played[up]), card_vector(played[down]),
                 _one_hot(sizes[up], _FARMER_CARDS, 1), _one_hot(sizes[down], _FARMER_CARDS, 1), bomb_hot]
    else:
        mate = up if player == down else down
        parts = [*common, card_vector(played[landlord]), card_vector(played[mate]), last_play,
                 last_move[landlord], last_move[mate], _one_hot(sizes[landlord], _LANDLORD_CARDS, 1),
                 _one_hot(sizes[mate], _FARMER_CARDS, 1), bomb_hot]
    return z.reshape(Z_SHAPE), np.concatenate(parts)


def network_rows(state: Any, player: int, card_order: Any = None,
                 fill: float = 0.0) -> tuple[tuple[np.ndarray, np.ndarray], None] | None:
    """The inputs of ``player``'s network (its :func:`position`'s) for its decision:
    ``(z, x)`` with one row per legal action (``z`` repeated; ``x`` the state's values
    joined to the action's 54, zeros for a pass), and ``None``: the network's values
    are the legal actions' in order (:mod:`chupai.players.network`); ``None`` outside
    the card play (the auction).  ``card_order`` and ``fill`` do not apply."""
    if state.phase != Phase.PLAY or state.current_player != player:
        return None
    z, x_state = features(state, player)
    actions = state.legal_actions()
    n = len(actions)
    x = np.empty((n, x_state.shape[0] + NUM_FACES), dtype=np.float32)
    x[:, : x_state.shape[0]] = x_state
    for k, action in enumerate(actions):
        x[k, x_state.shape[0] :] = _cards(action)
    return (np.broadcast_to(z, (n, *Z_SHAPE)).copy(), x), None
