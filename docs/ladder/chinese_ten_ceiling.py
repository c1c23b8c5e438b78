"""How much a Chinese Ten player can gain on GreedyBot, by what it knows.

The evidence behind docs/search.md ("Chinese Ten: how far above greedy?").  A flat
Monte Carlo player takes the seats ``s % 2 == side`` of a four-player deal, GreedyBot
the others, each deal played in both seatings as ``chupai ladder`` plays it.  For each
of its choices it deals ``--worlds`` worlds consistent with what it is told, plays
every candidate in each and the rest of the deal with the greedy policy for everyone,
and keeps the candidate with the best total score - par for itself.  ``--know`` says
what it is told besides its own hand and the table:

* ``none``: nothing (an honest player: the other hands and the stock dealt again);
* ``hands``: every other hand (the stock dealt again);
* ``top``: the next stock card only (the hands and the rest of the stock dealt again);
* ``stock``: the whole stock in order (the hands dealt again).

It prints the Monte Carlo side's win rate with its 95% Wilson interval and its mean
return per game (with its 95% interval over deals)::

    python docs/ladder/chinese_ten_ceiling.py --know none --deals 1000 --worlds 100
"""
from __future__ import annotations

import argparse
import math
from typing import Any

import numpy as np

from chupai.chinese_ten._engine import DealEngine
from chupai.evaluation.arena import wilson_interval

PLAYERS = 4
KNOWLEDGE = ("none", "hands", "top", "stock")


def world(engine: Any, know: str, rng: np.random.Generator) -> Any:
    """A deal the current player cannot tell from `engine`, told what `know` says."""
    me = engine.current
    hands = [str(engine.hand(s)).split() for s in range(PLAYERS)]
    stock = engine.stock()  # the next card to turn first
    redeal = [s for s in range(PLAYERS) if s != me and know != "hands"]
    kept_stock = {"none": 0, "hands": 0, "top": min(1, len(stock)), "stock": len(stock)}[know]
    pool = [c for s in redeal for c in hands[s]] + stock[kept_stock:]
    rng.shuffle(pool)
    at = 0
    for s in redeal:
        hands[s] = pool[at:at + len(hands[s])]
        at += len(hands[s])
    stock = stock[:kept_stock] + pool[at:]
    return DealEngine.from_hands(
        [" ".join(h) for h in hands], current=me, layout=engine.layout, stock=" ".join(stock),
        piles=[engine.pile(s) for s in range(PLAYERS)], turned=engine.turned, bonus=engine.bonus_player,
    )


def choose(engine: Any, know: str, worlds: int, rng: np.random.Generator) -> Any:
    plays = list(engine.legal_plays(collapse_suits=True))
    if len(plays) == 1:
        return plays[0]
    me = engine.current
    totals = np.zeros(len(plays))
    for w in range(worlds):
        deal = world(engine, know, rng)
        for i, play in enumerate(plays):
            after = deal.clone()
            after.play(play)
            returns = after.returns() if after.over else after.playout(w, policy="greedy")[1]
            totals[i] += returns[me]
    return plays[int(np.argmax(totals))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--know", choices=KNOWLEDGE, default="none")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--worlds", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    results = []
    for k in range(args.deals):
        deal = DealEngine.random(args.seed * 100003 + k, players=PLAYERS)
        pair = []
        for side in (0, 1):
            engine = deal.clone()
            while not engine.over:
                if engine.current % 2 == side:
                    engine.play(choose(engine, args.know, args.worlds, rng))
                else:
                    engine.play(engine.policy_choice("greedy"))
            pair.append(sum(r for s, r in enumerate(engine.returns()) if s % 2 == side))
        results.append(pair)
    x = np.array(results)
    games = x.size
    score = float((x > 0).sum() + 0.5 * (x == 0).sum())
    lo, hi = wilson_interval(score, games)
    half = 1.96 * x.sum(axis=1).std() / 2 / math.sqrt(len(x))
    print(f"know={args.know} worlds={args.worlds}: {score / games:.1%} (95% {lo:.1%}-{hi:.1%}) of {games} games, "
          f"mean return {x.mean():+.2f} (+-{half:.2f})")


if __name__ == "__main__":
    main()
