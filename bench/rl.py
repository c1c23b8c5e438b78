"""Plain runner for chupai.rl.VectorEnv: steps per second per game (CPU time).

    python bench/rl.py [--envs 64] [--steps 200] [--threads 1] [--features]

A step is one decision of one table (self-play, the first legal id), observation
tensor and legal mask (and with ``--features`` the padded concrete-action features)
built for every table at every step.  Prints µs per table-step and steps/s.
"""
import argparse
import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # keep numpy's BLAS threads off the cores

from chupai.rl import VectorEnv  # noqa: E402


def run(game: str, envs: int, steps: int, threads: int, features: bool) -> float:
    env = VectorEnv(game, num_envs=envs, seed=1, threads=threads, features=features)
    obs, _ = env.reset()
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(steps):
        obs = env.step(obs["action_mask"].argmax(axis=1))[0]
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    env.close()
    n = envs * steps
    print(f"{game:14s} envs={envs} threads={threads} features={features}: "
          f"{cpu / n * 1e6:8.1f} µs CPU per step, {n / cpu:10.0f} steps/s CPU, {n / wall:10.0f} steps/s wall")
    return n / cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--features", action="store_true")
    ap.add_argument("--game", action="append", help="a game (default: all four)")
    args = ap.parse_args()
    for game in args.game or ["guandan", "zhengshangyou", "gandengyan", "chinese_ten"]:
        run(game, args.envs, args.steps, args.threads, args.features)


if __name__ == "__main__":
    main()
