"""IDL, the Idiom Description Language: grammar, parser, AST and compiler.

    library = Library.from_paths(["idl/idioms"])
    program = library.compile("Reduction")

`parse_text`/`parse_file` give the AST (`idl.ast`); `Library` compiles specifications to
constraint programs (`idl.program`). Every mistake in IDL text is an `IdlError`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from idl.errors import IdiomError, IdlError, SourceSpan
    from idl.library import Library, default_library
    from idl.parser import parse_file, parse_text
    from idl.program import (
        Atom,
        AtomKind,
        Collect,
        Conjunction,
        Disjunction,
        Formula,
        Program,
    )

# Loaded on first use: `from idl.errors import IdiomError` (every command's entry point)
# must not load the parser and compiler.
_HOMES = {
    "IdiomError": "idl.errors",
    "IdlError": "idl.errors",
    "SourceSpan": "idl.errors",
    "Library": "idl.library",
    "default_library": "idl.library",
    "parse_file": "idl.parser",
    "parse_text": "idl.parser",
    **dict.fromkeys(
        ("Atom", "AtomKind", "Collect", "Conjunction", "Disjunction", "Formula", "Program"),
        "idl.program",
    ),
}


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'idl' has no attribute '{name}'")
    return getattr(importlib.import_module(home), name)


__all__ = [
    "Atom",
    "AtomKind",
    "Collect",
    "Conjunction",
    "Disjunction",
    "Formula",
    "IdiomError",
    "IdlError",
    "Library",
    "Program",
    "SourceSpan",
    "default_library",
    "parse_file",
    "parse_text",
]
