"""Detection over real code we did not write: NAS Parallel Benchmarks (serial C++) and Parboil.

Neither is part of the repository or of any test. Fetch them next to the project and
point this script at them:

    .venv/bin/python benchmarks/eval_external.py --npb PATH/NPB-CPP/NPB-SER \\
        --parboil PATH/Parboil [--json out.json]

NPB needs `npbparams.hpp` in each benchmark folder (build `sys/setparams.cpp` and run
`setparams cg S` in `CG/`, and so on). For each benchmark it prints the instances per
idiom, the published IDL counts for comparison, and the analysis time of every file
relative to `clang-22 -O2 -c` of the same file.

Two counts per idiom: `loops`, the outermost instances (one per loop nest, as the corpus
is scored), and `counted`, the published evaluation's way of counting: every accumulator
of a Reduction is one reduction (cutcp's six minima and maxima in one loop are six), and
an idiom found inside another kind of idiom counts too (the dot products inside CG's
SpMVs, the sums beside EP's histogram), but not one inside an instance of its own kind
(the inner loops of a reduction over a nest).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from matcher.frontend import CXX_SUFFIXES, CompileOptions, find_tool
from matcher.pipeline import FileResult, analyse_file

# The counts the published IDL reached on the benchmarks both evaluations share.
PUBLISHED: dict[str, dict[str, int]] = {
    "BT": {"Reduction": 2},
    "CG": {"Reduction": 8, "Histogram": 1, "SpMV_CSR": 2},
    "EP": {"Reduction": 3, "Histogram": 1},
    "IS": {"Reduction": 4, "Histogram": 1},
    "MG": {"Reduction": 1, "Stencil": 2},
    "SP": {"Reduction": 2},
    "cutcp": {"Reduction": 7},
    "histo": {"Histogram": 1},
    "lbm": {"Stencil": 3},
    "sad": {"Reduction": 1},
    "sgemm": {"GEMM": 1},
    "spmv": {"SpMV_JDS": 1},
    "stencil": {"Stencil": 1},
    "tpacf": {"Histogram": 1},
}
SOURCE_SUFFIXES = {".c", ".cc", ".cpp"}
PARBOIL_CPU_ONLY = {"lbm", "mri-q", "spmv", "stencil"}
# Parboil's sources predate today's headers and C99 rules: they call printf, cosf or
# memalign without including what declares them. Include those up front, as the
# compilers of their time did through other headers.
PARBOIL_FLAGS = ("-w", "-Wno-error=implicit-function-declaration")
PARBOIL_C_HEADERS = ("stdio.h", "stdlib.h", "string.h", "math.h", "malloc.h")
PARBOIL_CXX_HEADERS = ("iostream", "cstdio", "cstdlib", "cstring", "cmath", "malloc.h")


@dataclass(frozen=True)
class Benchmark:
    suite: str
    name: str
    files: tuple[Path, ...]
    options: CompileOptions


def npb_benchmarks(root: Path) -> list[Benchmark]:
    common = CompileOptions(include_dirs=(str(root / "common"),), std="c++17")
    found = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and p.name.isupper()):
        if folder.name == "FT" or not (folder / "npbparams.hpp").exists():
            continue
        files = tuple(sorted(p for p in folder.iterdir() if p.suffix in SOURCE_SUFFIXES))
        options = CompileOptions(include_dirs=(*common.include_dirs, str(folder)), std=common.std)
        found.append(Benchmark("NPB", folder.name, files, options))
    return found


def parboil_benchmarks(root: Path) -> list[Benchmark]:
    found = []
    for folder in sorted((root / "benchmarks").iterdir()):
        variant = "cpu" if folder.name in PARBOIL_CPU_ONLY else "base"
        source = folder / "src" / variant
        if not source.is_dir():
            continue
        files = tuple(sorted(p for p in source.iterdir() if p.suffix in SOURCE_SUFFIXES))
        shared = sorted(str(p) for p in (folder / "common_src").glob("*") if p.is_dir())
        options = CompileOptions(
            include_dirs=(str(root / "common" / "include"), str(source), *shared),
            extra_flags=PARBOIL_FLAGS,
        )
        found.append(Benchmark("Parboil", folder.name, files, options))
    return found


def clang_seconds(path: Path, options: CompileOptions) -> float:
    driver = find_tool("clang++" if path.suffix in CXX_SUFFIXES else "clang")
    with tempfile.TemporaryDirectory(prefix="idiom-eval-") as tmp:
        command = [driver, *options.clang_flags(), "-O2", "-c", str(path), "-o", f"{tmp}/x.o"]
        started = time.perf_counter()
        subprocess.run(command, capture_output=True, check=False)
        return time.perf_counter() - started


def options_for(path: Path, options: CompileOptions) -> CompileOptions:
    std = options.std
    if path.suffix == ".c" and std and std.startswith("c++"):
        std = None
    flags = options.extra_flags
    if flags == PARBOIL_FLAGS:
        headers = PARBOIL_C_HEADERS if path.suffix == ".c" else PARBOIL_CXX_HEADERS
        flags = (*flags, *(f"-include{h}" for h in headers))
    return CompileOptions(options.include_dirs, options.defines, std, flags)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--npb", type=Path)
    parser.add_argument("--parboil", type=Path)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    benchmarks = (npb_benchmarks(args.npb) if args.npb else []) + (
        parboil_benchmarks(args.parboil) if args.parboil else []
    )
    rows, ratios, report = [], [], []
    for bench in benchmarks:
        counts: Counter[str] = Counter()
        counted: Counter[str] = Counter()
        seen: set[tuple[str, int | None, str]] = set()  # a kernel #included twice counts once
        for path in bench.files:
            options = options_for(path, bench.options)
            clang = clang_seconds(path, options)
            started = time.perf_counter()
            result: FileResult = analyse_file(str(path), options)
            elapsed = time.perf_counter() - started
            if result.error:
                print(f"error: {result.error.splitlines()[0]}")
                continue
            ratios.append(elapsed / clang)
            for instance in result.instances:
                key = (Path(instance.source_file).name, instance.line, instance.idiom)
                if key in seen:
                    continue
                seen.add(key)
                if instance.within is None:
                    counts[instance.idiom] += 1
                if not (instance.within or "").startswith(instance.idiom + " "):
                    each = instance.solution_count if instance.idiom == "Reduction" else 1
                    counted[instance.idiom] += each
            report.append(
                {
                    "suite": bench.suite,
                    "benchmark": bench.name,
                    "file": path.name,
                    "clang_s": round(clang, 4),
                    "analysis_s": round(elapsed, 4),
                    "instances": [i.to_json() for i in result.instances],
                    "cut_short": [c.message for c in result.cut_short],
                }
            )
        published = PUBLISHED.get(bench.name, {})
        for kind in sorted(set(counts) | set(counted) | set(published)):
            rows.append(
                (
                    bench.suite,
                    bench.name,
                    kind,
                    counts[kind],
                    counted[kind],
                    published.get(kind, 0),
                )
            )
    print(f"{'suite':8} {'benchmark':14} {'idiom':10} {'loops':>6} {'counted':>8} {'published':>9}")
    for suite, name, kind, loops, counted_count, published_count in rows:
        print(f"{suite:8} {name:14} {kind:10} {loops:6} {counted_count:8} {published_count:9}")
    if ratios:
        print(
            f"\nanalysis / clang -O2 -c over {len(ratios)} files: median "
            f"{statistics.median(ratios):.2f}, worst {max(ratios):.2f}"
        )
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
