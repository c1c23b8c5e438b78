"""Dealing hidden cards uniformly under constraints, for ``determinize``.

Every game's ``determinize`` re-deals the cards a player cannot see to the other hands
with their exact sizes; public history may forbid some faces to some hands (a payer
holds nothing above their tribute, ...).  The games deal in C
(:mod:`chupai.engine.determinize`, from the masks :func:`must_masks` completes); the Python
:func:`deal_hidden` and :func:`redeal_and_replay` are the slow reference path that
replays the public history from each draw (the games' ``_determinize_replay``, used by
the tests and ``bench/determinize.py``).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

import numpy as np

from chupai.cards import Cards
from chupai.errors import ReplayError

__all__ = ["Ties", "deal_hidden", "must_masks", "redeal_and_replay"]

#: per payment that was a decision (a tied suit chosen): the payer, the mask of the
#: other faces of its rank, and the tied cards it held when it paid
Ties = tuple[tuple[int, int, Cards], ...]

T = TypeVar("T")
#: after this many rejected draws, check that the actual cards replay (a bug otherwise)
_CHECK_AFTER = 64

_FACT = [math.factorial(n) for n in range(109)]


def must_masks(ties: Ties, player: int, seats: int, hidden: Callable[[int], Cards]) -> tuple[int, ...]:
    """The per-seat ``must`` masks of :func:`chupai.engine.determinize.deal` (see there what a
    must mask asks of a hand) for the cards hidden from ``player``: a payer who chose
    among tied suits held another one then; if every tied card it held is still hidden
    (``hidden(seat)``: its cards not publicly known), one of the tied faces must be
    among its hidden cards in a world (else the one played or known proves it already)."""
    must = [0] * seats
    for payer, tied, held in ties:
        if payer != player and held <= hidden(payer):
            must[payer] = tied
    return tuple(must)


def _multinomial(parts: Sequence[int]) -> int:
    out = _FACT[sum(parts)]
    for k in parts:
        out //= _FACT[k]
    return out


def _splits(n: int, caps: Sequence[int]) -> Iterable[tuple[int, ...]]:
    """Every way to write ``n`` as ``len(caps)`` parts with part ``j`` at most ``caps[j]``."""
    if len(caps) == 1:
        if n <= caps[0]:
            yield (n,)
        return
    rest = sum(caps[1:])
    for k in range(max(0, n - rest), min(n, caps[0]) + 1):
        for tail in _splits(n - k, caps[1:]):
            yield (k,) + tail


def deal_hidden(
    pool: list[int], need: list[int], forbidden: list[set[int]], rng: np.random.Generator
) -> list[list[int]] | None:
    """Deal the cards ``pool`` (one entry per copy) uniformly to hands of sizes ``need``.

    Hand ``j`` may not receive a face in ``forbidden[j]``.  Uniform over all such deals
    (the copies treated as distinct, as a shuffle deals them); ``None`` if there is none.
    Cards are grouped by the set of hands that may take them; the constrained groups
    are split by weight (exact counts), the unconstrained rest fills what remains.
    """
    m = len(need)
    groups: dict[tuple[int, ...], list[int]] = {}
    for f in pool:
        allowed = tuple(j for j in range(m) if f not in forbidden[j])
        if not allowed:
            return None
        groups.setdefault(allowed, []).append(f)
    free = groups.pop(tuple(range(m)), [])
    cons = sorted(groups.items())
    memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def count(i: int, caps: tuple[int, ...]) -> int:
        if i == len(cons):
            return _multinomial(caps) if sum(caps) == len(free) else 0
        key = (i, caps)
        if key not in memo:
            allowed, faces = cons[i]
            total = 0
            for split in _splits(len(faces), [caps[j] for j in allowed]):
                nc = list(caps)
                for j, k in zip(allowed, split):
                    nc[j] -= k
                total += _multinomial(split) * count(i + 1, tuple(nc))
            memo[key] = total
        return memo[key]

    caps = tuple(need)
    if sum(caps) != len(pool) or count(0, caps) == 0:
        return None
    hands: list[list[int]] = [[] for _ in range(m)]
    for i, (allowed, faces) in enumerate(cons):
        options = []
        for split in _splits(len(faces), [caps[j] for j in allowed]):
            nc = list(caps)
            for j, k in zip(allowed, split):
                nc[j] -= k
            w = _multinomial(split) * count(i + 1, tuple(nc))
            if w:
                options.append((w, split, list(nc)))
        total = sum(w for w, _, _ in options)
        r = int(rng.integers(0, 1 << 62)) * total >> 62  # uniform in [0, total)
        for w, split, nc in options:
            if r < w:
                break
            r -= w
        perm = [faces[k] for k in rng.permutation(len(faces))]
        at = 0
        for j, k in zip(allowed, split):
            hands[j].extend(perm[at:at + k])
            at += k
        caps = tuple(nc)
    perm = [free[k] for k in rng.permutation(len(free))]
    at = 0
    for j in range(m):
        hands[j].extend(perm[at:at + caps[j]])
        at += caps[j]
    return hands


def redeal_and_replay(
    pool: list[int],
    need: list[int],
    forbidden: list[set[int]],
    rng: np.random.Generator,
    replay: Callable[[list[list[int]]], T | None],
    actual: list[list[int]],
    *,
    max_tries: int = 10000,
) -> T:
    """The determinize skeleton of the games whose public history constrains the hidden
    cards (Guan Dan's tribute, Zheng Shangyou's exchange).

    Deal the ``pool`` to hands of sizes ``need`` (:func:`deal_hidden`) and ``replay``
    the public history from each draw until one reproduces it (``replay`` returns
    ``None`` when the draw is inconsistent with a public event).  ``actual`` is the real
    split of the hidden cards: if the history forbids it, or it does not replay, the
    state machine has a bug, and :class:`~chupai.errors.ReplayError` says so at once
    instead of drawing ``max_tries`` times in vain.
    """
    for j, cards in enumerate(actual):
        bad = sorted(set(cards) & forbidden[j])
        if bad:
            raise ReplayError(f"the public history rules out faces {bad} that hidden hand {j} actually holds")
    for tries in range(max_tries):
        split = deal_hidden(pool, need, forbidden, rng)
        if split is None:
            break
        new = replay(split)
        if new is not None:
            return new
        if tries + 1 == _CHECK_AFTER and replay(actual) is None:
            break
    if replay(actual) is None:
        raise ReplayError("the deal's own hidden cards do not replay to its public history")
    raise RuntimeError(f"no deal consistent with the observation was found in {max_tries} draws")
