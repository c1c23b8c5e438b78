"""Plain runner for chupai.rl.VectorEnv: steps per second per game, backend and threads.

    python bench/rl.py [--envs 256] [--steps 100] [--repeats 5] [--threads 1 2]
                       [--features {concrete,ids}] [--observation default|danzero]
                       [--backend compiled python] [--game guandan [--game ...]] [--phases]
                       [--actions first|random] [--no-copy] [--int8-features] [--pool B]

A step is one decision of one table (self-play), the acting player's observation
tensor and the legal mask (and with ``--features`` the padded legal-action card
vectors) built for every table at every step.  Only ``env.step()`` is timed: picking
the actions from the masks (the caller's work) happens between the timed calls, with
``--actions first`` (default) the first legal id (``argmax`` of the masks viewed as
bool, ~30 µs for 1024 tables), with ``--actions random`` a legal id drawn uniformly
(one seeded uniform draw a table picks the k-th legal id of its row, ~0.3 ms for 1024
Guan Dan tables: every thread count's env gets the same draws, so they play the same
games), with ``--actions dense`` the legal id with the largest of one draw per action
(what sampling a masked distribution over every id costs: ~1.9 ms for 1024 tables).  Each configuration runs ``--repeats`` times (after one
warm-up run); the figures are medians: CPU time per step and steps/s by CPU time (all
threads' CPU), and steps/s by wall time (what threads speed up); "cores busy" is CPU
time over wall time (below 1 for one thread, or below 2 for two, when other processes
share the cores).  ``compiled`` is the C tables (every game that has them, its registry entry's
``vector_tables``); a game without them runs the Python path and says so.  Every
compiled configuration runs before the first Python one (the Python path's runs slow
the compiled runs measured after them in the same process).  The last lines compare 2 threads with 1 (wall).  Every
configuration prints the load average (``os.getloadavg``) before and after it.
``--no-copy`` makes the envs with ``copy=False`` (each call writes the env's own arrays
instead of new ones: ``chupai.rl.buffers``); ``--int8-features`` with
``feature_dtype=np.int8`` (the action features' card counts in a quarter of the bytes).

``--pool B`` measures the learner's loop instead, whole, in wall time: ``step()`` of one
VectorEnv (pick every table's action with numpy, then step them all) against a
``chupai.rl.TablePool`` in batches of ``B`` (``recv`` a batch, pick its actions, ``send``
them, while the batches sent step on the pool's threads), per thread count (the
caller's included, both), compiled; with ``--no-copy`` both with ``copy=False``.

``--phases`` (compiled backend) splits each ``env.step()`` into the part that runs in
the calling thread (the action check, the allocation of the arrays, the Python glue:
**serial**) and the parallel regions (the jobs of ``chupai.rl._workers``: every
participating thread, the caller's included, steps blocks of tables with the GIL
released; the workers time themselves, ``Workers.profile``), per call, medians over
the repeats:

* ``serial`` = the call's wall time minus the wall time of its parallel regions, and
  ``serial CPU`` the calling thread's CPU time outside its own chunks (what the call
  costs beyond the chunks, independent of the load);
* ``chunks CPU`` = the thread CPU time of every participant in the regions, and ``max
  chunk`` per region the largest participant's, summed (the participants claim blocks
  of tables as they go, so on T free cores each does about 1/T of the work; on a loaded
  machine the caller does the share of a worker that waits for a engine);
* ``dispatch`` = region wall time minus the longest participant's wall time (waking the
  workers and waiting for the last; on a loaded machine it includes the time a worker
  waited for a engine).

With one thread, ``s`` = serial CPU / (serial CPU + chunks CPU) is Amdahl's serial
fraction, from CPU times, so independent of what else runs; the line gives the bound
``1 / (s + (1 - s) / 2)`` on the 2-thread speedup, and for 2 threads the speedup
predicted from the CPU times, (serial CPU + chunks CPU) of 1 thread over (serial CPU +
chunks CPU / 2) of 2 (the CPU work of 2 threads, split evenly; the 2-thread serial CPU
includes the caller's spinning while it waits for the worker), and with the dispatch
measured now (which an idle machine keeps near its minimum; a loaded one inflates it).  The timing costs a few clock reads per
participant and region, so ``--phases`` figures are slightly slower than the plain ones.
"""
import argparse
import os
import statistics
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # keep numpy's BLAS threads off the cores

