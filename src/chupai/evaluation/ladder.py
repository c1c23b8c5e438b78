"""The strength ladder: every pair of bots on the same deals, seats swapped, and a rating.

``ladder(game, ["random", "greedy", "mc", "ismcts"], deals=N, seed=S)`` plays every
pair of bots on the same ``N`` deals, each deal twice with the seats swapped
(duplicate style: both bots get both sides of every deal, which cancels most of the
luck of the cards).  The first bot of a pair sits on seats ``s % 2 == 0`` in the first
game of a deal and on ``s % 2 == 1`` in the second; in a game scored per player the
bot's seats' returns are added up (as in :func:`chupai.evaluation.arena.arena`).  A game is
won, drawn or lost as that return is positive, zero or negative; a draw counts half.
In a game whose sides are decided in play (Dou Dizhu's landlord and farmers), the
game's decision policy decides them (the auction) and the first bot plays the landlord
in the first game, the farmers in the second
(:func:`chupai.evaluation.arena.bot_seats`); each pair's result also says the first
bot's results by role.

The result holds, per pair, the first bot's win rate with its 95% Wilson interval,
and per bot a Bradley-Terry rating on the Elo scale (400 points: 10 to 1 odds) with a
95% interval from the likelihood's curvature, the first bot anchored at 0; one
virtual draw per pair keeps a bot that wins (or loses) every game finite.  It also
measures each bot's mean process CPU time per decision, so that budgets can be
compared (equal CPU time per decision).

Deal ``k`` is dealt from ``match_deal(seed, k)`` (:mod:`chupai.core.seeds`) for every pair, and every bot draws
from its own stream of ``(seed, k, pair, side)``: the numbers are the same for any
``workers`` (bots with a time budget excepted, whose iterations depend on the load).

>>> r = ladder("zhengshangyou", ["random", "greedy"], deals=4, seed=1, progress=False)
>>> r.pairs[0].games, len(r.ratings)
(8, 2)
"""
from __future__ import annotations

import copy
import math
import time
from dataclasses import asdict, dataclass
from itertools import combinations
from collections.abc import Sequence
from typing import Any

import numpy as np

from chupai.registry import GAMES
from chupai.core.validate import check_positive_int, check_seed
from chupai.engine.backends import run_batch
from chupai.core.seeds import ladder_bots, match_deal
from chupai.players.search.registry import as_bot, make_bot
from chupai.evaluation.arena import _new_state, decide, role_summary, side_result, wilson_interval

__all__ = ["LadderResult", "PairResult", "Rating", "bradley_terry", "ladder"]

#: Elo points per unit of Bradley-Terry log-strength
ELO = 400.0 / math.log(10.0)


@dataclass(frozen=True)
class PairResult:
    """The games of one pair of bots, from the first bot's side.

    Attributes:
        first, second: the two bots' specs.
        games: games played (two per deal).
        wins, draws: games the first bot won, drew.
        mean_return: the first bot's mean return per game.
        roles: in a game with roles (Dou Dizhu's landlord and farmers), per role the
            first bot's seats in it and its mean return there (``ArenaResult.roles``).
    """

    first: str
    second: str
    games: int
    wins: int
    draws: int
    mean_return: float
    roles: tuple[tuple[str, int, float], ...] = ()

    @property
    def score(self) -> float:
        """Wins plus half the draws."""
        return self.wins + 0.5 * self.draws

    @property
    def win_rate(self) -> float:
        return self.score / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the first bot's win rate."""
        return wilson_interval(self.score, self.games)


@dataclass(frozen=True)
class Rating:
    """One bot's rating: Elo-scale Bradley-Terry strength with its 95% interval, and
    its mean CPU time per decision (milliseconds, over the decisions it made)."""

    bot: str
    elo: float
    low: float
    high: float
    cpu_ms: float
    decisions: int


