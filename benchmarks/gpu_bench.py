"""Original against accelerated on the GPU machine (see ../shared/DEVICE.md).

The GPU machine has no clang, so the binaries are built here:

    .venv/bin/python benchmarks/gpu_bench.py bundle [PROGRAM...]   # into .gpu/ (git-ignored)

and run there by the same file, which then needs only Python and the bundle:

    python3 benchmarks/gpu_bench.py run --out "$OUT" [--device gpu] [--runs 5]

`bundle all` takes every corpus program with an idiom. The same machine is a quiet CPU
too: `run --device auto --cpus 0,1 --ceiling` times the corpus as on a two-core machine
(IDIOM_DEVICE=auto keeps OpenCL off the CPU), with the ceiling of each program (its BLAS
calls replayed directly; install the scipy-openblas32 and lark wheels from .gpu/wheels
there).

For each program: the original and the accelerated binary at the corpus's benchmark
size (and its hand-written counterpart calling cblas directly, where corpus/direct/ has
one: `direct_s`, `of_direct`), in turn, median wall time of several runs, every output
compared with the original's, and
the runtime's per-call statistics (IDIOM_STATS: device, kernel time from OpenCL event
profiling). With `--translated`, the same program built with its kernels translated from
the IR (`IDIOM_KERNELS=translated`) runs beside it: generated against translated kernels
on the same input. From a copy kernel run through the same runtime (`copy` below) it derives
each kernel's share of the device's copy bandwidth, data resident (kernel time only).
Under `--device auto` each program's calls also give auto's choices (`policy`) and the
median host time of a launch whose data was on the device.

Real programs go the same way through `benchmarks/real_differential.py`: `build --classes B`
here, `run --modes auto --stats` there, each NAS benchmark verified by itself, original
against accelerated, the device named, with auto's choices and per-kernel figures.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUNDLE = ROOT / ".gpu"
DEFAULT_PROGRAMS = (
    "red_dot.c",
    "red_norms.c",
    "red_stats.c",
    "stencil_1d5_float.c",
    "stencil_2d5_global.c",
    "stencil_3d7_heat.c",
    "stencil_3d27_global.c",
    "hist_keys.c",
    "hist_image.cpp",
    "csr_banded.c",
    "gemm_dot_global.c",
    "gemv_rows_global.c",
)
COPY_PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include "idiom_runtime.h"
static const char *source =
    "__kernel void copy(__global const float* restrict a, __global float* restrict b, long n) {"
    "  long i = get_global_id(0); if (i < n) b[i] = a[i]; }";
int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : (1L << 26);
    float *a = malloc(sizeof(float) * n), *b = malloc(sizeof(float) * n);
    for (long i = 0; i < n; i++) a[i] = (float)i;
    int64_t global = n;
    idiom_arg args[3] = {{IDIOM_ARG_IN, 0, a, (int64_t)(sizeof(float) * n)},
                         {IDIOM_ARG_OUT, 0, b, (int64_t)(sizeof(float) * n)},
                         {IDIOM_ARG_SCALAR, 0, &n, 8}};
    int status = 0;
    for (int r = 0; r < 5; r++)
        status |= idiom_cl_run(source, "copy", 1, &global, NULL, n, 3, args);
    printf("status %d check %g\n", status, (double)b[n - 1]);
    return 0;
}
"""


