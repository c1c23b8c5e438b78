"""Gan Deng Yan's match, :class:`Match`: a series of deals (:class:`~chupai.gandengyan.deal.Deal`)."""

from __future__ import annotations

from typing import Any, ClassVar

from chupai.core.seeds import match_deal
from chupai.state.base import FixedLengthMatch, check_players, check_rules, check_seat, check_seed
from chupai.core.validate import check_positive_int
from chupai.contract import Event
from chupai.gandengyan._engine import MAX_PLAYERS, MIN_PLAYERS
from chupai.gandengyan.rules import Rules

from chupai.gandengyan.deal import Deal

__all__ = ["Match"]


class Match(FixedLengthMatch):
    """A series of Gan Deng Yan deals: the winner of each deal deals the next.

    Args:
        seed: the match seed (``None``: drawn from ``np.random.default_rng()``); deal
            ``i`` is dealt from a seed derived from it.
        rules: a :class:`~chupai.gandengyan.Rules` (default: the base game).
        players: 2 to 6.
        max_deals: the number of deals to play (the spec leaves the length of a game to
            the players).
        dealer: the first dealer (``None``: random from the seed).

    A deal nobody could finish (no winner) is dealt again by the same dealer.  The
    match moves to the next deal by itself, so ``current_player`` always names a
    decision unless the match is over.  ``returns()`` are the total scores;
    :attr:`winner` the player with the highest positive total once it is over (the
    source: "after the agreed number of hands, the player with the highest positive
    score can be declared winner").
    :attr:`deals` summarises each finished deal: ``deal``, ``dealer``, ``winner``,
    ``scores``, ``cards_left``, ``bombs``, ``tricks``.
    """

    game: ClassVar[str] = "gandengyan"

    __slots__ = ("_deal", "_max_deals", "_past", "_players", "_rules", "_scores", "_seed", "_summaries")

    def __init__(
        self,
        seed: int | None = None,
        *,
        rules: Rules | None = None,
        players: int = 4,
        max_deals: int = 10,
        dealer: int | None = None,
    ) -> None:
        self._max_deals = check_positive_int(max_deals, "max_deals")
        self._seed = check_seed(seed)
        self._rules = check_rules(rules, Rules, "gandengyan")
        self._players = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
        if dealer is not None:
            dealer = check_seat(dealer, self._players, "dealer")
        self._scores = (0,) * self._players
        self._past: tuple[Event, ...] = ()
        self._summaries: tuple[dict[str, Any], ...] = ()
        self._deal = Deal(match_deal(self._seed, 0), rules=self._rules, players=self._players, dealer=dealer)
        self._made("new", self._seed, rules=self._rules, players=self._players, max_deals=self._max_deals,
                   dealer=dealer)

    def _after_deal(self) -> None:
        deal = self._deal
        scores = deal.scores()
        self._scores = tuple(a + b for a, b in zip(self._scores, scores))
        self._past = self._past + tuple(deal._history)
        self._summaries = self._summaries + (
            {
                "deal": len(self._summaries),
                "dealer": deal.dealer,
                "winner": deal.winner,
                "scores": scores,
                "cards_left": deal.hand_sizes(),
                "bombs": len(deal.bombs_played),
                "tricks": deal.tricks,
            },
        )
        if len(self._summaries) < self._max_deals:
            dealer = deal.dealer if deal.winner is None else deal.winner
            seed = match_deal(self._seed, len(self._summaries))
            self._deal = Deal(seed, rules=self._rules, players=self._players, dealer=dealer)

    def __str__(self) -> str:
        state = "over" if self.is_terminal() else "in progress"
        head = (f"Gan Deng Yan match, {self._players} players, deal {len(self._summaries) + (0 if self.is_terminal() else 1)}"
                f" of {self._max_deals} ({state}), scores {self._scores}")
        return head + "\n" + str(self._deal)

    def __repr__(self) -> str:
        return f"<gandengyan.Match seed {self._seed} scores {self._scores} deals {len(self._summaries)}/{self._max_deals}>"
