"""Helpers every game's state machines (``Deal``, ``Match``) use: argument checks,
random generators, per-deal seeds, and the surface a match of deals shares.

>>> derive_seed(5, 0) == derive_seed(5, 0) != derive_seed(5, 1)
True
>>> check_seat(4, 4)
Traceback (most recent call last):
...
ValueError: player must be a seat 0-3, not 4
"""
from __future__ import annotations

from typing import Any

import numpy as np

from chupai.errors import IllegalActionError

__all__ = [
    "SEED_MASK",
    "DealSurface",
    "MatchSurface",
    "as_rng",
    "check_players",
    "check_rules",
    "check_seat",
    "check_seed",
    "derive_seed",
    "is_int",
]

#: seeds drawn or derived here are below 2**63 (non-negative int64)
SEED_MASK = (1 << 63) - 1


def is_int(x: Any) -> bool:
    """An int or a numpy integer, not a bool."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def check_seed(seed: Any) -> int:
    """The seed of a new state: ``seed`` as an int, or a fresh random one for ``None``."""
    if seed is None:
        return int(np.random.default_rng().integers(0, SEED_MASK))
    if not is_int(seed):
        raise ValueError(f"seed must be an int or None, not {seed!r}")
    return int(seed)


def check_rules(rules: Any, cls: type, game: str) -> Any:
    """``rules`` if it is a ``cls`` (``cls()`` for ``None``), else ``ValueError`` naming
    ``game``'s rules class."""
    if rules is None:
        return cls()
    if not isinstance(rules, cls):
        raise ValueError(f"rules must be a {game}.{cls.__name__}, not {type(rules).__name__}")
    return rules


def check_players(players: Any, low: int, high: int) -> int:
    """``players`` as an int if it is one of ``low..high``, else ``ValueError``."""
    if not is_int(players) or not low <= players <= high:
        raise ValueError(f"players must be an int {low}..{high}, not {players!r}")
    return int(players)


def check_seat(player: Any, players: int, what: str = "player") -> int:
    """``player`` as an int if it is a seat ``0..players-1``, else ``ValueError`` naming
    ``what`` it is (a player, the dealer, ...)."""
    if not is_int(player) or not 0 <= player < players:
        raise ValueError(f"{what} must be a seat 0-{players - 1}, not {player!r}")
    return int(player)


def as_rng(rng: Any) -> np.random.Generator:
    """A numpy ``Generator`` from a ``Generator`` (itself), an int seed or ``None``."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or is_int(rng):
        return np.random.default_rng(rng)
    raise ValueError(f"rng must be a numpy Generator, an int seed or None, not {rng!r}")


def derive_seed(seed: int, index: int) -> int:
    """The seed of deal ``index`` of a match with ``seed`` (deterministic, below 2**63)."""
    ss = np.random.SeedSequence([seed & ((1 << 64) - 1), index])
    return int(ss.generate_state(1, np.uint64)[0] & np.uint64(SEED_MASK))


class TensorViews:
    """The reinforcement-learning views of a state, delegating to :mod:`chupai.rl`."""

    __slots__ = ()

    def observation_tensor(self, player: int) -> Any:
        """The float32 observation of seat ``player`` (:func:`chupai.rl.observation_tensor`)."""
        from chupai.rl import observation_tensor

        return observation_tensor(self, player)

    def legal_actions_mask(self) -> Any:
        """The int8 mask of the legal action ids (:func:`chupai.rl.legal_actions_mask`)."""
        from chupai.rl import legal_actions_mask

        return legal_actions_mask(self)


class DealSurface(TensorViews):
    """The members every game's ``Deal`` shares, each written once here.

    A subclass holds ``_rules``, ``_seed`` (``None`` for a deal built from given cards),
    ``_history`` (the list of public events; its ``Deal`` docstring says what they are)
    and ``_core``, the compiled engine of the card play.  ``current_player`` and
    ``hand_sizes`` read ``_core``: a deal with a phase before its core exists (Guan
    Dan's tribute, Zheng Shangyou's exchange) overrides them.
    """

    __slots__ = ()

    @property
    def rules(self) -> Any:
        return self._rules

    @property
    def seed(self) -> int | None:
        """The seed of a random deal (``None`` for one built from given cards:
        ``from_hands``, ``from_cards``)."""
        return self._seed

    @property
    def current_player(self) -> int:
        """The seat to decide now; -1 once the deal is over."""
        return self._core.current

    @property
    def history(self) -> list[Any]:
        """Every public event, in order (a copy; the game's ``Deal`` docstring lists them)."""
        return list(self._history)

    def hand_sizes(self) -> tuple[int, ...]:
        return self._core.hand_sizes()


class MatchSurface(TensorViews):
    """The part of the state-machine surface a match of deals delegates to its deal.

    A subclass holds ``_rules``, ``_seed``, ``_deal`` (the current deal, the last one
    once over) and ``_past`` (the events of the finished deals), defines
    ``is_terminal()``, and ``_after_deal()``, called when the current deal ends (score
    it, deal the next one or end the match).
    """

    __slots__ = ()

    @property
    def rules(self) -> Any:
        return self._rules

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def deal(self) -> Any:
        """The current deal (the last one once over).  Apply actions through the match."""
        return self._deal

    @property
    def current_player(self) -> int:
        return -1 if self.is_terminal() else self._deal.current_player

    def legal_actions(self) -> list[Any]:
        return [] if self.is_terminal() else self._deal.legal_actions()

    def apply(self, action: Any) -> None:
        """Apply ``action`` to the current deal (``IllegalActionError``, state unchanged, if
        not legal); a deal that ends is scored and the next one dealt."""
        if self.is_terminal():
            raise IllegalActionError(f"{action!r}: the match is over")
        self._deal.apply(action)
        if self._deal.is_terminal():
            self._after_deal()

    def card_play(self) -> Any:
        """The compiled engine of the current deal (see the deal's ``card_play``), ``None``
        once the match is over."""
        return None if self.is_terminal() else self._deal.card_play()

    @property
    def history(self) -> list[Any]:
        """Every public event of every deal, in order (see the deal's ``history``)."""
        if self.is_terminal():
            return list(self._past)
        return list(self._past) + self._deal._history

    def determinize(self, player: int, rng: Any = None) -> Any:
        """A copy whose current deal is determinized (the match kept): see the deal's
        ``determinize``."""
        other = self.clone()
        if not self.is_terminal():
            other._deal = self._deal.determinize(player, rng)
        return other
