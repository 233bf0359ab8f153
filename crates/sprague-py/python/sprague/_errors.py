"""The exceptions of sprague. Every failure of the engine is one of these, never a crash."""

__all__ = [
    "SpragueError",
    "SpecError",
    "TooLargeError",
    "UnsupportedError",
    "ScriptError",
    "StoreError",
]


class SpragueError(Exception):
    """Base class of every error sprague raises."""


class SpecError(SpragueError, ValueError):
    """A game spec or a position that does not parse, e.g. ``sub:1,x`` or ``kayles -3``."""


class TooLargeError(SpragueError):
    """The request is well formed but past a size, memory or time bound of the engine."""


class UnsupportedError(SpragueError):
    """The game does not support what was asked (e.g. a table of a game that is not a heap game)."""


class ScriptError(SpragueError):
    """An error in a game script (``script:PATH``), with its file, line and column."""


class StoreError(SpragueError):
    """A file of the solution store could not be read or written, or was refused as damaged."""
