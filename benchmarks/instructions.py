"""Instructions each corpus program runs in `main`, accelerated against original (callgrind).

Timing two binaries that run the same loops cannot show a 5% difference on a shared machine:
timed against itself, the original reads 0.80-1.33x on the GPU host's two cores
(docs/results/cpu_2core_original_world_2026-11-23.json, the A/A control). An instruction
count is repeatable to the instruction. This benchmark builds every corpus program with an
idiom both ways, runs each under `valgrind --tool=callgrind --toggle-collect=main` (so the
dynamic loader, which links different libraries into each, is left out; LD_BIND_NOW resolves
every symbol before `main`), compares the outputs, and prints the ratio. With
IDIOM_DEVICE=auto on a machine without a GPU node, a program whose replaced loops all launch
OpenCL runs its original copies (mappers/rewrite/worlds.py); BLAS calls still run, and their
rows are marked.

    .venv/bin/python benchmarks/instructions.py [--size test|bench] [--json FILE] [PROGRAM...]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("programs", nargs="*", help="corpus file names (default: all with idioms)")
    parser.add_argument("--size", choices=("test", "bench"), default="test")
    parser.add_argument("--json", type=Path, help="write the rows here too")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    options = parser.parse_args()
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        sys.exit("instructions: valgrind is missing (scripts/setup.sh installs it)")
    paths = [ROOT / "corpus" / name for name in options.programs] or _with_idioms()
    with ProcessPoolExecutor(max_workers=options.jobs) as pool:  # the IDL library is per process
        rows = list(pool.map(partial(_measure, valgrind, size=options.size), paths))
    _print(rows)
    if options.json:
        options.json.write_text(json.dumps({"size": options.size, "programs": rows}, indent=1))


def _with_idioms() -> list[Path]:
    programs = sorted((ROOT / "corpus").glob("*.c*"))
    return [p for p in programs if any(e.present for e in read_program(p).expectations)]


def _measure(valgrind: str, path: Path, *, size: str) -> dict[str, object]:
    program = read_program(path)
    args = list(program.test_args if size == "test" else program.bench_args)
    with tempfile.TemporaryDirectory(prefix="idiom-instructions-") as tmp:
        folder = Path(tmp)
        original, accelerated = folder / "original", folder / "accelerated"
        build_original(path, original)
        accelerate([path], accelerated, CompileOptions())
        stats = folder / "stats.jsonl"
        before, expected = _count(valgrind, original, args, {})
        after, produced = _count(valgrind, accelerated, args, {"IDIOM_STATS": str(stats)})
        calls = [line for line in _lines(stats) if json.loads(line).get("status") == 0]
    difference = first_difference(expected, produced, tolerance=program_tolerance(path))
    return {
        "program": path.name,
        "args": args,
        "original": before,
        "accelerated": after,
        "ratio": after / before,
        "runtime_calls": len(calls),
        "outputs_equal": difference is None,
        "difference": difference,
    }


def _count(valgrind: str, binary: Path, args: list[str], env: dict[str, str]) -> tuple[int, str]:
    """The instructions run inside `main` (callees included), and the program's output."""
    command = [
        valgrind,
        "--tool=callgrind",
        "--toggle-collect=main",
        "--callgrind-out-file=/dev/null",
    ]
    environment = {**os.environ, "LD_BIND_NOW": "1", "IDIOM_DEVICE": "auto", **env}
    ran = subprocess.run(
        [*command, str(binary), *args], capture_output=True, text=True, env=environment, check=False
    )
    found = re.search(r"Collected : (\d+)", ran.stderr)
    if ran.returncode != 0 or found is None:
        sys.exit(f"instructions: {binary.name} {' '.join(args)} failed:\n{ran.stderr[-2000:]}")
    return int(found.group(1)), ran.stdout


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


def _print(rows: list[dict[str, object]]) -> None:
    print(f"{'program':28} {'original':>14} {'accelerated':>14} {'extra':>11} {'ratio':>7} calls")
    for row in rows:
        before, after = int(row["original"]), int(row["accelerated"])  # type: ignore[call-overload]
        equal = "" if row["outputs_equal"] else f"  OUTPUTS DIFFER: {row['difference']}"
        print(
            f"{row['program']!s:28} {before:>14,} {after:>14,} {after - before:>11,} "
            f"{row['ratio']:>7.4f} {row['runtime_calls']!s:>5}{equal}"
        )
    quiet = [row for row in rows if row["runtime_calls"] == 0]
    extra = sorted(int(r["accelerated"]) - int(r["original"]) for r in quiet)  # type: ignore[call-overload]
    if extra:
        # A fixed cost (the world's decision, once) shows as extra instructions, whatever the size.
        print(
            f"{len(quiet)} programs making no runtime call: "
            f"{extra[0]:+,} to {extra[-1]:+,} instructions"
        )
    print(f"outputs equal: {sum(bool(row['outputs_equal']) for row in rows)} of {len(rows)}")


if __name__ == "__main__":
    main()
