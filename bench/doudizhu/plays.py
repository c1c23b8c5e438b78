"""Dou Dizhu legal plays per call: chupai against OpenSpiel, RLCard and DouZero.

    python bench/doudizhu/plays.py [--positions 1000] [--repeat 9] [--seed 1]
                             [--engines openspiel,rlcard,douzero]

Each engine plays random games of its own (``bench/doudizhu/parity.py``); its
card-play decisions are the positions.  On the same positions, in one run, it times the
engine's own move generator and ``chupai.doudizhu`` under that engine's preset:
OpenSpiel's C++ through ``pyspiel`` (``state.legal_actions()`` on a clone of the
engine's state), RLCard's ``DoudizhuJudger.playable_cards_from_hand`` (lead) and
``get_gt_cards`` (follow) on the engine's player objects, DouZero's
``GameEnv.get_legal_card_play_actions`` on the engine's hand and move sequence.  Every
engine is called one position at a time in a plain loop (``for f, args in calls:
f(*args)``), ``legal_plays`` in the same loop as a caller writes it (``for hand, previous
in positions: legal_plays(hand, previous, rules=..., collapse_suits=...)``).  chupai is timed in the suit-collapsed view (a
play per set of ranks, what the engines list) and in the concrete one (every choice of
suits); through ``legal_plays`` (one call a position), through ``legal_plays_batch``
(every position in one call, the list and its offsets) and through the bare kernel
(``chupai.doudizhu._movegen.kernel_count``, collapsed: plays counted, no list made).

CPU time (``time.process_time``) of a pass over every position, the median of
``--repeat`` passes, as microseconds per position, leads and follows apart, and each
engine's time over chupai's (collapsed), per call and batched.  The machine is shared:
run it alone.  numpy's BLAS threads are held to one (they would count in CPU time).
"""
from __future__ import annotations

import argparse
import copy
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).parent))
from parity import ENGINES, Position, cards_of, readings  # noqa: E402  (this folder's module)

import numpy as np  # noqa: E402

from chupai.doudizhu import Play, Rules, legal_plays, legal_plays_batch  # noqa: E402
from chupai.doudizhu._movegen import kernel_count  # noqa: E402
from chupai.evaluation.timing import target_rows  # noqa: E402

#: one call of an engine: the function and its arguments
Call = tuple[Callable[..., object], tuple[Any, ...]]


def openspiel_calls(n: int, seed: int) -> list[tuple[Position, Call]]:
    """(position, the engine's call) of ``n`` decisions of OpenSpiel games."""
    from parity import openspiel_positions

    states: list[Any] = []
    positions = list(openspiel_positions(n, seed, keep=states.append))
    return [(p, (s.legal_actions, ())) for p, s in zip(positions, states)]


def rlcard_calls(n: int, seed: int) -> list[tuple[Position, Call]]:
    from rlcard.games.doudizhu.judger import DoudizhuJudger  # type: ignore[import-not-found]
    from rlcard.games.doudizhu.utils import cards2str, get_gt_cards  # type: ignore[import-not-found]

    from parity import rlcard_positions

    calls: list[Call] = []

    def keep(game: Any, pid: int) -> None:
        player = copy.deepcopy(game.players[pid])
        greater = game.round.greater_player
        if greater is None or greater.player_id == pid:  # a lead
            calls.append((DoudizhuJudger.playable_cards_from_hand, (cards2str(player.current_hand),)))
        else:
            calls.append((get_gt_cards, (player, copy.deepcopy(greater))))

    positions = list(rlcard_positions(n, seed, keep=keep))
    return list(zip(positions, calls))


def douzero_calls(n: int, seed: int) -> list[tuple[Position, Call]]:
    from douzero.env.game import GameEnv  # type: ignore[import-not-found]

    from parity import douzero_positions

    calls: list[Call] = []

    def keep(env: Any, infoset: Any) -> None:
        fake = SimpleNamespace(
            acting_player_position="me", card_play_action_seq=[list(m) for m in env.card_play_action_seq],
            info_sets={"me": SimpleNamespace(player_hand_cards=list(infoset.player_hand_cards))})
        calls.append((GameEnv.get_legal_card_play_actions, (fake,)))

    positions = list(douzero_positions(n, seed, keep=keep))
    return list(zip(positions, calls))


CALLS = {"openspiel": openspiel_calls, "rlcard": rlcard_calls, "douzero": douzero_calls}


def cpu_per_pass(one_pass: Callable[[], object], repeat: int, n: int) -> float:
    """Median over ``repeat`` passes of the CPU seconds of ``one_pass``, per position, in µs."""
    runs = []
    for _ in range(repeat):
        t = time.process_time()
        one_pass()
        runs.append(time.process_time() - t)
    return 1e6 * statistics.median(runs) / max(n, 1)


def each_call(calls: list[Call]) -> Callable[[], None]:
    """One pass calling every engine call in a plain loop."""

    def one_pass() -> None:
        for f, args in calls:
            f(*args)

    return one_pass


def each_position(positions: list[tuple[Any, Play | None]], rules: Rules, collapse: bool) -> Callable[[], None]:
    """One pass calling ``legal_plays`` on every position, as a caller writes it."""

    def one_pass() -> None:
        for hand, previous in positions:
            legal_plays(hand, previous, rules=rules, collapse_suits=collapse)

    return one_pass


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--engines", default=",".join(CALLS))
    p.add_argument("--positions", type=int, default=1000)
    p.add_argument("--repeat", type=int, default=9)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    print(f"Dou Dizhu legal plays, CPU µs per position (median of {args.repeat} passes over each engine's "
          f"{args.positions} positions)")
    print(f"{'engine':>10} {'kind':>6} {'n':>5} {'engine µs':>10} {'chupai µs':>10} {'concrete µs':>12} "
          f"{'batch µs':>9} {'kernel µs':>10} {'per call':>9} {'batched':>8}")
    for engine in args.engines.split(","):
        if engine not in CALLS:
            p.error(f"--engines: unknown engine {engine!r}")
        rules: Rules = ENGINES[engine][1]()
        calls = CALLS[engine](args.positions, args.seed)
        for kind in ("lead", "follow"):
            mine = [(pos, f) for pos, f in calls if (pos.previous is None) == (kind == "lead")]
            n = len(mine)
            positions: list[tuple[Any, Play | None]] = []
            for pos, _ in mine:
                prev: Play | None = readings(pos.previous, rules)[0] if pos.previous is not None else None
                positions.append((cards_of(pos.hand), prev))
            hands = np.array([h.lo for h, _ in positions], dtype=np.uint64)
            previous = target_rows([prev for _, prev in positions])
            prevs = [prev for _, prev in positions]
            theirs = cpu_per_pass(each_call([f for _, f in mine]), args.repeat, n)
            collapsed = cpu_per_pass(each_position(positions, rules, True), args.repeat, n)
            concrete = cpu_per_pass(each_position(positions, rules, False), args.repeat, n)
            batch = cpu_per_pass(lambda: legal_plays_batch(hands, prevs, rules=rules, collapse_suits=True),
                                 args.repeat, n)
            kernel = cpu_per_pass(lambda: kernel_count(hands, previous, rules=rules, collapse_suits=True),
                                  args.repeat, n)
            print(f"{engine:>10} {kind:>6} {n:>5} {theirs:>10.2f} {collapsed:>10.2f} {concrete:>12.2f} "
                  f"{batch:>9.2f} {kernel:>10.2f} {theirs / collapsed:>8.1f}x {theirs / batch:>7.1f}x", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
