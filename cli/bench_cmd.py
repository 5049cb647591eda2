"""`idiom bench [DIR|FILE...]`: original against accelerated binaries (BENCHMARKS.md §4)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table

from idl.errors import IdiomError
from matcher.expectations import read_program
from matcher.frontend import source_files
from measure.bench import CEILING_DIRECT, BenchRow, bench_programs

__all__ = ["register", "run"]

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="time original and accelerated binaries of corpus programs",
        description=(
            "For each program with expected idioms: median of --runs runs of the original "
            "(clang-22 -O2) and of the accelerated binary, outputs compared, the ceiling "
            "(the library called directly: the program's hand-written counterpart in direct/ "
            "beside it where there is one, else the runtime's calls replayed) and the device "
            "used. Exit 1 if an output differs."
        ),
    )
    parser.add_argument("paths", type=Path, nargs="*", default=[CORPUS], metavar="DIR|FILE")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--size", choices=("bench", "test"), default="bench", help="the corpus arguments to use"
    )
    parser.add_argument(
        "--no-polly", action="store_true", help="skip the clang -O3 + Polly build and its runs"
    )
    parser.add_argument("--json", dest="json_path", metavar="FILE", help="write rows (- = stdout)")
    parser.add_argument("--plot", type=Path, metavar="FILE.png", help="write a bar chart")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    paths = [p for p in source_files(args.paths) if _has_idioms(p)]
    if not paths:
        raise IdiomError("no program with expected idioms among the given paths")
    console = Console(highlight=False, stderr=args.json_path == "-")
    with console.status("") as status:
        rows = bench_programs(
            paths,
            runs=args.runs,
            size=args.size,
            polly=not args.no_polly,
            progress=lambda name: status.update(f"benchmarking {name}"),
        )
    console.print(_table(rows))
    if args.json_path:
        text = json.dumps([row.to_json() for row in rows], indent=2)
        if args.json_path == "-":
            sys.stdout.write(text + "\n")
        else:
            Path(args.json_path).write_text(text + "\n", encoding="utf-8")
    if args.plot:
        _plot(rows, args.plot)
    return 0 if all(row.outputs_equal for row in rows) else 1


def _has_idioms(path: Path) -> bool:
    return bool(read_program(path).expected)


def _table(rows: Sequence[BenchRow]) -> Table:
    table = Table(
        "program",
        "idioms replaced",
        "original s",
        "accelerated s",
        "speedup (95% interval)",
        "ceiling s",
        "vs ceiling",
        "polly s",
        "vs polly",
        "device",
        "outputs equal",
        title="idiom bench",
    )
    for row in rows:
        table.add_row(
            row.program,
            f"{row.idioms} ({row.replaced}/{row.found})",
            f"{row.original_s:.3f}",
            f"{row.accelerated_s:.3f}",
            _speedup_text(row),
            _ceiling_text(row),
            "-" if row.of_ceiling is None else f"{row.of_ceiling:.2f}x",
            _polly_text(row),
            "-" if row.vs_polly is None else f"{row.vs_polly:.2f}x",
            row.device,
            "yes" if row.outputs_equal else f"NO: {row.difference}",
        )
    return table


def _speedup_text(row: BenchRow) -> str:
    if row.speedup_interval is None:
        return f"{row.speedup:.2f}x"
    low, high = row.speedup_interval
    return f"{row.speedup:.2f}x ({low:.2f}-{high:.2f})"


def _polly_text(row: BenchRow) -> str:
    if row.polly_s is None:
        return "-"
    wrong = "" if row.polly_difference is None else " (output differs)"
    return f"{row.polly_s:.3f}{wrong}"


def _ceiling_text(row: BenchRow) -> str:
    if row.ceiling_s is None:
        return "-"
    if row.ceiling_from == CEILING_DIRECT:
        return f"{row.ceiling_s:.3f} direct"
    cold = "-" if row.replay_cold_s is None else f"{row.replay_cold_s:.3f}"
    return f"{row.ceiling_s:.3f} / {cold} replay (warm / cold)"


def _plot(rows: Sequence[BenchRow], path: Path) -> None:
    # matplotlib takes a second to import: only --plot pays for it.
    import matplotlib  # noqa: PLC0415

    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt  # noqa: PLC0415

    names = [row.program for row in rows]
    figure, axes = plt.subplots(figsize=(max(6.0, 0.45 * len(rows)), 4.5))
    axes.bar(range(len(rows)), [row.speedup for row in rows], color="tab:blue")
    axes.axhline(1.0, color="black", linewidth=0.8)
    axes.set_xticks(range(len(rows)), names, rotation=70, ha="right", fontsize=7)
    axes.set_yscale("log")
    axes.set_ylabel("speedup over clang-22 -O2 (log)")
    axes.set_title("idiom bench")
    figure.tight_layout()
    try:
        figure.savefig(path, dpi=120)
    except OSError as error:
        raise IdiomError(f"{path}: cannot write the plot: {error.strerror}") from error
    finally:
        plt.close(figure)
