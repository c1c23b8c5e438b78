"""Batch playouts shared by every game: the argument checks, the threaded runner and
the split of the engine's rows into typed arrays.

Each game's ``playouts(n, *, seed, rules, ..., **options)`` checks its own deal options
(rules, players, level) and calls :func:`run_playouts` with its compiled engine module
and the batch ``options`` every game's takes alike (:class:`BatchOptions`):
the engine deals and plays ``n`` deals in C (the GIL released) into one float64 row a
deal, laid out as the engine's ``ROW`` declares (a tuple of
:class:`chupai.engine.base.RowField`), and
:func:`split_rows` hands back one typed array a field.  Deal ``i`` draws from its own
stream of the seed, so the arrays are the same whatever the number of threads.
``playout(state, ...)`` plays one state's deal out through :func:`play_out`.

>>> filled = []
>>> run_chunks(5, 2, lambda a, b: filled.extend(range(a, b)), threads=2)
>>> sorted(filled)
[0, 1, 2, 3, 4]
>>> rows = np.array([[2, 0, 1, 3, 1], [0, 1, 2, 3, 3]], dtype=np.float64)
>>> fields = split_rows(rows, (RowField("order", "int8", per_seat=True), RowField("result", "int8")), 4)
>>> fields["order"][1].tolist(), fields["result"].tolist()
([0, 1, 2, 3], [1, 3])
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from types import ModuleType
from typing import Any, TypedDict

import numpy as np

from chupai.core import validate
from chupai.engine.backends import progress_bar
from chupai.engine.base import RowField

__all__ = [
    "BATCH_DEFAULTS",
    "BatchOptions",
    "batch_outputs",
    "card_play_of",
    "check_batch",
    "check_policy",
    "check_seed",
    "check_state",
    "play_out",
    "row_width",
    "run_chunks",
    "run_playouts",
    "split_rows",
]

# deals per task: small enough for a smooth progress bar and even thread loads
_CHUNK = 1000


class BatchOptions(TypedDict, total=False):
    """How a batch of playouts runs: the keywords every game's ``playouts`` takes beside
    ``n``, ``seed`` and its own deal options, with their defaults in :data:`BATCH_DEFAULTS`.

    Attributes:
        policy: how every seat plays: ``"random"`` (uniform over the suit-collapsed
            legal plays, and passing where allowed), ``"greedy"`` (the game's simple
            greedy rule) or ``"heuristic"`` (the compiled policy of
            :class:`chupai.players.bots.HeuristicBot`); each game's ``playouts`` says
            what its greedy rule is.
        threads: deals played at once in this process, the GIL released.
        progress: a progress bar (tqdm) over the deals.
        backend: ``"local"`` (threads, or ``workers`` processes) or ``"ray"`` (tasks on
            the Ray cluster at ``address``): :func:`chupai.engine.backends.run_batch`.
        workers: processes sharing the deals (``backend="local"``).
        address: the Ray cluster (``backend="ray"``; ``None``: a local one).
    """

    policy: str
    threads: int
    progress: bool
    backend: str
    workers: int
    address: str | None


#: the defaults of :class:`BatchOptions`
BATCH_DEFAULTS: BatchOptions = {
    "policy": "random", "threads": 1, "progress": False, "backend": "local", "workers": 1, "address": None,
}


def check_seed(seed: Any) -> None:
    """A playout seed: an int in ``[0, 2**64)`` (no ``None``), as everywhere
    (:func:`chupai.core.validate.check_seed`)."""
    validate.check_seed(seed, allow_none=False)


def check_policy(policy: Any, policies: Mapping[str, int]) -> None:
    """``ValueError`` unless ``policy`` names one of the engine's ``policies``."""
    if policy not in policies:
        raise ValueError(f"unknown policy {policy!r}; expected one of {sorted(policies)}")


