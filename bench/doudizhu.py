"""Dou Dizhu legal plays per call: chupai against OpenSpiel, RLCard and DouZero.

    python bench/doudizhu.py [--positions 1000] [--repeat 5] [--seed 1]
                             [--engines openspiel,rlcard,douzero]

Each engine plays random games of its own (``bench/doudizhu_parity.py``); its
card-play decisions are the positions.  On the same positions, in one run, it times the
engine's own move generator and ``chupai.doudizhu.legal_plays`` under that engine's
preset: OpenSpiel's C++ through ``pyspiel`` (``state.legal_actions()`` on a clone of
the engine's state), RLCard's ``DoudizhuJudger.playable_cards_from_hand`` (lead) and
``get_gt_cards`` (follow) on the engine's player objects, DouZero's
``GameEnv.get_legal_card_play_actions`` on the engine's hand and move sequence.
chupai is timed in the suit-collapsed view (a play per set of ranks, what the engines
list) and in the concrete one (every choice of suits), through ``legal_plays`` (one
Python call a position, as the engines are called) and through the bare kernel over
every position in one call (``chupai.doudizhu._movegen.kernel_count``, collapsed: no
Python object per position or play).

CPU time (``time.process_time``) of a pass over every position, the median of
``--repeat`` passes, as microseconds per call, leads and follows apart, and each
engine's time over chupai's (collapsed).  The machine is shared: run it alone.
"""
from __future__ import annotations

import argparse
import copy
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from doudizhu_parity import ENGINES, Position, cards_of, readings  # noqa: E402  (this folder's module)

import numpy as np  # noqa: E402

from chupai.doudizhu import Play, Rules, legal_plays  # noqa: E402
from chupai.doudizhu._movegen import kernel_count  # noqa: E402

Timed = Callable[[], object]


def openspiel_calls(n: int, seed: int) -> list[tuple[Position, Timed]]:
    """(position, the engine's call) of ``n`` decisions of OpenSpiel games."""
    from doudizhu_parity import openspiel_positions

    states: list[Any] = []
    positions = list(openspiel_positions(n, seed, keep=states.append))
    return [(p, s.legal_actions) for p, s in zip(positions, states)]


def rlcard_calls(n: int, seed: int) -> list[tuple[Position, Timed]]:
    from rlcard.games.doudizhu.judger import DoudizhuJudger  # type: ignore[import-not-found]
    from rlcard.games.doudizhu.utils import cards2str, get_gt_cards  # type: ignore[import-not-found]

    from doudizhu_parity import rlcard_positions

    calls: list[Timed] = []

    def keep(game: Any, pid: int) -> None:
        player = copy.deepcopy(game.players[pid])
        greater = game.round.greater_player
        if greater is None or greater.player_id == pid:  # a lead
            hand = cards2str(player.current_hand)
            calls.append(lambda: DoudizhuJudger.playable_cards_from_hand(hand))
        else:
            g = copy.deepcopy(greater)
            calls.append(lambda: get_gt_cards(player, g))

    positions = list(rlcard_positions(n, seed, keep=keep))
    return list(zip(positions, calls))


def douzero_calls(n: int, seed: int) -> list[tuple[Position, Timed]]:
    from douzero.env.game import GameEnv  # type: ignore[import-not-found]

    from doudizhu_parity import douzero_positions

    calls: list[Timed] = []

    def keep(env: Any, infoset: Any) -> None:
        fake = SimpleNamespace(
            acting_player_position="me", card_play_action_seq=[list(m) for m in env.card_play_action_seq],
            info_sets={"me": SimpleNamespace(player_hand_cards=list(infoset.player_hand_cards))})
        calls.append(lambda: GameEnv.get_legal_card_play_actions(fake))

    positions = list(douzero_positions(n, seed, keep=keep))
    return list(zip(positions, calls))


CALLS = {"openspiel": openspiel_calls, "rlcard": rlcard_calls, "douzero": douzero_calls}


def cpu_per_call(calls: list[Timed], repeat: int) -> float:
    """Median over ``repeat`` passes of the CPU seconds of one pass, per call, in µs."""
    runs = []
    for _ in range(repeat):
        t = time.process_time()
        for f in calls:
            f()
        runs.append(time.process_time() - t)
    return 1e6 * statistics.median(runs) / max(len(calls), 1)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--engines", default=",".join(CALLS))
    p.add_argument("--positions", type=int, default=1000)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    print(f"Dou Dizhu legal plays, CPU µs per call (median of {args.repeat} passes over each engine's "
          f"{args.positions} positions)")
    print(f"{'engine':>10} {'kind':>6} {'n':>5} {'engine µs':>10} {'chupai µs':>10} {'concrete µs':>12} "
          f"{'kernel µs':>10} {'ratio':>7} {'kernel ratio':>13}")
    for engine in args.engines.split(","):
        if engine not in CALLS:
            p.error(f"--engines: unknown engine {engine!r}")
        rules: Rules = ENGINES[engine][1]()
        calls = CALLS[engine](args.positions, args.seed)
        for kind in ("lead", "follow"):
            mine = [(pos, f) for pos, f in calls if (pos.previous is None) == (kind == "lead")]
            ours_c: list[Timed] = []
            ours_x: list[Timed] = []
            masks, rows = [], []
            for pos, _ in mine:
                hand = cards_of(pos.hand)
                prev: Play | None = readings(pos.previous, rules)[0] if pos.previous is not None else None
                ours_c.append(lambda hand=hand, prev=prev: legal_plays(hand, prev, rules=rules, collapse_suits=True))
                ours_x.append(lambda hand=hand, prev=prev: legal_plays(hand, prev, rules=rules))
                masks.append(hand.lo)
                rows.append((0, 0, 0, 0) if prev is None else (int(prev.type), prev.length, prev.bomb_class, prev.key))
            hands = np.array(masks, dtype=np.uint64)
            previous = np.array(rows, dtype=np.uint8)
            theirs = cpu_per_call([f for _, f in mine], args.repeat)
            collapsed = cpu_per_call(ours_c, args.repeat)
            concrete = cpu_per_call(ours_x, args.repeat)
            kernel = cpu_per_call([lambda: kernel_count(hands, previous, rules=rules, collapse_suits=True)],
                                  args.repeat) / max(len(mine), 1)
            print(f"{engine:>10} {kind:>6} {len(mine):>5} {theirs:>10.2f} {collapsed:>10.2f} {concrete:>12.2f} "
                  f"{kernel:>10.2f} {theirs / collapsed:>6.1f}x {theirs / kernel:>12.1f}x", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
