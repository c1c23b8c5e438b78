"""Playouts in C: whole Dou Dizhu deals dealt, bid and played to the end with the GIL
released (the auction of the rules, its bids made by the policy)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from chupai.engine.batch import BatchOptions, play_out, run_playouts
from chupai.state.base import check_rules
from chupai.doudizhu import _engine
from chupai.doudizhu.auction import SEATS
from chupai.doudizhu.game import Deal, Match
from chupai.doudizhu.rules import Rules

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["PlayoutResult", "PlayoutResults", "playout", "playouts"]


class PlayoutResults(NamedTuple):
    """The outcome of each deal of a batch.

    Attributes:
        landlord: ``(n,)`` int8, the landlord's seat (-1: a void deal, nobody having bid
            under ``Rules.all_pass="void"``).
        base: ``(n,)`` int32, the base stake the auction gave (0: a void deal).
        winner: ``(n,)`` int8, the first seat out (-1: a void deal).
        stake: ``(n,)`` int32, the stake (the auction's base doubled per bomb, rocket,
            spring and anti-spring, capped as the rules say; 0: a void deal).
        redeals: ``(n,)`` int8, the times the deal was dealt again, nobody having bid
            (``Rules.all_pass="redeal"``).
        returns: ``(n, 3)`` float64, each seat's payment (``chupai.doudizhu.scoring``).
    """

    landlord: np.ndarray
    base: np.ndarray
    winner: np.ndarray
    stake: np.ndarray
    redeals: np.ndarray
    returns: np.ndarray


class PlayoutResult(NamedTuple):
    """The outcome of one deal: the landlord, the first seat out (both -1 for a deal its
    auction ended), the stake and each seat's payment."""

    landlord: int
    winner: int
    stake: int
    returns: tuple[float, ...]


def playout(state: Any, *, seed: int, policy: str = "random") -> PlayoutResult:
    """Play the current deal of ``state`` (a ``Deal`` or ``Match``) to its end in C.

    ``state`` is not changed.  Bids still due are made uniformly at random from the same
    seed (an auction nobody bids in may end the deal: ``Rules.all_pass``); then the
    compiled engine plays the card play out with ``policy`` (see :func:`playouts`) with
    the GIL released.

    >>> from chupai.doudizhu import Deal
    >>> r = playout(Deal(seed=3), seed=1)
    >>> r.landlord in (0, 1, 2), sum(r.returns)
    (True, 0.0)
    """
    out = play_out(_engine, state, "doudizhu", (Deal, Match), seed=seed, policy=policy)
    if out is None:
        return PlayoutResult(-1, -1, 0, (0.0,) * SEATS)
    landlord, winner, stake, returns = out
    return PlayoutResult(landlord, winner, stake, returns)


def playouts(n: int, *, seed: int, rules: Rules | None = None,
             **options: Unpack[BatchOptions]) -> PlayoutResults:
    """Deal ``n`` fresh random deals (17 cards each, the kitty aside), hold each one's
    auction (``rules.bidding`` from seat 0; nobody bidding dealt again, void or the
    first bidder's, as ``rules.all_pass`` says) and play its card play to the end, all
    in C.

    ``options``: how the batch runs (:class:`chupai.engine.batch.BatchOptions`:
    ``policy``, ``threads``, ``progress``, ``backend``, ``workers``, ``address``).  Deal
    ``i`` draws its cards, its bids and its moves from its own stream of ``seed``, so
    the arrays are the same whatever the threads, processes or backend.  The
    ``"random"`` policy bids uniformly among the legal bids; ``"greedy"`` and
    ``"heuristic"`` bid the hand's worth (:func:`chupai.doudizhu.bidding.worth`: the
    highest legal bid up to it; call from a worth of 1, rob from 2).  The
    ``"greedy"`` policy goes out when it can, leads its lowest play (no bomb while
    another play is left), follows with the lowest play that beats, never over its
    partner, a bomb or the rocket only against a player of the other side holding at
    most three cards; ``"heuristic"`` leads the play that sheds the most cards (its
    lowest single to a partner next to play with one card) and stops a player of the
    other side holding at most two cards with its highest play.

    >>> r = playouts(100, seed=1)
    >>> r.returns.shape, bool((r.returns.sum(axis=1) == 0).all()), bool((r.stake >= 1).all())
    ((100, 3), True, True)
    """
    rules = check_rules(rules, Rules, "doudizhu")
    row = run_playouts(_engine, n, seed=seed, options=options, rules=rules)
    return PlayoutResults(row["landlord"], row["base"], row["winner"], row["stake"], row["redeals"], row["returns"])
