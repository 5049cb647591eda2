"""Original against accelerated, per program: what `idiom bench` measures.

For each program: build the original with `clang-22 -O2` and the accelerated binary with
`accelerate`, run both alternately (so that drift on a shared machine hits both), take
medians, compare every run's output with the original's, and derive the ceiling: the
accelerated time with the runtime's calls replaced by the library alone
(mappers/ceiling.py, from the runtime's IDIOM_STATS records).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from pathlib import Path

from idl.errors import IdiomError
from mappers.accelerate import Accelerated, AccelerateError, UnitReport, accelerate
from mappers.ceiling import ceiling_seconds, inside_seconds, read_stats
from mappers.compare import first_difference, program_tolerance
from matcher.expectations import read_program
from matcher.frontend import CXX_SUFFIXES, CompileOptions, find_tool

__all__ = ["BenchRow", "bench_program", "bench_programs"]

RUN_TIMEOUT = 600  # seconds for one run of one binary


@dataclass(frozen=True)
class BenchRow:
    program: str
    idioms: str  # "GEMM, Reduction x2"
    replaced: int
    found: int
    original_s: float
    accelerated_s: float
    ceiling_s: float | None  # the library called directly, warmed up (mappers/ceiling.py)
    device: str
    outputs_equal: bool
    difference: str | None = None
    units: tuple[UnitReport, ...] = field(default=(), compare=False, repr=False)
    ceiling_cold_s: float | None = None  # its first BLAS call paid as a fresh program pays it

    @property
    def speedup(self) -> float:
        return self.original_s / self.accelerated_s if self.accelerated_s > 0 else float("inf")

    def to_json(self) -> dict[str, object]:
        fields = {
            f.name: getattr(self, f.name) for f in dataclass_fields(self) if f.name != "units"
        }
        return {**fields, "speedup": round(self.speedup, 3)}


def bench_programs(
    paths: Sequence[Path],
    *,
    runs: int = 5,
    size: str = "bench",
    progress: Callable[[str], None] | None = None,
) -> list[BenchRow]:
    rows = []
    for path in paths:
        if progress:
            progress(path.name)
        rows.append(bench_program(path, runs=runs, size=size))
    return rows


def bench_program(path: Path, *, runs: int = 5, size: str = "bench") -> BenchRow:
    program = read_program(path)
    args = list(program.bench_args if size == "bench" else program.test_args)
    with tempfile.TemporaryDirectory(prefix="idiom-bench-") as tmp:
        original, accelerated = Path(tmp) / "original", Path(tmp) / "accelerated"
        _build_original(path, original)
        built = accelerate([path], accelerated, CompileOptions())
        stats = Path(tmp) / "stats.jsonl"
        tolerance = program_tolerance(path)
        original_times, accelerated_times, glue_times = [], [], []
        expected = difference = None
        for _ in range(max(runs, 1)):
            seconds, out = _run([str(original), *args], {})
            original_times.append(seconds)
            expected = expected if expected is not None else out
            stats.unlink(missing_ok=True)
            seconds, out = _run([str(accelerated), *args], {"IDIOM_STATS": str(stats)})
            accelerated_times.append(seconds)
            glue_times.append(seconds - _inside_runtime(stats))
            difference = difference or first_difference(expected, out, tolerance=tolerance)
        accelerated_s = statistics.median(accelerated_times)
        # Each run's own time outside the runtime: the library's time in one run and the
        # program's in another would not add up (OpenBLAS on two busy cores varies 2x).
        ceiling, cold, device = _ceiling(
            stats, statistics.median(glue_times) + _inside_runtime(stats)
        )
    return BenchRow(
        program=path.name,
        idioms=_idioms(built),
        replaced=built.replaced,
        found=sum(len(u.outcomes) for u in built.units),
        original_s=statistics.median(original_times),
        accelerated_s=accelerated_s,
        ceiling_s=ceiling,
        ceiling_cold_s=cold,
        device=device,
        outputs_equal=difference is None,
        difference=difference,
        units=built.units,
    )


def _idioms(built: Accelerated) -> str:
    counts: dict[str, int] = {}
    for unit in built.units:
        for outcome in unit.outcomes:
            if outcome.replaced:
                counts[outcome.instance.idiom] = counts.get(outcome.instance.idiom, 0) + 1
    return ", ".join(f"{k} x{n}" if n > 1 else k for k, n in sorted(counts.items())) or "-"


def _build_original(source: Path, output: Path) -> None:
    driver = find_tool("clang++" if source.suffix in CXX_SUFFIXES else "clang")
    command = [driver, "-O2", "-w", str(source), "-o", str(output), "-lm"]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise AccelerateError(f"{source}: clang-22 -O2 failed:\n{result.stderr.strip()}")


def _run(command: list[str], env: dict[str, str]) -> tuple[float, str]:
    started = time.perf_counter()
    try:
        result = subprocess.run(
            command,
            capture_output=True,
            text=True,
            check=False,
            timeout=RUN_TIMEOUT,
            env={**os.environ, **env},
        )
    except subprocess.TimeoutExpired as error:
        raise IdiomError(f"{command[0]} ran longer than {RUN_TIMEOUT} s") from error
    seconds = time.perf_counter() - started
    if result.returncode != 0:
        raise IdiomError(
            f"{Path(command[0]).name} exited with {result.returncode}: {result.stderr[-500:]}"
        )
    return seconds, result.stdout


def _inside_runtime(stats: Path) -> float:
    """Seconds a run spent inside the runtime for the calls it did (0 without records)."""
    return inside_seconds(read_stats(stats))


def _ceiling(stats: Path, accelerated_s: float) -> tuple[float | None, float | None, str]:
    """The ceiling, warm and cold, and the device the runtime used, from the last run's
    statistics; `accelerated_s` is that run's time inside the runtime plus the median time
    outside it."""
    if not stats.exists():
        return None, None, "original code"
    calls = read_stats(stats)
    done = [c for c in calls if c.status == 0]
    if not done:
        return None, None, "original code"
    devices = sorted({_device(c.entry, c.details) for c in done})
    warm = ceiling_seconds(accelerated_s, calls)
    cold = ceiling_seconds(accelerated_s, calls, cold=True)
    return warm, cold, ", ".join(devices)


def _device(entry: str, details: dict[str, object]) -> str:
    if entry in ("gemm", "gemv"):
        return "OpenBLAS (CPU)"
    name = str(details.get("device") or "OpenCL")
    return name if len(name) <= 40 else name[:37] + "..."
