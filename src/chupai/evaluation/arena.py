"""The arena: deals or matches between two bots, with win rates and intervals."""
from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Any

import numpy as np

from chupai.registry import GAMES, game as game_entry
from chupai.core.seeds import arena_game
from chupai.core.validate import check_bool, check_positive_int, check_seed
from chupai.engine.backends import run_batch

__all__ = ["ArenaResult", "arena", "wilson_interval"]

_GAMES = tuple(GAMES)


def wilson_interval(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class ArenaResult:
    """Outcome of an arena run, from the first bot's side.

    Attributes:
        bots: the two bots' reprs.
        games: deals (or matches) played.
        wins: games the first bot's team won.
        returns: the first bot's team's return in each game (levels won or lost in a
            deal; +1 / -1 / 0 for a match).
        matches: the games are whole matches (else deals).
    """

    bots: tuple[str, str]
    games: int
    wins: int
    returns: np.ndarray
    matches: bool = False

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the first bot's win rate."""
        return wilson_interval(self.wins, self.games)

    def __str__(self) -> str:
        lo, hi = self.interval
        mean = float(self.returns.mean()) if self.games else 0.0
        return (
            f"{self.bots[0]} vs {self.bots[1]}: {self.games} {'match' if self.matches else 'deal'}"
            f"{'' if self.games == 1 else ('es' if self.matches else 's')}, {self.bots[0]} won {self.wins} "
            f"({self.win_rate:.1%}, 95% interval {lo:.1%}-{hi:.1%}), mean return {mean:+.2f}"
        )


def _new_state(game: str, seed: int, matches: bool, rules: Any, players: int | None) -> Any:
    return GAMES[game].new(seed, match=matches, rules=rules, players=players)


def _cores() -> int:
    """The CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _play_one(args: tuple[str, tuple[Any, Any], int, int, bool, Any, int | None]) -> float:
    """Play game ``index``; the return of bots[0]'s team (it sits on team index % 2)."""
    game, bots, seed, index, matches, rules, players = args
    deal_seed, bot_seed = arena_game(seed, index)
    rng = np.random.default_rng(bot_seed)
    state = _new_state(game, deal_seed, matches, rules, players)
    team_a = index % 2  # alternate seats so neither bot keeps the same seats
    while not state.is_terminal():
        seat = state.current_player
        bot = bots[0] if seat % 2 == team_a else bots[1]
        state.apply(bot.choose(state, rng))
    returns = state.returns()
    if not GAMES[game].teams:  # each player scores alone: the bot's seats together
        return float(sum(r for s, r in enumerate(returns) if s % 2 == team_a))
    return float(returns[team_a])


def arena(
    game: str,
    bots: tuple[Any, Any] | list[Any],
    deals: int,
    seed: int,
    workers: int = 1,
    *,
    max_workers: int | None = None,
    matches: bool = False,
    rules: Any = None,
    players: int | None = None,
    progress: bool = True,
    backend: str = "local",
    address: str | None = None,
    chunk_size: int | None = None,
) -> ArenaResult:
    """Play ``deals`` deals (or whole matches, ``matches=True``) between two bots (bot
    objects or spec strings of :func:`chupai.players.search.make_bot`, e.g. ``"heuristic"``).

    The first bot plays seats 0 and 2 in even-numbered games and seats 1 and 3 in odd
    ones.  Game ``i`` is dealt and played from its own seed derived from ``(seed, i)``,
    so the result is the same for any ``workers``, ``backend`` and ``chunk_size``.
    ``workers > 1`` uses local processes (bots must be picklable): at most one per deal
    and one per CPU core, unless ``max_workers`` explicitly allows more
    (``max_workers=workers`` starts exactly ``workers``, capped only by the deals).
    Spawned workers import the calling script again: start a script's work under
    ``if __name__ == "__main__":`` (without it the run fails with a ``RuntimeError``
    naming the guard).
    ``backend="ray"`` runs the deals as Ray tasks, ``workers`` at a time, on the cluster
    at ``address`` (or ``RAY_ADDRESS``), else on a local Ray started on demand; the
    cores of this machine do not cap it.  See :func:`chupai.engine.backends.run_batch`.
    """
    game_entry(game)  # TypeError / ValueError for an unknown game
    if isinstance(bots, (str, bytes)) or len(bots) != 2:
        raise ValueError(f"expected two bots, not {bots!r}")
    from chupai.players.search.registry import as_bot

    bots = [as_bot(b, what="each of bots") for b in bots]
    deals = check_positive_int(deals, "deals")
    workers = check_positive_int(workers, "workers")
    seed = check_seed(seed, allow_none=False)
    matches = check_bool(matches, "matches")
    progress = check_bool(progress, "progress")
    cap = (_cores() if backend == "local" else workers) if max_workers is None else check_positive_int(max_workers, "max_workers")
    workers = max(1, min(workers, deals, cap))
    _new_state(game, seed, matches, rules, players)  # bad rules or players fail here, not in a worker
    jobs = [(game, tuple(bots), seed, i, matches, rules, players) for i in range(deals)]
    returns = run_batch(_play_one, jobs, backend=backend, workers=workers, address=address,
                        chunk_size=chunk_size, progress=progress,
                        unit="match" if matches else "deal")
    arr = np.array(returns)
    return ArenaResult((repr(bots[0]), repr(bots[1])), deals, int((arr > 0).sum()), arr, matches=bool(matches))
