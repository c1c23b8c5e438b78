"""A whole Guan Dan game (:class:`Match`): deals until a team wins at A, and the standing
after each deal (:func:`settle`; ``docs/rules/guandan.md``, "Levels and the end of the game").
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np

from chupai.core.seeds import match_deal
from chupai.state.base import OpenEndedMatch, check_rules, check_seat, check_seed
from chupai.core.validate import check_positive_int
from chupai.cards import RANKS, Cards
from chupai.contract import Event
from chupai.guandan._engine import RESULT_12, RESULT_13, DealEngine
from chupai.guandan.deal import Deal
from chupai.guandan.rules import Rules, parse_rank

__all__ = ["Match", "settle"]

SEATS = 4
ACE = RANKS.index("A")  # level index of A


def settle(
    levels: Sequence[int],
    declarers: int | None,
    ace_failures: Sequence[int],
    order: Sequence[int],
    result: int,
    first_out_with_aces: bool,
    rules: Rules,
) -> tuple[list[int], int, list[int], int | None]:
    """The standing after a deal (``docs/rules/guandan.md``, "Levels and the end of the game").

    ``levels`` are level indexes (0 = 2 … 12 = A); ``result`` 1, 2, 3 for 1-2, 1-3, 1-4;
    ``ace_failures`` counts, per team, the deals played as declarers at A that did not
    end the game.  Returns ``(levels, declarers, ace_failures, game_winner or None)``.

    * declarers at A winning 1-2 or 1-3 win the game (nothing else changes);
    * declarers at A winning 1-4 stay at A; the deal counts as a failed attempt;
    * declarers at A who lose: a failed attempt; with ``ace_loss_to_aces`` they drop to
      2 when the opponent who went out first did so with a play made only of aces;
    * after ``ace_attempts`` failed attempts the team drops to 2 (count reset);
    * otherwise the winners go up by ``promotion`` (at most to A) and become declarers.
    """
    levels = list(levels)
    fails = list(ace_failures)
    w = order[0] % 2
    lose = 1 - w
    limit = rules.ace_attempts
    if declarers == w and levels[w] == ACE:
        if result in (RESULT_12, RESULT_13):
            return levels, w, fails, w
        fails[w] += 1
        if limit is not None and fails[w] >= limit:
            levels[w], fails[w] = 0, 0
        return levels, w, fails, None
    if declarers == lose and levels[lose] == ACE:
        fails[lose] += 1
        if (rules.ace_loss_to_aces and first_out_with_aces) or (limit is not None and fails[lose] >= limit):
            levels[lose], fails[lose] = 0, 0
    levels[w] = min(ACE, levels[w] + rules.promotion[result - 1])
    return levels, w, fails, None


class Match(OpenEndedMatch):
    """A whole Guan Dan game: deals until a team wins at A.

    Args:
        seed: the match seed (``None``: drawn from ``np.random.default_rng()``); deal
            ``i`` is dealt from a seed derived from it, so one seed gives one match
            for one sequence of actions.
        rules: a :class:`~chupai.guandan.Rules` (default: pagat).
        max_deals: a safety cap: after this many deals without a winner the match ends
            as a draw (``is_terminal()``, ``winner`` ``None``, ``returns()`` all 0).
            ``None``: no cap.
        levels, declarers: start from this standing instead of both teams at 2 (the
            first deal is then played at the declarers' level, without tribute).
        hands: for tests and analysis: ``hands(i)`` gives the four hands of deal ``i``
            (0-based) instead of a random deal, or ``(hands, leader)`` for the first
            deal (without a leader it is the holder of a random card).  (Guan Dan has
            no dealer: the first deal's leader holds a card drawn at random, later
            leads follow the tribute; so, unlike the other games, there is no
            ``dealer`` argument.)

    A match made with ``hands`` pickles when ``hands`` does (a module-level function,
    not a lambda).  The match moves to the next deal by itself when a deal ends, so
    ``current_player`` always names a decision unless the match is over.  The rules of
    the standing are those of :func:`settle`.  :attr:`deals` summarises each finished
    deal: ``deal``, ``level``, ``declarers``, ``levels_before``, ``finishing_order``,
    ``result``, ``first_out_with_aces``, ``levels_after``, ``ace_failures``.
    """

    _COPIED = ("_levels", "_fails")

    game: ClassVar[str] = "guandan"

    __slots__ = (
        "_deal",
        "_hands_of",
        "_declarers",
        "_fails",
        "_levels",
        "_max_deals",
        "_over",
        "_past",
        "_rules",
        "_seed",
        "_summaries",
        "_winner",
    )

    def __init__(
        self,
        seed: int | None = None,
        *,
        rules: Rules | None = None,
        max_deals: int | None = 1000,
        levels: Sequence[Any] = ("2", "2"),
        declarers: int | None = None,
        hands: Callable[[int], Any] | None = None,
    ) -> None:
        seed = check_seed(seed)
        self._max_deals = None if max_deals is None else check_positive_int(max_deals, "max_deals")
        if isinstance(levels, str) or not isinstance(levels, Sequence):
            raise TypeError(f"levels must be two levels (team 0, team 1), not {levels!r}")
        if len(levels) != 2:
            raise ValueError(f"levels must be two levels (team 0, team 1), not {levels!r}")
        lv = [parse_rank(levels[0], "level"), parse_rank(levels[1], "level")]
        if declarers is not None:
            declarers = check_seat(declarers, 2, "declarers (a team)")
        if declarers is None and lv[0] != lv[1]:
            raise ValueError(f"levels {tuple(levels)} differ: say which team are declarers")
        if hands is not None and not callable(hands):
            raise TypeError(f"hands must be a function of the deal index or None, not {hands!r}")
        self._rules = check_rules(rules, Rules, "guandan")
        self._seed = seed
        self._levels = lv
        self._declarers = declarers
        self._fails = [0, 0]
        self._winner: int | None = None
        self._over = False
        self._past: tuple[Event, ...] = ()
        self._summaries: tuple[dict[str, Any], ...] = ()
        self._hands_of = hands
        self._deal = self._new_deal(None)
        self._made("new", seed, rules=self._rules, max_deals=self._max_deals,
                   levels=(RANKS[lv[0]], RANKS[lv[1]]), declarers=declarers, hands=hands)

    def _new_deal(self, previous: tuple[int, ...] | None) -> Deal:
        index = len(self._summaries)
        seed = match_deal(self._seed, index)
        level_chars = (RANKS[self._levels[0]], RANKS[self._levels[1]])
        leader = None
        if self._hands_of is not None:
            given = self._hands_of(index)
            if isinstance(given, tuple) and len(given) == 2 and isinstance(given[1], int):
                hands, leader = given
            else:
                hands = given
            hands = [h if isinstance(h, Cards) else Cards(h) for h in hands]
            if previous is None and leader is None:
                sizes = [len(h) for h in hands]
                k = int(np.random.default_rng(seed).integers(0, sum(sizes)))
                leader = int(np.searchsorted(np.cumsum(sizes), k, side="right"))
        else:
            engine = DealEngine.random(seed, level=RANKS[self._levels[self._declarers or 0]], rules=self._rules)
            hands = [engine.hand(s) for s in range(SEATS)]
            leader = int(engine.current)
        deal = Deal.from_hands(hands, leader=leader, levels=level_chars, declarers=self._declarers,
                               previous=previous, rules=self._rules)
        deal._seed = None if self._hands_of is not None else seed
        return deal

    def _after_deal(self) -> None:
        deal = self._deal
        order = deal.finishing_order
        before = (RANKS[self._levels[0]], RANKS[self._levels[1]])
        levels, declarers, fails, winner = settle(
            self._levels, self._declarers, self._fails, order, deal._engine.result,
            deal.first_out_with_aces, self._rules)
        self._levels, self._declarers, self._fails = levels, declarers, fails
        self._past = self._past + tuple(deal._history)
        self._summaries = self._summaries + ({
            "deal": len(self._summaries),
            "level": deal.level,
            "declarers": deal.declarers,
            "levels_before": before,
            "finishing_order": order,
            "result": deal.result,
            "first_out_with_aces": deal.first_out_with_aces,
            "levels_after": (RANKS[levels[0]], RANKS[levels[1]]),
            "ace_failures": tuple(fails),
        },)
        if winner is not None:
            self._winner = winner
            self._over = True
        elif self._max_deals is not None and len(self._summaries) >= self._max_deals:
            self._over = True
        else:
            self._deal = self._new_deal(order)

    # -- the common surface -----------------------------------------------------------------
    def returns(self) -> list[float]:
        """+1 for both players of the winning team, -1 for the others; zeros before the
        end and after a draw (``max_deals`` reached)."""
        if self._winner is None:
            return [0.0] * SEATS
        return [1.0 if s % 2 == self._winner else -1.0 for s in range(SEATS)]

    def scores(self) -> tuple[int, ...]:
        """Per seat, its team's current level as a number (2..10, J 11, Q 12, K 13, A 14)."""
        return tuple(self._levels[s % 2] + 2 for s in range(SEATS))

    @property
    def levels(self) -> tuple[str, str]:
        """The current levels of team 0 and team 1."""
        return (RANKS[self._levels[0]], RANKS[self._levels[1]])

    @property
    def declarers(self) -> int | None:
        return self._declarers

    @property
    def level(self) -> str:
        """The level rank of the current deal (the declarers' level)."""
        level: str = self._deal.level
        return level

    @property
    def ace_failures(self) -> tuple[int, int]:
        """Per team, the failed deals as declarers at A counted towards ``ace_attempts``."""
        return (self._fails[0], self._fails[1])

    def _standing(self) -> dict[str, Any]:
        """The ``"match"`` part of an observation: the standing (``levels``,
        ``declarers``, ``ace_failures``, ``deals_played``, ``deals`` summaries,
        ``winner``, ``over``)."""
        return {
            "levels": self.levels,
            "declarers": self._declarers,
            "ace_failures": self.ace_failures,
            "deals_played": self.deals_played,
            "deals": self._summaries,
            "winner": self._winner,
            "over": self._over,
        }

    def __str__(self) -> str:
        state = (f"won by team {self._winner}" if self._winner is not None
                 else "over (max_deals reached)" if self._over else "in progress")
        head = (f"Guan Dan match: levels {self.levels[0]}/{self.levels[1]}, declarers "
                f"{'none' if self._declarers is None else 'team ' + str(self._declarers)}, "
                f"{self.deals_played} deal(s) played, {state}")
        return head + "\n" + str(self._deal)

    def __repr__(self) -> str:
        return f"<guandan.Match seed {self._seed} levels {self.levels} deals {self.deals_played}>"
