"""The project's one root exception type, and the IDL author's error.

`idl` is the bottom layer (it imports nothing of ours), so the root exception lives here
and every other package derives its errors from `IdiomError`. The CLI catches
`IdiomError` and prints its message: no traceback reaches the user.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["IdiomError", "IdlError", "SourceSpan"]


class IdiomError(Exception):
    """Root of every error the tool reports to a user (message only, no traceback)."""


@dataclass(frozen=True)
class SourceSpan:
    """A position in an `.idl` file: 1-based line and column."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class IdlError(IdiomError):
    """A mistake in an IDL file, reported as `file:line:col: message`, the line and a caret."""

    def __init__(self, message: str, span: SourceSpan | None = None, source_line: str = "") -> None:
        self.message = message
        self.span = span
        self.source_line = source_line
        super().__init__(self.render())

    def render(self) -> str:
        if self.span is None:
            return self.message
        text = f"{self.span}: {self.message}"
        if self.source_line:
            caret = " " * (self.span.column - 1) + "^"
            text += f"\n  {self.source_line.rstrip()}\n  {caret}"
        return text
