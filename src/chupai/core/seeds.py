"""Every seed the library derives, each by one named recipe.

Every random function takes a seed or a numpy ``Generator``.  Where one seed must give
many (the deals of a match, the games of an arena, the tables of a ``VectorEnv``, the
workers of a search), they are derived here, by pure functions of the seed and the
item's number: the same on every machine, for any number of threads or processes.
Derived seeds are below ``2**63`` (:data:`DERIVED_LIMIT`: a non-negative int64, which
every engine and numpy take); a seed given by a user may be any int in ``[0, 2**64)``
and is read modulo ``2**64`` where a recipe hashes it.

>>> match_deal(5, 0) == match_deal(5, 0) != match_deal(5, 1)
True
>>> arena_game(7, 3) == arena_game(7, 3)
True
>>> all(0 <= s < DERIVED_LIMIT for s in spawn(9, 4))
True
"""
from __future__ import annotations

import numpy as np

from chupai.core.records import match_deal_seed, table_deal_seed

__all__ = [
    "DERIVED_LIMIT",
    "SEED_MASK",
    "arena_game",
    "draw",
    "fresh",
    "ladder_bots",
    "match_deal",
    "spawn",
    "stream",
    "table_deal",
]

#: derived and drawn seeds are below this (a non-negative int64; a seed given by a
#: user may be any int below chupai.core.validate.SEED_LIMIT, 2**64)
DERIVED_LIMIT = 1 << 63
#: the low 63 bits: a seed folded below :data:`DERIVED_LIMIT`
SEED_MASK = DERIVED_LIMIT - 1
_WORD = (1 << 64) - 1

#: the deal seed of deal ``episode`` of table ``table`` of a ``VectorEnv`` seeded with
#: ``seed``: a splitmix64 hash of the three computed in C (the compiled tables derive
#: it per deal without Python), below ``2**63``
table_deal = table_deal_seed


def fresh() -> int:
    """A seed from the operating system's entropy (for a caller that gave ``None``)."""
    return int(np.random.default_rng().integers(0, DERIVED_LIMIT))


def draw(gen: np.random.Generator) -> int:
    """A seed drawn from ``gen`` (a bot's or search's generator: one draw per seed)."""
    return int(gen.integers(0, DERIVED_LIMIT))


def match_deal(seed: int, index: int) -> int:
    """The seed of deal ``index`` (0, 1, ...) of a match seeded with ``seed``; also
    table ``index``'s match seed on the protocol server: numpy's
    ``SeedSequence([seed mod 2**64, index]).generate_state(1, uint64)`` below ``2**63``,
    computed in C (the compiled tables call it too, to deal a deal again)."""
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise TypeError(f"seed must be an int, not {type(seed).__name__}")
    if not isinstance(index, (int, np.integer)) or isinstance(index, bool):
        raise TypeError(f"index must be an int, not {type(index).__name__}")
    if not 0 <= index <= _WORD:
        raise ValueError(f"index must be an int in [0, 2**64), not {index}")
    return match_deal_seed(int(seed) & _WORD, index)


def ladder_bots(seed: int, deal: int, pair: int, side: int) -> int:
    """The bots' generator seed of ``deal`` of pair ``pair`` of a ladder seeded with
    ``seed``, seats swapped for ``side`` 1 (the deal itself is :func:`match_deal`'s)."""
    return int(np.random.SeedSequence([seed, deal, pair, side]).generate_state(1, np.uint64)[0])


def arena_game(seed: int, index: int) -> tuple[int, int]:
    """The deal (or match) seed and the bots' generator seed of game ``index`` of an
    arena run seeded with ``seed`` (both in ``[0, 2**64)``)."""
    deal, bots = np.random.SeedSequence([seed, index]).generate_state(2, dtype=np.uint64)
    return int(deal), int(bots)


def stream(seed: int, index: int) -> np.random.Generator:
    """The generator of item ``index`` of many seeded with ``seed`` (a ``VectorEnv``
    table's opponents, a server seat's bot): independent streams, one per index."""
    return np.random.default_rng(np.random.SeedSequence([seed & _WORD, index]))


def spawn(seed: int, k: int) -> list[int]:
    """``k`` independent seeds from ``seed`` (the workers of one parallel search)."""
    return [int(s.generate_state(1, np.uint64)[0] >> np.uint64(1)) for s in np.random.SeedSequence(seed).spawn(k)]