def bundle(programs: list[str], *, translated: bool = True, polly: bool = False) -> None:
    sys.path.insert(0, str(ROOT))
    from mappers.accelerate import accelerate  # noqa: PLC0415  (only here, not on the GPU)
    from mappers.runtime.build import RUNTIME_DIR, runtime_library  # noqa: PLC0415
    from matcher.expectations import read_program  # noqa: PLC0415
    from matcher.frontend import CXX_SUFFIXES, CompileOptions, find_tool  # noqa: PLC0415
    from measure.bench import build_direct, build_polly, direct_source  # noqa: PLC0415
    from measure.compare import program_tolerance  # noqa: PLC0415

    for made in ("bin", "lib"):  # .gpu/wheels (pyopencl, scipy-openblas32) stays
        shutil.rmtree(BUNDLE / made, ignore_errors=True)
    (BUNDLE / "bin").mkdir(parents=True)
    (BUNDLE / "lib").mkdir()
    runtime = runtime_library()
    for folder in runtime.library_dirs:
        for library in folder.glob("*.so*"):
            shutil.copy(library, BUNDLE / "lib")
    manifest = []
    for spec in programs:
        name, _, arguments = spec.partition(":")
        source = ROOT / "corpus" / name
        stem = source.stem
        if not (BUNDLE / "bin" / f"{stem}.original").exists():
            driver = find_tool("clang++" if source.suffix in CXX_SUFFIXES else "clang")
            original = BUNDLE / "bin" / f"{stem}.original"
            subprocess.run(
                [driver, "-O2", "-w", str(source), "-o", str(original), "-lm"], check=True
            )
            accelerate([source], BUNDLE / "bin" / f"{stem}.accelerated", CompileOptions())
        if translated and not (BUNDLE / "bin" / f"{stem}.translated").exists():
            # The same program with its kernels translated from the IR instead of
            # generated by the Lift compiler: `run --translated` times both.
            os.environ["IDIOM_KERNELS"] = "translated"
            try:
                accelerate([source], BUNDLE / "bin" / f"{stem}.translated", CompileOptions())
            finally:
                del os.environ["IDIOM_KERNELS"]
        if polly and not (BUNDLE / "bin" / f"{stem}.polly").exists():
            build_polly(source, BUNDLE / "bin" / f"{stem}.polly")
        direct = direct_source(source)
        if direct is not None and not (BUNDLE / "bin" / f"{stem}.direct").exists():
            build_direct(direct, BUNDLE / "bin" / f"{stem}.direct")
        args = arguments.split(",") if arguments else list(read_program(source).bench_args)
        tolerance = program_tolerance(source)
        manifest.append(
            {
                "program": name,
                "stem": stem,
                "args": args,
                "tolerance": tolerance,
                "direct": direct is not None,
                "polly": (BUNDLE / "bin" / f"{stem}.polly").exists(),
            }
        )
    with tempfile.TemporaryDirectory() as tmp:
        copy_source = Path(tmp) / "copy.c"
        copy_source.write_text(COPY_PROGRAM)
        subprocess.run(
            [
                find_tool("clang"),
                "-O2",
                f"-I{RUNTIME_DIR}",
                str(copy_source),
                str(runtime.archive),
                "-o",
                str(BUNDLE / "bin" / "copy"),
                *runtime.link_args,
            ],
            check=True,
        )
    (BUNDLE / "manifest.json").write_text(json.dumps(manifest, indent=1))
    size = sum(p.stat().st_size for p in BUNDLE.rglob("*") if p.is_file())
    print(f"bundle: {len(manifest)} programs, {size / 2**20:.1f} MiB in {BUNDLE}")


def _run(command: list[str], env: dict[str, str]) -> tuple[float, str, str]:
    started = time.perf_counter()
    result = subprocess.run(
        command, capture_output=True, text=True, env=env, timeout=600, check=False
    )
    return time.perf_counter() - started, result.stdout, result.stderr


