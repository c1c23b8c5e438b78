"""A deal's card play so far, replayed on other hands.

An inference of the hidden hands from the play weighs a world (a deal the public
history allows, e.g. ``state.determinize_card_play(player, rng)``) by how many of the
other seats' decisions so far a model of them -- a compiled policy -- would have made
otherwise, had they held the world's cards: :meth:`CardPlayReplay.misses` replays the
card play from its start, each seat holding its cards in the world and those it has
played since, and asks the policy at each checked decision (``Engine.policy_misses``).

>>> import numpy as np
>>> from chupai.guandan import Deal
>>> from chupai.players.bots import HeuristicBot
>>> deal, bot, rng = Deal(seed=1), HeuristicBot(), np.random.default_rng(0)
>>> for _ in range(12):
...     deal.apply(bot.choose(deal, rng))
>>> replay = deal.card_play_replay([1, 3])
>>> replay.misses(deal.card_play())      # the true hands: the heuristic's own decisions
0
>>> replay.misses(deal.determinize_card_play(0, rng)) >= 0
True
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from chupai.actions import PASS
from chupai.cards import Cards
from chupai.contract import Event

__all__ = ["CardPlayReplay"]


class CardPlayReplay:
    """The card-play events of a deal so far, the decisions of ``seats`` checked.

    Made by a deal's (or match's) ``card_play_replay(seats)``; ``make(hands)`` is the
    game's engine of the card play's start with the seats holding ``hands``.
    """

    __slots__ = ("_actions", "_checked", "_make", "_played")

    def __init__(self, make: Callable[[Sequence[Cards]], Any], events: Sequence[Event], seats: Iterable[int],
                 players: int) -> None:
        checked = frozenset(seats)
        self._make = make
        self._actions = [None if e.action is PASS else e.action for e in events]
        self._checked = [e.seat in checked and not e.automatic for e in events]
        played = [Cards() for _ in range(players)]
        for e, action in zip(events, self._actions):
            if action is not None:
                played[e.seat] = played[e.seat] + action.cards
        self._played = played

    @property
    def checked(self) -> int:
        """The number of decisions checked."""
        return sum(self._checked)

    def misses(self, engine: Any, policy: str = "heuristic") -> int:
        """How many of the checked decisions ``policy`` would not have made had each seat
        held its cards in ``engine`` (a card-play engine of this deal's position, e.g. a
        world's) and those it has played since the card play began."""
        if not any(self._checked):
            return 0
        hands = [engine.hand(s) + cards for s, cards in enumerate(self._played)]
        misses: int = self._make(hands).policy_misses(self._actions, self._checked, policy)
        return misses
