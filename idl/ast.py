"""The syntax tree of an IDL file, as written (before any expansion).

Every node is a frozen dataclass carrying the `SourceSpan` where it starts. Spans do not
take part in equality or repr, so two trees that differ only in layout compare equal (this is
what the printer's round trip relies on).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from idl.errors import SourceSpan
from idl.program import AtomKind

__all__ = [
    "And",
    "Argument",
    "Atom",
    "BinOp",
    "Collect",
    "Default",
    "Expr",
    "ForAll",
    "ForSome",
    "ForValue",
    "Formula",
    "If",
    "Inherits",
    "Int",
    "Module",
    "Name",
    "Or",
    "Part",
    "Rename",
    "RenamePair",
    "Specification",
    "Variable",
]


# Index expressions -----------------------------------------------------------------


@dataclass(frozen=True)
class Int:
    value: int
    span: SourceSpan | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Name:
    """A parameter or an iteration index used in an expression."""

    name: str
    span: SourceSpan | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class BinOp:
    op: Literal["+", "-"]
    left: Expr
    right: Expr
    span: SourceSpan | None = field(default=None, compare=False, repr=False)


Expr = Int | Name | BinOp


# Variables -------------------------------------------------------------------------


@dataclass(frozen=True)
class Part:
    """One component of a variable path: `for[i+1]` is name `for` with one index."""

    name: str
    indexes: tuple[Expr, ...] = ()
    span: SourceSpan | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Variable:
    parts: tuple[Part, ...]
    span: SourceSpan | None = field(default=None, compare=False, repr=False)


# Formulas --------------------------------------------------------------------------


@dataclass(frozen=True)
class Atom:
    """One atomic constraint. `detail`: the opcode as written, or a 0-based position."""

    kind: AtomKind
    variables: tuple[Variable, ...]
    detail: str | int | None = None
    span: SourceSpan | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class And:
    parts: tuple[Formula, ...]
    span: SourceSpan | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Or:
    parts: tuple[Formula, ...]
    span: SourceSpan | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class RenamePair:
    """`with {caller} as {callee}`: the callee's variable becomes the caller's."""

    caller: Variable
    callee: Variable
    span: SourceSpan | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Rename:
    """The `with ... as ... and ... at {prefix}` suffix."""

    pairs: tuple[RenamePair, ...] = ()
    prefix: Variable | None = None
    span: SourceSpan | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Argument:
    """`P=e` in `inherits S(P=e)`."""

    name: str
    value: Expr
    span: SourceSpan | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Inherits:
    name: str
    arguments: tuple[Argument, ...] = ()
    rename: Rename | None = None
    span: SourceSpan | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class ForAll:
    """`body for all index=start..stop` (half-open), joined by `and`."""

    body: Formula
    index: str
    start: Expr
    stop: Expr
    rename: Rename | None = None
    span: SourceSpan | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class ForSome:
    """`body for some index=start..stop` (half-open), joined by `or`."""

    body: Formula
    index: str
    start: Expr
    stop: Expr
    rename: Rename | None = None
    span: SourceSpan | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class ForValue:
    """`body for index=value`."""

    body: Formula
    index: str
    value: Expr
    rename: Rename | None = None
    span: SourceSpan | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class If:
    """`if left=right then then_ else else_ endif`, decided at expansion time."""

    left: Expr
    right: Expr
    then_: Formula
    else_: Formula
    span: SourceSpan | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Collect:
    """`collect index count [keeping v, ...] body`; `keeping` empty: every variable of
    the body that changes with the index is a slot variable."""

    index: str
    count: Expr
    body: Formula
    span: SourceSpan | None = field(default=None, compare=False, repr=False)
    keeping: tuple[Variable, ...] = ()


Formula = Atom | And | Or | Inherits | ForAll | ForSome | ForValue | If | Collect


# Specifications --------------------------------------------------------------------


@dataclass(frozen=True)
class Default:
    """`for name=value if not otherwise specified`."""

    name: str
    value: int
    span: SourceSpan | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Specification:
    name: str
    formula: Formula
    defaults: tuple[Default, ...] = ()
    exported: bool = False
    span: SourceSpan | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Module:
    """One `.idl` file."""

    filename: str
    specifications: tuple[Specification, ...] = ()
    span: SourceSpan | None = field(default=None, compare=False, repr=False)