@dataclass(frozen=True)
class LadderResult:
    """The outcome of :func:`ladder` (see the module doc)."""

    game: str
    bots: tuple[str, ...]
    deals: int
    seed: int
    pairs: tuple[PairResult, ...]
    ratings: tuple[Rating, ...]

    def matrix(self) -> np.ndarray:
        """``(k, k)`` win rates of the row bot against the column bot (NaN on the diagonal)."""
        k = len(self.bots)
        out = np.full((k, k), np.nan)
        index = {b: i for i, b in enumerate(self.bots)}
        for p in self.pairs:
            i, j = index[p.first], index[p.second]
            out[i, j] = p.win_rate
            out[j, i] = 1.0 - p.win_rate
        return out

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the settings, each pair (with rate and interval), each rating."""
        pairs = []
        for p in self.pairs:
            d = asdict(p)
            lo, hi = p.interval
            d.update(win_rate=p.win_rate, interval=[lo, hi])
            pairs.append(d)
        return {
            "game": self.game,
            "bots": list(self.bots),
            "deals": self.deals,
            "seed": self.seed,
            "pairs": pairs,
            "ratings": [asdict(r) for r in self.ratings],
        }

    def __str__(self) -> str:
        deals = f"{self.deals} deal{'' if self.deals == 1 else 's'}"
        lines = [f"ladder {self.game}: {deals} x 2 seatings per pair, seed {self.seed}"]
        for p in self.pairs:
            lo, hi = p.interval
            lines.append(
                f"  {p.first} vs {p.second}: {p.win_rate:.1%} (95% {lo:.1%}-{hi:.1%}) of {p.games} games, "
                f"{p.wins} won, {p.draws} drawn, mean return {p.mean_return:+.3f}"
            )
            lines += [f"    {p.first} as {role}: {seats} seats, mean return {ret:+.3f}" for role, seats, ret in p.roles]
        lines.append("  rating (Bradley-Terry, Elo scale, first bot = 0; 95% interval; CPU per decision):")
        for r in sorted(self.ratings, key=lambda r: -r.elo):
            lines.append(f"    {r.bot:>16} {r.elo:+7.0f}  [{r.low:+.0f}, {r.high:+.0f}]  {_cpu_text(r.cpu_ms)}")
        return "\n".join(lines)

    def plot(self, path: str) -> None:
        """Write a PNG: the ratings with their intervals, and the win-rate matrix.
        Needs matplotlib (the ``chupai[plot]`` extra)."""
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            raise ValueError("the PNG needs matplotlib: pip install 'chupai[plot]'") from None
        k = len(self.bots)
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(5 + 2.2 * k, 0.9 * k + 2.8))
        order = sorted(range(k), key=lambda i: self.ratings[i].elo)
        ys = np.arange(k)
        elo = np.array([self.ratings[i].elo for i in order])
        err = np.array([[self.ratings[i].elo - self.ratings[i].low for i in order],
                        [self.ratings[i].high - self.ratings[i].elo for i in order]])
        ax1.errorbar(elo, ys, xerr=err, fmt="o", capsize=4)
        ax1.set_yticks(ys, [self.bots[i] for i in order])
        ax1.set_xlabel("Bradley-Terry rating (Elo scale), 95% interval")
        ax1.grid(axis="x", alpha=0.3)
        m = self.matrix()
        im = ax2.imshow(m, vmin=0, vmax=1, cmap="RdYlGn")
        ax2.set_xticks(range(k), self.bots, rotation=30, ha="right")
        ax2.set_yticks(range(k), self.bots)
        for i in range(k):
            for j in range(k):
                if i != j:
                    ax2.text(j, i, f"{m[i, j]:.0%}", ha="center", va="center", fontsize=9)
        ax2.set_title("win rate of row vs column")
        fig.colorbar(im, ax=ax2, fraction=0.046)
        deals = f"{self.deals} deal{'' if self.deals == 1 else 's'}"
        fig.suptitle(f"{self.game}: {deals} x 2 seatings per pair (seed {self.seed})")
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)


def bradley_terry(
    scores: np.ndarray, games: np.ndarray, prior: float = 1.0
) -> tuple[np.ndarray, np.ndarray]:
    """Bradley-Terry log-strengths and their standard errors, bot 0 anchored at 0.

    ``scores[i, j]``: the games ``i`` won against ``j`` (draws as halves);
    ``games[i, j]``: the games they played (symmetric).  ``prior`` virtual draws are
    added to every pair.  Fitted by the minorisation-maximisation iteration (Hunter
    2004); the errors come from the inverse of the observed information.

    >>> s = np.array([[0, 30], [10, 0]]); n = np.array([[0, 40], [40, 0]])
    >>> theta, se = bradley_terry(s, n, prior=0)
    >>> round(float(theta[1] - theta[0]), 3), round(float(np.log(1 / 3)), 3)
    (-1.099, -1.099)
    """
    k = scores.shape[0]
    off = 1.0 - np.eye(k)
    n = (games + prior * off).astype(np.float64)
    w = (scores + 0.5 * prior * off).astype(np.float64)
    wins = w.sum(axis=1)
    p = np.ones(k)
    for _ in range(10000):
        denom = (n / (p[:, None] + p[None, :])).sum(axis=1)
        new = np.where(denom > 0, wins / np.where(denom > 0, denom, 1.0), p)
        new = np.maximum(new, 1e-300)
        new /= math.exp(np.log(new).mean())
        if np.max(np.abs(np.log(new) - np.log(p))) < 1e-12:
            p = new
            break
        p = new
    theta = np.log(p) - math.log(p[0])
    q = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # P(i beats j)
    info = -n * q * q.T
    np.fill_diagonal(info, 0.0)
    np.fill_diagonal(info, -info.sum(axis=1))
    se = np.zeros(k)
    if k > 1:
        sub = info[1:, 1:]
        try:
            cov = np.linalg.inv(sub)
            se[1:] = np.sqrt(np.maximum(np.diag(cov), 0.0))
        except np.linalg.LinAlgError:
            se[1:] = math.inf
    return theta, se


def _fresh_bot(bot: Any, playouts: int) -> Any:
    """A bot in its first state for one deal: made from its spec, or a copy of the bot
    object given (so what it keeps between decisions never crosses deals)."""
    return make_bot(bot, playouts=playouts) if isinstance(bot, str) else copy.deepcopy(bot)


def _name(bot: Any) -> str:
    """A ladder's name of a bot: its spec, or the ``repr`` of a bot object."""
    return bot.strip() if isinstance(bot, str) else repr(bot)


