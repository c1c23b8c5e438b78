"""Plain runner for chupai.rl.VectorEnv: steps per second per game, backend and threads.

    python bench/rl.py [--envs 256] [--steps 100] [--repeats 5] [--threads 1 2]
                       [--features {concrete,ids}] [--observation {default,danzero}]
                       [--backend compiled python] [--game guandan ...]

A step is one decision of one table (self-play, the first legal id), the acting
player's observation tensor and the legal mask (and with ``--features`` the padded
legal-action card vectors) built for every table at every step.  Each configuration
runs ``--repeats`` times (after one warm-up run); the figures are medians: CPU time
per step and steps/s by CPU time (all threads' CPU), and steps/s by wall time (what
threads speed up); "cores busy" is CPU time over wall time (below 1 for one thread, or
below 2 for two, when other processes share the cores).  ``compiled`` is the C tables
(Guan Dan); a game without them runs the Python path and says so.  The last lines
compare 2 threads with 1 (wall).
"""
import argparse
import os
import statistics
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # keep numpy's BLAS threads off the cores

from chupai.rl import VectorEnv  # noqa: E402
from chupai.rl._compiled import COMPILED_GAMES  # noqa: E402

GAMES = ["guandan", "zhengshangyou", "gandengyan", "chinese_ten"]


def run(game, backend, envs, steps, repeats, threads_list, features, observation):
    """Per thread count, the median (CPU s per step, steps/s CPU, steps/s wall) of
    ``repeats`` runs; the thread counts take turns run by run, so they share whatever
    load the machine has."""
    made = {t: VectorEnv(game, num_envs=envs, seed=1, threads=t, features=features or False,
                         observation=observation, backend=backend) for t in threads_list}
    obs = {t: env.reset()[0] for t, env in made.items()}
    cpus = {t: [] for t in threads_list}
    walls = {t: [] for t in threads_list}
    for r in range(repeats + 1):
        for t, env in made.items():
            o = obs[t]
            t0, c0 = time.perf_counter(), time.process_time()
            for _ in range(steps):
                o = env.step(o["action_mask"].argmax(axis=1))[0]
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            obs[t] = o
            if r:  # the first run warms up
                cpus[t].append(cpu)
                walls[t].append(wall)
    for env in made.values():
        env.close()
    n = envs * steps
    out = {}
    for t in threads_list:
        cpu, wall = statistics.median(cpus[t]), statistics.median(walls[t])
        out[t] = (cpu / n, n / cpu, n / wall)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--features", choices=["concrete", "ids"], default=None)
    ap.add_argument("--observation", choices=["default", "danzero"], default="default")
    ap.add_argument("--backend", choices=["compiled", "python"], nargs="+", default=["compiled", "python"])
    ap.add_argument("--game", action="append", choices=GAMES, help="a game (default: all four)")
    args = ap.parse_args()
    print(f"envs={args.envs} steps={args.steps} repeats={args.repeats} (medians) features={args.features} "
          f"observation={args.observation}")
    for game in args.game or GAMES:
        wall = {}
        for backend in args.backend:
            if backend == "compiled" and game not in COMPILED_GAMES:
                print(f"{game:14s} compiled  (no compiled tables: the Python path below)")
                continue
            if args.observation == "danzero" and game != "guandan":
                continue
            # the Python path is ~100x slower: fewer steps keep its runs short
            steps = args.steps if backend == "compiled" else max(1, args.steps // 10)
            results = run(game, backend, args.envs, steps, args.repeats, args.threads, args.features,
                          args.observation)
            for threads, (cpu_step, cpu_rate, wall_rate) in results.items():
                wall[backend, threads] = wall_rate
                print(f"{game:14s} {backend:9s} threads={threads}: {cpu_step * 1e6:8.2f} µs CPU per step, "
                      f"{cpu_rate:10.0f} steps/s CPU, {wall_rate:10.0f} steps/s wall, "
                      f"{wall_rate / cpu_rate:4.2f} cores busy")
        for backend in args.backend:
            if (backend, 1) in wall and (backend, 2) in wall:
                print(f"{game:14s} {backend:9s} 2 threads / 1 thread (wall): {wall[backend, 2] / wall[backend, 1]:.2f}x")
        if ("compiled", 1) in wall and ("python", 1) in wall:
            print(f"{game:14s} compiled / python (1 thread, wall): {wall['compiled', 1] / wall['python', 1]:.0f}x")


if __name__ == "__main__":
    main()
