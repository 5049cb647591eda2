"""Original against accelerated, per program: what `idiom bench` measures.

For each program: build the original with `clang-22 -O2` and the accelerated binary with
`accelerate`, run both alternately (so that drift on a shared machine hits both), take
medians, compare every run's output with the original's, and find the ceiling, the same
kernels called directly through the library:

* where the program has a hand-written counterpart in the `direct/` folder beside it (the
  same program, its GEMM/GEMV loop nests written as `cblas_*` calls), that program, built
  against the runtime's OpenBLAS and timed in the same alternation, its output compared
  too: the ceiling as BENCHMARKS.md §3 states it, paid in the program's own memory;
* otherwise an estimate: the accelerated time with the runtime's calls replaced by the
  library alone (measure/ceiling.py, from the runtime's IDIOM_STATS records; BLAS calls
  replayed on arrays of their own, OpenCL launches counted by their kernels' time).

Beside them, what a compiler alone makes of the same source: the program built with
`clang-22 -O3 -march=native` and Polly with its matrix-multiplication pattern
(POLLY_FLAGS), timed in the same alternation, its output compared too (`polly_s`,
`vs_polly`: the Polly build's time over the accelerated time).
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
from mappers.rewrite.worlds import BLAS_ENTRIES
from mappers.runtime.build import cblas_program_args
from matcher.expectations import read_program
from matcher.frontend import CXX_SUFFIXES, CompileOptions, find_tool
from measure.ceiling import ceiling_seconds, inside_seconds, read_stats
from measure.compare import first_difference, program_tolerance
from measure.paired import ratio_interval

__all__ = [
    "CEILING_DIRECT",
    "CEILING_REPLAY",
    "DIRECT_FOLDER",
    "BenchRow",
    "bench_program",
    "bench_programs",
    "build_direct",
    "build_original",
    "build_polly",
    "direct_source",
]

RUN_TIMEOUT = 600  # seconds for one run of one binary
DIRECT_FOLDER = "direct"
CEILING_DIRECT = "direct program"
CEILING_REPLAY = "replay"
POLLY_FLAGS = (
    "-O3",
    "-march=native",
    "-mllvm",
    "-polly",
    "-mllvm",
    "-polly-pattern-matching-based-opts=true",
)


@dataclass(frozen=True)
class BenchRow:
    program: str
    idioms: str  # "GEMM, Reduction x2"
    replaced: int
    found: int
    original_s: float
    accelerated_s: float
    ceiling_s: float | None  # the direct program's time, else the replay's (warm)
    ceiling_from: str  # CEILING_DIRECT, CEILING_REPLAY, or "" without a ceiling
    device: str
    outputs_equal: bool
    difference: str | None = None
    units: tuple[UnitReport, ...] = field(default=(), compare=False, repr=False)
    replay_s: float | None = None  # the estimate from replayed calls (measure/ceiling.py)
    replay_cold_s: float | None = None  # its first BLAS call paid as a fresh program pays it
    speedup_interval: tuple[float, float] | None = None  # 95% of the paired ratios' median
    polly_s: float | None = None  # the source built with POLLY_FLAGS (None: not built)
    polly_difference: str | None = None  # its first difference from the original's output

    @property
    def speedup(self) -> float:
        return self.original_s / self.accelerated_s if self.accelerated_s > 0 else float("inf")

    @property
    def of_ceiling(self) -> float | None:
        """The ceiling's time over the accelerated time: 1.0 is as fast as the library."""
        if self.ceiling_s is None or self.accelerated_s <= 0:
            return None
        return self.ceiling_s / self.accelerated_s

    @property
    def vs_polly(self) -> float | None:
        """The Polly build's time over the accelerated time: above 1.0 is faster than it."""
        if self.polly_s is None or self.accelerated_s <= 0:
            return None
        return self.polly_s / self.accelerated_s

    def to_json(self) -> dict[str, object]:
        fields = {
            f.name: getattr(self, f.name) for f in dataclass_fields(self) if f.name != "units"
        }
        of_ceiling, vs_polly = self.of_ceiling, self.vs_polly
        return {
            **fields,
            "speedup": round(self.speedup, 3),
            "of_ceiling": None if of_ceiling is None else round(of_ceiling, 3),
            "vs_polly": None if vs_polly is None else round(vs_polly, 3),
        }


def direct_source(program: Path) -> Path | None:
    """The hand-written program calling the library directly for `program` (`direct/` beside
    it, same file name), if there is one."""
    candidate = program.parent / DIRECT_FOLDER / program.name
    return candidate if candidate.is_file() else None


def bench_programs(
    paths: Sequence[Path],
    *,
    runs: int = 5,
    size: str = "bench",
    polly: bool = True,
    progress: Callable[[str], None] | None = None,
) -> list[BenchRow]:
    rows = []
    for path in paths:
        if progress:
            progress(path.name)
        rows.append(bench_program(path, runs=runs, size=size, polly=polly))
    return rows


