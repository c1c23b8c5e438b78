"""The arena: deals or matches between two bots, with win rates and intervals."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from chupai._games import GAMES
from chupai.backends import run_batch

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
    """

    bots: tuple[str, str]
    games: int
    wins: int
    returns: np.ndarray

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
            f"{self.bots[0]} vs {self.bots[1]}: {self.games} games, {self.bots[0]} won {self.wins} "
            f"({self.win_rate:.1%}, 95% interval {lo:.1%}-{hi:.1%}), mean return {mean:+.2f}"
        )


def _new_state(game: str, seed: int, matches: bool, rules: Any, players: int | None) -> Any:
    entry = GAMES[game]
    module = entry.module()
    cls = module.Match if matches else module.Deal
    if not entry.fixed_players:  # the game checks the number of players
        return cls(seed, rules=rules, players=4 if players is None else players)
    if players not in (None, entry.players[0]):
        raise ValueError(f"{game} is played by {entry.players[0]} players, not {players!r}")
    return cls(seed, rules=rules)


def _play_one(args: tuple[str, tuple[Any, Any], int, int, bool, Any, int | None]) -> float:
    """Play game ``index``; the return of bots[0]'s team (it sits on team index % 2)."""
    game, bots, seed, index, matches, rules, players = args
    seq = np.random.SeedSequence([seed, index])
    deal_seed, bot_seed = seq.generate_state(2, dtype=np.uint64)
    rng = np.random.default_rng(int(bot_seed))
    state = _new_state(game, int(deal_seed), matches, rules, players)
    team_a = index % 2  # alternate seats so neither bot keeps the same seats
    while not state.is_terminal():
        seat = state.current_player
        bot = bots[0] if seat % 2 == team_a else bots[1]
        state.apply(bot.choose(state, rng))
    returns = state.returns()
    if GAMES[game].solo:  # each player scores alone: the bot's seats together
        return float(sum(r for s, r in enumerate(returns) if s % 2 == team_a))
    return float(returns[team_a])


def arena(
    game: str,
    bots: tuple[Any, Any] | list[Any],
    deals: int,
    seed: int,
    workers: int = 1,
    *,
    matches: bool = False,
    rules: Any = None,
    players: int | None = None,
    progress: bool = True,
    backend: str = "local",
    address: str | None = None,
    chunk_size: int | None = None,
) -> ArenaResult:
    """Play ``deals`` deals (or whole matches, ``matches=True``) between two bots.

    The first bot plays seats 0 and 2 in even-numbered games and seats 1 and 3 in odd
    ones.  Game ``i`` is dealt and played from its own seed derived from ``(seed, i)``,
    so the result is the same for any ``workers``, ``backend`` and ``chunk_size``:
    ``workers > 1`` uses that many local processes, ``backend="ray"`` runs the deals
    as Ray tasks (on the cluster at ``address`` or ``RAY_ADDRESS``, else a local Ray);
    bots must then be picklable.  See :func:`chupai.backends.run_batch`.
    """
    if game not in _GAMES:
        raise ValueError(f"unknown game {game!r}; expected one of {_GAMES}")
    if len(bots) != 2:
        raise ValueError(f"expected two bots, not {len(bots)}")
    for b in bots:
        if not callable(getattr(b, "choose", None)):
            raise ValueError(f"{b!r} is not a bot (it has no choose(state, rng) method)")
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise ValueError(f"deals must be a positive int, not {deals!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive int, not {workers!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, not {seed!r}")
    _new_state(game, seed, matches, rules, players)  # bad rules or players fail here, not in a worker
    jobs = [(game, tuple(bots), seed, i, matches, rules, players) for i in range(deals)]
    returns = run_batch(_play_one, jobs, backend=backend, workers=workers, address=address,
                        chunk_size=chunk_size, progress=progress,
                        unit="match" if matches else "deal")
    arr = np.array(returns)
    return ArenaResult((repr(bots[0]), repr(bots[1])), deals, int((arr > 0).sum()), arr)
