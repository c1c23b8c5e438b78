"""Dou Dizhu scoring: the stake of a finished deal and what each seat is paid.

``docs/rules/doudizhu.md`` ("Scoring"): the stake is the auction's base doubled for
every bomb and rocket played, and again for a spring (the landlord went out and neither
farmer played a card) or an anti-spring (a farmer went out and the landlord made only
the first lead); :attr:`Rules.multiplier_cap <chupai.doudizhu.Rules>` caps the
doublings' product. Landlord out first: each farmer pays the stake to the landlord;
otherwise the landlord pays it to each farmer.

>>> from chupai.doudizhu import Rules
>>> stake(Rules(), base=2, bombs=1, rockets=1, spring=False, anti_spring=False)
8
>>> payments(landlord=1, landlord_won=False, stake=8)
(8, -16, 8)
>>> stake(Rules(multiplier_cap=4), base=3, bombs=3, rockets=1, spring=True, anti_spring=False)
12
"""
from __future__ import annotations

from typing import Any

from chupai.core.validate import check_int, check_seat
from chupai.doudizhu.auction import SEATS
from chupai.doudizhu.rules import Rules

__all__ = ["multiplier", "payments", "roles", "stake"]


def multiplier(rules: Rules, *, bombs: int, rockets: int, spring: bool, anti_spring: bool) -> int:
    """The doublings' product: 2 for every bomb and rocket played and for a spring or an
    anti-spring, at most ``rules.multiplier_cap``."""
    bombs = check_int(bombs, "bombs", 0)
    rockets = check_int(rockets, "rockets", 0, 1)
    if spring and anti_spring:
        raise ValueError("a deal is a spring or an anti-spring, not both")
    m: int = 1 << (bombs + rockets + bool(spring) + bool(anti_spring))
    return m if rules.multiplier_cap is None else min(m, rules.multiplier_cap)


def stake(rules: Rules, *, base: int, bombs: int, rockets: int, spring: bool, anti_spring: bool) -> int:
    """What each farmer pays the landlord, or is paid: the auction's ``base`` times the
    :func:`multiplier`."""
    base = check_int(base, "base", 1)
    return base * multiplier(rules, bombs=bombs, rockets=rockets, spring=spring, anti_spring=anti_spring)


def payments(*, landlord: int, landlord_won: bool, stake: int) -> tuple[int, int, int]:
    """Each seat's result: the landlord wins or loses twice the ``stake``, each farmer
    the stake the other way (a zero sum)."""
    landlord = check_seat(landlord, SEATS, "landlord")
    stake = check_int(stake, "stake", 0)
    won = stake if landlord_won else -stake
    out = [-won] * SEATS
    out[landlord] = 2 * won
    return out[0], out[1], out[2]


def roles(deal: Any) -> tuple[str, ...]:
    """Each seat's role in ``deal`` (a ``Deal`` whose auction is over): ``"landlord"`` or
    ``"farmer"``; ``"void"`` for every seat of a deal its auction ended (the registry
    entry's ``roles``: the arena reports a bot's results by role).

    >>> from chupai.doudizhu import Bid, Deal
    >>> deal = Deal(seed=7)
    >>> for bid in (Bid(1), Bid(0), Bid(3)):
    ...     deal.apply(bid)
    >>> roles(deal)
    ('farmer', 'farmer', 'landlord')
    """
    landlord = deal.landlord
    if landlord is None:
        return ("void",) * SEATS
    return tuple("landlord" if s == landlord else "farmer" for s in range(SEATS))
