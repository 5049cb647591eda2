"""The wrapper's one-line messages on standard error."""

from __future__ import annotations

import os
import sys

__all__ = ["first_line", "note", "verbose", "warn"]


def warn(tool: str, message: str) -> None:
    print(f"{tool}: {message}", file=sys.stderr, flush=True)


def verbose() -> bool:
    return os.environ.get("IDIOM_CC_VERBOSE", "") not in ("", "0")


def note(tool: str, message: str) -> None:
    """A line shown only with IDIOM_CC_VERBOSE=1."""
    if verbose():
        warn(tool, message)


def first_line(error: BaseException) -> str:
    """An error's first non-empty line (clang's diagnostics follow on the next ones)."""
    for line in str(error).splitlines():
        if line.strip():
            return line.strip()
    return type(error).__name__