def _stats(path: Path) -> list[dict[str, object]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def corpus_with_direct() -> list[str]:
    """Every corpus program with a hand-written counterpart calling the library directly."""
    return sorted(p.name for p in (ROOT / "corpus" / "direct").glob("*.c*"))


def corpus_with_idioms() -> list[str]:
    """Every corpus program expected to hold an idiom."""
    sys.path.insert(0, str(ROOT))
    from matcher.expectations import read_program  # noqa: PLC0415

    programs = sorted((ROOT / "corpus").glob("*.c*"))
    return [p.name for p in programs if any(e.present for e in read_program(p).expectations)]


def run(
    out: Path,
    device: str,
    runs: int,
    *,
    ceiling: bool,
    cpus: list[int] | None,
    part: str,
    only: set[str] | None = None,
    control: bool = False,
    translated: bool = False,
    polly_runs: int = 1_000,
) -> None:
    sys.path.insert(0, str(ROOT))
    from measure.compare import first_difference  # noqa: PLC0415  (pure Python)
    from measure.paired import ratio_interval  # noqa: PLC0415  (pure Python)

    if cpus:  # a machine of that many cores (children inherit it); OpenBLAS told as much
        os.sched_setaffinity(0, cpus)
        os.environ["OPENBLAS_NUM_THREADS"] = str(len(cpus))

    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "LD_LIBRARY_PATH": str(BUNDLE / "lib"), "IDIOM_DEVICE": device}
    scratch = Path(tempfile.mkdtemp(prefix="gpu-bench-"))  # only gpu_bench.json goes to `out`
    env["IDIOM_CACHE_DIR"] = str(scratch / "cache")
    results: dict[str, object] = {"device_policy": device}
    copy_stats = scratch / "copy.jsonl"
    _run([str(BUNDLE / "bin" / "copy")], {**env, "IDIOM_STATS": str(copy_stats)})
    copies = [c for c in _stats(copy_stats) if c.get("status") == 0]
    if copies:
        best = min(float(c["kernel_seconds"]) for c in copies)  # type: ignore[arg-type]
        moved = 2 * 4 * (1 << 26)
        results["copy_bandwidth_GBs"] = moved / best / 1e9
        results["copy_device"] = copies[0].get("device")
    rows = []
    number, parts = (int(n) for n in part.split("/"))
    manifest = json.loads((BUNDLE / "manifest.json").read_text())
    if only:
        manifest = [entry for entry in manifest if entry["program"] in only]
    for entry in manifest[number - 1 :: parts]:
        stem = entry["stem"]
        args = entry["args"]
        originals, accelerated, direct, glue = [], [], [], []
        polly: list[float] = []
        difference = direct_difference = expected = None
        stats_file = scratch / f"{stem}-{'-'.join(args)}.jsonl"
        tolerance = entry.get("tolerance", 1e-5)
        controls: list[float] = []
        translated_runs: list[float] = []
        translated_stats = scratch / f"{stem}-translated.jsonl"
        translated_difference = None
        original_binary = [str(BUNDLE / "bin" / f"{stem}.original"), *args]
        for steps in _rounds(runs, control=control):
            for step in steps:
                if step == "original":
                    seconds, stdout, _ = _run(original_binary, env)
                    originals.append(seconds)
                    expected = stdout if expected is None else expected
                elif step == "control":  # the original against itself: the noise alone
                    controls.append(_run(original_binary, env)[0])
                else:
                    stats_file.unlink(missing_ok=True)
                    seconds, produced, _ = _run(
                        [str(BUNDLE / "bin" / f"{stem}.accelerated"), *args],
                        {**env, "IDIOM_STATS": str(stats_file)},
                    )
                    accelerated.append(seconds)
                    glue.append(seconds - _inside_runtime(stats_file))
                    if translated:  # the kernels translated from the IR, for comparison
                        translated_stats.unlink(missing_ok=True)
                        seconds, translated_output, _ = _run(
                            [str(BUNDLE / "bin" / f"{stem}.translated"), *args],
                            {**env, "IDIOM_STATS": str(translated_stats)},
                        )
                        translated_runs.append(seconds)
                        translated_difference = translated_difference or first_difference(
                            expected or translated_output, translated_output, tolerance=tolerance
                        )
            assert expected is not None
            difference = difference or first_difference(expected, produced, tolerance=tolerance)
            if entry.get("direct"):  # the kernels called through cblas by hand (corpus/direct)
                seconds, stdout, _ = _run([str(BUNDLE / "bin" / f"{stem}.direct"), *args], env)
                direct.append(seconds)
                direct_difference = direct_difference or first_difference(
                    expected, stdout, tolerance=tolerance
                )
            if entry.get("polly") and len(polly) < polly_runs:  # clang -O3 and Polly
                polly.append(_run([str(BUNDLE / "bin" / f"{stem}.polly"), *args], env)[0])
        calls = _stats(stats_file)
        rows.append(
            {
                "program": entry["program"],
                "args": args,
                "original_s": statistics.median(originals),
                "accelerated_s": statistics.median(accelerated),
                "speedup": statistics.median(originals) / statistics.median(accelerated),
                "speedup_interval": ratio_interval(originals, accelerated),
                "outputs_equal": difference is None,
                "difference": difference,
                "calls": _summarise(calls),
                "original_runs": originals,
                "accelerated_runs": accelerated,
            }
        )
        if translated_runs:
            rows[-1]["translated_s"] = statistics.median(translated_runs)
            rows[-1]["translated_runs"] = translated_runs
            rows[-1]["translated_calls"] = _summarise(_stats(translated_stats))
            rows[-1]["translated_outputs_equal"] = translated_difference is None
        if controls:
            rows[-1]["control_runs"] = controls
            rows[-1]["control_ratio"] = statistics.median(originals) / statistics.median(controls)
            rows[-1]["control_interval"] = ratio_interval(originals, controls)
        if direct:
            rows[-1]["direct_s"] = statistics.median(direct)
            rows[-1]["of_direct"] = statistics.median(direct) / statistics.median(accelerated)
            rows[-1]["direct_difference"] = direct_difference
        if polly:
            rows[-1]["polly_s"] = statistics.median(polly)
            rows[-1]["vs_polly"] = statistics.median(polly) / statistics.median(accelerated)
        if ceiling:  # the median time outside the runtime, with the last run's inside it
            median = statistics.median(glue) + _inside_runtime(stats_file)
            rows[-1]["ceiling_s"] = _ceiling(stats_file, median, cold=False)
            rows[-1]["ceiling_cold_s"] = _ceiling(stats_file, median, cold=True)
        print(json.dumps(rows[-1]), flush=True)
        # Written after each program: a run cut short (the device tool's time limit) keeps
        # the programs it finished.
        results["programs"] = rows
        (out / "gpu_bench.json").write_text(json.dumps(results, indent=1))
    results["programs"] = rows
    (out / "gpu_bench.json").write_text(json.dumps(results, indent=1))
    shutil.rmtree(scratch, ignore_errors=True)


