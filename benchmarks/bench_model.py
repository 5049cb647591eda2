"""Time to build the IR model relative to `clang-22 -O2 -c` of the same file, over the corpus.

Prints per file: the clang compile time, the front end (clang + canonical opt pipeline),
the model build (llvmlite parse, verification, analyses), and the ratios
model/clang and (front end + model)/clang, each the median of several runs measured in
the same process. Usage: .venv/bin/python benchmarks/bench_model.py [FILES or DIR] [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from matcher.frontend import CXX_SUFFIXES, canonical_ir, find_tool, source_files
from matcher.ir_builder import build_module

ROOT = Path(__file__).resolve().parents[1]


def median_time(action: Callable[[], object], runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def clang_compile(path: Path, output: Path) -> None:
    driver = find_tool("clang++" if path.suffix in CXX_SUFFIXES else "clang")
    subprocess.run([driver, "-O2", "-c", str(path), "-o", str(output)], check=True)


def sources(arguments: list[str]) -> list[Path]:
    return source_files([Path(a) for a in arguments] or [ROOT / "corpus"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    model_ratios, total_ratios = [], []
    columns = ("clang -O2 -c", "front end", "model", "model/clang", "total/clang")
    print(f"{'file':34} " + " ".join(f"{c:>12}" for c in columns))
    with tempfile.TemporaryDirectory(prefix="idiom-bench-") as tmp:
        output = Path(tmp) / "out.o"
        for path in sources(args.paths):
            clang = median_time(lambda p=path: clang_compile(p, output), args.runs)
            ir = canonical_ir(path)  # what detection reads: bitcode for a source file
            front = median_time(lambda p=path: canonical_ir(p), args.runs)
            model = median_time(lambda t=ir, p=path: build_module(t, str(p)), args.runs)
            model_ratios.append(model / clang)
            total_ratios.append((front + model) / clang)
            print(
                f"{path.name:34} {clang * 1e3:10.1f}ms {front * 1e3:10.1f}ms {model * 1e3:10.1f}ms "
                f"{model / clang:12.2f} {(front + model) / clang:12.2f}"
            )
    if model_ratios:
        model_median, model_worst = statistics.median(model_ratios), max(model_ratios)
        total_median, total_worst = statistics.median(total_ratios), max(total_ratios)
        print(f"\n{len(model_ratios)} files.")
        print(f"model/clang: median {model_median:.2f}, worst {model_worst:.2f}")
        print(f"(front end + model)/clang: median {total_median:.2f}, worst {total_worst:.2f}")


if __name__ == "__main__":
    main()
