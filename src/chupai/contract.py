"""The names every game's state machines share, with one meaning in every game.

Every game package (``chupai.guandan``, ``chupai.zhengshangyou``, ``chupai.gandengyan``,
``chupai.chinese_ten``) has a ``Deal`` and a ``Match`` with this surface (OpenSpiel's,
where it has a name for it):

``current_player``
    the seat to decide now; :data:`TERMINAL` (-4, OpenSpiel's terminal id) once the
    state is over.  There are no chance nodes: dealing and turning stock cards are
    drawn inside the state from its seed, so OpenSpiel's chance id (-1) is never returned.
``phase``
    a member of the game's ``Phase`` enum (a ``StrEnum``: ``deal.phase == "play"``
    holds); every game has ``Phase.PLAY`` and ``Phase.OVER``.
``legal_actions()``, ``apply(action)``, ``is_terminal()``, ``returns()``
    as in OpenSpiel; ``apply`` raises :class:`~chupai.errors.IllegalActionError` (a
    ``ValueError``) with the state unchanged, ``TypeError`` for an action of another
    game, naming the game and class expected.  ``legal_actions()`` is an
    :class:`~chupai.state.compiled.ActionList`: an immutable sequence over the generator's
    C list (the plays, then ``PASS`` when allowed; a decision phase's options), equal
    to the list of its items, each item made when first read; applying one of its
    items while it is the state's current list checks nothing more (the list and its
    Plays share a stamp); any other action, an equal Play included, is validated in
    full.
``apply_index(i)``
    applies item ``i`` of ``legal_actions()`` without making any object (search code);
    ``TypeError`` for a non-int, ``IllegalActionError`` out of range.
``scores()``
    each seat's exact standing in the game's own integer units (a method everywhere).
``history``
    every public event as an :class:`Event`, in order, forced steps included (kept
    as compact C entries; the events are made when ``history`` is read).
``observation(player)``
    a dict with at least the keys of :data:`OBSERVATION_KEYS`, plus the keys each
    game's ``observation`` docstring lists.
``clone()``, ``copy.deepcopy``, ``pickle``
    independent copies; a pickled state rebuilds from how it was made and replays its
    decisions, so it has the same observations, legal actions and future.
``determinize(player, rng)``
    a state consistent with what ``player`` knows (their hand and the public history
    kept), the hidden cards re-dealt.
``determinize_card_play(player, rng)``
    ``determinize(player, rng).card_play()`` without making the world's state (the same
    world for the same ``rng``): what a bot that only plays worlds out needs.
``card_play()``
    a copy of the compiled card-play engine (``None`` outside card play).
``Deal.from_hands(hands, *, rules=None, ...)``
    a deal of given hands (the game's extras, such as a talon or a layout, keyword
    arguments).
``Match.deals``, ``Match.deals_played``, ``Match.max_deals``
    the summaries (dicts) of the finished deals, their number, and the number of deals
    after which the match stops.
``Match(seed, *, rules=None, dealer=None, ...)``
    ``dealer``, in the games that have one, is the seat dealing the first deal.

>>> from chupai import guandan
>>> deal = guandan.Deal(seed=1)
>>> deal.apply(deal.legal_actions()[0])
>>> event = deal.history[0]
>>> event.seat == deal.history[0][0], event.phase, event.automatic
(True, <Phase.PLAY: 'play'>, False)
>>> actions = deal.legal_actions()
>>> len(actions) == len(list(actions)), actions[0] is actions[0]
(True, True)
>>> deal.apply_index(len(actions) - 1)
>>> deal.history[-1].action == actions[-1]
True
"""
from __future__ import annotations

from enum import Enum
from typing import Any, NamedTuple

__all__ = ["OBSERVATION_KEYS", "TERMINAL", "Event"]

#: ``current_player`` of a terminal state (OpenSpiel's ``kTerminalPlayerId``)
TERMINAL = -4

#: the observation keys of every game: the seat observed, the number of players, the
#: phase (an enum member), who decides now, the observed player's hand, every hand's
#: size, the public history (``Event`` tuple) and whether the state is over
OBSERVATION_KEYS = frozenset(
    {"player", "players", "phase", "current_player", "hand", "hand_sizes", "history", "over"}
)


class Event(NamedTuple):
    """One public event of a deal's ``history``, the same shape in every game.

    Attributes:
        seat: the seat whose decision (or forced step) it was.
        action: what was done: a ``Play``, ``PASS``, or a game's own action (tribute,
            exchange, ...).
        phase: the game's ``Phase`` member in which it happened.
        automatic: a forced step the state made by itself (a single option), not a
            decision; replaying a history applies only the events with
            ``automatic=False``.
    """

    seat: int
    action: Any
    phase: Enum
    automatic: bool = False

