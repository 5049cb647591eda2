"""Cost of detection relative to `clang-22 -O2 -c` of the same file (BENCHMARKS.md §2).

    .venv/bin/python benchmarks/bench_detect.py [FILES or DIRS] [--runs N] [--top K]
                                                [--idioms DIR] [--no-pairs]

For each C/C++ file (default: every one in `corpus/`), each the median of `--runs` runs:
- clang: `clang-22 -O2 -c` alone, a whole invocation;
- served: `idiom detect FILE`, a whole invocation as a user runs it, process start
  included, answered by the warm server (cli/server.py) that the first command starts;
- alone: the same invocation with `IDIOM_SERVER=0`, each command in its own process,
  the compiled library read from the disk cache (matcher/library_cache.py); seconds
  each, so `--alone-runs` of them (default 1; 0 leaves them out);
- in-process: what `matcher.pipeline.analyse_file` does inside this process once the
  library is loaded (the front end, clang-22 + opt-22, the IR model, every idiom);
- `--pause SECONDS` after each file's timings, as a person leaves between commands
  (the server learns the plans of the files it was asked about meanwhile); by default
  the runs follow each other at once, as a script's would;
- the ratios to clang, the target being a median of at most 1.5 and a worst of at most 3
  (BENCHMARKS.md) for the invocation a user gets after the first (served); the served
  ratios of each file's first invocation are printed apart, since between commands the
  server learns the search plans of the files it was asked about.
Runs go round-robin over the files so that a file is never timed right after itself. The
very first invocation (an empty disk cache, no server) is timed once and reported apart.
The server and caches used are the benchmark's own (private folders), not the user's.

A last pass splits each file's detection into front end, model and the solve of every
(idiom, function) pair, and lists the slowest pairs (steps, cut short or not), so that a
per-function cliff is visible. Prints figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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


def idiom_command() -> list[str]:
    """`idiom` as installed beside this interpreter, else run as a module."""
    script = Path(sys.executable).parent / "idiom"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "cli.main"]


def invoke(path: Path, environment: dict[str, str]) -> None:
    command = [*idiom_command(), "detect", str(path)]
    subprocess.run(command, env=environment, stdout=subprocess.DEVNULL, check=True)


@contextmanager
def private_tool_folders() -> Iterator[dict[str, str]]:
    """An environment with the tool's cache and server folders of the benchmark's own;
    the server it starts is stopped at the end."""
    with tempfile.TemporaryDirectory(prefix="idiom-bench-") as folder:
        environment = {
            **os.environ,
            "IDIOM_CACHE_DIR": str(Path(folder) / "cache"),
            "XDG_RUNTIME_DIR": str(Path(folder) / "run"),
            "IDIOM_SERVER": "1",
        }
        Path(environment["XDG_RUNTIME_DIR"]).mkdir(mode=0o700)
        try:
            yield environment
        finally:
            subprocess.run(
                [*idiom_command(), "server", "stop"],
                env=environment,
                stdout=subprocess.DEVNULL,
                check=False,
            )


def start_server(environment: dict[str, str]) -> None:
    """The warm server started, and answering (`idiom server start` waits for it)."""
    subprocess.run(
        [*idiom_command(), "server", "start"], env=environment, capture_output=True, check=True
    )


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


Times = dict[str, dict[Path, list[float]]]


def measure(
    files: list[Path],
    runs: int,
    options: CompileOptions,
    idioms: tuple[str, ...],
    environments: dict[str, dict[str, str]],
    *,
    alone_runs: int,
    pause: float = 0.0,
) -> Times:
    """Every file's timings by kind, round-robin over the files, `pause` seconds after
    each file's."""
    times: Times = {kind: {path: [] for path in files} for kind in KINDS}
    with tempfile.TemporaryDirectory(prefix="idiom-bench-") as tmp:
        output = Path(tmp) / "out.o"
        for run in range(runs):
            for path in files:
                times["clang"][path].append(timed(lambda p=path: clang_compile(p, output)))
                for kind, environment in environments.items():
                    if kind == "alone" and run >= alone_runs:
                        continue  # seconds each: fewer runs of it
                    times[kind][path].append(timed(functools.partial(invoke, path, environment)))
                times["in-process"][path].append(
                    timed(lambda p=path: analyse_file(str(p), options, idioms))
                )
                time.sleep(pause)
    return times


