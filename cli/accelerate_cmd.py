"""`idiom accelerate FILE... -o BIN`: the program rebuilt with its idioms replaced."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.table import Table

from cli.common import add_frontend_options, compile_options
from mappers.accelerate import Accelerated, accelerate

__all__ = ["print_report", "register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "accelerate",
        help="build the program with its idioms replaced by library calls",
        description=(
            "Compile C/C++ (or LLVM IR) files, replace every idiom that can be replaced by a "
            "guarded call (BLAS, OpenCL; the original code stays as the fallback) and link "
            "an executable. Environment at run time: IDIOM_DEVICE=auto|cpu|gpu|off."
        ),
    )
    parser.add_argument("files", type=Path, nargs="+", metavar="FILE")
    parser.add_argument("-o", dest="output", type=Path, required=True, metavar="BIN")
    parser.add_argument(
        "--emit-llvm", action="store_true", help="write the rewritten IR instead of a binary"
    )
    parser.add_argument(
        "--report", action="store_true", help="list what was replaced, and why not otherwise"
    )
    parser.add_argument(
        "--no-reassociate",
        dest="reassociate",
        action="store_false",
        help="only replacements that keep every floating-point result: no floating-point "
        "reductions, histograms or BLAS calls, and no kernel calling exp, log, sin, pow or "
        "another math function a device may round its own way (the output is then the "
        "original's to the bit)",
    )
    parser.add_argument("--idioms", action="append", default=[], metavar="DIR")
    parser.add_argument(
        "-l", dest="libraries", action="append", default=[], metavar="LIB", help="link a library"
    )
    add_frontend_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    console = Console(highlight=False, stderr=False)
    built = accelerate(
        args.files,
        args.output,
        compile_options(args),
        tuple(args.idioms),
        emit_llvm=args.emit_llvm,
        reassociate=args.reassociate,
        link_flags=[f"-l{name}" for name in args.libraries],
    )
    if args.report:
        print_report(console, built)
    found = sum(len(unit.outcomes) for unit in built.units)
    if found == 0:
        console.print(f"{args.output}: built; no idiom found, the program is unchanged")
    else:
        console.print(
            f"{args.output}: built; {found} idiom instance(s) found, {built.replaced} replaced"
            + ("" if args.report else " (--report for details)")
        )
    for unit in built.units:
        for cut in unit.cut_short:
            console.print(f"[yellow]warning[/yellow]: {cut.message}")
        for outcome in unit.outcomes:
            if outcome.internal_error:
                where = f"{Path(outcome.instance.source_file).name}:{outcome.instance.lines}"
                console.print(f"[yellow]warning[/yellow]: {where}: {outcome.detail}")
    if built.residency_refused is not None:
        console.print(
            f"note: {built.residency_refused}: arrays are copied to the device and back at "
            "every launch (no residency)"
        )
    return 0


def print_report(console: Console, built: Accelerated) -> None:
    table = Table("file", "function", "lines", "idiom", "replaced", "by / why not", title="Report")
    for unit in built.units:
        for outcome in unit.outcomes:
            instance = outcome.instance
            table.add_row(
                Path(instance.source_file).name,
                instance.function,
                instance.lines,
                instance.idiom,
                "yes" if outcome.replaced else "no",
                outcome.detail,
            )
    console.print(table)
