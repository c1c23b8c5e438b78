"""Invariants over 2000 random Gan Deng Yan deals played through the Python API.

2-6 players, one and two decks, every rule variant.  At every step: the current
player holds cards; the legal actions are exactly the generator's plays of their hand
against the trick (each one following it), with ``PASS`` exactly when following or
unable to lead; no card appears or vanishes; the talon only shrinks.  At the end:
the winner has no cards (and went out with the talon short enough), the scores are
zero-sum (or nobody negative with ``positive_only``), the Python scoring equals the C
engine's, and a deal without a winner only happens with ``joker_lead_out=False``.
"""
from __future__ import annotations

import numpy as np
import pytest

from chupai.gandengyan import PASS, Deal, Play, Rules, legal_plays

VARIANTS = [
    Rules(),
    Rules(decks=2),
    Rules(triples_are_bombs=False, triple_sequences=True),
    Rules(max_sequence_ranks=3, joker_as_two=False),
    Rules(joker_lead_out=False),
    Rules(follow_same_rank=True),
    Rules(min_talon_to_win=5),
    Rules(min_talon_to_win=0, joker_lead_out=False),
    Rules(ace_multiplier=2, multipliers=True),
    Rules(multipliers=True, soft_bombs=True, positive_only=True, joker_bombs_in_hand=False),
    Rules(decks=2, triples_are_bombs=False, follow_same_rank=True, min_talon_to_win=3, multipliers=True,
          announce_at=2, max_payment=40),
]
GAMES = 2000


def check_game(seed: int) -> Deal:
    rng = np.random.default_rng(seed)
    rules = VARIANTS[seed % len(VARIANTS)]
    players = 2 + seed % 5
    deal = Deal(seed, rules=rules, players=players)
    deck = 54 * rules.decks
    talon = deal.talon_size
    played = 0
    while not deal.is_terminal():
        seat = deal.current_player
        hand = deal.hand(seat)
        assert len(hand) > 0
        last = deal.trick[0]
        actions = deal.legal_actions()
        plays = [a for a in actions if isinstance(a, Play)]
        assert set(plays) == set(legal_plays(hand, last, rules=rules)) and len(set(plays)) == len(plays)
        if last is not None:
            assert all(p.beats(last, rules=rules) for p in plays)
        assert (PASS in actions) == (last is not None or not plays)
        action = actions[int(rng.integers(len(actions)))]
        deal.apply(action)
        if isinstance(action, Play):
            played += action.length
        assert sum(deal.hand_sizes()) + deal.talon_size + played == deck
        assert deal.talon_size <= talon
        talon = deal.talon_size
        if rules.announce_at is not None:
            assert set(deal.announced) == {s for s, n in enumerate(deal.hand_sizes()) if n <= rules.announce_at}
    scores = deal.scores()
    assert [float(x) for x in scores] == list(deal._engine.returns())
    if deal.winner is None:
        assert not rules.joker_lead_out and scores == (0,) * players
        return deal
    assert deal.hand_sizes()[deal.winner] == 0
    if rules.min_talon_to_win is not None:
        assert deal.talon_size <= rules.min_talon_to_win
    if rules.positive_only:
        assert scores[deal.winner] >= 0 and all(x == 0 for s, x in enumerate(scores) if s != deal.winner)
    else:
        assert sum(scores) == 0
    if not (rules.multipliers or rules.ace_multiplier):
        assert scores[deal.winner] == sum(deal.hand_sizes())
    return deal


def test_invariants_over_2000_random_deals():
    winners = 0
    for seed in range(GAMES):
        winners += check_game(seed).winner is not None
    assert winners >= GAMES * 0.95


@pytest.mark.parametrize("players", [2, 6])
def test_greedy_policy_deals_keep_the_invariants(players):
    """The C policies' choices are legal actions of the Python state."""
    for seed in range(40):
        deal = Deal(seed, players=players, rules=VARIANTS[seed % len(VARIANTS)])
        step = 0
        while not deal.is_terminal():
            step += 1
            play = deal.card_play().policy_choice("greedy" if seed % 2 else "random", seed * 1000 + step)
            action = PASS if play is None else play
            assert action in deal.legal_actions()
            deal.apply(action)
        assert [float(x) for x in deal.scores()] == list(deal._engine.returns())
