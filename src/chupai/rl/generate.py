"""Self-play data: whole deals played by a policy, written as numpy shards with a manifest.

:func:`generate` plays ``episodes`` deals of a game, every seat driven by the same bot,
and records every decision: the acting seat's observation tensor, the mask of legal
action ids, the id taken, and each deal's final returns.  Episode ``e`` is dealt and
played from seeds derived from ``(seed, e)``, so the data does not depend on the
backend, the number of workers or which worker ran which shard.

The episodes are cut into shards of ``shard_size``; shard ``k`` (episodes
``k * shard_size`` ...) is one task and one file ``shard-<k>.npz`` written atomically.
A restarted run with the same arguments finds the finished shards and does not redo
them; a run with other arguments into the same directory is refused.

A shard holds, for its ``steps`` decisions (in episode order, then decision order):

==============  ======================  ==================================================
key             shape, dtype            meaning
==============  ======================  ==================================================
``obs``         (steps, O) float32      :func:`chupai.rl.observation_tensor` of the seat to act
``mask``        (steps, A) int8         :func:`chupai.rl.legal_actions_mask` (int8, as every mask)
``action``      (steps,) int32          the id taken (:func:`chupai.rl.action_to_id`)
``player``      (steps,) int8           the seat that acted
``episode``     (steps,) int64          the episode index (global)
``target``      (steps,) float32        the acting seat's final return in that deal
``returns``     (E, players) float32    each episode's returns, seat by seat
``episodes``    (E,) int64              the shard's episode indices
==============  ======================  ==================================================

>>> import tempfile
>>> out = tempfile.mkdtemp()
>>> manifest = generate("gandengyan", "greedy", episodes=4, out_dir=out, seed=1,
...                     shard_size=2, progress=False)
>>> [s["episodes"] for s in manifest["shards"]]
[2, 2]
>>> data = load(out)
>>> data["obs"].shape[1] == manifest["observation_size"], len(data["returns"])
(True, 4)
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, cast

import numpy as np

from chupai.engine import backends
from chupai.registry import game as game_entry
from chupai.core.validate import check_positive_int, check_seed
from chupai.encoding.tensors import (
    action_to_id,
    legal_actions_mask,
    num_distinct_actions,
    observation_size,
    observation_tensor,
)

__all__ = ["FORMAT", "generate", "load"]

#: the version of the shard and manifest layout
FORMAT = 1
MANIFEST = "manifest.json"
# the parameters a restarted run must share with the run that wrote the directory
_SAME = ("format", "game", "policy", "rules", "players", "seed", "episodes", "shard_size")


def _shard_name(k: int) -> str:
    return f"shard-{k:05d}.npz"


class _Shard:
    """Plays and writes one shard (a picklable task for :func:`chupai.engine.backends.run_batch`)."""

    def __init__(self, game: str, policy: Any, rules: Any, players: int | None, seed: int,
                 out_dir: str) -> None:
        self.game, self.policy, self.rules, self.players = game, policy, rules, players
        self.seed, self.out_dir = seed, out_dir

    def _state(self, deal_seed: int) -> Any:
        # the registry checks the number of players (a fixed-players game refuses another)
        return game_entry(self.game).new(deal_seed, rules=self.rules, players=self.players)

    def __call__(self, job: tuple[int, int, int]) -> dict[str, Any]:
        k, first, stop = job
        bot = _bot(self.policy)
        cols: dict[str, list[Any]] = {n: [] for n in ("obs", "mask", "action", "player", "episode", "target")}
        returns = []
        for e in range(first, stop):
            deal_seed, bot_seed = np.random.SeedSequence([self.seed, e]).generate_state(2, dtype=np.uint64)
            rng = np.random.default_rng(int(bot_seed))
            state = self._state(int(deal_seed))
            start = len(cols["action"])
            while not state.is_terminal():
                seat = state.current_player
                cols["obs"].append(observation_tensor(state, seat))
                cols["mask"].append(legal_actions_mask(state))
                action = bot.choose(state, rng)
                cols["action"].append(action_to_id(state, action))
                cols["player"].append(seat)
                state.apply(action)
            r = np.asarray(state.returns(), dtype=np.float32)
            returns.append(r)
            n = len(cols["action"]) - start
            cols["episode"].extend([e] * n)
            cols["target"].extend(r[cols["player"][start:]].tolist())
        arrays: dict[str, np.ndarray] = {
            "obs": np.asarray(cols["obs"], dtype=np.float32).reshape(len(cols["obs"]), -1),
            "mask": np.asarray(cols["mask"], dtype=np.int8).reshape(len(cols["mask"]), -1),
            "action": np.asarray(cols["action"], dtype=np.int32),
            "player": np.asarray(cols["player"], dtype=np.int8),
            "episode": np.asarray(cols["episode"], dtype=np.int64),
            "target": np.asarray(cols["target"], dtype=np.float32),
            "returns": np.asarray(returns, dtype=np.float32),
            "episodes": np.arange(first, stop, dtype=np.int64),
        }
        path = Path(self.out_dir) / _shard_name(k)
        tmp = path.with_suffix(f".tmp-{os.getpid()}.npz")
        np.savez_compressed(tmp, **cast(dict[str, Any], arrays))
        os.replace(tmp, path)  # atomic: a shard file is complete or absent
        return {"file": path.name, "episodes": stop - first, "steps": int(len(arrays["action"]))}


def _bot(policy: Any) -> Any:
    if isinstance(policy, str):
        from chupai.players.search.registry import make_bot

        return make_bot(policy)
    return policy


def _read_manifest(out: Path) -> dict[str, Any] | None:
    try:
        with open(out / MANIFEST) as f:
            manifest: dict[str, Any] = json.load(f)
    except FileNotFoundError:
        return None
    return manifest


def _write_manifest(out: Path, manifest: dict[str, Any]) -> None:
    tmp = out / (MANIFEST + ".tmp")
    with open(tmp, "w") as f:
        json.dump(manifest, f, indent=1)
    os.replace(tmp, out / MANIFEST)


def _shard_ok(path: Path, episodes: int) -> bool:
    """A finished shard: it loads and holds its episodes."""
    try:
        with np.load(path) as z:
            return len(z["episodes"]) == episodes
    except (OSError, ValueError, KeyError):
        return False


def generate(
    game: str,
    policy: Any,
    episodes: int,
    out_dir: str | os.PathLike[str],
    seed: int,
    *,
    rules: Any = None,
    players: int | None = None,
    shard_size: int = 100,
    backend: str = "local",
    workers: int = 1,
    address: str | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Play ``episodes`` deals of ``game`` with ``policy`` at every seat and write them
    to ``out_dir`` (module doc); returns the manifest (also ``out_dir/manifest.json``).

    Args:
        policy: a bot spec (``"random"``, ``"greedy"``, ``"mc:50"``, ``"ismcts:200"``,
            see :mod:`chupai.players.search.registry`) or a picklable bot object; a bot object is
            recorded in the manifest by its ``repr``.
        shard_size: episodes per shard (one task, one file).
        backend, workers, address: where the shards are played
            (:func:`chupai.engine.backends.run_batch`).
        progress: a bar counting finished deals.
    """
    entry = game_entry(game)
    episodes = check_positive_int(episodes, "episodes")
    shard_size = check_positive_int(shard_size, "shard_size")
    seed = check_seed(seed, allow_none=False)
    check_positive_int(workers, "workers")
    if not isinstance(out_dir, (str, os.PathLike)):
        raise TypeError(f"out_dir must be a path, not {type(out_dir).__name__}")
    if not isinstance(policy, str) and not callable(getattr(policy, "choose", None)):
        raise TypeError(f"policy must be a bot spec (str) or a bot with choose(state, rng), not {policy!r}")
    task = _Shard(entry.name, policy, rules, players, seed, os.fspath(out_dir))
    state = task._state(seed)  # bad rules or players fail here, before any work
    _bot(policy)  # a bad spec too
    if backend == "ray":
        backends.require_ray()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    manifest: dict[str, Any] = {
        "format": FORMAT,
        "game": entry.name,
        "policy": policy if isinstance(policy, str) else repr(policy),
        "rules": repr(state.rules),
        "players": len(state.hand_sizes()),
        "seed": seed,
        "episodes": episodes,
        "shard_size": shard_size,
        "observation_size": observation_size(entry.name, len(state.hand_sizes())),
        "num_distinct_actions": num_distinct_actions(entry.name),
        "shards": [],
    }
    old = _read_manifest(out)
    if old is not None and any(old.get(k) != manifest[k] for k in _SAME):
        differ = [k for k in _SAME if old.get(k) != manifest[k]]
        raise ValueError(f"{out} holds a run with other {', '.join(differ)}; use another out_dir")
    jobs = [(k, a, b) for k, (a, b) in enumerate(backends.chunk_bounds(episodes, shard_size))]
    done = {s["file"]: s for s in (old or {}).get("shards", []) if _shard_ok(out / s["file"], s["episodes"])}
    todo = [j for j in jobs if _shard_name(j[0]) not in done]
    _write_manifest(out, {**manifest, "shards": sorted(done.values(), key=lambda s: s["file"])})
    finished = backends.run_batch(task, todo, backend=backend, workers=workers, address=address,
                                  chunk_size=1, progress=progress, unit="deal",
                                  sizes=[b - a for _, a, b in todo])
    for s in finished:
        done[s["file"]] = s
    manifest["shards"] = [done[_shard_name(k)] for k, _, _ in jobs]
    _write_manifest(out, manifest)
    return manifest


def load(out_dir: str | os.PathLike[str]) -> dict[str, np.ndarray]:
    """Every shard of a finished :func:`generate` run, concatenated (the keys of the
    module doc); ``ValueError`` if the run is not complete or its manifest names a
    shard outside the run directory."""
    out = Path(out_dir)
    manifest = _read_manifest(out)
    if manifest is None:
        raise ValueError(f"{out} has no {MANIFEST}: not a chupai.rl.generate directory")
    root = out.resolve()
    for s in manifest["shards"]:
        if not isinstance(s.get("file"), str) or (root / s["file"]).resolve().parent != root:
            raise ValueError(f"{out}/{MANIFEST}: shard file {s.get('file')!r} is not a file of the run directory")
    total = sum(s["episodes"] for s in manifest["shards"] if _shard_ok(out / s["file"], s["episodes"]))
    if total != manifest["episodes"]:
        raise ValueError(f"{out} holds {total} of {manifest['episodes']} episodes: run generate again to finish it")
    parts: dict[str, list[np.ndarray]] = {}
    for s in manifest["shards"]:
        with np.load(out / s["file"]) as z:
            for key in z.files:
                parts.setdefault(key, []).append(z[key])
    return {key: np.concatenate(v) for key, v in parts.items()}
