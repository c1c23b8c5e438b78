"""Dou Dizhu's match, :class:`Match`: a series of deals (:class:`~chupai.doudizhu.deal.Deal`)."""

from __future__ import annotations

from typing import Any, ClassVar

from chupai.contract import Event
from chupai.core.seeds import match_deal
from chupai.core.validate import check_positive_int
from chupai.state.base import FixedLengthMatch, check_rules, check_seat, check_seed
from chupai.doudizhu.auction import SEATS
from chupai.doudizhu.deal import Deal
from chupai.doudizhu.rules import Rules

__all__ = ["Match"]


class Match(FixedLengthMatch):
    """A series of Dou Dizhu deals, the first bidder moving one seat on each deal.

    Args:
        seed: the match seed (``None``: drawn from ``np.random.default_rng()``); deal
            ``i`` is dealt from a seed derived from it.
        rules: a :class:`~chupai.doudizhu.Rules` (default: the rules page's game).
        max_deals: the number of deals to play.
        first: the first bidder of the first deal (deal ``i``'s is ``first + i`` mod 3).

    The match moves to the next deal by itself, so ``current_player`` always names a
    decision unless the match is over.  ``returns()`` are the total payments;
    :attr:`winner` the player with the highest positive total once it is over.
    :attr:`deals` summarises each finished deal: ``deal``, ``first``, ``landlord``
    (``None`` for a void deal), ``base``, ``winner``, ``stake``, ``scores``, ``bombs``
    (bombs and rockets played), ``redeals``.
    """

    game: ClassVar[str] = "doudizhu"

    __slots__ = ("_deal", "_first", "_max_deals", "_past", "_rules", "_scores", "_seed", "_summaries")

    def __init__(
        self, seed: int | None = None, *, rules: Rules | None = None, max_deals: int = 10, first: int = 0
    ) -> None:
        self._max_deals = check_positive_int(max_deals, "max_deals")
        self._seed = check_seed(seed)
        self._rules = check_rules(rules, Rules, "doudizhu")
        self._first = check_seat(first, SEATS, "first")
        self._scores = (0,) * SEATS
        self._past: tuple[Event, ...] = ()
        self._summaries: tuple[dict[str, Any], ...] = ()
        self._deal = Deal(match_deal(self._seed, 0), rules=self._rules, first=self._first)
        self._made("new", self._seed, rules=self._rules, max_deals=self._max_deals, first=self._first)

    def _after_deal(self) -> None:
        deal = self._deal
        scores = deal.scores()
        engine = deal._engine
        self._scores = tuple(a + b for a, b in zip(self._scores, scores))
        self._past = self._past + tuple(deal._history)
        self._summaries = self._summaries + (
            {
                "deal": len(self._summaries),
                "first": deal.first,
                "landlord": deal.landlord,
                "base": deal.base,
                "winner": deal.winner,
                "stake": deal.stake,
                "scores": scores,
                "bombs": 0 if engine is None else engine.doublings,
                "redeals": deal.redeals,
            },
        )
        k = len(self._summaries)
        if k < self._max_deals:
            self._deal = Deal(match_deal(self._seed, k), rules=self._rules, first=(self._first + k) % SEATS)

    def __str__(self) -> str:
        state = "over" if self.is_terminal() else "in progress"
        head = (f"Dou Dizhu match, deal {len(self._summaries) + (0 if self.is_terminal() else 1)} of "
                f"{self._max_deals} ({state}), scores {self._scores}")
        return head + "\n" + str(self._deal)

    def __repr__(self) -> str:
        return f"<doudizhu.Match seed {self._seed} scores {self._scores} deals {len(self._summaries)}/{self._max_deals}>"