import numpy as np  # noqa: E402

from chupai.rl import VectorEnv  # noqa: E402
from chupai.registry import GAMES as REGISTRY  # noqa: E402

GAMES = list(REGISTRY)


def load() -> str:
    return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())


class Phases:
    """The per-job timing of a compiled env's worker threads (``Workers.profile``)."""

    def __init__(self, compiled):
        self.workers = compiled._t.workers
        self.workers.profile = True

    def take(self):
        """(region wall, chunks CPU, max participant CPU, dispatch, caller's CPU in the
        regions) since the last call, in seconds."""
        st = self.workers.stats()
        return st["wall"], st["cpu"], st["max_cpu"], st["dispatch"], st["caller_cpu"]


_BYTES = np.uint64(0x0101010101010101)  # times a word of eight 0/1 bytes: their sum in the top byte


def pick(mask, rng, dense=False):
    """The action of each table: the first legal id, or (``rng``) one drawn uniformly, the
    k-th legal id of the row for k uniform below the row's count (counted eight ids a
    uint64 word, then within the word); ``dense``: the legal id with the largest of one
    uniform draw per action (the work of sampling a masked distribution over every id)."""
    if rng is None:
        return mask.view(bool).argmax(axis=1)
    if dense:
        return ((rng.random(mask.shape, dtype=np.float32) + 1) * mask).argmax(axis=1)
    n, a = mask.shape
    if a % 8:
        mask = np.concatenate([mask, np.zeros((n, 8 - a % 8), mask.dtype)], axis=1)
    words = np.ascontiguousarray(mask, dtype=np.uint8).view(np.uint64)
    counts = ((words * _BYTES) >> np.uint64(56)).astype(np.int16)
    ranks = np.cumsum(counts, axis=1, dtype=np.int16)
    k = (rng.random(n) * ranks[:, -1]).astype(np.int16)
    w = (ranks > k[:, None]).argmax(axis=1)
    rows = np.arange(n)
    inside = np.cumsum(words[rows, w].view(np.uint8).reshape(n, 8), axis=1, dtype=np.int16)
    return w * 8 + (inside > (k - ranks[rows, w] + counts[rows, w])[:, None]).argmax(axis=1)


def run(game, backend, envs, steps, repeats, threads_list, features, observation, phases, actions="first",
        copy=True, feature_dtype=np.float32):
    """Per thread count, the medians of ``repeats`` runs: (CPU s per step, steps/s CPU,
    steps/s wall) and with ``phases`` the per-call (wall, serial, chunks CPU, max chunk,
    dispatch, serial CPU) in seconds; the thread counts take turns run by run, so they share whatever
    load the machine has."""
    made = {t: VectorEnv(game, num_envs=envs, seed=1, threads=t, features=features or False,
                         observation=observation, backend=backend, copy=copy, feature_dtype=feature_dtype)
            for t in threads_list}
    clocks = {t: Phases(env._compiled) for t, env in made.items()} if phases else {}
    obs = {t: env.reset()[0] for t, env in made.items()}
    rngs = {t: np.random.default_rng(7) if actions != "first" else None for t in threads_list}
    cpus = {t: [] for t in threads_list}
    walls = {t: [] for t in threads_list}
    parts = {t: [] for t in threads_list}
    for r in range(repeats + 1):
        for t, env in made.items():
            o = obs[t]
            wall = cpu = caller = 0.0
            if phases:
                clocks[t].take()
            for _ in range(steps):
                a = pick(o["action_mask"], rngs[t], actions == "dense")
                t0, c0, k0 = time.perf_counter(), time.process_time(), time.thread_time()
                o = env.step(a)[0]
                wall += time.perf_counter() - t0
                cpu += time.process_time() - c0
                caller += time.thread_time() - k0
            obs[t] = o
            if r:  # the first run warms up
                cpus[t].append(cpu)
                walls[t].append(wall)
                if phases:
                    regions, ccpu, top, dispatch, own = clocks[t].take()
                    parts[t].append(tuple(x / steps for x in (wall, wall - regions, ccpu, top, dispatch,
                                                              caller - own)))
    for env in made.values():
        env.close()
    n = envs * steps
    out = {}
    for t in threads_list:
        cpu, wall = statistics.median(cpus[t]), statistics.median(walls[t])
        med = tuple(statistics.median(p[k] for p in parts[t]) for k in range(6)) if phases else None
        out[t] = (cpu / n, n / cpu, n / wall, med)
    return out


