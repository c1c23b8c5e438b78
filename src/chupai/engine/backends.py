"""Where seeded batches of work run: in this process, in local worker processes, or on
a Ray cluster.

Every batch in the library (arena deals, ladder pairings, self-play episodes) is a list
of items, each of which carries its own seed, mapped by a picklable function.  The
items are cut into consecutive chunks; a chunk is the unit a worker runs, a progress bar
counts and a failed worker retries.  Because each item is seeded by itself, the result
is the same list whatever the backend, the number of workers or the chunk size.

>>> run_batch(abs, [-3, 1, -2], backend="local", workers=1)
[3, 1, 2]
>>> run_batch(abs, [-3], backend="dask")
Traceback (most recent call last):
...
ValueError: unknown backend 'dask'; expected one of ['local', 'ray']

The local pool spawns its workers: each one imports the calling script afresh, so a
script that asks for ``workers > 1`` must start its work under an
``if __name__ == "__main__":`` guard (without it every worker would start the script's
work again).  A worker that dies (killed, out of memory, or unable to start, as without
the guard) fails the run at once with a ``RuntimeError`` saying so; a worker asked to
start a pool while it is still starting itself raises one naming the guard.

``backend="ray"`` joins the cluster at ``address`` (or ``RAY_ADDRESS``) if one is given,
otherwise it starts a local Ray instance on first use and keeps it for later calls
(``ray.shutdown()`` ends it).  A worker process that dies is retried by Ray
(``max_retries``) and its chunk's results are taken once, from the attempt that
finished.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from typing import Any, NoReturn, TypeVar

from tqdm import tqdm

from chupai.core.validate import check_choice, check_positive_int

__all__ = ["BACKENDS", "MAIN_GUARD", "add_arguments", "chunk_bounds", "default_chunk_size", "options_of",
           "progress_bar", "require_ray", "run_batch"]


def progress_bar(total: int, unit: str, progress: bool, *, leave: bool = True) -> tqdm[NoReturn]:
    """A tqdm bar over ``total`` units if ``progress`` is on and stderr is a terminal
    (tqdm's ``disable=None``: off a terminal, a log would keep every refresh); else a
    bar that shows nothing.  ``leave=False``: the bar is erased when it closes (where a
    line of results takes its place)."""
    return tqdm(total=total, unit=unit, disable=None if progress else True, leave=leave)


#: the backends :func:`run_batch` knows
BACKENDS = ("local", "ray")
#: times Ray runs a chunk again after its worker process died
MAX_RETRIES = 3
# chunks per worker that a default chunk size aims at: enough to balance uneven items
# and show progress, few enough that per-chunk overhead (~1 ms on Ray) stays small
_CHUNKS_PER_WORKER = 8

#: what a script starting local workers needs (named in the errors of a broken pool)
MAIN_GUARD = 'if __name__ == "__main__":'

T = TypeVar("T")
R = TypeVar("R")


def default_chunk_size(n: int, workers: int) -> int:
    """Items per chunk for ``n`` items over ``workers`` workers."""
    return max(1, -(-n // (workers * _CHUNKS_PER_WORKER)))


def chunk_bounds(n: int, size: int) -> list[tuple[int, int]]:
    """``[(start, stop), ...]`` covering ``0..n`` in chunks of ``size``.

    >>> chunk_bounds(5, 2)
    [(0, 2), (2, 4), (4, 5)]
    """
    return [(a, min(a + size, n)) for a in range(0, n, size)]


def _map_chunk(fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
    return [fn(x) for x in items]


def _map_job(job: tuple[Callable[[T], R], Sequence[T]]) -> list[R]:
    return _map_chunk(job[0], job[1])


def run_batch(
    fn: Callable[[T], R],
    items: Sequence[T],
    *,
    backend: str = "local",
    workers: int = 1,
    address: str | None = None,
    chunk_size: int | None = None,
    progress: bool = False,
    unit: str = "deal",
    sizes: Sequence[int] | None = None,
) -> list[R]:
    """``[fn(x) for x in items]``, run on ``backend`` by ``workers`` workers.

    Args:
        fn: a picklable function of one item (a module-level function or a picklable
            callable object) when ``workers > 1`` or on Ray.
        items: the work; each item should carry its own seed.
        backend: ``"local"`` (this process for ``workers=1``, else a pool of spawned
            processes) or ``"ray"`` (tasks on a Ray cluster).
        workers: local processes, or chunks in flight at once on Ray.  Never more
            than there are chunks.
        address: the Ray cluster to join (default ``RAY_ADDRESS``, else a local Ray
            started on demand); refused with the local backend.
        chunk_size: items per chunk (default: about eight chunks per worker).
        progress: show a tqdm bar counting finished items.
        unit: what the bar counts.
        sizes: what each item counts for on the bar (default 1 each), e.g. the deals of
            a shard of many deals.
    """
    backend = check_choice(backend, "backend", BACKENDS)
    workers = check_positive_int(workers, "workers")
    if address is not None and not isinstance(address, str):
        raise TypeError(f"address must be a str or None, not {type(address).__name__}")
    if address is not None and backend != "ray":
        raise ValueError("address is for backend='ray' only")
    if backend == "ray":
        require_ray()
    items = list(items)
    weights = [1] * len(items) if sizes is None else [check_positive_int(w, "sizes[i]") for w in sizes]
    if len(weights) != len(items):
        raise ValueError(f"sizes must have one entry per item ({len(items)}), not {len(weights)}")
    size = (default_chunk_size(len(items), workers) if chunk_size is None
            else check_positive_int(chunk_size, "chunk_size"))
    bounds = chunk_bounds(len(items), size)
    workers = min(workers, max(1, len(bounds)))
    results: list[list[R] | None] = [None] * len(bounds)
    with progress_bar(sum(weights), unit, progress) as bar:
        if backend == "ray":
            done_chunks = _ray_chunks(fn, items, bounds, workers, address)
        elif workers == 1:
            done_chunks = ((k, _map_chunk(fn, items[a:b])) for k, (a, b) in enumerate(bounds))
        else:
            done_chunks = _pool_chunks(fn, items, bounds, workers)
        for k, chunk in done_chunks:
            if results[k] is None:  # a chunk is counted once, whatever happened to its workers
                results[k] = chunk
                a, b = bounds[k]
                bar.update(sum(weights[a:b]))
    return [r for chunk in results if chunk is not None for r in chunk]


def _pool_chunks(fn: Callable[[T], R], items: list[T], bounds: list[tuple[int, int]],
                 workers: int) -> Iterator[tuple[int, list[R]]]:
    if getattr(multiprocessing.current_process(), "_inheriting", False):
        # this is a spawned worker still importing the script that started it
        raise RuntimeError(f"a worker process started a pool while starting up: the script that runs "
                           f"with workers > 1 must start its work under {MAIN_GUARD}")
    jobs = [(fn, items[a:b]) for a, b in bounds]
    # Ctrl-C is the parent's to handle (it ends the pool): the workers ignore SIGINT, so
    # an interrupted run prints no traceback per worker.  A worker that dies breaks the
    # executor, which fails every pending chunk at once (a Pool would respawn it and
    # wait for the lost chunk forever).
    pool = ProcessPoolExecutor(workers, mp_context=get_context("spawn"), initializer=signal.signal,
                               initargs=(signal.SIGINT, signal.SIG_IGN))
    try:
        yield from enumerate(pool.map(_map_job, jobs))
    except BrokenProcessPool:
        raise RuntimeError(f"a worker process died (killed, out of memory, or unable to start: a script "
                           f"that runs with workers > 1 must start its work under {MAIN_GUARD})") from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def require_ray() -> None:
    """``ImportError`` naming the extra unless Ray can be imported (checked before a
    run starts anything)."""
    try:
        import ray  # noqa: F401
    except ImportError:
        raise ImportError("backend='ray' needs Ray: pip install 'chupai[ray]'") from None


def _ray_chunks(fn: Callable[[T], R], items: list[T], bounds: list[tuple[int, int]],
                workers: int, address: str | None) -> Iterator[tuple[int, list[R]]]:
    import ray
    from ray.exceptions import RayTaskError

    if not ray.is_initialized():
        address = address or os.environ.get("RAY_ADDRESS") or None
        options: dict[str, Any] = {"address": address, "log_to_driver": False}
        if address is None:  # a local instance, sized to this machine
            options["include_dashboard"] = False
        ray.init(**options)
    task: Any = ray.remote(num_cpus=1, max_retries=MAX_RETRIES)(_map_chunk)
    fn_ref = ray.put(fn)
    queue = list(enumerate(bounds))
    pending: dict[Any, int] = {}
    try:
        while queue or pending:
            while queue and len(pending) < workers:
                k, (a, b) = queue.pop(0)
                pending[task.remote(fn_ref, items[a:b])] = k
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                k = pending.pop(ref)
                try:
                    yield k, ray.get(ref)
                except RayTaskError as e:  # the function's own error, as itself
                    cause: BaseException = e.as_instanceof_cause()  # type: ignore[no-untyped-call]
                    raise cause from None
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)


def add_arguments(parser: argparse.ArgumentParser, *, chunks: bool = True) -> None:
    """The command-line options of :func:`run_batch` (``--backend``, ``--address`` and,
    with ``chunks``, ``--chunk-size``), for every subcommand that runs a batch."""
    parser.add_argument("--backend", choices=BACKENDS, default="local",
                        help="where the work runs: local processes or a Ray cluster")
    parser.add_argument("--address", default=None,
                        help="the Ray cluster to join (default RAY_ADDRESS, else a local Ray)")
    if chunks:
        parser.add_argument("--chunk-size", type=int, default=None, dest="chunk_size",
                            help="deals per task (default: about eight tasks per worker)")


def options_of(args: argparse.Namespace) -> dict[str, Any]:
    """The :func:`run_batch` keywords that :func:`add_arguments` parsed (``--backend
    ray`` without Ray fails here, before any work)."""
    if args.backend == "ray":
        require_ray()
    options = {"backend": args.backend, "address": args.address}
    if hasattr(args, "chunk_size"):
        options["chunk_size"] = args.chunk_size
    return options
