"""`idiom demo [FILE]`: the README's main job, on a default corpus program.

It shows what the tool sees in the program (its loops, the idioms found with their key
facts), then builds the accelerated program, says what replaced each idiom, runs the
original and the accelerated binary at the program's benchmark size, compares their
outputs and prints the speedup measured.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from cli.accelerate_cmd import print_report
from cli.common import add_frontend_options, compile_options, load_module
from mappers.accelerate import Accelerated, rewrite_file
from matcher.detect import detect_module
from matcher.expectations import ExpectationError, read_program
from matcher.pipeline import exported_programs
from matcher.summary import summarize_loops
from measure.bench import CEILING_DIRECT, bench_program

__all__ = ["DEFAULT_PROGRAM", "register", "run"]

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
DEFAULT_PROGRAM = CORPUS / "gemm_dot_global.c"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="run the main job on a corpus program (default: a GEMM in legacy C)",
    )
    parser.add_argument("file", type=Path, nargs="?", default=DEFAULT_PROGRAM)
    parser.add_argument("--runs", type=int, default=3, help="timed runs of each binary")
    add_frontend_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    console = Console(highlight=False)
    started = time.perf_counter()
    module = load_module(args.file, compile_options(args))
    report = detect_module(module, list(exported_programs()))
    elapsed = time.perf_counter() - started
    console.print(
        f"[bold]{args.file}[/bold]: {len(module.functions)} functions, "
        f"analysed in {elapsed:.2f} s (clang-22 front end, IR model, idiom detection)"
    )
    loops = Table("function", "loop", "depth", "blocks", "source", title="Loops")
    for function in module:
        for loop in summarize_loops(function):
            loops.add_row(
                function.source_name, loop.header, str(loop.depth), str(loop.blocks), loop.lines
            )
    console.print(loops)
    found = Table("function", "lines", "idiom", "facts", "note", title="Idioms found")
    for instance in report.instances:
        facts = "; ".join(f"{key}: {value}" for key, value in instance.facts)
        note = f"inside {instance.within}" if instance.within else ""
        found.add_row(instance.function, instance.lines, instance.idiom, facts, note)
    console.print(found)
    for cut in report.cut_short:
        console.print(f"[yellow]warning[/yellow]: {cut.message}")
    if not _is_corpus_program(args.file):
        # No arguments to run it with (and maybe no main): show the replacements only.
        _, unit = rewrite_file(args.file, compile_options(args))
        print_report(console, Accelerated(args.file, (unit,)))
        console.print("not timed: the file has no `// args:` line (see corpus/README.md)")
        return 0
    console.print("Building the accelerated program and timing it against the original...")
    row = bench_program(args.file, runs=args.runs, size="bench", polly=False)
    print_report(console, Accelerated(args.file, row.units))
    console.print(
        f"original (clang-22 -O2): {row.original_s:.3f} s, accelerated: {row.accelerated_s:.3f} s"
        f" (median of {args.runs}), speedup [bold]{row.speedup:.1f}x[/bold], device: {row.device}"
    )
    if row.ceiling_s is not None and row.of_ceiling is not None:
        how = "cblas called by hand" if row.ceiling_from == CEILING_DIRECT else "calls replayed"
        console.print(
            f"ceiling ({how}): {row.ceiling_s:.3f} s; the accelerated program runs at"
            f" {row.of_ceiling:.2f}x of it"
        )
    if row.outputs_equal:
        console.print("outputs: [green]equal[/green] (every run compared with the original's)")
        return 0
    console.print(f"outputs: [red]DIFFERENT[/red]: {row.difference}")
    return 1


def _is_corpus_program(path: Path) -> bool:
    try:
        read_program(path)
    except ExpectationError:
        return False
    return True
