"""The arena: deals or matches between two bots, with win rates and intervals."""
from __future__ import annotations

import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from chupai.registry import GAMES, game as game_entry
from chupai.core.seeds import arena_game
from chupai.core.validate import check_bool, check_positive_int, check_seed
from chupai.engine.backends import run_batch

__all__ = ["ArenaResult", "SideResult", "arena", "bot_seats", "decide", "role_summary", "side_result", "wilson_interval"]

_GAMES = tuple(GAMES)


def wilson_interval(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # a rate of 0 or 1 is its own bound (the float sum would miss it by a rounding)
    return (0.0 if wins == 0 else max(0.0, centre - half), 1.0 if wins == n else min(1.0, centre + half))


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
        roles: in a game whose sides are decided in play (its entry's ``roles``), per
            role ``(role, seats, mean return)``: how many seats the first bot played in
            that role over the deals and its mean return there; empty otherwise.
    """

    bots: tuple[str, str]
    games: int
    wins: int
    returns: np.ndarray
    matches: bool = False
    roles: tuple[tuple[str, int, float], ...] = ()

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
        by_role = "".join(f"\n  as {role}: {seats} seats, mean return {ret:+.2f}" for role, seats, ret in self.roles)
        return (
            f"{self.bots[0]} vs {self.bots[1]}: {self.games} {'match' if self.matches else 'deal'}"
            f"{'' if self.games == 1 else ('es' if self.matches else 's')}, {self.bots[0]} won {self.wins} "
            f"({self.win_rate:.1%}, 95% interval {lo:.1%}-{hi:.1%}), mean return {mean:+.2f}{by_role}"
        )


def _new_state(game: str, seed: int, matches: bool, rules: Any, players: int | None) -> Any:
    return GAMES[game].new(seed, match=matches, rules=rules, players=players)


def _cores() -> int:
    """The CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _play_one(args: tuple[str, tuple[Any, Any], int, int, bool, Any, int | None]) -> SideResult:
    """Play game ``index``: the return of bots[0]'s team (it sits on seats ``s % 2 ==
    index % 2``), and the role and return of each of its seats (a game with roles)."""
    game, bots, seed, index, matches, rules, players = args
    deal_seed, _ = arena_game(seed, index // 2)  # games 2k and 2k + 1: one deal, the seats swapped
    _, bot_seed = arena_game(seed, index)
    rng = np.random.default_rng(bot_seed)
    state = _new_state(game, deal_seed, matches, rules, players)
    side = index % 2
    while not state.is_terminal():
        state.apply(decide(game, state, bots, side, rng, matches)[1])
    return side_result(game, state, side, matches)


def bot_seats(game: str, state: Any, side: int, matches: bool = False) -> tuple[int, ...] | None:
    """The seats of the first bot of a pair in game ``side`` (0 or 1) of a deal (or a
    match): in a game seated by role (its entry's ``side_role``), the seats of that role
    in game 0 and every other seat in game 1, ``None`` until the roles are decided (or
    in a deal that ended without them); else (and in matches) the seats ``s % 2 ==
    side``, so that with three seats each bot plays each seat once a deal."""
    entry = GAMES[game]
    if entry.side_role is None or matches:
        return tuple(s for s in range(state.players) if s % 2 == side)
    roles = entry.roles_of(state)
    if entry.side_role not in roles:
        return None
    return tuple(s for s, role in enumerate(roles) if (role == entry.side_role) == (side == 0))


def decide(game: str, state: Any, bots: Sequence[Any], side: int, rng: Any,
           matches: bool = False) -> tuple[int, Any]:
    """Who decides for ``state``'s current player in game ``side`` of a deal between
    ``bots`` (:func:`bot_seats`), and the action: its bot (0 or 1) and the bot's choice,
    or -1 and the game's decision policy's choice before the roles are decided in a game
    seated by role."""
    seats = bot_seats(game, state, side, matches)
    if seats is None:
        return -1, GAMES[game].choose_decision(state, state.legal_actions())
    who = 0 if state.current_player in seats else 1
    return who, bots[who].choose(state, rng)


#: a bot's result in one game: its return, and the role and return of each of its seats
#: (a game with roles)
SideResult = tuple[float, tuple[tuple[str, float], ...]]


def side_result(game: str, state: Any, side: int, matches: bool = False) -> SideResult:
    """The result of the first bot of a pair in game ``side`` of ``state``, a finished
    deal (or match; its seats: :func:`bot_seats`): its team's return, or in a game scored
    per player its seats' returns added up (0 in a deal that ended before its roles were
    decided); and each of its seats' role and return in a game with roles (deals only)."""
    returns = state.returns()
    entry = GAMES[game]
    seats = bot_seats(game, state, side, matches) or ()
    roles = () if matches else entry.roles_of(state)
    by_role = tuple((roles[s], float(returns[s])) for s in seats) if roles else ()
    if not entry.teams:  # each player scores alone: the bot's seats together
        return float(sum(returns[s] for s in seats)), by_role
    return float(returns[side]), by_role


def role_summary(results: Iterable[SideResult]) -> tuple[tuple[str, int, float], ...]:
    """Per role, a bot's seats in it and their mean return (roles in first-seen order)."""
    totals: dict[str, list[float]] = {}
    for _, by_role in results:
        for role, ret in by_role:
            totals.setdefault(role, []).append(ret)
    return tuple((role, len(rets), float(np.mean(rets))) for role, rets in totals.items())


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
    progress: bool = False,
    backend: str = "local",
    address: str | None = None,
    chunk_size: int | None = None,
) -> ArenaResult:
    """Play ``deals`` deals (or whole matches, ``matches=True``) between two bots (bot
    objects or spec strings of :func:`chupai.players.search.make_bot`, e.g. ``"heuristic"``).

    The first bot plays the seats ``s % 2 == 0`` in even-numbered games and ``s % 2 ==
    1`` in odd ones, games ``2k`` and ``2k + 1`` on the same deal (duplicate style: both
    bots get both sides of every deal; with three seats, each bot plays each seat once a
    deal).  In a game whose sides are decided in play (Dou Dizhu's landlord and
    farmers), the game's decision policy makes the decisions that decide them (the
    auction), then the first bot plays the landlord and the second both farmers in even
    games, the other way in odd ones (:func:`bot_seats`), and the result also says the
    first bot's results by role.  Deal ``k`` is dealt from a seed
    derived from ``(seed, k)`` and game ``i``'s bots draw from ``(seed, i)``, so the
    result is the same for any ``workers``, ``backend`` and ``chunk_size``.
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
    arr = np.array([value for value, _ in returns])
    return ArenaResult((repr(bots[0]), repr(bots[1])), deals, int((arr > 0).sum()), arr, matches=bool(matches),
                       roles=role_summary(returns))