def run_pool(game, envs, batch, steps, repeats, threads_list, actions="random", copy=True):
    """The learner's loop, wall time, whole: per thread count, ``step()`` of one VectorEnv
    (pick every table's action, then step them all) and ``send``/``recv`` of a TablePool
    in batches of ``batch`` (receive a batch, pick its actions, send them: the other
    batches step meanwhile); the median steps/s of ``repeats`` runs (after a warm-up),
    the configurations taking turns run by run."""
    from chupai.rl import TablePool

    def step_loop(env, rng, n):
        o = env.reset()[0]
        t0 = time.perf_counter()
        for _ in range(n):
            o = env.step(pick(o["action_mask"], rng, actions == "dense"))[0]
        return time.perf_counter() - t0

    def pool_loop(pool, rng, n):
        pool.async_reset()
        rounds = n * (envs // batch)
        t0 = time.perf_counter()
        for _ in range(rounds):
            o, *_, info = pool.recv()
            pool.send(pick(o["action_mask"], rng, actions == "dense"), info["env_id"])
        for _ in range(envs // batch):
            pool.recv()
        return time.perf_counter() - t0

    made = {}
    for t in threads_list:
        made["step()", t] = VectorEnv(game, num_envs=envs, seed=1, threads=t, backend="compiled", copy=copy)
        made["send/recv", t] = TablePool(game, envs, batch_size=batch, seed=1, threads=t, backend="compiled",
                                         copy=copy)
    walls = {k: [] for k in made}
    for r in range(repeats + 1):
        for (kind, t), env in made.items():
            rng = np.random.default_rng(7) if actions != "first" else None
            w = (step_loop if kind == "step()" else pool_loop)(env, rng, steps)
            if r:
                walls[kind, t].append(w)
    for env in made.values():
        env.close()
    return {k: envs * steps / statistics.median(v) for k, v in walls.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--features", choices=["concrete", "ids"], default=None)
    ap.add_argument("--observation", default="default",
                    help="default, or a game's own layout (its registry entry's observations: danzero)")
    ap.add_argument("--backend", choices=["compiled", "python"], nargs="+", default=["compiled", "python"])
    ap.add_argument("--game", action="append", choices=GAMES, help="a game (default: every game)")
    ap.add_argument("--phases", action="store_true", help="time the serial and parallel parts (compiled)")
    ap.add_argument("--actions", choices=["first", "random", "dense"], default="first",
                    help="the first legal id of each table, or one drawn uniformly (random: the k-th legal id; "
                         "dense: one draw per action, the largest legal)")
    ap.add_argument("--no-copy", dest="copy", action="store_false", help="envs with copy=False (reused outputs)")
    ap.add_argument("--int8-features", action="store_true", help="action features as int8 counts (feature_dtype)")
    ap.add_argument("--pool", type=int, metavar="B", default=None,
                    help="instead: the learner's loop with step() against TablePool send/recv in batches of B")
    args = ap.parse_args()
    if args.pool is not None:
        print(f"envs={args.envs} batch={args.pool} steps={args.steps} repeats={args.repeats} (medians, wall, "
              f"the loop with its picks) actions={args.actions} copy={args.copy}; {load()}")
        for game in args.game or GAMES:
            rates = run_pool(game, args.envs, args.pool, args.steps, args.repeats, args.threads, args.actions,
                             args.copy)
            for (kind, t), rate in rates.items():
                print(f"{game:14s} {kind:9s} threads={t}: {rate:10.0f} steps/s wall")
            base = rates["step()", min(args.threads)]
            for t in args.threads:
                print(f"{game:14s} send/recv threads={t} / step() threads={min(args.threads)}: "
                      f"{rates['send/recv', t] / base:.2f}x; / step() threads={t}: "
                      f"{rates['send/recv', t] / rates['step()', t]:.2f}x")
            print(f"{'':14s} {load()}")
        return
    print(f"envs={args.envs} steps={args.steps} repeats={args.repeats} (medians) features={args.features} "
          f"observation={args.observation} actions={args.actions} copy={args.copy} "
          f"feature_dtype={'int8' if args.int8_features else 'float32'}; {load()}")
    # every compiled configuration runs before any Python one: the Python path's runs leave
    # the process's heap and caches in a state that slows the compiled runs after them
    backends = sorted(args.backend, key=["compiled", "python"].index)
    wall = {}
    for backend in backends:
        for game in args.game or GAMES:
            if backend == "compiled" and REGISTRY[game].vector_tables is None:
                print(f"{game:14s} compiled  (no compiled tables: the Python path below)")
                continue
            if args.observation != "default" and args.observation not in dict(REGISTRY[game].observations):
                continue
            # the Python path is ~100x slower: fewer steps keep its runs short
            steps = args.steps if backend == "compiled" else max(1, args.steps // 10)
            results = run(game, backend, args.envs, steps, args.repeats, args.threads, args.features,
                          args.observation, args.phases and backend == "compiled", args.actions, args.copy,
                          np.int8 if args.int8_features else np.float32)
            for threads, (cpu_step, cpu_rate, wall_rate, med) in results.items():
                wall[game, backend, threads] = wall_rate
                print(f"{game:14s} {backend:9s} threads={threads}: {cpu_step * 1e6:8.2f} µs CPU per step, "
                      f"{cpu_rate:10.0f} steps/s CPU, {wall_rate:10.0f} steps/s wall, "
                      f"{wall_rate / cpu_rate:4.2f} cores busy")
                if med is not None:
                    call, serial, ccpu, top, dispatch, scpu = (x * 1e6 for x in med)
                    print(f"{'':14s} {'phases':9s} threads={threads}: call {call:7.1f} µs wall = serial {serial:6.1f} "
                          f"+ parallel {call - serial:7.1f}; serial CPU {scpu:6.1f}, chunks CPU {ccpu:7.1f}, "
                          f"max chunk {top:7.1f}, dispatch {dispatch:6.1f} (µs per call)")
            if args.phases and backend == "compiled" and 1 in results:
                _, _, ccpu1, _, _, scpu1 = results[1][3]
                s = scpu1 / (scpu1 + ccpu1)
                line = (f"{game:14s} {'phases':9s} serial fraction s = {s:.4f} (1 thread, CPU): "
                        f"Amdahl bound 2 threads {1 / (s + (1 - s) / 2):.2f}x")
                if 2 in results:
                    _, _, ccpu2, _, dispatch2, scpu2 = results[2][3]
                    t1, t2 = scpu1 + ccpu1, scpu2 + ccpu2 / 2
                    line += (f"; predicted from CPU {t1 / t2:.2f}x, "
                             f"with the dispatch measured now {t1 / (t2 + dispatch2):.2f}x")
                print(line)
            print(f"{'':14s} {load()}")
    for game in args.game or GAMES:
        for backend in backends:
            if (game, backend, 1) in wall and (game, backend, 2) in wall:
                print(f"{game:14s} {backend:9s} 2 threads / 1 thread (wall): "
                      f"{wall[game, backend, 2] / wall[game, backend, 1]:.2f}x")
        if (game, "compiled", 1) in wall and (game, "python", 1) in wall:
            print(f"{game:14s} compiled / python (1 thread, wall): "
                  f"{wall[game, 'compiled', 1] / wall[game, 'python', 1]:.0f}x")

if __name__ == "__main__":
    main()