def check_batch(n: Any, seed: Any, policy: Any, threads: Any, policies: Mapping[str, int]) -> None:
    """The checks every ``playouts`` makes: ``n >= 0``, ``threads >= 1`` (a non-int a
    ``TypeError``, an int out of range a ``ValueError``), the seed, the policy.

    The game's own checks (rules: :func:`chupai.state.base.check_rules`; players) follow.
    """
    validate.check_int(n, "n", 0)
    validate.check_int(threads, "threads", 1)
    check_seed(seed)
    check_policy(policy, policies)


def check_state(state: Any, game: str, classes: tuple[type, ...]) -> None:
    """``TypeError`` unless ``state`` is one of the game's state ``classes`` (its ``Deal``
    or ``Match``), naming the game and the classes expected."""
    if not isinstance(state, classes):
        expected = " or ".join(f"{game}.{c.__name__}" for c in classes)
        kind = type(state)
        module = kind.__module__.split(".")
        got = f"{module[1]}.{kind.__name__}" if module[0] == "chupai" and len(module) > 1 else repr(state)
        raise TypeError(f"state must be a {expected}, not {got}")


def row_width(fields: tuple[RowField, ...], players: int) -> int:
    """The columns of a row of ``fields`` in a deal of ``players``."""
    return sum(f.width(players) for f in fields)


def split_rows(rows: np.ndarray, fields: tuple[RowField, ...], players: int) -> dict[str, np.ndarray]:
    """The ``(n, width)`` rows as one array a field, by name, each of its own dtype."""
    if rows.shape[1] != row_width(fields, players):
        raise ValueError(f"rows have {rows.shape[1]} columns; the fields take {row_width(fields, players)}")
    out = {}
    start = 0
    for f in fields:
        stop = start + f.width(players)
        out[f.name] = (rows[:, start:stop] if f.per_seat else rows[:, start]).astype(f.dtype)
        start = stop
    return out


def run_playouts(engine: ModuleType, n: int, *, seed: int, options: Mapping[str, Any],
                 **deal: Any) -> dict[str, np.ndarray]:
    """Play ``n`` fresh deals of a game's compiled ``engine`` (its module: ``DealEngine``,
    ``POLICIES``, ``ROW``), dealt as ``engine.DealEngine.random(seed, **deal)`` deals, as
    the batch ``options`` say (:class:`BatchOptions`; ``TypeError`` naming a key that is
    not one), and split the rows into the engine's fields (:func:`split_rows`).

    The checks every ``playouts`` makes come first (:func:`check_batch`); the game
    checks its own ``deal`` options (rules, players, level) before calling this.
    """
    unknown = sorted(set(options) - set(BATCH_DEFAULTS))
    if unknown:
        raise TypeError(f"playouts() got an unexpected keyword argument {unknown[0]!r}; "
                        f"its batch options are {', '.join(BATCH_DEFAULTS)}")
    o: dict[str, Any] = {**BATCH_DEFAULTS, **options}
    check_batch(n, seed, o["policy"], o["threads"], engine.POLICIES)
    prototype = engine.DealEngine.random(0, **deal)
    rows = batch_outputs(prototype, n, o["policy"], o["threads"], o["progress"], seed, backend=o["backend"],
                         workers=o["workers"], address=o["address"])
    return split_rows(rows, engine.ROW, prototype.players)


def play_out(engine: ModuleType, state: Any, game: str, classes: tuple[type, ...], *, seed: int,
             policy: str) -> Any:
    """Check ``state`` (one of the game's ``classes``), ``seed`` and ``policy`` (one of
    ``engine.POLICIES``), then play the current deal of ``state`` to its end in C and
    return the engine's outcome (:func:`card_play_of`; ``state`` is not changed), or
    ``None`` if the deal ended before its card play."""
    check_state(state, game, classes)
    check_seed(seed)
    check_policy(policy, engine.POLICIES)
    card_play = card_play_of(state, seed)
    return None if card_play is None else card_play.playout(seed, policy)


