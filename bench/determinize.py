"""Plain runner for ``determinize``: the compiled path against the reference that
replays the public history (a game's ``Deal._determinize_replay`` where it has one: Guan
Dan, Zheng Shangyou), in one run; and the share of a
MonteCarloBot(200) decision spent in ``determinize`` (and ``determinize_card_play``, the
world's engine alone, which the bot uses).

    python bench/determinize.py [--matches 4] [--repeat 5] [--games guandan,...]

Positions: every 7th decision of the first 400 actions of seeded random matches
(``chupai.evaluation.speed.Surface.decision_states``), and apart those of a match's later
deals (Guan Dan's have a tribute), determinized for the player to act; plus every phase apart: every decision
outside the card play (Guan Dan's tribute, return and lead, Zheng Shangyou's exchange)
of the first ``PHASE_ACTIONS`` actions of the same matches, and the card-play positions
above, each determinized for every seat (so the decider is hidden from the others: the
world must then draw hands in which the decision is one, and make its options from the
decider's re-dealt cards), the worst position named and timed again.  Before the
MonteCarloBot share: a world's engine made the bot's way (``determinize_card_play``)
and by making the world's state first (``determinize(...).card_play()``, the bot's way
before), at the positions of the bot's decisions.
Every figure is CPU time (``time.process_time``): per position the median of
``--repeat`` calls, then the median, 90th percentile and largest over the positions.
"""
from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from chupai.evaluation.speed import DeterminizeTimer, Surface  # noqa: E402
from chupai.registry import GAMES as REGISTRY  # noqa: E402
from chupai.evaluation.speed import _per_position as per_position  # noqa: E402
from chupai.evaluation.timing import CLOCK  # noqa: E402
from chupai.players.bots import MonteCarloBot  # noqa: E402

GAMES = tuple(REGISTRY)
#: MonteCarloBot decisions timed per game
MC_DECISIONS = 8
#: actions of each match searched for Guan Dan's tribute-phase decisions
PHASE_ACTIONS = 3000


def reference(state: Any) -> Callable[[Any, int, np.random.Generator], Any] | None:
    """The slow path of a match's current deal: its game's ``Deal._determinize_replay``
    (the public history replayed from each draw), or None where the game has none."""
    if not hasattr(state.deal, "_determinize_replay"):
        return None
    return lambda s, p, g: s.deal._determinize_replay(p, g)


def mc_states(surface: Surface) -> list[Any]:
    """The positions of the MonteCarloBot decisions timed: seeded deals a few actions in."""
    states = []
    for seed in range(MC_DECISIONS):
        state = surface.deal(seed=seed)
        for _ in range(seed % 5):
            state.apply(state.legal_actions()[0])
        states.append(state)
    return states


def clock_cost() -> float:
    """The CPU seconds of one ``CLOCK()`` call (the median of 1000 timed pairs): what the
    timer adds to each call it measures."""
    import statistics

    runs = []
    for _ in range(1000):
        t0 = CLOCK()
        CLOCK()
        runs.append(CLOCK() - t0)
    return statistics.median(runs) / 2


def mc_share(surface: Surface, rng: np.random.Generator) -> tuple[float, float, float]:
    """(CPU ms per MonteCarloBot(200) decision, share of it in determinize, the same net
    of the timer's own cost: one CLOCK() per timed call)."""
    bot, spent, total, calls = MonteCarloBot(200), 0.0, 0.0, 0
    for state in mc_states(surface):
        with DeterminizeTimer(type(state)) as timed:
            t0 = CLOCK()
            bot.choose(state, rng)
            total += CLOCK() - t0
        spent += timed.seconds
        calls += timed.calls
    net = spent - calls * clock_cost()
    return total / MC_DECISIONS * 1e3, spent / total, net / total


def phase_positions(name: str, matches: int, play: list[Any]) -> dict[str, list[tuple[Any, int]]]:
    """Game ``name``'s positions by phase, each with every seat as the player: every
    decision outside the card play (a tribute, an exchange, ...) of the first
    PHASE_ACTIONS actions of ``matches`` seeded random matches (played as
    ``Surface.decision_states`` plays them), and the card-play states ``play``."""
    import random

    surface = Surface(name, 1)
    out: dict[str, list[tuple[Any, int]]] = {}
    for seed in range(matches):
        choice = random.Random(seed).randrange
        state = surface.match(seed=seed)
        for _ in range(PHASE_ACTIONS):
            if state.is_terminal():
                break
            if state.card_play() is None:
                copy = state.clone()
                out.setdefault(str(state.phase), []).extend((copy, p) for p in range(state.players))
            legal = state.legal_actions()
            state.apply(legal[choice(len(legal))])
    out["card play"] = [(s, p) for s in play if s.card_play() is not None for p in range(s.players)]
    return out