def _play_deal(args: tuple[str, tuple[str, str], int, int, int, Any, int | None, int]) -> tuple[Any, ...]:
    """Deal ``k`` twice between the pair (seats swapped): the first bot's two results
    (:func:`chupai.evaluation.arena.side_result`) and each bot's (CPU seconds, decisions)."""
    game, specs, seed, pair, k, rules, players, playouts = args
    deal_seed = match_deal(seed, k)
    returns = []
    cpu = [0.0, 0.0]
    count = [0, 0]
    for side in (0, 1):
        bots = [_fresh_bot(s, playouts) for s in specs]
        bot_seed = ladder_bots(seed, k, pair, side)
        rng = np.random.default_rng(int(bot_seed))
        state = _new_state(game, deal_seed, False, rules, players)
        while not state.is_terminal():
            t = time.process_time()
            who, action = decide(game, state, bots, side, rng)
            if who >= 0:
                cpu[who] += time.process_time() - t
                count[who] += 1
            state.apply(action)
        returns.append(side_result(game, state, side))
    return pair, k, returns, cpu, count



def _cpu_text(ms: float) -> str:
    """A CPU time per decision for the report: in ms from 1 ms, else in µs (a cheap
    bot's 0.004 ms would print as 0.00 ms)."""
    return f"{ms:8.2f} ms" if ms >= 1.0 else f"{ms * 1000:8.1f} µs"

