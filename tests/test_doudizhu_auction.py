"""Dou Dizhu's auction and scoring (chupai.doudizhu.auction, chupai.doudizhu.scoring)
against the rules page: every bid sequence of every auction, walked through
``Auction.legal``, ends as an independent reading of the rules says; the stake and the
payments of the spec's cases; bad input."""
from __future__ import annotations

import pytest

from chupai.doudizhu import Auction, Bid, Rules, multiplier, payments, stake
from chupai.errors import IllegalActionError


def _sequences(rules: Rules, first: int) -> list[tuple[Auction, tuple[int, ...]]]:
    """Every finished auction from ``first`` (walked through ``legal``), with its bids."""
    out = []

    def walk(values: tuple[int, ...]) -> None:
        a = Auction(rules, first)
        for v in values:
            a.apply(Bid(v))
        if a.over:
            out.append((a, values))
            return
        for bid in a.legal():
            walk(values + (bid.value,))

    walk(())
    return out


def _once(first: int, values: tuple[int, ...], all_pass: str) -> tuple[int | None, int, int]:
    """(landlord, base, bids made) of the one-bid auction, read from the rules page."""
    best, who = 0, None
    for k, v in enumerate(values):
        seat = (first + k) % 3
        assert v == 0 or v > best, "a bid must beat the bids so far"
        if v:
            best, who = v, seat
        if v == 3:
            return who, 3, k + 1
    assert len(values) == 3, "every player speaks once"
    if who is None:
        return (first, 1, 3) if all_pass == "first_bidder" else (None, 0, 3)
    return who, best, 3


def _rob(first: int, values: tuple[int, ...], all_pass: str) -> tuple[int | None, int, int]:
    """(landlord, base, bids made) of call and rob, read from the rules page."""
    order = [(first + k) % 3 for k in range(3)]
    calls = [k for k in range(min(3, len(values))) if values[k]]
    if not calls:
        assert len(values) == 3
        return (first, 1, 3) if all_pass == "first_bidder" else (None, 0, 3)
    c = calls[0]
    caller, later = order[c], order[c + 1:]
    robs = values[c + 1:c + 1 + len(later)]
    assert len(robs) == len(later), "every later player may rob once"
    landlord, base, used = caller, 1, c + 1 + len(later)
    for seat, v in zip(later, robs):
        if v:
            landlord, base = seat, base * 2
    if landlord != caller:  # the caller's last word
        if values[used]:
            landlord, base = caller, base * 2
        used += 1
    return landlord, base, used


@pytest.mark.parametrize("all_pass", ["redeal", "void", "first_bidder"])
@pytest.mark.parametrize("bidding", ["once", "rob"])
@pytest.mark.parametrize("first", [0, 1, 2])
def test_every_bid_sequence_ends_as_the_rules_say(bidding: str, all_pass: str, first: int) -> None:
    rules = Rules(bidding=bidding, all_pass=all_pass)
    reference = _once if bidding == "once" else _rob
    seen = _sequences(rules, first)
    assert len(seen) == (20 if bidding == "once" else 12)  # (counted by hand from the rules)
    for a, values in seen:
        landlord, base, used = reference(first, values, all_pass)
        assert used == len(values), values
        assert (a.landlord, a.base, a.void) == (landlord, base, landlord is None), values
        # the first round goes from the first bidder in seat order
        assert [seat for seat, _ in a.bids][:3] == [(first + k) % 3 for k in range(min(3, len(values)))]
        assert a.current is None and a.legal() == ()


def test_the_worked_rules() -> None:
    a = Auction(Rules(), first=0)
    assert a.current == 0 and a.legal() == (Bid(0), Bid(1), Bid(2), Bid(3))
    a.apply(Bid(2))
    assert a.current == 1 and a.legal() == (Bid(0), Bid(3))  # higher than any bid so far
    a.apply(Bid(3))  # a bid of 3 ends the bidding at once
    assert a.over and (a.landlord, a.base) == (1, 3) and len(a.bids) == 2
    # all three pass: void (dealt again, or OpenSpiel's end), or the first bidder at 1
    for all_pass, outcome in [("redeal", (None, True)), ("void", (None, True)), ("first_bidder", (2, False))]:
        a = Auction(Rules(all_pass=all_pass), first=2)
        for _ in range(3):
            a.apply(Bid(0))
        assert (a.landlord, a.void) == outcome
    # call and rob: the caller may rob back last, and the last to call or rob is landlord
    r = Auction(Rules(bidding="rob"), first=0)
    for v in (0, 1, 1, 1):  # 1 calls, 2 robs, 1 robs back
        r.apply(Bid(v))
    assert (r.landlord, r.base, [s for s, _ in r.bids]) == (1, 4, [0, 1, 2, 1])
    r = Auction(Rules(bidding="rob"), first=0)
    for v in (0, 0, 1):  # the last player calls: nobody is left to rob
        r.apply(Bid(v))
    assert r.over and (r.landlord, r.base) == (2, 1)
    n = Auction(Rules.rlcard(), first=1)  # no auction
    assert n.over and (n.landlord, n.base, n.bids) == (1, 1, ())


