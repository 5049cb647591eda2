"""IDL, the Idiom Description Language: grammar, parser, AST and compiler.

    library = Library.from_paths(["idl/idioms"])
    program = library.compile("Reduction")

`parse_text`/`parse_file` give the AST (`idl.ast`); `Library` compiles specifications to
constraint programs (`idl.program`). Every mistake in IDL text is an `IdlError`.
"""

from __future__ import annotations

from idl.errors import IdiomError, IdlError, SourceSpan
from idl.library import Library, default_library
from idl.parser import parse_file, parse_text
from idl.program import Atom, AtomKind, Collect, Conjunction, Disjunction, Formula, Program

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
