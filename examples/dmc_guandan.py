"""Deep Monte-Carlo (DouZero-style) training for Guan Dan on ``chupai.rl.VectorEnv``.

    python examples/dmc_guandan.py --minutes 20 --out runs/dmc

Self-play by default (``--opponent self``: the network plays every seat, and every
seat's decisions are trained), or the network's team (seats 0 and 2) against built-in
opponents (``--opponent random|greedy|heuristic``), at many tables at once (the
compiled tables).  Every decision of a deal is trained towards that deal's final
return for the decider's team (Monte-Carlo target, no bootstrapping), as in DouZero;
exploration is epsilon-greedy.  As in DouZero the network scores a
(state, action) pair, the action given by its cards; the candidates are the legal
ids of ``chupai.rl`` (suit-collapsed patterns, each with its concrete choice:
``VectorEnv(features="ids")``), and the state is encoded once per table.

Every ``--eval-every`` seconds the greedy policy plays ``--eval-deals`` deals against
RandomBot, GreedyBot and HeuristicBot; the win rates over training time go to
``<out>/winrate.png`` and ``<out>/log.csv``, with the training decisions a second and
where the CPU time went (``env``: stepping the tables and encoding the observations
and action features; ``act``: the network choosing; ``learn``: the gradient steps;
``eval``: the evaluations); ``<out>/checkpoint.pt`` holds the network, the optimizer
and the counters (``--resume`` continues from it).  At the end the agent plays
``--final-deals`` deals against RandomBot, GreedyBot and HeuristicBot and prints the
win rates.  ``--export model.onnx`` writes the trained network as an ONNX file of
:class:`chupai.players.network.NetworkBot`'s ``rows`` layout (the observation joined to the
action's cards, one row per legal action; the input scaling is part of the graph), so
``chupai arena guandan --bots net:model.onnx:layout=rows,greedy`` plays it.  Requires
``torch`` and ``matplotlib``: ``pip install "chupai[examples]"`` (``--help`` works
without them).  Time here is CPU time: ``--minutes`` and the log count this process's CPU
seconds, not the clock's.
"""
from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

try:
    import torch
    from torch import nn

    Module = nn.Module
except ModuleNotFoundError:  # --help needs no torch; main() names what to install
    torch = None  # type: ignore[assignment]
    Module = object  # type: ignore[assignment,misc]

from chupai.rl import VectorEnv, observation_size

GAME = "guandan"
ACTION_SIZE = 54  # the card counts of an action


class QNet(Module):
    """Q(observation, action cards): the state and the action are encoded apart, added,
    and scored, so one state encoding serves all of a table's candidate actions."""

    def __init__(self, obs_size: int, hidden: int, head: int | None = None) -> None:
        super().__init__()
        head = hidden if head is None else head  # the width of the per-action layers
        self.state = nn.Sequential(nn.Linear(obs_size, hidden), nn.ReLU(), nn.Linear(hidden, head))
        self.action = nn.Linear(ACTION_SIZE, head)
        self.head = nn.Sequential(nn.ReLU(), nn.Linear(head, head), nn.ReLU(), nn.Linear(head, 1))

    def forward(self, obs: torch.Tensor, actions: torch.Tensor) -> torch.Tensor:
        """``obs`` (B, obs_size), ``actions`` (B, K, 54) -> Q values (B, K)."""
        h = self.state(obs)[:, None, :] + self.action(actions)
        return self.head(h).squeeze(-1)


#: the observations hold raw counts (hand sizes up to 27): they are clipped here and
#: halved, to bring them near unit scale
CLIP = 4.0


