"""`idiom eval [DIR]`: detection quality on a corpus, per idiom kind."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.table import Table

from cli.common import add_frontend_options
from cli.detect_cmd import run_detection
from matcher.evaluate import ProgramScore, score_program, total_by_kind
from matcher.expectations import read_program
from matcher.frontend import source_files

__all__ = ["register", "run"]

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "eval",
        help="score detection against a corpus's expected idioms",
        description="Exit 0 when every expected idiom is found and nothing else is.",
    )
    parser.add_argument("directory", type=Path, nargs="?", default=CORPUS)
    parser.add_argument("--idioms", action="append", default=[], metavar="DIR")
    parser.add_argument("--jobs", type=int, default=None)
    add_frontend_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    paths = source_files([args.directory])
    programs = [read_program(p) for p in paths]
    results = run_detection(args, [str(p) for p in paths])
    console = Console(highlight=False)
    scores: list[ProgramScore] = []
    for program, result in zip(programs, results, strict=True):
        if result.error:
            console.print(f"[red]error[/red]: {result.error}")
            continue
        scores.append(score_program(program, result.instances))
    totals = total_by_kind(scores)
    table = Table(
        "idiom",
        "found",
        "expected",
        "false positives",
        "misses",
        title=f"Detection on {args.directory} ({len(paths)} programs)",
    )
    for kind, total in totals.items():
        table.add_row(
            kind,
            str(total.found),
            str(total.expected),
            str(total.false_positives),
            str(total.misses),
        )
    console.print(table)
    for score in scores:
        name = score.program.path.name
        for expectation in score.misses:
            console.print(
                f"miss: {name}:{expectation.line}: {expectation.kind} in {expectation.function}"
            )
        for instance in score.false_positives:
            console.print(
                f"false positive: {name}:{instance.line}: {instance.idiom} in {instance.function}"
            )
    for result in results:
        for cut in result.cut_short:
            console.print(f"[yellow]warning[/yellow]: {Path(result.path).name}: {cut.message}")
    failed = any(r.error for r in results) or any(not s.perfect for s in scores)
    return 1 if failed else 0