def worst(fn: Callable[[Any], Any], items: list[Any], repeat: int) -> tuple[float, float, Any]:
    """The slowest item for ``fn`` (the median CPU µs of ``repeat`` calls per item): (that
    figure, the median of ``10 * repeat`` more calls of it, which tells a real worst
    position from a preempted one on a busy machine, the item)."""
    import statistics

    def cost(item: Any, n: int) -> float:
        runs = []
        for _ in range(n):
            t0 = CLOCK()
            fn(item)
            runs.append(CLOCK() - t0)
        return statistics.median(runs) * 1e6

    costs = [cost(item, repeat) for item in items]
    k = max(range(len(items)), key=costs.__getitem__)
    return costs[k], cost(items[k], 10 * repeat), items[k]


def describe(item: tuple[Any, int]) -> str:
    """A position of :func:`phase_positions` in a few words."""
    state, p = item
    who = "the player decides" if state.current_player == p else "the decider hidden"
    return f"deal {state.deals_played}, {len(state.deal.history)} events, seat {p}, {who}"


def phase_report(name: str, matches: int, play: list[Any], repeat: int, rng: np.random.Generator) -> None:
    """Game ``name``'s figures per phase, every seat as the player, the worst position named."""
    for phase, items in phase_positions(name, matches, play).items():
        if not items:
            continue
        med, p90, top = per_position(lambda it: it[0].deal.determinize(it[1], rng), items, repeat)
        mmed, mp90, mtop = per_position(lambda it: it[0].determinize(it[1], rng), items, repeat)
        us, again, item = worst(lambda it: it[0].determinize(it[1], rng), items, repeat)
        print(f"{name:14s} phase {phase:9s} n={len(items):4d}  Deal {med:6.1f} / {p90:6.1f} / {top:6.1f} µs"
              f"   Match {mmed:6.1f} / {mp90:6.1f} / {mtop:6.1f} µs   worst (Match) {us:.1f} µs, "
              f"{again:.1f} µs again ({describe(item)})", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=4, help="seeded random matches per game")
    ap.add_argument("--repeat", type=int, default=5, help="timed calls per position")
    ap.add_argument("--games", default=",".join(GAMES))
    args = ap.parse_args()
    print("determinize(player, rng), CPU µs per call: median / 90% / largest over the positions,\n"
          "on the match's current Deal and on the Match (which copies the match around it)")
    for name in args.games.split(","):
        surface = Surface(name, 1)
        states = surface.decision_states(args.matches)
        rng = np.random.default_rng(1)
        groups = [("all positions", states), ("a match's later deals", [s for s in states if s.deals])]
        for label, group in groups:
            if not group:
                continue
            med, p90, top = per_position(lambda s: s.deal.determinize(s.current_player, rng), group, args.repeat)
            line = (f"{name:14s} {label:22s} n={len(group):4d}  Deal {med:6.1f} / {p90:6.1f} / {top:6.1f} µs"
                    f" ({1e6 / med:,.0f}/s)")
            mmed, mp90, mtop = per_position(lambda s: s.determinize(s.current_player, rng), group, args.repeat)
            line += f"   Match {mmed:6.1f} / {mp90:6.1f} / {mtop:6.1f} µs"
            slow = reference(states[0]) if states else None
            if slow is not None:
                omed, op90, otop = per_position(lambda s: slow(s, s.current_player, rng), group, max(1, args.repeat // 2))
                line += f"   reference (Deal) {omed:6.1f} / {op90:6.1f} / {otop:6.1f} µs ({omed / med:.0f}x)"
            print(line, flush=True)
        phase_report(name, args.matches, states, args.repeat, rng)
        mc = mc_states(surface)
        whole, _, _ = per_position(lambda s: s.determinize(s.current_player, rng).card_play(), mc, 20 * args.repeat)
        alone, _, _ = per_position(lambda s: s.determinize_card_play(s.current_player, rng), mc, 20 * args.repeat)
        print(f"{name:14s} a world's engine for MonteCarloBot: determinize(...).card_play() {whole:.2f} µs, "
              f"determinize_card_play(...) {alone:.2f} µs (median of the decisions below)", flush=True)
        ms, share, net = mc_share(surface, rng)
        print(f"{name:14s} MonteCarloBot(200) decision {ms:8.2f} ms CPU, {share:.1%} of it in determinize "
              f"({net:.1%} net of the timer's own CLOCK() calls)", flush=True)


if __name__ == "__main__":
    main()
