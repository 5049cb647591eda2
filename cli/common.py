"""Options and loading steps shared by the subcommands that read source files."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from matcher.frontend import CompileOptions, canonical_ir

if TYPE_CHECKING:
    from matcher.ir import Module

__all__ = ["add_frontend_options", "compile_options", "load_module"]


def add_frontend_options(
    parser: argparse.ArgumentParser,
    title: str = "compilation (passed to clang-22)",
    *,
    undefines: bool = False,
) -> None:
    """-I, -D (and -U when `undefines`), --std and -X, in a group named `title`."""
    group = parser.add_argument_group(title)
    group.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR")
    group.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]")
    if undefines:
        group.add_argument("-U", dest="undefines", action="append", default=[], metavar="NAME")
    group.add_argument("--std", help="language standard, e.g. c11 or c++17")
    group.add_argument(
        "-X",
        dest="extra_flags",
        action="append",
        default=[],
        metavar="FLAG",
        help="an extra clang flag (repeatable), e.g. -X=-fopenmp",
    )


def compile_options(args: argparse.Namespace) -> CompileOptions:
    return CompileOptions(
        include_dirs=tuple(args.include_dirs),
        defines=tuple(args.defines),
        std=args.std,
        extra_flags=tuple(args.extra_flags),
    )


def load_module(path: Path, options: CompileOptions) -> Module:
    """Front end then IR model; every failure is an `IdiomError` with the file named."""
    # Imported here: `idiom check`'s cached runs use these options and no IR model.
    from matcher.ir_builder import build_module  # noqa: PLC0415

    return build_module(canonical_ir(path, options), str(path))
