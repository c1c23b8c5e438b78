"""chupai's Dou Dizhu bots against RLCard's rule agent (``DouDizhuRuleAgentV1``).

    python bench/doudizhu/rlcard_rule.py [--bots best,heuristic] [--deals 1000] [--seed 1]
                                         [--workers 2]

RLCard's rule agent (``rlcard.models.doudizhu_rule_models.DouDizhuRuleAgentV1``, from the
package index: the ``parity`` extra; measured with rlcard 1.2.0) is run as it is: this
adapter (:class:`RLCardRuleBot`) gives it the raw observation RLCard would (its hand, the
card play so far, its legal actions as RLCard's action strings, who is the landlord, its
seat) and plays the action it returns.  The agent has no auction, so the deals are
played under ``Rules.rlcard()`` (RLCard's rules: no auction, seat 0 the landlord), and
``chupai.arena`` seats each pair both ways on the same deals: each bot plays the landlord
and the farmers.  Its random choices (``numpy.random.choice`` when it cannot follow) are
drawn from the decision's seeded generator, so a run is reproducible.

Prints, per chupai bot, the arena's result against the agent (deals won, the 95%
interval, the mean return, the landlord's and the farmers' results apart) and the CPU
time per decision of each side.  A benchmark, not a test.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

import numpy as np

from chupai import arena
from chupai.core.validate import as_rng
from chupai.doudizhu import PASS, Phase, Rules
from chupai.players.search.registry import make_bot

#: RLCard's card characters in its order (rlcard.games.doudizhu.utils.INDEX): ranks, then
#: the black and the red joker
RLCARD_ORDER = "3456789TJQKA2BR"
#: chupai's joker cards (their text) as RLCard's characters
JOKERS = {"BJ": "B", "RJ": "R"}


def rlcard_card(card: Any) -> str:
    """One chupai card as RLCard's character (its rank; suits do not matter)."""
    text = str(card)
    return JOKERS.get(text, text[0])


def rlcard_cards(cards: Any) -> str:
    """A multiset of chupai cards as RLCard's string (sorted in RLCard's order)."""
    return "".join(sorted((rlcard_card(c) for c in cards), key=RLCARD_ORDER.index))


class RLCardRuleBot:
    """RLCard's ``DouDizhuRuleAgentV1`` as a chupai bot (card play only: under
    ``Rules.rlcard()`` a deal has no auction)."""

    name = "rlcard-rule"

    def __init__(self) -> None:
        from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1

        self.agent = DouDizhuRuleAgentV1()
        #: decisions whose returned action matched no legal action (a fallback was played)
        self.unmatched = 0
        self.decisions = 0
        self.cpu = 0.0

    def __repr__(self) -> str:
        return "RLCardRuleBot()"

    def choose(self, state: Any, rng: Any) -> Any:
        start = time.process_time()
        actions = state.legal_actions()
        by_text: dict[str, Any] = {}
        for action in actions:
            by_text.setdefault("pass" if action is PASS else rlcard_cards(action.cards), action)
        trace = [(e.seat, "pass" if e.action is PASS else rlcard_cards(e.action.cards))
                 for e in state.history if e.phase is Phase.PLAY]
        seat = state.current_player
        raw = {"current_hand": rlcard_cards(state.hand(seat)), "trace": trace, "actions": list(by_text),
               "landlord": state.landlord, "self": seat}
        saved = np.random.get_state()
        np.random.seed(int(as_rng(rng).integers(2**32)))
        try:
            text = self.agent.step({"raw_obs": raw})
        finally:
            np.random.set_state(saved)
        self.decisions += 1
        chosen = by_text.get(text)
        if chosen is None:
            self.unmatched += 1
            chosen = actions[0]
        self.cpu += time.process_time() - start
        return chosen


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bots", default="best,heuristic", help="chupai bot specs, each against the agent")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args(argv)
    rules = Rules.rlcard()
    print(f"Dou Dizhu, Rules.rlcard(), {args.deals} deals (seed {args.seed}), each seating both ways; "
          f"python {sys.version.split()[0]}, {os.cpu_count()} cores")
    for spec in args.bots.split(","):
        start = time.process_time()
        agent = RLCardRuleBot()
        result = arena("doudizhu", (make_bot(spec.strip()), agent), args.deals, args.seed, args.workers,
                       rules=rules)
        print(result)
        if agent.decisions:  # (the agent's own counts: in this process, --workers 1)
            print(f"  the agent: {agent.decisions} decisions, {agent.cpu / agent.decisions * 1e6:.0f} us CPU each, "
                  f"{agent.unmatched} of its actions matched no legal action")
        print(f"  ({time.process_time() - start:.1f} s CPU in this process)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
