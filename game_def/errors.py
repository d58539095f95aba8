"""Errors raised for bad input: each names the bad value and what would be accepted."""


class RobinWoodError(ValueError):
    """Base class: a user-facing problem with a one-line explanation."""


class VariantError(RobinWoodError):
    """A variant (deck, players, options, layout) that cannot be played."""


class IllegalActionError(RobinWoodError):
    """An action string that is not legal in the current state."""