class _Rows:
    """The rows of one chunk of a batch, played in a worker (a picklable task)."""

    def __init__(self, prototype: Any, seed: int, policy: str) -> None:
        self.prototype, self.seed, self.policy = prototype, seed, policy

    def __call__(self, bounds: tuple[int, int]) -> np.ndarray:
        start, stop = bounds
        out = np.zeros((stop - start, self.prototype.batch_width), dtype=np.float64)
        self.prototype._run_chunk(self.seed, start, stop, self.policy, out, start)
        return out


def batch_outputs(prototype: Any, n: int, policy: str, threads: int, progress: bool, seed: int, *,
                  backend: str = "local", workers: int = 1, address: str | None = None) -> np.ndarray:
    """Play ``n`` deals dealt with the options of ``prototype`` (a game's ``DealEngine``)
    and return the engine's ``(n, batch_width)`` float64 rows (the game's playouts split
    them into typed arrays); deal ``i`` from stream ``i`` of ``seed``, so the rows are
    the same for any ``threads``, ``workers`` and ``backend``.

    ``threads`` share this process (the GIL released); ``workers > 1`` or
    ``backend="ray"`` spread chunks of deals over processes or a Ray cluster
    (:func:`chupai.engine.backends.run_batch`), each chunk on one thread.
    """
    from chupai.engine.backends import chunk_bounds, run_batch

    workers = validate.check_positive_int(workers, "workers")
    if workers > 1 or backend != "local":
        bounds = chunk_bounds(n, max(_CHUNK, -(-n // (workers * 8))))
        parts = run_batch(_Rows(prototype, seed, policy), bounds, backend=backend, workers=workers,
                          address=address, chunk_size=1, progress=progress,
                          sizes=[b - a for a, b in bounds])
        return np.concatenate(parts) if parts else np.zeros((0, prototype.batch_width))
    out = np.zeros((n, prototype.batch_width), dtype=np.float64)

    def run(start: int, stop: int) -> None:
        prototype._run_chunk(seed, start, stop, policy, out)

    run_chunks(n, _CHUNK, run, threads=threads, progress=progress)
    return out


def card_play_of(state: Any, seed: int) -> Any:
    """The compiled card-play engine of the current deal of ``state`` (a ``Deal`` or
    ``Match``), for ``playout(state, seed=...)``; ``state`` is not changed.

    Decisions still due before the card play (tribute, exchange, an auction) are taken
    uniformly at random from ``seed`` on a clone; ``None`` if they end the deal before
    its card play (an auction nobody bid in, where the rules end the deal there).
    ``ValueError`` if ``state`` is terminal.
    """
    if state.is_terminal():
        raise ValueError("the state is terminal: there is nothing to play out")
    engine = state.card_play()
    if engine is None:
        rng = np.random.default_rng(seed)
        state = state.clone()
        while state.card_play() is None:
            if state.is_terminal():
                return None
            actions = state.legal_actions()
            state.apply(actions[int(rng.integers(len(actions)))])
        engine = state.card_play()
    return engine


def run_chunks(
    n: int, chunk: int, run: Callable[[int, int], Any], *, threads: int = 1, progress: bool = False
) -> None:
    """Call ``run(start, stop)`` over ``0..n`` in chunks of ``chunk`` deals.

    ``threads > 1`` runs the chunks on a thread pool (``run`` must release the GIL to
    gain from it and write only its own rows); ``progress`` shows a tqdm bar in deals.
    """
    bounds = [(a, min(a + chunk, n)) for a in range(0, n, chunk)]

    def task(b: tuple[int, int]) -> int:
        run(b[0], b[1])
        return b[1] - b[0]

    with progress_bar(n, "deal", progress) as bar:
        if threads == 1:
            for b in bounds:
                bar.update(task(b))
        else:
            with ThreadPoolExecutor(max_workers=threads) as pool:
                for done in pool.map(task, bounds):
                    bar.update(done)
