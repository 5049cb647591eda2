"""What the residency safety net costs (docs/acceleration.md, "Sound by construction").

Every corpus program with an idiom is built accelerated once and run in the rewritten world
with every replacement forced onto the OpenCL CPU device (`IDIOM_DEVICE=cpu`, thresholds at
1), with the net (the default) and without it (`IDIOM_SAFETY_NET=0`), in the same run:

- instructions run inside `main` (callgrind `--toggle-collect=main`), on PoCL's `basic`
  device, which runs each kernel on the calling thread: with its default threaded device the
  main thread spins while it waits, and under callgrind, which runs one thread at a time,
  that spinning swamps the count. The program's host code, the kernels and the runtime's
  host side (protection, partial-page copies, fault handling) are counted;
- wall time, median of `--runs` alternating runs of each;
- faults the handler resolved (accesses the compiler's placement did not foresee), from
  IDIOM_STATS, and the outputs of both against the original's.

Where no launch can happen (no GPU node under `auto`, `IDIOM_DEVICE=off`) nothing is
protected and the net costs nothing: no page is ever protected without a launch.

    .venv/bin/python benchmarks/safety_net_cost.py [--runs 3] [--jobs 2] [--json FILE]
                                                   [--times-only] [PROG...]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mappers.accelerate import accelerate  # noqa: E402
from matcher.expectations import read_program  # noqa: E402
from matcher.frontend import CompileOptions  # noqa: E402
from measure.bench import build_original  # noqa: E402
from measure.compare import first_difference, program_tolerance  # noqa: E402

FORCED = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_BLAS_MIN_WORK": "1"}
NET = {"on": {}, "off": {"IDIOM_SAFETY_NET": "0"}}
COUNTED_DEVICE = {"POCL_DEVICES": "basic"}  # kernels on the calling thread (see above)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("programs", nargs="*", help="corpus file names (default: all with idioms)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--times-only",
        action="store_true",
        help="no instruction counts (callgrind, which also compiles every kernel again for "
        "its CPU, takes most of the time): times, launches, faults and outputs only",
    )
    options = parser.parse_args()
    valgrind = None if options.times_only else shutil.which("valgrind")
    if valgrind is None and not options.times_only:
        sys.exit("safety_net_cost: valgrind is missing (scripts/setup.sh installs it)")
    paths = [ROOT / "corpus" / name for name in options.programs] or _with_idioms()
    rows = []
    with ProcessPoolExecutor(max_workers=options.jobs) as pool:
        for row in pool.map(partial(_measure, valgrind, runs=options.runs), paths):
            print(json.dumps(row), flush=True)  # each as it ends: a long run keeps its rows
            rows.append(row)
    _print(rows)
    if options.json:
        options.json.write_text(json.dumps(rows, indent=1))


def _with_idioms() -> list[Path]:
    programs = sorted((ROOT / "corpus").glob("*.c*"))
    return [p for p in programs if any(e.present for e in read_program(p).expectations)]


def _measure(valgrind: str | None, path: Path, *, runs: int) -> dict[str, object]:
    args = list(read_program(path).test_args)
    tolerance = program_tolerance(path)
    with tempfile.TemporaryDirectory(prefix="idiom-net-cost-") as tmp:
        folder = Path(tmp)
        original, accelerated = folder / "original", folder / "accelerated"
        build_original(path, original)
        accelerate([path], accelerated, CompileOptions())
        expected = subprocess.run(
            [str(original), *args], capture_output=True, text=True, check=False
        ).stdout
        env = {**os.environ, **FORCED, "IDIOM_CACHE_DIR": str(folder / "cache")}
        # Kernels compiled and cached before anything is measured, natively and under
        # callgrind (whose CPU lacks some of the host's features: PoCL builds again for it).
        _run(accelerated, args, env)
        if valgrind is not None:
            _count(valgrind, accelerated, args, env)
        row: dict[str, object] = {"program": path.name, "args": args}
        times: dict[str, list[float]] = {"on": [], "off": []}
        for _ in range(runs):
            for net, extra in NET.items():
                times[net].append(_run(accelerated, args, {**env, **extra})[0])
        for net, extra in NET.items():
            stats = folder / f"stats-{net}.jsonl"
            counted = {**env, **extra, "IDIOM_STATS": str(stats)}
            if valgrind is not None:
                instructions, output = _count(valgrind, accelerated, args, counted)
            else:  # --times-only: the outputs and records of a native run
                instructions, output = -1, _run(accelerated, args, counted)[1]
            calls = _records(stats)
            row[f"instructions_{net}"] = instructions
            row[f"seconds_{net}"] = statistics.median(times[net])
            row[f"launches_{net}"] = sum(1 for c in calls if "kernel" in c)
            row[f"faults_{net}"] = sum(1 for c in calls if c.get("entry") == "host_fault")
            row[f"equal_{net}"] = first_difference(expected, output, tolerance=tolerance) is None
    return row


def _run(binary: Path, args: list[str], env: dict[str, str]) -> tuple[float, str]:
    started = time.perf_counter()
    ran = subprocess.run(
        [str(binary), *args], capture_output=True, text=True, env=env, timeout=600, check=False
    )
    return time.perf_counter() - started, ran.stdout


def _count(valgrind: str, binary: Path, args: list[str], env: dict[str, str]) -> tuple[int, str]:
    command = [
        valgrind,
        "--tool=callgrind",
        "--toggle-collect=main",
        "--callgrind-out-file=/dev/null",
    ]
    ran = subprocess.run(
        [*command, str(binary), *args],
        capture_output=True,
        text=True,
        env={**env, "LD_BIND_NOW": "1", **COUNTED_DEVICE},
        timeout=1800,
        check=False,
    )
    found = re.search(r"Collected : (\d+)", ran.stderr)
    if ran.returncode != 0 or found is None:
        return -1, ran.stdout
    return int(found.group(1)), ran.stdout


def _records(path: Path) -> list[dict[str, object]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _print(rows: list[dict[str, object]]) -> None:
    print(
        f"{'program':28} {'launches':>8} {'instr. off':>13} {'instr. on':>13} {'ratio':>7} "
        f"{'s off':>7} {'s on':>7} {'ratio':>6} faults equal"
    )
    instruction_ratios, time_ratios = [], []
    for row in rows:
        off, on = int(str(row["instructions_off"])), int(str(row["instructions_on"]))
        s_off, s_on = float(str(row["seconds_off"])), float(str(row["seconds_on"]))
        ratio = on / off if off > 0 else float("nan")
        if off > 0 and on > 0:
            instruction_ratios.append(ratio)
        time_ratios.append(s_on / s_off)
        equal = "yes" if row["equal_on"] and row["equal_off"] else "NO"
        print(
            f"{row['program']!s:28} {row['launches_on']!s:>8} {off:>13,} {on:>13,} {ratio:>7.4f} "
            f"{s_off:>7.3f} {s_on:>7.3f} {s_on / s_off:>6.3f} {row['faults_on']!s:>6} {equal}"
        )
    if rows:
        counted = (
            f"median {statistics.median(instruction_ratios):.4f}, "
            f"worst {max(instruction_ratios):.4f}"
            if instruction_ratios
            else "not counted"
        )
        print(
            f"\n{len(rows)} programs: instructions with/without the net {counted}; "
            f"time median {statistics.median(time_ratios):.3f}, worst {max(time_ratios):.3f}"
        )


if __name__ == "__main__":
    main()