def test_bad_bids_leave_the_auction_unchanged() -> None:
    a = Auction(Rules(), first=0)
    a.apply(Bid(2))
    before = (a.bids, a.current, a.base)
    with pytest.raises(IllegalActionError, match=r"Bid\(1\) is not legal now"):
        a.apply(Bid(1))
    with pytest.raises(TypeError, match="bid must be a doudizhu.Bid, not int"):
        a.apply(1)  # type: ignore[arg-type]
    assert (a.bids, a.current, a.base) == before
    r = Auction(Rules(bidding="rob"), first=0)
    with pytest.raises(IllegalActionError):
        r.apply(Bid(2))  # call and rob knows only pass and call/rob
    with pytest.raises(TypeError, match="value must be an int"):
        Bid(True)
    with pytest.raises(ValueError, match="value must be 0 .pass. to 3"):
        Bid(4)
    with pytest.raises(ValueError, match="first"):
        Auction(Rules(), first=3)
    with pytest.raises(TypeError, match="rules must be a doudizhu.Rules"):
        Auction("once", first=0)  # type: ignore[arg-type]


def test_rules_options_of_the_deal() -> None:
    assert (Rules().bidding, Rules().all_pass, Rules().multiplier_cap) == ("once", "redeal", None)
    assert Rules.openspiel().all_pass == "void"
    assert Rules.rlcard().bidding == Rules.douzero().bidding == "none"
    with pytest.raises(ValueError, match="bidding"):
        Rules(bidding="auction")
    with pytest.raises(ValueError, match="all_pass"):
        Rules(all_pass="again")
    with pytest.raises(ValueError, match="multiplier_cap must be an int >= 1"):
        Rules(multiplier_cap=0)
    with pytest.raises(TypeError, match="multiplier_cap"):
        Rules(multiplier_cap=2.0)


def test_stake_and_payments() -> None:
    rules = Rules()
    # the base doubled for every bomb and rocket, and for a spring or an anti-spring
    assert stake(rules, base=1, bombs=0, rockets=0, spring=False, anti_spring=False) == 1
    assert stake(rules, base=3, bombs=2, rockets=1, spring=False, anti_spring=False) == 24
    assert stake(rules, base=2, bombs=0, rockets=0, spring=True, anti_spring=False) == 4
    assert stake(rules, base=2, bombs=1, rockets=0, spring=False, anti_spring=True) == 8
    # the cap bounds the doublings, not the base
    assert multiplier(Rules(multiplier_cap=16), bombs=6, rockets=1, spring=True, anti_spring=False) == 16
    assert stake(Rules(multiplier_cap=16), base=3, bombs=6, rockets=1, spring=True, anti_spring=False) == 48
    # landlord out first: each farmer pays the stake; else the landlord pays each
    assert payments(landlord=0, landlord_won=True, stake=6) == (12, -6, -6)
    assert payments(landlord=2, landlord_won=False, stake=6) == (6, 6, -12)
    for landlord in range(3):
        for won in (True, False):
            assert sum(payments(landlord=landlord, landlord_won=won, stake=5)) == 0
    with pytest.raises(ValueError, match="not both"):
        multiplier(rules, bombs=0, rockets=0, spring=True, anti_spring=True)
    with pytest.raises(ValueError, match="rockets"):
        multiplier(rules, bombs=0, rockets=2, spring=False, anti_spring=False)
    with pytest.raises(ValueError, match="base"):
        stake(rules, base=0, bombs=0, rockets=0, spring=False, anti_spring=False)
    with pytest.raises(TypeError, match="bombs"):
        stake(rules, base=1, bombs="1", rockets=0, spring=False, anti_spring=False)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="landlord"):
        payments(landlord=3, landlord_won=True, stake=1)