def _rounds(runs: int, *, control: bool) -> list[tuple[str, ...]]:
    """What each round runs, in order. The original and the accelerated binary swap places
    from one round to the next (a fixed order would bias their ratio); the control (the
    original again) takes the other end of the round, so its ratio is balanced too."""
    even = ("original", "accelerated", "control") if control else ("original", "accelerated")
    return [even if number % 2 == 0 else even[::-1] for number in range(runs)]


def _inside_runtime(stats_file: Path) -> float:
    """Seconds one run spent inside the runtime for the calls it did."""
    from measure.ceiling import inside_seconds, read_stats  # noqa: PLC0415

    return inside_seconds(read_stats(stats_file))


def _ceiling(stats_file: Path, accelerated_s: float, *, cold: bool) -> float | None:
    """The program with its accelerated calls made by the library alone (measure/ceiling.py;
    its OpenBLAS comes from the scipy-openblas32 wheel); `cold`: its first call as the first
    of a fresh process."""
    from measure.ceiling import CeilingError, ceiling_seconds, read_stats  # noqa: PLC0415

    try:
        calls = read_stats(stats_file) if stats_file.exists() else []
        return ceiling_seconds(accelerated_s, calls, cold=cold) if calls else None
    except CeilingError as error:
        print(f"ceiling: {error}", file=sys.stderr)
        return None


