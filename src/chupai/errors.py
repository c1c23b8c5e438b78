"""Exceptions shared by every game."""

__all__ = ["ActionTypeError", "IllegalActionError", "ReplayError"]


class IllegalActionError(ValueError):
    """An action that is not legal in the current state; the state is unchanged."""


class ActionTypeError(IllegalActionError, TypeError):
    """An object that is no action of this game (a ``Play`` of another game, a string,
    ...): a ``TypeError`` and, being refused like any illegal action with the state
    unchanged, an :class:`IllegalActionError`.  The message names the game and the
    action classes expected."""


class ReplayError(RuntimeError):
    """Replaying a deal's own public history from its actual cards did not reproduce
    it: a bug in the state machine, never a property of the deal."""
