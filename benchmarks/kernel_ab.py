"""One kernel's launches in two builds of a program, timed in alternating runs.

Runs build A, then build B, `--runs` times each in turn, with every launch waited for
(`IDIOM_ASYNC=0`) on the device asked, and reads each launch's kernel time of the kernel
named from the runtime's statistics (`IDIOM_STATS`). Prints, per build, the median and
tenth percentile of all its launches, and B's median over A's. A kernel is compared with
itself in the same process state: the runs alternate, so that a drift of the device's
clocks falls on both builds.

    python benchmarks/kernel_ab.py --kernel idiom_jds_spmv --runs 6 \\
        .gpu/bin/jds_matrix.accelerated .gpu/bin/jds_matrix.translated -- 300000 1000
    python benchmarks/kernel_ab.py --sparse-bundle .gpu   # every CSR, ELLPACK, JDS program
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def launch_times(binary: Path, args: list[str], kernel: str, env: dict[str, str]) -> list[float]:
    """Each launch's kernel seconds of `kernel` in one run of `binary`."""
    with tempfile.TemporaryDirectory(prefix="kernel_ab_") as folder:
        stats = Path(folder) / "stats.jsonl"
        run_env = os.environ | env | {"IDIOM_ASYNC": "0", "IDIOM_STATS": str(stats)}
        done = subprocess.run([str(binary), *args], env=run_env, capture_output=True, check=False)
        if done.returncode != 0:
            sys.exit(f"{binary} exited with {done.returncode}: {done.stderr.decode()[-400:]}")
        times = []
        # A run that launched nothing writes no statistics.
        lines = stats.read_text().splitlines() if stats.exists() else []
        for line in lines:
            record = json.loads(line)
            seconds = record.get("kernel_seconds")
            if record.get("kernel") == kernel and isinstance(seconds, float) and seconds > 0:
                times.append(seconds)
        return times


def compare(
    a: Path, b: Path, args: list[str], *, kernel: str, runs: int, env: dict[str, str]
) -> None:
    """Time `kernel` in builds `a` and `b` in `runs` alternating runs; print both medians.
    The same build given twice is an A/A run: the noise of the comparison."""
    builds = {"a": a, "b": b}
    times: dict[str, list[float]] = {"a": [], "b": []}
    for _ in range(runs):
        for side, binary in builds.items():
            times[side] += launch_times(binary, args, kernel, env)
    medians = {}
    for side, values in times.items():
        if not values:
            sys.exit(f"{builds[side]}: no launch of {kernel} timed")
        values.sort()
        medians[side] = statistics.median(values)
        p10 = values[len(values) // 10]
        print(f"{side} {builds[side].name:30s} {len(values):6d} launches"
              f"  median {medians[side] * 1e6:8.2f} us  p10 {p10 * 1e6:8.2f} us")  # fmt: skip
    ratio = medians["b"] / medians["a"]
    print(f"b / a ({b.name} / {a.name}): {ratio:.3f} (median launch)", flush=True)


# The product kernel of each sparse format's corpus programs, by their names' prefix.
SPARSE_KERNELS = {"jds_": "idiom_jds_spmv", "csr_": "idiom_spmv", "ell_": "idiom_spmv"}


def sparse_bundle(folder: Path, runs: int, env: dict[str, str]) -> None:
    """`compare` each sparse product of a `gpu_bench.py bundle` folder (its manifest's
    programs and arguments): the translated build first, the generated one second."""
    manifest = json.loads((folder / "manifest.json").read_text())
    for entry in manifest:
        stem = entry["stem"]
        kernel = next((k for prefix, k in SPARSE_KERNELS.items() if stem.startswith(prefix)), None)
        builds = [folder / "bin" / f"{stem}.{build}" for build in ("translated", "accelerated")]
        if kernel is not None and all(build.exists() for build in builds):
            compare(*builds, list(entry["args"]), kernel=kernel, runs=runs, env=env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernel", help="the kernel's name, as IDIOM_STATS says")
    parser.add_argument("--runs", type=int, default=6)
    parser.add_argument("--device", default="gpu", help="IDIOM_DEVICE")
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE, for both builds")
    parser.add_argument(
        "--sparse-bundle", type=Path, metavar="FOLDER",
        help="every sparse product of a gpu_bench.py bundle folder (.gpu)",
    )  # fmt: skip
    parser.add_argument("a", type=Path, nargs="?")
    parser.add_argument("b", type=Path, nargs="?")
    parser.add_argument("args", nargs="*", help="the program's arguments (after --)")
    options = parser.parse_args()
    env = dict(item.split("=", 1) for item in options.env) | {"IDIOM_DEVICE": options.device}
    if options.sparse_bundle is not None:
        sparse_bundle(options.sparse_bundle, options.runs, env)
    elif options.kernel is None or options.a is None or options.b is None:
        parser.error("give --kernel and two builds, or --sparse-bundle")
    else:
        compare(options.a, options.b, options.args, kernel=options.kernel, runs=options.runs,
                env=env)  # fmt: skip


if __name__ == "__main__":
    main()