def _summarise(calls: list[dict[str, object]]) -> list[dict[str, object]]:
    """Per (entry, kernel, device): calls done, seconds inside the runtime, kernel seconds."""
    sys.path.insert(0, str(ROOT))
    from measure.launches import host_seconds_on_device_data, policy_counts  # noqa: PLC0415

    groups: dict[tuple[str, str, str], dict[str, float]] = {}
    durations: dict[tuple[str, str, str], list[float]] = {}
    host_costs: dict[tuple[str, str, str], list[float]] = {}
    enqueue_costs: dict[tuple[str, str, str], list[float]] = {}  # the driver's share of those
    for call in calls:
        if call.get("status") != 0:
            continue
        key = (str(call.get("entry")), str(call.get("kernel", "")), str(call.get("device", "")))
        group = groups.setdefault(
            key,
            {
                "calls": 0,
                "seconds": 0.0,
                "kernel_seconds": 0.0,
                "min_kernel_seconds": float("inf"),
                "upload_bytes": 0,
                "download_bytes": 0,
                "build_seconds": 0.0,
            },
        )
        durations.setdefault(key, []).append(float(call.get("seconds", 0.0)))  # type: ignore[arg-type]
        host_cost = host_seconds_on_device_data(call)
        if host_cost is not None:
            host_costs.setdefault(key, []).append(host_cost)
            enqueue = call.get("enqueue_seconds")
            if isinstance(enqueue, float | int):
                enqueue_costs.setdefault(key, []).append(float(enqueue))
        group["build_seconds"] += float(call.get("build_seconds", 0.0) or 0.0)  # type: ignore[arg-type]
        kernel = float(call.get("kernel_seconds", 0.0) or 0.0)  # type: ignore[arg-type]
        group["calls"] += 1
        group["seconds"] += float(call.get("seconds", 0.0))  # type: ignore[arg-type]
        group["kernel_seconds"] += kernel
        if kernel > 0:
            group["min_kernel_seconds"] = min(group["min_kernel_seconds"], kernel)
        group["upload_bytes"] += int(call.get("upload_bytes", 0) or 0)  # type: ignore[call-overload]
        group["download_bytes"] += int(call.get("download_bytes", 0) or 0)  # type: ignore[call-overload]
    for key, values in groups.items():  # the typical call: first calls build programs
        values["median_call_seconds"] = statistics.median(durations[key])
        if key in host_costs:
            values["median_host_seconds_resident"] = statistics.median(host_costs[key])
        if key in enqueue_costs:  # in clEnqueueNDRangeKernel: the driver, and its full queue
            values["median_enqueue_seconds_resident"] = statistics.median(enqueue_costs[key])
    summary: list[dict[str, object]] = [
        {"entry": e, "kernel": k, "device": d, **values} for (e, k, d), values in groups.items()
    ]
    reasons = policy_counts(calls)  # auto's choices, launched or declined
    if reasons:
        summary.append({"entry": "policy", **reasons})
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("bundle")
    make.add_argument(
        "programs",
        nargs="*",
        default=list(DEFAULT_PROGRAMS),
        help="corpus programs, each optionally with its arguments (red_dot.c:32000000,20), "
        "`all`: every corpus program with an idiom, or `direct`: every one with a hand-written "
        "counterpart in corpus/direct/",
    )
    make.add_argument(
        "--no-translated", action="store_true", help="no build with translated kernels"
    )
    make.add_argument("--polly", action="store_true", help="a clang -O3 + Polly build too")
    go = commands.add_parser("run")
    go.add_argument("--out", type=Path, required=True)
    go.add_argument("--device", default="gpu")
    go.add_argument("--runs", type=int, default=5)
    go.add_argument("--ceiling", action="store_true", help="replay BLAS calls directly too")
    go.add_argument("--cpus", help="run on these CPUs only, e.g. 0,1 (a two-core machine)")
    go.add_argument("--part", default="1/1", help="K/N: every N-th program from the K-th")
    go.add_argument("--programs", help="only these bundled programs, e.g. red_dot.c,hist_keys.c")
    go.add_argument(
        "--control", action="store_true", help="time the original against itself too (A/A)"
    )
    go.add_argument("--polly-runs", type=int, default=1_000, help="at most this many Polly runs")
    go.add_argument(
        "--translated",
        action="store_true",
        help="time the build whose kernels are translated from the IR too (IDIOM_KERNELS)",
    )
    args = parser.parse_args()
    if args.command == "bundle":
        named = {"all": corpus_with_idioms, "direct": corpus_with_direct}
        first = args.programs[0] if len(args.programs) == 1 else ""
        programs = named[first]() if first in named else args.programs
        bundle(programs, translated=not args.no_translated, polly=args.polly)
    else:
        cpus = [int(c) for c in args.cpus.split(",")] if args.cpus else None
        only = set(args.programs.split(",")) if args.programs else None
        run(
            args.out,
            args.device,
            args.runs,
            ceiling=args.ceiling,
            cpus=cpus,
            part=args.part,
            only=only,
            control=args.control,
            translated=args.translated,
            polly_runs=args.polly_runs,
        )


if __name__ == "__main__":
    main()
