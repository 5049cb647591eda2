"""`idiom explain FILE --idiom NAME --function F [--line L]`: why an idiom did not match.

For idiom authors: names the first constraint of the idiom's expanded program that
leaves no solution in the function (at the loop of line L, if given), with the IDL
file and line it comes from. A function that was inlined (the name `idiom detect`
reports for its loops) is explained in the functions it was inlined into, over its own
loops there.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cli.common import add_frontend_options, compile_options, load_module
from idl.errors import IdiomError
from idl.program import Program
from matcher.explain import explain
from matcher.inlining import inlined_hosts, no_such_function
from matcher.ir import Function
from matcher.pipeline import load_library

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "explain",
        help="say which constraint of an idiom fails on a function",
        description="Solve the idiom's top-level constraints one prefix at a time and "
        "report the first one that leaves no solution.",
    )
    parser.add_argument("file", type=Path)
    parser.add_argument("--idiom", required=True, help="an exported or building-block spec")
    parser.add_argument("--function", required=True, help="IR or source name")
    parser.add_argument("--line", type=int, help="only solutions whose loop is on this line")
    parser.add_argument("--idioms", action="append", default=[], metavar="DIR")
    add_frontend_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    library = load_library(tuple(str(d) for d in args.idioms))
    if args.idiom not in library.names:
        raise IdiomError(f"no specification '{args.idiom}' in the idiom library")
    module = load_module(args.file, compile_options(args))
    program = library.compile(args.idiom)
    function = module.function(args.function)
    if function is not None:
        _explain(args, program, function, function.source_name, None)
        return 0
    hosts = inlined_hosts(module, args.function)
    if not hosts:
        raise no_such_function(module, args.function, str(args.file))
    names = ", ".join(host.source_name for host in hosts)
    print(f"{args.function} was inlined into {names}; explaining there")
    for host in hosts:
        subject = f"{args.function} (inlined into {host.source_name})"
        _explain(args, program, host, subject, args.function)
    return 0


def _explain(
    args: argparse.Namespace,
    program: Program,
    function: Function,
    subject: str,
    source_function: str | None,
) -> None:
    where = f" at line {args.line}" if args.line else ""
    result = explain(program, function, args.line, source_function=source_function)
    if result.matched:
        print(f"{args.idiom} matches {subject}{where}")
        return
    print(
        f"{args.idiom} does not match {subject}{where}: constraint "
        f"{(result.failing_part or 0) + 1} of {result.parts} leaves no solution "
        f"({result.survivors} before it):"
    )
    print(f"  {result.description}")