def bench_program(
    path: Path, *, runs: int = 5, size: str = "bench", polly: bool = True
) -> BenchRow:
    program = read_program(path)
    args = list(program.bench_args if size == "bench" else program.test_args)
    direct = direct_source(path)
    with tempfile.TemporaryDirectory(prefix="idiom-bench-") as tmp:
        folder = Path(tmp)
        original, accelerated = folder / "original", folder / "accelerated"
        build_original(path, original)
        built = accelerate([path], accelerated, CompileOptions())
        commands = {"original": [str(original), *args], "accelerated": [str(accelerated), *args]}
        if direct is not None:
            build_direct(direct, folder / "direct")
            commands["direct"] = [str(folder / "direct"), *args]
        if polly:
            build_polly(path, folder / "polly")
            commands["polly"] = [str(folder / "polly"), *args]
        stats = folder / "stats.jsonl"
        tolerance = program_tolerance(path)
        times, glue_times, differences = _alternate(commands, stats, runs, tolerance)
        difference = differences.get("accelerated")
        if "direct" in differences:
            wrong = differences["direct"]
            raise IdiomError(f"{direct}: its output differs from the original's: {wrong}")
        # Each run's own time outside the runtime: the library's time in one run and the
        # program's in another would not add up (OpenBLAS on two busy cores varies 2x).
        replay, cold, device = _replay(
            stats, statistics.median(glue_times) + _inside_runtime(stats)
        )
    ceiling, ceiling_from = replay, CEILING_REPLAY if replay is not None else ""
    if "direct" in times:
        ceiling, ceiling_from = statistics.median(times["direct"]), CEILING_DIRECT
    return BenchRow(
        program=path.name,
        idioms=_idioms(built),
        replaced=built.replaced,
        found=sum(len(u.outcomes) for u in built.units),
        speedup_interval=ratio_interval(times["original"], times["accelerated"]),
        original_s=statistics.median(times["original"]),
        accelerated_s=statistics.median(times["accelerated"]),
        ceiling_s=ceiling,
        ceiling_from=ceiling_from,
        replay_s=replay,
        replay_cold_s=cold,
        device=device,
        outputs_equal=difference is None,
        difference=difference,
        units=built.units,
        polly_s=statistics.median(times["polly"]) if "polly" in times else None,
        polly_difference=differences.get("polly"),
    )


def _alternate(
    commands: dict[str, list[str]], stats: Path, runs: int, tolerance: float
) -> tuple[dict[str, list[float]], list[float], dict[str, str]]:
    """Run the binaries in turn, `runs` rounds: the times of each, the accelerated runs' time
    outside the runtime, and, per binary whose output ever differed from the original's,
    its first difference. The last round's runtime statistics stay in `stats`."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    glue_times: list[float] = []
    differences: dict[str, str] = {}
    expected = None
    for _ in range(max(runs, 1)):
        for name, command in commands.items():
            env: dict[str, str] = {}
            if name == "accelerated":
                stats.unlink(missing_ok=True)
                env["IDIOM_STATS"] = str(stats)
            seconds, out = _run(command, env)
            times[name].append(seconds)
            if expected is None:
                expected = out
                continue
            if name == "accelerated":
                glue_times.append(seconds - _inside_runtime(stats))
            found = first_difference(expected, out, tolerance=tolerance)
            if found is not None:
                differences.setdefault(name, found)
    return times, glue_times, differences


def _idioms(built: Accelerated) -> str:
    counts: dict[str, int] = {}
    for unit in built.units:
        for outcome in unit.outcomes:
            if outcome.replaced:
                counts[outcome.instance.idiom] = counts.get(outcome.instance.idiom, 0) + 1
    return ", ".join(f"{k} x{n}" if n > 1 else k for k, n in sorted(counts.items())) or "-"


def build_original(source: Path, output: Path) -> None:
    """`source` built as its user would: clang-22 -O2."""
    _compile(source, output, (), ("-lm",))


def build_direct(source: Path, output: Path) -> None:
    """A direct program (`direct/`) built against the runtime's OpenBLAS."""
    compile_args, link_args = cblas_program_args()
    _compile(source, output, compile_args, link_args)


def build_polly(source: Path, output: Path) -> None:
    """`source` built by the compiler alone at its most aggressive: POLLY_FLAGS."""
    _compile(source, output, (), ("-lm",), optimisation=POLLY_FLAGS)


def _compile(
    source: Path,
    output: Path,
    compile_args: Sequence[str],
    link_args: Sequence[str],
    *,
    optimisation: Sequence[str] = ("-O2",),
) -> None:
    driver = find_tool("clang++" if source.suffix in CXX_SUFFIXES else "clang")
    command = [driver, *optimisation, "-w", *compile_args, str(source), "-o", str(output)]
    result = subprocess.run([*command, *link_args], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        flags = " ".join(optimisation)
        raise AccelerateError(f"{source}: clang-22 {flags} failed:\n{result.stderr.strip()}")


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


def _replay(stats: Path, accelerated_s: float) -> tuple[float | None, float | None, str]:
    """The replay estimate of the ceiling, warm and cold, and the device the runtime used,
    from the last run's statistics; `accelerated_s` is that run's time inside the runtime
    plus the median time outside it."""
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
    if f"idiom_{entry}" in BLAS_ENTRIES:
        return "OpenBLAS (CPU)"
    name = str(details.get("device") or "OpenCL")
    return name if len(name) <= 40 else name[:37] + "..."