def ladder(
    game: str,
    bots: Sequence[Any],
    deals: int,
    seed: int,
    workers: int = 1,
    *,
    rules: Any = None,
    players: int | None = None,
    playouts: int = 200,
    progress: bool = False,
    backend: str = "local",
    address: str | None = None,
    chunk_size: int | None = None,
) -> LadderResult:
    """Play the ladder of ``bots`` on ``deals`` deals of ``game`` (see the module doc).

    Each bot is a spec of :func:`chupai.players.search.make_bot` (e.g. ``"ismcts:20ms"``) or a
    bot object (``choose(state, rng)``; picklable for ``workers > 1`` or Ray, and
    copied afresh for every deal); the results name a spec by itself and an object by
    its ``repr``, and the names must differ.

    ``workers > 1`` plays the deals in that many processes, ``backend="ray"`` as Ray
    tasks (:func:`chupai.engine.backends.run_batch`: the same result on every backend).
    ``playouts``: the budget of an ``mc`` spec without one.
    """
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; expected one of {tuple(GAMES)}")
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence):
        raise TypeError(f"bots must be a list of bots or bot specs, not {bots!r}")
    made = [as_bot(b, playouts=playouts, what="each of bots") for b in bots]  # a bad one fails here
    bots = tuple(b.strip() if isinstance(b, str) else m for b, m in zip(bots, made))
    names = tuple(_name(b) for b in bots)
    if len(bots) < 2:
        raise ValueError(f"a ladder needs at least two bots, not {len(bots)}")
    if len(set(names)) != len(names):
        raise ValueError(f"bots must have different names (specs, or the repr of bot objects), not {list(names)!r}")
    deals = check_positive_int(deals, "deals")
    workers = check_positive_int(workers, "workers")
    seed = check_seed(seed, allow_none=False)
    _new_state(game, seed, False, rules, players)  # bad rules or players fail here
    pairs = list(combinations(range(len(bots)), 2))
    jobs = [
        (game, (bots[i], bots[j]), seed, p, k, rules, players, playouts)
        for p, (i, j) in enumerate(pairs)
        for k in range(deals)
    ]
    rets = np.zeros((len(pairs), deals, 2))
    by_role: list[list[Any]] = [[] for _ in pairs]
    cpu = np.zeros(len(bots))
    count = np.zeros(len(bots), dtype=np.int64)

    def take(out: tuple[Any, ...]) -> None:
        p, k, r, t, c = out
        rets[p, k] = [value for value, _ in r]
        by_role[p] += r
        for side, b in enumerate(pairs[p]):
            cpu[b] += t[side]
            count[b] += c[side]

    for out in run_batch(_play_deal, jobs, backend=backend, workers=workers, address=address,
                         chunk_size=chunk_size, progress=progress, unit="deal"):
        take(out)
    k = len(bots)
    scores = np.zeros((k, k))
    games = np.zeros((k, k))
    results = []
    for p, (i, j) in enumerate(pairs):
        r = rets[p].ravel()
        wins, draws = int((r > 0).sum()), int((r == 0).sum())
        results.append(PairResult(names[i], names[j], r.size, wins, draws, float(r.mean()), role_summary(by_role[p])))
        scores[i, j] = wins + 0.5 * draws
        scores[j, i] = r.size - scores[i, j]
        games[i, j] = games[j, i] = r.size
    theta, se = bradley_terry(scores, games)
    ratings = tuple(
        Rating(b, float(ELO * theta[i]), float(ELO * (theta[i] - 1.96 * se[i])), float(ELO * (theta[i] + 1.96 * se[i])),
               float(1000.0 * cpu[i] / count[i]) if count[i] else 0.0, int(count[i]))
        for i, b in enumerate(names)
    )
    return LadderResult(game, names, deals, seed, tuple(results), ratings)
