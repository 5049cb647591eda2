"""`idiom idl check FILE...` and `idiom idl show NAME`: for idiom authors."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from idl.errors import IdlError
from idl.library import DEFAULT_FOLDER, Library, read_sources
from idl.printer import program_text

__all__ = ["register", "run_check", "run_show"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "idl",
        help="check IDL files and show compiled idioms",
        description="Tools for idiom authors: check .idl files, show a compiled specification.",
    )
    commands = parser.add_subparsers(dest="idl_command", metavar="ACTION", required=True)

    check = commands.add_parser(
        "check",
        help="parse and compile every specification of the given files",
        description="Parse and compile every specification; print every error found. The "
        "shipped idiom library is loaded too, so a file may inherit its building blocks.",
    )
    check.add_argument("paths", nargs="+", type=Path, metavar="FILE", help=".idl file or folder")
    _add_library_options(check, with_lib=False)
    check.set_defaults(handler=run_check)

    show = commands.add_parser(
        "show",
        help="print the expanded constraint program of one specification",
        description="Print a specification after expansion: variables, atoms, and/or "
        "structure and counts.",
    )
    show.add_argument("name", help="the specification to show")
    show.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="P=VALUE",
        help="set a parameter (repeatable), e.g. --param N=3",
    )
    _add_library_options(show, with_lib=True)
    show.set_defaults(handler=run_show)


def _add_library_options(parser: argparse.ArgumentParser, *, with_lib: bool) -> None:
    if with_lib:
        parser.add_argument(
            "--lib",
            action="append",
            default=[],
            type=Path,
            metavar="PATH",
            help="also load this .idl file or folder (repeatable)",
        )
    parser.add_argument(
        "--no-default",
        action="store_true",
        help="do not load the shipped idiom library (idl/idioms)",
    )


def _sources(paths: list[Path], no_default: bool) -> dict[str, str]:
    """Texts of the given paths, with the shipped library first unless told otherwise."""
    roots = paths if no_default else [DEFAULT_FOLDER, *paths]
    return read_sources(roots)


def run_check(args: argparse.Namespace) -> int:
    own = {Path(name).resolve() for name in read_sources(args.paths)}
    library, errors = Library.checked(_sources(args.paths, args.no_default))
    for error in errors:
        print(error, file=sys.stderr)
    if errors:
        plural = "s" if len(errors) > 1 else ""
        print(f"idiom: {len(errors)} error{plural} in IDL", file=sys.stderr)
        return 1
    own_specs = [n for n in library.names if _file_of(library, n) in own]
    exported = [n for n in own_specs if n in library.exported_names]
    print(
        f"ok: {len(own)} file{'s' if len(own) != 1 else ''}, {len(own_specs)} specifications "
        f"({len(exported)} exported) parse and compile; library of {len(library.names)}"
    )
    return 0


def _file_of(library: Library, name: str) -> Path | None:
    span = library.specification(name).span
    return Path(span.file).resolve() if span is not None else None


def _parameters(values: list[str]) -> dict[str, int]:
    parameters: dict[str, int] = {}
    for text in values:
        name, equals, value = text.partition("=")
        try:
            number = int(value)
        except ValueError:
            number = None
        if not equals or not name.strip() or number is None:
            raise IdlError(f"--param {text}: expected NAME=INTEGER, e.g. --param N=3")
        parameters[name.strip()] = number
    return parameters


def run_show(args: argparse.Namespace) -> int:
    parameters = _parameters(args.param)
    library = Library.from_texts(_sources(args.lib, args.no_default))
    print(program_text(library.compile(args.name, parameters)))
    return 0