KINDS = ("clang", "served", "alone", "in-process")


def median_or_nan(values: list[float]) -> float:
    """The median, or NaN for a kind not timed (`--alone-runs 0`)."""
    return statistics.median(values) if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--alone-runs", type=int, default=1, help="runs of the IDIOM_SERVER=0 invocation"
    )
    parser.add_argument("--top", type=int, default=10, help="slowest pairs to list")
    parser.add_argument("--idioms", action="append", default=[], metavar="DIR")
    parser.add_argument("--no-pairs", action="store_true", help="skip the breakdown pass")
    parser.add_argument(
        "--pause",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="a pause after each file's timings, as a person leaves between commands "
        "(the server learns meanwhile); default none",
    )
    args = parser.parse_args()
    files = sources(args.paths)
    if not files:
        parser.error("no C/C++ file given")
    idioms = tuple(args.idioms)
    options = CompileOptions()

    with private_tool_folders() as environment:
        alone_environment = {**environment, "IDIOM_SERVER": "0"}
        first = timed(lambda: invoke(files[0], alone_environment))
        print(f"first invocation (empty cache, no server): {first:.2f}s")
        warm_up = timed(
            lambda: (load_library(idioms), analyse_file(str(files[0]), options, idioms))
        )
        print(f"in-process warm-up (library load, first file): {warm_up:.2f}s")
        start_server(environment)
        environments = {"served": environment, "alone": alone_environment}
        times = measure(
            files,
            args.runs,
            options,
            idioms,
            environments,
            alone_runs=args.alone_runs,
            pause=args.pause,
        )
    split: dict[Path, tuple[float, float, float]] = {}
    pairs: list[Pair] = []
    if not args.no_pairs:
        for path in files:
            with paused_gc():  # as `analyse_file` runs (see `matcher.pipeline`)
                front, model, found = breakdown(path, idioms)
            split[path] = (front, model, sum(p.seconds for p in found))
            pairs += found

    columns = (*KINDS, "served/c", "alone/c", "in-pr/c", "front end", "model", "solve")
    print(f"{'file':30} " + " ".join(f"{c:>10}" for c in columns) + "  slowest pair")
    ratios: dict[str, list[float]] = {kind: [] for kind in KINDS[1:]}
    for path in files:
        median = {kind: median_or_nan(times[kind][path]) for kind in KINDS}
        for kind in KINDS[1:]:
            ratios[kind].append(median[kind] / median["clang"])
        line = f"{path.name:30} " + " ".join(f"{median[k] * 1e3:8.1f}ms" for k in KINDS)
        line += " " + " ".join(f"{ratios[k][-1]:10.2f}" for k in KINDS[1:])
        if path in split:
            front, model, solving = split[path]
            worst = max((p for p in pairs if p.file == path.name), key=lambda p: p.seconds)
            line += f" {front * 1e3:8.1f}ms {model * 1e3:8.1f}ms {solving * 1e3:8.1f}ms"
            line += f"  {worst.idiom}/{worst.function} {worst.seconds * 1e3:.1f}ms"
        print(line)

    pause = f", a pause of {args.pause:g} s after each file's" if args.pause else ""
    print(f"\n{len(files)} files, median of {args.runs} runs each{pause}.")
    for kind, label in (
        ("served", "idiom detect (served), whole invocation / clang"),
        ("alone", "idiom detect (IDIOM_SERVER=0), whole invocation / clang"),
        ("in-process", "analysis in one process / clang"),
    ):
        values = ratios[kind]
        if kind == "alone" and not args.alone_runs:
            continue
        print(f"{label}: median {statistics.median(values):.2f}, worst {max(values):.2f}")
        worst_files = sorted(zip(values, files, strict=True), key=lambda v: -v[0])[:3]
        print("  worst files: " + ", ".join(f"{p.name} {r:.2f}" for r, p in worst_files))
    # The served run of each file in the first round: the server had not yet learnt the
    # search plans of that file's functions (it may have from files before it).
    first_ratios = [
        times["served"][path][0] / statistics.median(times["clang"][path]) for path in files
    ]
    print(
        "idiom detect (served), each file's first invocation / clang: "
        f"median {statistics.median(first_ratios):.2f}, worst {max(first_ratios):.2f}"
    )
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
