"""Cost of detection relative to `clang-22 -O2 -c` of the same file (BENCHMARKS.md §2).

    .venv/bin/python benchmarks/bench_detect.py [FILES or DIRS] [--runs N] [--top K]
                                                [--idioms DIR] [--no-pairs]

For each C/C++ file (default: every one in `corpus/`):
- clang: `clang-22 -O2 -c` alone;
- detect: what `matcher.pipeline.analyse_file` does, in this process: the front end
  (clang-22 + opt-22), the IR model and every exported idiom on every function;
- the ratio detect/clang, the target being a median of at most 1.5 and a worst of at
  most 3 (BENCHMARKS.md).
Both are the median of `--runs` runs, taken round-robin over the files so that a run of
one file is never timed right after itself. The idiom library is loaded and one file is
analysed before any timing (the cost of a process's first file: parsing the library and
compiling its programs to the solver's form, reported on its own as "warm-up").

A last pass splits each file's detection into front end, model and the solve of every
(idiom, function) pair, and lists the slowest pairs (steps, cut short or not), so that a
per-function cliff is visible. Prints figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from matcher.detect import DISTINCT
from matcher.frontend import (
    CXX_SUFFIXES,
    CompileOptions,
    canonical_ir,
    find_tool,
    source_files,
)
from matcher.ir_builder import build_module
from matcher.pipeline import analyse_file, load_library, paused_gc
from matcher.solver import solve

__all__ = ["main"]

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Pair:
    """One (idiom, function) solve of the breakdown pass."""

    seconds: float
    file: str
    function: str
    idiom: str
    steps: int
    exhausted: bool
    solutions: int


def sources(arguments: list[str]) -> list[Path]:
    return source_files([Path(a) for a in arguments] or [ROOT / "corpus"])


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def clang_compile(path: Path, output: Path) -> None:
    driver = find_tool("clang++" if path.suffix in CXX_SUFFIXES else "clang")
    subprocess.run([driver, "-O2", "-c", str(path), "-o", str(output)], check=True)


def breakdown(path: Path, idioms: tuple[str, ...]) -> tuple[float, float, list[Pair]]:
    """Front end and model times, and every pair's solve, as `detect_module` runs them."""
    programs = load_library(idioms).exported_programs()
    start = time.perf_counter()
    ir = canonical_ir(path)
    front = time.perf_counter() - start
    start = time.perf_counter()
    module = build_module(ir, str(path))
    model = time.perf_counter() - start
    pairs = []
    for function in module:
        for program in programs:
            start = time.perf_counter()
            result = solve(program, function, distinct=DISTINCT)
            seconds = time.perf_counter() - start
            pairs.append(
                Pair(
                    seconds,
                    path.name,
                    function.name,
                    program.name,
                    result.steps,
                    result.exhausted,
                    len(result.solutions),
                )
            )
    return front, model, pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--top", type=int, default=10, help="slowest pairs to list")
    parser.add_argument("--idioms", action="append", default=[], metavar="DIR")
    parser.add_argument("--no-pairs", action="store_true", help="skip the breakdown pass")
    args = parser.parse_args()
    files = sources(args.paths)
    if not files:
        parser.error("no C/C++ file given")
    idioms = tuple(args.idioms)
    options = CompileOptions()

    warm_up = timed(lambda: (load_library(idioms), analyse_file(str(files[0]), options, idioms)))
    print(f"warm-up (library load, compile, first file): {warm_up * 1e3:.0f}ms\n")

    clang: dict[Path, list[float]] = {path: [] for path in files}
    detect: dict[Path, list[float]] = {path: [] for path in files}
    with tempfile.TemporaryDirectory(prefix="idiom-bench-") as tmp:
        output = Path(tmp) / "out.o"
        for _ in range(args.runs):
            for path in files:
                clang[path].append(timed(lambda p=path: clang_compile(p, output)))
                detect[path].append(timed(lambda p=path: analyse_file(str(p), options, idioms)))

    split: dict[Path, tuple[float, float, float]] = {}
    pairs: list[Pair] = []
    if not args.no_pairs:
        for path in files:
            with paused_gc():  # as `analyse_file` runs (see `matcher.pipeline`)
                front, model, found = breakdown(path, idioms)
            split[path] = (front, model, sum(p.seconds for p in found))
            pairs += found

    columns = ("clang", "detect", "ratio", "front end", "model", "solve", "slowest pair")
    print(f"{'file':30} " + " ".join(f"{c:>9}" for c in columns[:-1]) + f"  {columns[-1]}")
    ratios = []
    by_ratio: dict[Path, float] = {}
    for path in files:
        c, d = statistics.median(clang[path]), statistics.median(detect[path])
        ratios.append(d / c)
        by_ratio[path] = d / c
        line = f"{path.name:30} {c * 1e3:7.1f}ms {d * 1e3:7.1f}ms {d / c:9.2f}"
        if path in split:
            front, model, solving = split[path]
            worst = max((p for p in pairs if p.file == path.name), key=lambda p: p.seconds)
            line += f" {front * 1e3:7.1f}ms {model * 1e3:7.1f}ms {solving * 1e3:7.1f}ms"
            line += f"  {worst.idiom}/{worst.function} {worst.seconds * 1e3:.1f}ms"
        print(line)

    print(f"\n{len(files)} files, median of {args.runs} runs each.")
    print(f"detect/clang: median {statistics.median(ratios):.2f}, worst {max(ratios):.2f}")
    worst = sorted(by_ratio, key=lambda p: -by_ratio[p])[:5]
    print("worst files: " + ", ".join(f"{p.name} {by_ratio[p]:.2f}" for p in worst))
    if pairs:
        total = sum(p.seconds for p in pairs)
        print(f"\nSlowest (idiom, function) pairs of {len(pairs)} ({total:.2f}s of solving):")
        for pair in sorted(pairs, key=lambda p: -p.seconds)[: args.top]:
            note = "  CUT SHORT" if pair.exhausted else ""
            print(
                f"  {pair.seconds * 1e3:8.1f}ms  {pair.idiom:10} {pair.file}:{pair.function}"
                f"  {pair.steps} steps, {pair.solutions} solutions{note}"
            )


if __name__ == "__main__":
    main()