def _scale(obs: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(np.minimum(obs, CLIP) / 2.0)


class Rows(Module):
    """The trained network in NetworkBot's ``rows`` layout: rows (N, obs_size + 54) of
    raw observation values and action cards -> one Q per row."""

    def __init__(self, model: QNet, obs_size: int) -> None:
        super().__init__()
        self.model = model
        self.obs_size = obs_size

    def forward(self, rows: torch.Tensor) -> torch.Tensor:
        obs = torch.clamp(rows[:, : self.obs_size], max=CLIP) / 2.0
        h = self.model.state(obs) + self.model.action(rows[:, self.obs_size :])
        return self.model.head(h)


def export(model: QNet, path: Path) -> None:
    """Write ``model`` as an ONNX network of the ``rows`` layout to ``path``."""
    size = observation_size(GAME)
    rows = torch.zeros(2, size + ACTION_SIZE)
    import warnings

    with warnings.catch_warnings():  # the TorchScript exporter needs no extra package; it warns it is the old one
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(Rows(model, size).eval(), (rows,), str(path), input_names=["rows"], output_names=["q"],
                          dynamic_axes={"rows": {0: "actions"}, "q": {0: "actions"}}, dynamo=False)


def choose(model: QNet, obs: dict[str, np.ndarray], epsilon: float, rng: np.random.Generator) -> np.ndarray:
    """Epsilon-greedy row indices (one per table) among each table's legal actions."""
    counts = obs["num_actions"]
    with torch.no_grad():
        q = model(_scale(obs["observation"]), torch.from_numpy(obs["action_features"])).numpy()
    q[np.arange(q.shape[1])[None, :] >= counts[:, None]] = -np.inf
    rows = q.argmax(axis=1)
    explore = rng.random(len(rows)) < epsilon
    rows[explore] = (rng.random(int(explore.sum())) * counts[explore]).astype(np.int64)
    return rows.astype(np.int64)


OPPONENTS = ("random", "greedy", "heuristic")


def _env(tables: int, seed: int, opponent: str) -> VectorEnv:
    """Tables of the network's team (seats 0 and 2) against ``opponent``, or (``"self"``)
    of the network at every seat."""
    return VectorEnv(GAME, num_envs=tables, seed=seed,
                     opponents=None if opponent == "self" else {1: opponent, 3: opponent},
                     features="ids", action_mode="index")


def evaluate(model: QNet, opponent: str, deals: int, seed: int, tables: int = 32) -> float:
    """The share of ``deals`` deals the greedy agent's team wins against ``opponent``."""
    env = _env(min(tables, deals), seed, opponent)
    obs, _ = env.reset()
    rng = np.random.default_rng(seed)
    wins = done = 0
    while done < deals:
        obs, rewards, terminated, _, _ = env.step(choose(model, obs, 0.0, rng))
        for i in np.flatnonzero(terminated):
            if done < deals:
                wins += int(rewards[i, 0] > 0)
                done += 1
    env.close()
    return wins / deals


def plot(log: list[dict[str, float]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for name in OPPONENTS:
        ax.plot([r["minutes"] for r in log], [r[f"winrate_{name}"] for r in log], marker="o", label=name)
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("CPU minutes (training and evaluations)")
    ax.set_ylabel("win rate of the network's team")
    ax.legend(title="against")
    ax.set_ylim(0, 1)
    ax.set_title("DMC on chupai VectorEnv (Guan Dan)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write_log(log: list[dict[str, float]], path: Path) -> None:
    """The evaluations so far as a CSV file (rewritten at each one, so a run stopped early
    keeps its curve)."""
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(log[0]))
        w.writeheader()
        w.writerows(log)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=20.0,
                    help="training budget in CPU minutes of this process (training and evaluations; not wall time)")
    ap.add_argument("--max-steps", type=int, default=0, help="stop after this many env steps (0: no limit)")
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--opponent", default="self", choices=("self",) + OPPONENTS,
                    help="self-play (default), or the seats 1 and 3 played by this bot")
    ap.add_argument("--hidden", type=int, default=256, help="the width of the state's layers")
    ap.add_argument("--head", type=int, default=64,
                    help="the width of the per-action layers (their cost grows with the legal actions)")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--epsilon", type=float, default=0.1)
    ap.add_argument("--target", default="win", choices=["win", "levels"], help="what a deal's return is")
    ap.add_argument("--eval-every", type=float, default=120.0, help="seconds between evaluations")
    ap.add_argument("--eval-deals", type=int, default=200)
    ap.add_argument("--final-deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="runs/dmc")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--export", default=None, help="write the trained network here as ONNX (NetworkBot's rows layout)")
    args = ap.parse_args(argv)
    if torch is None:
        ap.error('training needs torch and matplotlib: pip install "chupai[examples]"')

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    model = QNet(observation_size(GAME), args.hidden, args.head)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    steps = deals = decisions = 0
    trained = 0.0  # seconds of training before this run
    spent = {"env": 0.0, "act": 0.0, "learn": 0.0, "eval": 0.0}  # CPU seconds by part
    log: list[dict[str, float]] = []
    ckpt = out / "checkpoint.pt"
    if args.resume and ckpt.exists():
        saved = torch.load(ckpt)
        model.load_state_dict(saved["model"])
        opt.load_state_dict(saved["optimizer"])
        steps, deals, trained, log = saved["steps"], saved["deals"], saved["seconds"], saved["log"]
        decisions, spent = saved.get("decisions", steps), saved.get("spent", spent)

    env = _env(args.envs, args.seed + steps, args.opponent)
    obs, _ = env.reset()
    rng = np.random.default_rng(args.seed)
    episode: list[list[tuple[int, np.ndarray, np.ndarray]]] = [[] for _ in range(args.envs)]
    buf_obs: list[np.ndarray] = []
    buf_act: list[np.ndarray] = []
    buf_ret: list[float] = []
    start = time.process_time()
    next_eval = 0.0
    budget = args.minutes * 60
    bar = tqdm(total=int(budget), unit="s", desc="training (CPU s)", mininterval=2.0, disable=None)  # a terminal only

    def elapsed() -> float:
        return trained + time.process_time() - start

    def checkpoint() -> None:
        torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "steps": steps, "deals": deals,
                    "decisions": decisions, "seconds": elapsed(), "spent": spent, "log": log}, ckpt)

    def evaluation() -> None:
        t0 = time.process_time()
        row: dict[str, float] = {"minutes": elapsed() / 60, "steps": steps, "deals": deals}
        for name in OPPONENTS:
            row[f"winrate_{name}"] = evaluate(model, name, args.eval_deals, seed=10_000 + len(log))
        spent["eval"] += time.process_time() - t0
        train = elapsed() - spent["eval"]
        row["decisions_per_s"] = decisions / train if train > 0 else 0.0
        row.update({f"cpu_{k}": v for k, v in spent.items()})
        log.append(row)
        plot(log, out / "winrate.png")
        write_log(log, out / "log.csv")
        checkpoint()
        bar.set_postfix(greedy=f"{row['winrate_greedy']:.2f}", heuristic=f"{row['winrate_heuristic']:.2f}",
                        deals=deals)

    while elapsed() < budget and not (args.max_steps and steps >= args.max_steps):
        if elapsed() >= next_eval:
            evaluation()
            next_eval = elapsed() + args.eval_every
        t0 = time.process_time()
        rows = choose(model, obs, args.epsilon, rng)
        t1 = time.process_time()
        for i in range(args.envs):
            episode[i].append((int(obs["player"][i]), obs["observation"][i], obs["action_features"][i, rows[i]]))
        obs, rewards, terminated, _, _ = env.step(rows)
        spent["act"] += t1 - t0
        spent["env"] += time.process_time() - t1
        steps += args.envs
        decisions += args.envs
        for i in np.flatnonzero(terminated):
            # the Monte-Carlo target of each decision, by its seat: +1 won, -1 lost (the
            # value is 2 P(win) - 1), or the levels won or lost scaled to [-1, 1]
            for seat, o, a in episode[i]:
                r = float(rewards[i, seat])
                buf_obs.append(o)
                buf_act.append(a)
                buf_ret.append(float(np.sign(r)) if args.target == "win" else r / 4.0)
            episode[i] = []
            deals += 1
        if len(buf_ret) >= args.batch:
            t0 = time.process_time()
            x = _scale(np.stack(buf_obs))
            a = torch.from_numpy(np.stack(buf_act))
            g = torch.tensor(buf_ret, dtype=torch.float32)
            perm = torch.randperm(len(g))
            for j in range(0, len(g), args.batch):
                idx = perm[j:j + args.batch]
                q = model(x[idx], a[idx, None, :]).squeeze(1)
                loss = ((q - g[idx]) ** 2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
            buf_obs, buf_act, buf_ret = [], [], []
            spent["learn"] += time.process_time() - t0
        now = min(int(elapsed()), int(budget))
        if now > bar.n:
            bar.update(now - bar.n)
    bar.close()
    env.close()
    evaluation()
    final: dict[str, Any] = {"steps": steps, "deals": deals, "minutes": elapsed() / 60,
                             "decisions_per_s": log[-1]["decisions_per_s"], "spent": dict(spent)}
    for k, name in enumerate(OPPONENTS):
        final[f"winrate_{name}"] = evaluate(model, name, args.final_deals, seed=99_991 + k)
    if args.export:
        export(model, Path(args.export))
    parts = ", ".join(f"{k} {v / 60:.1f}" for k, v in spent.items())
    print(f"after {final['minutes']:.1f} CPU minutes ({parts}), {steps} steps, {deals} training deals, "
          f"{final['decisions_per_s']:.0f} training decisions/s: the network's team wins "
          + ", ".join(f"{final[f'winrate_{n}']:.1%} vs {n}" for n in OPPONENTS)
          + f" ({args.final_deals} deals each)")
    return final


if __name__ == "__main__":
    main()
