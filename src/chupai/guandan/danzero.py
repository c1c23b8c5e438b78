"""Guan Dan in the DanZero layout: the 513-value state and the 54-value action vectors.

DanZero (and DanZero+) score each legal action with a network over the state vector
joined to the action's card vector.  This module builds both from a chupai Guan Dan
state, so agents of that line of work run on chupai.

**Card vectors** (54 values): by default index ``rank*4 + suit`` with ranks 2..A
(0..12) and the suits in DanZero's order **H S C D** (0..3), then the black joker 52 and
the red joker 53; each value the number of copies (0..2).  (chupai's own card core
orders the suits S H C D: :func:`card_vector` permutes.)

**Card orders.** Networks trained on this layout do not all index the 54 cards alike,
and a network fed another order than its own plays like a weak bot, raising no error.
Every function here takes ``card_order``:

* ``"rank_major"`` (the default): ``rank*4 + suit``, suits H S C D, as DanZero's
  reference code builds its vectors;
* ``"suit_major"``: ``suit*13 + rank``, suits H S C D (hearts 2..A first, then spades,
  clubs, diamonds), the black joker 52 and the red joker 53, as the published ONNX
  reproductions of DanZero's network were trained;
* an array of the 54 positions: ``order[i]`` is the network's input position of the
  card at rank-major index ``i`` (:func:`card_permutation` gives the two named ones).

and ``fill``: the value of the ``last_action`` and ``partner_action`` blocks when they
hold no play (none yet, or the placeholder of a finished seat's turn): -1 as DanZero's
reference (the default), 0 as the published reproductions.  The wild flags and the
one-hots do not depend on either.

**The state** (:data:`STATE_SIZE` = 513 values, in this order; :data:`LAYOUT`):

==================  ====  ==========================================================
field               size  meaning
==================  ====  ==========================================================
hand                54    the observer's hand
wild_flags          12    what the wild cards (hearts of the level rank) can make:
                          see :func:`wild_flags`
unseen              54    the cards the observer has not seen: 2 copies of each face
                          minus the own hand minus every card played this deal (the
                          three other hands together)
last_action         54    the most recent play of the deal (a pass: all zeros); all
                          -1 before the first play or pass of the card play, and
                          while the seat before the observer has gone out and did not
                          make that last play (DanZero's placeholder for a finished
                          seat's turn)
partner_action      54    the partner's most recent play (a pass: zeros); all -1 if
                          the partner has not acted yet or has gone out
played_next         54    every card the next player (seat + 1) has played
played_partner      54    every card the partner (seat + 2) has played
played_previous     54    every card the previous player (seat + 3) has played
left_next           28    one-hot: cards the next player holds (0..27)
left_partner        28    one-hot: cards the partner holds
left_previous       28    one-hot: cards the previous player holds
own_level           13    one-hot: the observer's team's level (2..A -> 0..12)
opponent_level      13    one-hot: the other team's level
level               13    one-hot: the level rank played in this deal
==================  ====  ==========================================================

Decisions taken here (where DanZero's client code has them implicit): the state is
that of the observer at any moment of the deal (not only on their turn); during the
tribute phase nothing has been played, so ``last_action`` and ``partner_action`` are
-1; a hand of more than 27 cards (a tribute receiver before returning a card, or a
deal built by ``from_hands``) counts as 27 in the one-hots, which have 28 values.  The wild flags follow the
reference's computation exactly, including where it departs from its evident intent
(see :func:`wild_flags`), so that trained agents see the values they were trained on.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from chupai.registry import game_of
from chupai.core.records import BITS_PER_RANK, NUM_FACES, NUM_RANKS
from chupai.cards import RANKS, SUITS
from chupai.encoding.layout import Field, Layout

__all__ = [
    "GAME",
    "ACTION_SIZE",
    "CARD_ORDERS",
    "LAYOUT",
    "STATE_SIZE",
    "action_features",
    "card_permutation",
    "check_fill",
    "network_rows",
    "observation",
    "reorder",
    "card_vector",
    "wild_flags",
]

#: the registry name of the game this layout encodes
GAME = "guandan"

#: DanZero's suit order
DANZERO_SUITS = "HSCD"
#: the largest hand a one-hot of cards left covers
MAX_HAND = 27
ACTION_SIZE = NUM_FACES

#: chupai face -> DanZero index (jokers stay 52 and 53)
_PERM = np.array(
    [r * BITS_PER_RANK + DANZERO_SUITS.index(SUITS[s]) for r in range(NUM_RANKS) for s in range(BITS_PER_RANK)]
    + [NUM_FACES - 2, NUM_FACES - 1],
    dtype=np.int64,
)

#: the named card orders (module doc)
CARD_ORDERS = ("rank_major", "suit_major")
#: the blocks of cards in the state, whose 54 positions follow the card order
_CARD_BLOCKS = ("hand", "unseen", "last_action", "partner_action", "played_next", "played_partner",
                "played_previous")


def card_permutation(card_order: Any = "rank_major") -> np.ndarray:
    """The 54 input positions of the cards at rank-major indices 0..53 under
    ``card_order`` (``"rank_major"``, ``"suit_major"`` or such an array itself, checked:
    a permutation of 0..53).

    >>> card_permutation("suit_major")[:5].tolist()   # 2H 2S 2C 2D 3H
    [0, 13, 26, 39, 1]
    """
    if isinstance(card_order, str):
        if card_order == "rank_major":
            return np.arange(NUM_FACES, dtype=np.int64)
        if card_order == "suit_major":
            suited = [s * NUM_RANKS + r for r in range(NUM_RANKS) for s in range(BITS_PER_RANK)]
            return np.array(suited + [NUM_FACES - 2, NUM_FACES - 1], dtype=np.int64)
        raise ValueError(f"card_order must be one of {CARD_ORDERS} or an array of the 54 positions, "
                         f"not {card_order!r}")
    try:
        order = np.asarray(card_order)
    except Exception:
        raise TypeError(f"card_order must be a name of {CARD_ORDERS} or an array of 54 ints, "
                        f"not {type(card_order).__name__}") from None
    if order.dtype.kind not in "iu":
        raise TypeError(f"card_order must be a name of {CARD_ORDERS} or an array of 54 ints, not dtype {order.dtype}")
    if order.shape != (NUM_FACES,) or sorted(order.tolist()) != list(range(NUM_FACES)):
        raise ValueError("card_order must be a permutation of the positions 0..53")
    return order.astype(np.int64)


def check_fill(fill: Any) -> float:
    """``fill`` as a float: a finite number (TypeError / ValueError naming it)."""
    if isinstance(fill, bool) or not isinstance(fill, (int, float, np.integer, np.floating)):
        raise TypeError(f"fill must be a number (-1 or 0), not {type(fill).__name__}")
    value = float(fill)
    if not np.isfinite(value):
        raise ValueError(f"fill must be finite, not {fill!r}")
    return value


def reorder(vectors: Any, card_order: Any = "rank_major") -> np.ndarray:
    """Card vectors (or rows of them) in the rank-major order, put in ``card_order``
    (the default returns them as they are)."""
    arr = np.asarray(vectors, dtype=np.float32)
    order = card_permutation(card_order)
    if isinstance(card_order, str) and card_order == "rank_major":
        return arr
    out = np.empty_like(arr)
    out[..., order] = arr
    return out


LAYOUT = Layout([
    Field("hand", NUM_FACES, "the observer's hand"),
    Field("wild_flags", 12, "what the wild cards can make (wild_flags)"),
    Field("unseen", NUM_FACES, "2 copies of each face minus own hand minus every card played"),
    Field("last_action", NUM_FACES, "the most recent play (pass zeros; -1 none or placeholder)"),
    Field("partner_action", NUM_FACES, "the partner's most recent play (-1 none or partner out)"),
    Field("played_next", NUM_FACES, "cards played by the next player"),
    Field("played_partner", NUM_FACES, "cards played by the partner"),
    Field("played_previous", NUM_FACES, "cards played by the previous player"),
    Field("left_next", MAX_HAND + 1, "one-hot cards held by the next player"),
    Field("left_partner", MAX_HAND + 1, "one-hot cards held by the partner"),
    Field("left_previous", MAX_HAND + 1, "one-hot cards held by the previous player"),
    Field("own_level", NUM_RANKS, "one-hot own team's level"),
    Field("opponent_level", NUM_RANKS, "one-hot other team's level"),
    Field("level", NUM_RANKS, "one-hot level played"),
])
STATE_SIZE = LAYOUT.size


def card_vector(counts: Any) -> np.ndarray:
    """A card vector (or rows of them) in chupai's face order, permuted to DanZero's."""
    arr = np.asarray(counts, dtype=np.float32)
    out = np.empty_like(arr)
    out[..., _PERM] = arr
    return out


def wild_flags(hand: Any, level: int) -> np.ndarray:
    """The 12 wild-card flags of a hand (54 counts in DanZero order) at level index
    ``level`` (0 = 2 .. 12 = A), as DanZero computes them.

    All zero when the hand holds no heart of the level rank (the wild card).  Else,
    with ``n[r]`` the number of *distinct suits* of rank ``r`` held (0..4; the wild
    face not counted; ranks in natural order 2..A, no wrap):

    * 0: 1 (a wild card is held);
    * 1: some suit holds at least 4 of the 5 cards of a window of 5 consecutive ranks,
      the wild face not counted, among the windows starting at ranks 2..9 (the
      reference's scan stops before T-J-Q-K-A and has no A-2-3-4-5);
    * 2..7: a thermometer of ``max(n)``: 6+ sets 2..7, 5 sets 3..7, 4 sets 4..7, 3 sets
      5..7, 2 sets 6..7, else 7 alone (so 2 and 3 are never set, ``n`` counting suits);
    * 8: the run of consecutive ranks with ``n > 0`` that ends at the ace has length
      at least 4;
    * 9: two adjacent ranks with counts (2, 3+) or (3+, 2);
    * 10: three consecutive ranks with counts (1, 2+, 2+), (2+, 1, 2+) or (2+, 2+, 1);
    * 11: two adjacent ranks both with count 2 (and flag 9's test failing for them).
    """
    h = np.asarray(hand)
    res = np.zeros(12, dtype=np.float32)
    wild = level * BITS_PER_RANK  # the heart (DanZero suit 0) of the level rank
    if h[wild] == 0:
        return res
    res[0] = 1
    held = h[: NUM_RANKS * BITS_PER_RANK].reshape(NUM_RANKS, BITS_PER_RANK) != 0
    held = held.copy()
    held[level, 0] = False
    for suit in range(BITS_PER_RANK):
        if any(held[start:start + 5, suit].sum() >= 4 for start in range(NUM_RANKS - 5)):
            res[1] = 1
            break
    n = held.sum(axis=1)
    top = int(n.max())
    first = {6: 2, 5: 3, 4: 4, 3: 5, 2: 6}.get(min(top, 6), 7)
    res[first:8] = 1
    run = 0
    for r in range(NUM_RANKS):
        run = run + 1 if n[r] else 0
        if r >= 1:
            if (n[r] == 2 and n[r - 1] >= 3) or (n[r] >= 3 and n[r - 1] == 2):
                res[9] = 1
            elif n[r] == 2 and n[r - 1] == 2:
                res[11] = 1
        if r >= 2:
            a, b, c = n[r - 2], n[r - 1], n[r]
            if (a == 1 and b >= 2 and c >= 2) or (a >= 2 and b == 1 and c >= 2) or (a >= 2 and b >= 2 and c == 1):
                res[10] = 1
    if run >= 4:
        res[8] = 1
    return res


def _cards(cards: Any) -> np.ndarray:
    return card_vector(np.asarray(cards.counts(), dtype=np.float32))


def _left(n: int) -> np.ndarray:
    out = np.zeros(MAX_HAND + 1, dtype=np.float32)
    out[min(n, MAX_HAND)] = 1
    return out


def _level_hot(rank: str) -> np.ndarray:
    out = np.zeros(NUM_RANKS, dtype=np.float32)
    out[RANKS.index(rank)] = 1
    return out


def observation(state: Any, player: int, *, card_order: Any = "rank_major", fill: float = -1.0) -> np.ndarray:
    """The 513-value DanZero state of a Guan Dan ``Deal`` or ``Match`` for seat ``player``,
    its cards in ``card_order`` and its empty play blocks holding ``fill`` (module doc)."""
    from chupai.state.base import check_seat
    from chupai.actions import PASS
    from chupai.guandan.play import Play

    if game_of(state).name != GAME:
        raise TypeError(f"state must be a Guan Dan Deal or Match, not {type(state).__name__}")
    card_permutation(card_order)  # checked before any work
    empty = check_fill(fill)
    deal = state.deal if hasattr(state, "deal") else state
    p = check_seat(player, 4)
    nxt, partner, prev = (p + 1) % 4, (p + 2) % 4, (p + 3) % 4
    hand = _cards(deal.hand(p))
    played = [_cards(c) for c in deal.played_cards()]
    unseen = 2 - hand - sum(played)
    moves = [(e.seat, e.action) for e in deal.history if e.action is PASS or isinstance(e.action, Play)]
    out = set(deal.finishing_order) - {-1}
    minus = np.full(NUM_FACES, empty, dtype=np.float32)

    def vec(action: Any) -> np.ndarray:
        return np.zeros(NUM_FACES, dtype=np.float32) if action is PASS else _cards(action.cards)

    if not moves or (prev in out and moves[-1][0] != prev):
        last = minus
    else:
        last = vec(moves[-1][1])
    mine = [a for s, a in moves if s == partner]
    partner_last = vec(mine[-1]) if mine and partner not in out else minus
    sizes = deal.hand_sizes()
    team = p % 2
    blocks = {
        "hand": hand,
        "wild_flags": wild_flags(hand, RANKS.index(deal.level)),
        "unseen": unseen,
        "last_action": last,
        "partner_action": partner_last,
        "played_next": played[nxt],
        "played_partner": played[partner],
        "played_previous": played[prev],
        "left_next": _left(sizes[nxt]),
        "left_partner": _left(sizes[partner]),
        "left_previous": _left(sizes[prev]),
        "own_level": _level_hot(deal.levels[team]),
        "opponent_level": _level_hot(deal.levels[1 - team]),
        "level": _level_hot(deal.level),
    }
    for name in _CARD_BLOCKS:
        blocks[name] = reorder(blocks[name], card_order)
    return LAYOUT.pack(blocks)


def action_features(state: Any, *, card_order: Any = "rank_major") -> np.ndarray:
    """The 54-value DanZero card vector of each action of ``state.legal_actions()``, in
    that order and in ``card_order``: a play's physical cards (wild cards as
    themselves), zeros for a pass, the card of a tribute decision, zeros for a leader
    choice."""
    from chupai.encoding.tensors import legal_action_features

    card_permutation(card_order)  # checked before any work
    _, cards = legal_action_features(state)
    return reorder(card_vector(cards), card_order)


def network_rows(state: Any, player: int, card_order: Any, fill: float) -> tuple[np.ndarray, None] | None:
    """The input rows of a network of DanZero's layout for ``player``'s decision (one row
    per legal action: the state's 513 values joined to the action's 54; see
    :mod:`chupai.players.network`), ``None`` outside the card play (the tribute and the
    return are not card plays)."""
    if state.phase != "play":
        return None
    obs = observation(state, player, card_order=card_order, fill=fill)
    actions = action_features(state, card_order=card_order)
    rows = np.empty((len(actions), obs.shape[0] + actions.shape[1]), dtype=np.float32)
    rows[:, : obs.shape[0]] = obs
    rows[:, obs.shape[0]:] = actions
    return rows, None
