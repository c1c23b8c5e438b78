"""The bots' bid in the Dou Dizhu auction (the registry entry's ``decision_policy``):
how much the hand is worth, from the cards that win tricks.

A hand's strength counts what is hard to beat: the rocket 8, a lone red joker 4 and a
lone black joker 3, each bomb 6, each 2 held 2 and each ace 1.  The bid it is worth is
3 from 10 points, 2 from 7, 1 from 4, else none.  In the one-bid auction the bot bids
the highest legal bid up to that worth (passing when the bids so far are higher); in
the call-and-rob auction it calls from a worth of 1 and robs from a worth of 2.

>>> from chupai.doudizhu import Deal
>>> deal = Deal.from_hands(["BJ RJ 2S 2H 2C AS 3S", "4S", "5S"], kitty="6S 7S 8S")
>>> worth(deal.hand(0)), decision_choice(deal, deal.legal_actions())
(3, Bid(3))
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chupai.cards import Cards
from chupai.doudizhu.auction import Bid

__all__ = ["decision_choice", "strength", "worth"]

#: the strength points from which a hand is worth a bid of 3, 2 and 1
THRESHOLDS = ((10, 3), (7, 2), (4, 1))


def strength(hand: Cards) -> int:
    """The strength points of ``hand`` (the module doc)."""
    counts = hand.counts()
    ranks = [sum(counts[4 * r:4 * r + 4]) for r in range(13)]  # faces rank*4 + suit, ranks 2..A
    black, red = counts[52], counts[53]
    points = 8 if black and red else 4 * red + 3 * black
    points += 6 * sum(1 for n in ranks if n == 4)
    points += 2 * ranks[0] + ranks[12]  # the 2s and the aces
    return points


def worth(hand: Cards) -> int:
    """The bid ``hand`` is worth: 0 (none) to 3."""
    points = strength(hand)
    return next((bid for least, bid in THRESHOLDS if points >= least), 0)


def decision_choice(state: Any, actions: Sequence[Any]) -> Any:
    """The bid among ``actions`` (the legal bids of ``state``'s auction) for the hand of
    the player to bid."""
    deal = getattr(state, "deal", state)
    value = worth(deal.hand(deal.current_player))
    if deal.rules.bidding == "rob":
        robbing = any(bid.value for _, bid in deal.bids)
        value = 1 if value >= (2 if robbing else 1) else 0
    best = max((a for a in actions if a.value <= value), key=lambda a: a.value, default=None)
    return best if best is not None else Bid(0)
