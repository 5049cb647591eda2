"""`idiom demo [FILE]`: the README's main job, on a default corpus program.

For now it shows what the IR model sees: each function of the program with its loops,
their nesting and their source lines. Detection and acceleration extend it as they land.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from cli.common import add_frontend_options, compile_options, load_module
from matcher.summary import summarize_loops

__all__ = ["DEFAULT_PROGRAM", "register", "run"]

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
DEFAULT_PROGRAM = CORPUS / "gemm_dot_2d.c"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="run the main job on a corpus program (default: a GEMM in legacy C)",
    )
    parser.add_argument("file", type=Path, nargs="?", default=DEFAULT_PROGRAM)
    add_frontend_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    console = Console(highlight=False)
    started = time.perf_counter()
    module = load_module(args.file, compile_options(args))
    elapsed = time.perf_counter() - started
    console.print(
        f"[bold]{args.file}[/bold]: {len(module.functions)} functions, "
        f"analysed in {elapsed:.2f} s (clang-22 front end and IR model)"
    )
    table = Table("function", "loop", "depth", "blocks", "source", title="Loops in the IR model")
    for function in module:
        for loop in summarize_loops(function):
            table.add_row(
                function.source_name, loop.header, str(loop.depth), str(loop.blocks), loop.lines
            )
    console.print(table)
    return 0
