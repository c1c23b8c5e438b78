"""A whole Zheng Shangyou game (:class:`Match`): deals until a player reaches the target.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from chupai.core.seeds import match_deal
from chupai.state.base import (
    OpenEndedMatch,
    check_players,
    check_rules,
    check_seat,
    check_seed,
)
from chupai.core.validate import check_positive_int
from chupai.contract import Event
from chupai.zhengshangyou._engine import MAX_PLAYERS, MIN_PLAYERS, DealEngine
from chupai.zhengshangyou.deal import Deal
from chupai.zhengshangyou.rules import Rules

__all__ = ["Match", "winner_of"]


def winner_of(scores: Sequence[int], order: Sequence[int], target: int) -> int | None:
    """The game's winner after a deal (``docs/rules/zhengshangyou.md``, "Table and deal"), or
    ``None``: among the players at ``target`` or more, the higher total, then the better
    finish in that deal (``order``: its finishing order)."""
    reached = [s for s in range(len(scores)) if scores[s] >= target]
    if not reached:
        return None
    return min(reached, key=lambda s: (-scores[s], list(order).index(s)))


class Match(OpenEndedMatch):
    """A whole Zheng Shangyou game: deals until a player reaches ``rules.target`` points.

    Args:
        seed: the match seed (``None``: drawn from ``np.random.default_rng()``); deal
            ``i`` is dealt from a seed derived from it.
        rules: a :class:`~chupai.zhengshangyou.Rules`.
        players: 2..8 (default 4).
        dealer: the first dealer (``None``: drawn from the first deal's seed).
        max_deals: a safety cap: after this many deals without a winner the match ends
            as a draw (``returns()`` all 0).  ``None``: no cap.

    The match moves to the next deal by itself when a deal ends (the last player out
    before the last deals, then the card exchange), so ``current_player`` always names
    a decision unless the match is over.  :attr:`deals` summarises each finished deal:
    ``deal``, ``dealer``, ``finishing_order``, ``points``, ``scores`` (after it).
    """

    _COPIED = ("_scores",)

    game: ClassVar[str] = "zhengshangyou"

    __slots__ = ("_deal", "_max_deals", "_n", "_over", "_past", "_rules", "_scores",
                 "_seed", "_summaries", "_winner")

    def __init__(
        self,
        seed: int | None = None,
        *,
        rules: Rules | None = None,
        players: int = 4,
        dealer: int | None = None,
        max_deals: int | None = 1000,
    ) -> None:
        self._seed = check_seed(seed)
        self._rules = check_rules(rules, Rules, "zhengshangyou")
        self._n = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
        if dealer is not None:
            dealer = check_seat(dealer, self._n, "dealer")
        self._max_deals = None if max_deals is None else check_positive_int(max_deals, "max_deals")
        self._scores = [0] * self._n
        self._winner: int | None = None
        self._over = False
        self._past: tuple[Event, ...] = ()
        self._summaries: tuple[dict[str, Any], ...] = ()
        self._deal = self._new_deal(None, dealer)
        self._made("new", self._seed, rules=self._rules, players=self._n, dealer=dealer, max_deals=self._max_deals)

    def _new_deal(self, previous: tuple[int, ...] | None, dealer: int | None = None) -> Deal:
        seed = match_deal(self._seed, len(self._summaries))
        if previous is not None:
            dealer = self._rules.dealer_after(previous)
        core = DealEngine.random(seed, players=self._n, dealer=dealer, rules=self._rules)
        deal = Deal.from_hands([core.hand(s) for s in range(self._n)], dealer=int(core.current),
                               previous=previous, rules=self._rules)
        deal._seed = seed
        return deal

    def _after_deal(self) -> None:
        deal = self._deal
        order = deal.finishing_order
        for s, pts in enumerate(deal.points):
            self._scores[s] += pts
        self._past = self._past + tuple(deal._history)
        self._summaries = self._summaries + (
            {"deal": len(self._summaries), "dealer": deal.dealer, "finishing_order": order,
             "points": deal.points, "scores": tuple(self._scores)},
        )
        self._winner = winner_of(self._scores, order, self._rules.target)
        if self._winner is not None or (self._max_deals is not None and len(self._summaries) >= self._max_deals):
            self._over = True
        else:
            self._deal = self._new_deal(order)

    # -- the common surface (the rest: OpenEndedMatch) ----------------------------------------
    def returns(self) -> list[float]:
        """+1 for the winner and ``-1 / (n - 1)`` for every other player (a zero sum);
        zeros before the end and after a draw (``max_deals`` reached)."""
        if self._winner is None:
            return [0.0] * self._n
        return [1.0 if s == self._winner else -1.0 / (self._n - 1) for s in range(self._n)]

    def scores(self) -> tuple[int, ...]:
        """Each player's points so far (finished deals)."""
        return tuple(self._scores)

    def _standing(self) -> dict[str, Any]:
        """The ``"match"`` part of an observation: ``scores``, ``target``,
        ``deals_played``, ``deals`` summaries, ``winner``, ``over``."""
        return {
            "scores": self.scores(),
            "target": self._rules.target,
            "deals_played": self.deals_played,
            "deals": self._summaries,
            "winner": self._winner,
            "over": self._over,
        }

    def __str__(self) -> str:
        state = (f"won by seat {self._winner}" if self._winner is not None
                 else "over (max_deals reached)" if self._over else "in progress")
        head = (f"Zheng Shangyou match, {self._n} players, target {self._rules.target}: scores "
                f"{self.scores()}, {self.deals_played} deal(s) played, {state}")
        return head + "\n" + str(self._deal)

    def __repr__(self) -> str:
        return f"<zhengshangyou.Match seed {self._seed} scores {self.scores()} deals {self.deals_played}>"
