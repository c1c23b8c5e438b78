"""What the hidden hands cost ``best``: ``best`` against the heuristic when every world
it plays out is the true deal (it sees every hand), beside ``best`` as it is, on the
same deals; and a paired screen of bots one decision at a time.

    python bench/best_ceiling.py [GAME] [--deals 500] [--seed 3001] [--worlds 8]
                                 [--compare] [--workers 1]
    python bench/best_ceiling.py [GAME] --decisions DEALS [--bots heuristic,best:384,...]
                                 [--seed 3001] [--worlds 8]

The seeing player is :class:`~chupai.players.search.best.BestBot` with its default
options whose ``draw_world`` gives the true card play (``state.card_play()``); the playout
policy is deterministic, so a few worlds give the exact outcome of every candidate.
Its win rate against the heuristic, beside the same figure of ``best`` drawing its
worlds from what it knows (``--compare``: the default ``best``, as long as ``chupai
ladder GAME --bots heuristic,best`` takes), bounds what better worlds (inference about
the hidden hands) can add to ``best``'s search as it is: with its candidates, its
playout policy and its one step of search.  The ladder's figures, CPU time a decision
included, as ``chupai ladder`` prints them.

``--decisions DEALS``: every card-play decision with a choice of DEALS deals of
heuristic self-play (every seat's) is put to each of ``--bots`` (bot specs) and to the
seeing player; each choice is scored by the mover's return in the true deal after it,
every seat then playing the heuristic, and the share of those that win (return above
0).  Every bot meets the same positions, so the differences to the first bot are paired
(mean and 95% interval over the positions): a screen of ``best``'s options that takes
minutes where a ladder takes an hour, of one decision's worth with the heuristic playing
on, not of a game against an opponent; a ladder decides.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # keep numpy's BLAS threads off the cores

import numpy as np  # noqa: E402

from chupai.evaluation.ladder import ladder  # noqa: E402
from chupai.players.search.best import BestBot  # noqa: E402
from chupai.players.search.registry import make_bot  # noqa: E402
from chupai.registry import GAMES  # noqa: E402


class SeeingBestBot(BestBot):
    """``best`` whose every world is the true deal: it sees the hidden hands."""

    name = "best-seeing"

    def draw_world(self, state: Any, player: int, rng: np.random.Generator) -> Any:
        return state.card_play()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="best_ceiling.py", description=__doc__.split("\n\n")[0])
    first = next(iter(GAMES))  # the first registered game
    ap.add_argument("game", nargs="?", default=first, choices=sorted(GAMES), help=f"the game (default {first})")
    ap.add_argument("--deals", type=int, default=500, help="deals, each played in both seatings (default 500)")
    ap.add_argument("--seed", type=int, default=3001, help="the deals' seed (default 3001)")
    ap.add_argument("--worlds", type=int, default=8, help="the seeing player's worlds a decision (default 8)")
    ap.add_argument("--compare", action="store_true", help="also the default best on the same deals (slow)")
    ap.add_argument("--workers", type=int, default=1, help="ladder processes (default 1)")
    ap.add_argument("--decisions", type=int, default=None, metavar="DEALS",
                    help="score single decisions of this many self-play deals instead of a ladder")
    ap.add_argument("--bots", default="heuristic,best", help="with --decisions: the bot specs compared, the "
                    "first the reference (default heuristic,best)")
    args = ap.parse_args(argv)
    if args.decisions is not None and args.decisions < 1:
        ap.error(f"--decisions must be at least 1, not {args.decisions}")
    try:
        args.bots = [make_bot(spec) for spec in args.bots.split(",")]
    except (TypeError, ValueError) as e:
        ap.error(f"--bots: {e}")
    for name in ("deals", "worlds", "workers"):
        if getattr(args, name) < 1:
            ap.error(f"--{name} must be at least 1, not {getattr(args, name)}")
    if args.seed < 0:
        ap.error(f"--seed must be >= 0, not {args.seed}")
    return args


def positions(game: str, deals: int, seed: int) -> list[Any]:
    """Every card-play decision with a choice of ``deals`` deals of heuristic self-play
    (seeds ``seed``, ``seed + 1``, ...), each a copy of the state."""
    entry, heuristic, out = GAMES[game], make_bot("heuristic"), []
    for k in range(deals):
        state = entry.new(seed + k, match=False, rules=None, players=None)
        rng = np.random.default_rng(seed + k)
        while not state.is_terminal():
            if state.card_play() is not None and len(state.legal_actions()) > 1:
                out.append(state.clone())
            state.apply(heuristic.choose(state, rng))
    return out


def outcome(state: Any, action: Any, seed: int) -> float:
    """The mover's return in ``state``'s true deal after ``action``, every seat then
    playing the heuristic."""
    heuristic, rng = make_bot("heuristic"), np.random.default_rng(seed)
    deal = state.clone()
    mover = deal.current_player
    deal.apply(action)
    while not deal.is_terminal():
        deal.apply(heuristic.choose(deal, rng))
    return float(deal.returns()[mover])


def decisions(game: str, bots: list[Any], deals: int, seed: int) -> list[tuple[str, np.ndarray]]:
    """Each bot's scores (the :func:`outcome` of its choice) at the same positions."""
    states = positions(game, deals, seed)
    return [(repr(bot), np.array([outcome(s, bot.choose(s, np.random.default_rng(seed + i)), seed + i)
                                  for i, s in enumerate(states)])) for bot in bots]


def _paired(diff: np.ndarray) -> str:
    half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff)) if len(diff) > 1 else float("nan")
    return f"{diff.mean():+.3f} ({diff.mean() - half:+.3f} to {diff.mean() + half:+.3f})"


def report(rows: list[tuple[str, np.ndarray]]) -> str:
    """One line a bot: mean return and share won, each with its paired difference to
    the first bot (95% interval over the positions)."""
    first = rows[0][1]
    lines = [f"{len(first)} decisions: mean return, its difference to the first bot (95%); share won "
             "(return above 0), its difference"]
    for name, scores in rows:
        won = (scores > 0).astype(float)
        lines.append(f"  {name}: {scores.mean():+.3f}, {_paired(scores - first)}; {won.mean():.1%} won, "
                     f"{_paired(won - (first > 0))}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    seeing = SeeingBestBot(worlds=args.worlds)
    if args.decisions is not None:
        print(report(decisions(args.game, [*args.bots, seeing], args.decisions, args.seed)))
        return 0
    print(ladder(args.game, ["heuristic", seeing], deals=args.deals, seed=args.seed, workers=args.workers))
    if args.compare:
        print(ladder(args.game, ["heuristic", "best"], deals=args.deals, seed=args.seed, workers=args.workers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
