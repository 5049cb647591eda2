"""The Lift compiler's error, a kind of the tool's root error."""

from __future__ import annotations

from idl.errors import IdiomError

__all__ = ["LiftError"]


class LiftError(IdiomError):
    """An expression that is ill-typed, cannot be parsed, or cannot be lowered or
    generated; the message says where."""
