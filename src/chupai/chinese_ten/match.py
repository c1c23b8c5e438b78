"""Chinese Ten's match, :class:`Match`: a series of deals (:class:`~chupai.chinese_ten.deal.Deal`)."""

from __future__ import annotations

from typing import Any, ClassVar

from chupai.core.seeds import match_deal
from chupai.state.base import MatchSurface, check_seat, check_seed
from chupai.core.validate import check_int
from chupai.chinese_ten.rules import Rules
from chupai.contract import Event

from chupai.chinese_ten.deal import Deal, _check_rules

__all__ = ["Match", "next_dealer"]


# --- a game of deals ------------------------------------------------------------------------
def next_dealer(rules: Rules, deal: Deal) -> int:
    """Who deals after ``deal``: the next seat; in ``main_merah`` the worst scorer of
    ``deal`` (ties: the first of them in play order from ``deal``'s first player), who
    then plays first (the variant's ``dealer_first`` order)."""
    n = deal.players
    if rules.variant != "main_merah":
        return (deal.dealer + 1) % n
    scores = deal.scores()
    worst = min(scores)
    return next(s % n for s in range(deal.first_player, deal.first_player + n) if scores[s % n] == worst)


class Match(MatchSurface):
    """A game of Chinese Ten: ``rules.deals_in_match(players)`` deals (by default one per
    player, :attr:`max_deals`), each player's results added up.

    Args:
        seed: the match seed (``None``: drawn from ``np.random.default_rng()``); deal ``i``
            is dealt from a seed derived from it.
        rules: a :class:`~chupai.chinese_ten.Rules` (default: pagat).
        players: 2 to 4, as the variant allows.
        dealer: the seat that deals first (default 0).

    The deal passes to the next seat, except in ``main_merah`` (see :func:`next_dealer`).
    The match moves to the next deal by itself when a deal ends, so ``current_player``
    always names a decision unless it is over.  :attr:`deals` summarises each finished
    deal: ``deal``, ``dealer``, ``first_player``, ``redeals``, ``opening``, ``scores``,
    ``bonus_player``, ``returns``, ``totals``.
    """

    _COPIED = ("_totals",)

    game: ClassVar[str] = "chinese_ten"

    __slots__ = ("_rules", "_seed", "_players", "_deal", "_totals", "_scores", "_past", "_summaries")

    _scores: tuple[int, ...]
    _players: int

    def __init__(self, seed: int | None = None, *, rules: Rules | None = None, players: int = 4,
                 dealer: int = 0) -> None:
        self._rules = _check_rules(rules)
        self._players = self._rules.check_players(check_int(players, "players"))
        self._seed = check_seed(seed)
        dealer = check_seat(dealer, self._players, "dealer")
        self._totals = [0.0] * self._players
        self._scores = (0,) * self._players
        self._past: tuple[Event, ...] = ()
        self._summaries: tuple[dict[str, Any], ...] = ()
        self._deal = self._new_deal(dealer)
        self._made("new", self._seed, rules=self._rules, players=self._players, dealer=dealer)

    def _new_deal(self, dealer: int) -> Deal:
        seed = match_deal(self._seed, len(self._summaries))
        return Deal(seed, rules=self._rules, players=self._players, dealer=dealer)

    def _after_deal(self) -> None:
        deal = self._deal
        returns = deal.returns()
        self._totals = [t + r for t, r in zip(self._totals, returns)]
        self._scores = tuple(int(a + b) for a, b in zip(self._scores, deal.scores()))
        self._past = self._past + tuple(deal.history)
        self._summaries = self._summaries + ({
            "deal": len(self._summaries),
            "dealer": deal.dealer,
            "first_player": deal.first_player,
            "redeals": deal.redeals,
            "opening": deal.opening,
            "scores": deal.scores(),
            "bonus_player": deal.bonus_player,
            "returns": tuple(returns),
            "totals": tuple(self._totals),
        },)
        if not self.is_terminal():
            self._deal = self._new_deal(next_dealer(self._rules, deal))

    # -- the common surface -------------------------------------------------------------------
    @property
    def max_deals(self) -> int:
        """The deals the match lasts (``rules.deals_in_match(players)``)."""
        return int(self._rules.deals_in_match(self._players))

    def is_terminal(self) -> bool:
        # the current deal goes on unless the match is over (a finished deal is replaced
        # at once): the compiled test first, the rules' count only then
        return self._deal.is_terminal() and len(self._summaries) >= self.max_deals

    def returns(self) -> list[float]:
        """Once over, each player's total result over the deals; zeros before."""
        return list(self._totals) if self.is_terminal() else [0.0] * self._players

    def scores(self) -> tuple[int, ...]:
        """Each player's card points added up over the finished deals."""
        return self._scores

    @property
    def totals(self) -> tuple[float, ...]:
        """Each player's total result over the deals finished so far."""
        return tuple(self._totals)

    def _standing(self) -> dict[str, Any]:
        """The ``"match"`` part of an observation: ``deals_played``, ``deals``
        (summaries), ``totals``, ``scores``, ``over``."""
        return {
            "deals_played": self.deals_played,
            "deals": self._summaries,
            "totals": self.totals,
            "scores": self._scores,
            "over": self.is_terminal(),
        }

    def __str__(self) -> str:
        state = "over" if self.is_terminal() else "in progress"
        totals = ", ".join(f"{t:+g}" for t in self._totals)
        head = (f"Chinese Ten match, {self._players} players: {self.deals_played} of "
                f"{self.max_deals} deal(s) played, {state}; totals {totals}")
        return head + "\n" + str(self._deal)

    def __repr__(self) -> str:
        return f"<chinese_ten.Match seed {self._seed} deals {self.deals_played}>"
