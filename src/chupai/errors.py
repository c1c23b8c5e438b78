"""Exceptions shared by every game."""

__all__ = ["IllegalActionError"]


class IllegalActionError(ValueError):
    """An action that is not legal in the current state; the state is unchanged."""
