"""One kernel's launches in two builds of a program, timed in alternating runs.

Runs build A, then build B, `--runs` times each in turn, with every launch waited for
(`IDIOM_ASYNC=0`) on the device asked, and reads each launch's kernel time of the kernel
named from the runtime's statistics (`IDIOM_STATS`). Prints, per build, the median and
tenth percentile of all its launches, and B's median over A's. A kernel is compared with
itself in the same process state: the runs alternate, so that a drift of the device's
clocks falls on both builds.

    python benchmarks/kernel_ab.py --kernel idiom_jds_spmv --runs 6 \\
        .gpu/bin/jds_matrix.accelerated .gpu/bin/jds_matrix.translated -- 300000 1000
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
        for line in stats.read_text().splitlines():
            record = json.loads(line)
            seconds = record.get("kernel_seconds")
            if record.get("kernel") == kernel and isinstance(seconds, float) and seconds > 0:
                times.append(seconds)
        return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernel", required=True, help="the kernel's name, as IDIOM_STATS says")
    parser.add_argument("--runs", type=int, default=6)
    parser.add_argument("--device", default="gpu", help="IDIOM_DEVICE")
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE, for both builds")
    parser.add_argument("a", type=Path)
    parser.add_argument("b", type=Path)
    parser.add_argument("args", nargs="*", help="the program's arguments (after --)")
    options = parser.parse_args()
    env = dict(item.split("=", 1) for item in options.env) | {"IDIOM_DEVICE": options.device}
    times: dict[Path, list[float]] = {options.a: [], options.b: []}
    for _ in range(options.runs):
        for binary in times:
            times[binary] += launch_times(binary, options.args, options.kernel, env)
    medians = {}
    for binary, values in times.items():
        if not values:
            sys.exit(f"{binary}: no launch of {options.kernel} timed")
        values.sort()
        medians[binary] = statistics.median(values)
        print(f"{binary.name:32s} {len(values):6d} launches  median {medians[binary] * 1e6:8.2f} us"
              f"  p10 {values[len(values) // 10] * 1e6:8.2f} us")  # fmt: skip
    ratio = medians[options.b] / medians[options.a]
    print(f"{options.b.name} / {options.a.name}: {ratio:.3f} (median launch)")


if __name__ == "__main__":
    main()
