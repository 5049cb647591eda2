"""Real programs, original against accelerated: the NAS Parallel Benchmarks' own verification.

The NAS Parallel Benchmarks (serial C++ port, GMAP/NPB-CPP) are never part of the
repository or of a test: fetch them next to the project and point this script at their
serial folder. Two steps, so that the binaries can be built here and run on the GPU
machine (which has Python but no clang):

    .venv/bin/python benchmarks/real_differential.py build --npb PATH/NPB-CPP/NPB-SER \\
        --classes S W [--benchmarks CG LU] [--into .npb]
    python3 benchmarks/real_differential.py run [--from .npb] [--modes forced-cpu auto] \\
        [--json FILE]

`build` compiles each benchmark with its own flags (`-O3 -mcmodel=medium`, C++14), once
with `clang++-22` (the original) and once with `idiom accelerate` (the same flags), and
writes a manifest. `run` runs each pair under each mode and reads the benchmark's own
verification line ("Verification = SUCCESSFUL"); it needs only the standard library.
Modes: `forced-cpu` (`IDIOM_DEVICE=cpu`, every threshold at 1: every replacement runs
on the OpenCL CPU device), `forced-gpu` (the same on the GPU), `gpu` (the GPU wherever a
launch passes the default thresholds), `auto` (the default), and `off`. It prints: program,
class, mode, device, original time, accelerated time (whole runs, process start included),
the timed section each benchmark reports itself ("Time in seconds": without its set-up,
which runs on the host in both), verification of each, and exits
non-zero when an accelerated run fails to verify where the original verifies.
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
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ("BT", "CG", "EP", "FT", "IS", "LU", "MG", "SP")
COMMON_SOURCES = ("c_print_results.cpp", "c_randdp.cpp", "c_timers.cpp", "wtime.cpp")
NPB_FLAGS = ("-O3", "-mcmodel=medium")
FORCED = {"IDIOM_CL_MIN_WORK": "1", "IDIOM_BLAS_MIN_WORK": "1", "IDIOM_GPU_MIN_WORK": "1"}
MODES: dict[str, dict[str, str]] = {
    "forced-cpu": {"IDIOM_DEVICE": "cpu", **FORCED},
    "forced-gpu": {"IDIOM_DEVICE": "gpu", **FORCED},
    "gpu": {"IDIOM_DEVICE": "gpu"},
    "auto": {"IDIOM_DEVICE": "auto"},
    "off": {"IDIOM_DEVICE": "off"},
}
# The mode of an original's second run (`run --control`).
CONTROL = "control"
LAUNCH_FIGURES = (
    "policy",
    "median_host_us_resident",
    "upload_bytes",
    "download_bytes",
    "host_accesses",
    "seconds_in_runtime",
    "faults",
    "by_kernel",
)
VERIFIED = re.compile(r"Verification\s*=\s*SUCCESSFUL")
# The benchmark's own timer: its timed section, without the set-up before it (NAS CG's
# makea, several seconds at class B, runs on the host in both programs).
TIMED = re.compile(r"Time in seconds\s*=\s*([0-9.]+)")


def _setparams(npb: Path, scratch: Path) -> Path:
    tool = scratch / "setparams"
    if not tool.exists():
        subprocess.run(
            ["clang++-22", "-w", "-O1", str(npb / "sys" / "setparams.cpp"), "-o", str(tool)],
            check=True,
        )
    return tool


def build(npb: Path, classes: list[str], benchmarks: list[str], into: Path) -> None:
    sys.path.insert(0, str(ROOT))
    from mappers.accelerate import accelerate  # noqa: PLC0415  (not on the GPU machine)
    from mappers.runtime.build import runtime_library  # noqa: PLC0415
    from matcher.frontend import CompileOptions  # noqa: PLC0415

    (into / "bin").mkdir(parents=True, exist_ok=True)
    (into / "lib").mkdir(exist_ok=True)
    for folder in runtime_library().library_dirs:
        for library in folder.glob("*.so*"):
            shutil.copy(library, into / "lib")
    manifest_path = into / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else []
    with tempfile.TemporaryDirectory(prefix="idiom-npb-") as tmp:
        scratch = Path(tmp)
        setparams = _setparams(npb, scratch)
        for name in benchmarks:
            for klass in classes:
                # setparams reads ../config/make.def beside the benchmark's folder
                work = scratch / f"{name}.{klass}" / name
                shutil.copytree(npb / name, work)
                shutil.copytree(npb / "config", work.parent / "config")
                subprocess.run([str(setparams), name.lower(), klass], cwd=work, check=True)
                sources = [work / f"{name.lower()}.cpp"] + [
                    npb / "common" / c for c in COMMON_SOURCES
                ]
                stem = f"{name}.{klass}"
                original = into / "bin" / f"{stem}.original"
                include = ["-I", str(npb / "common"), "-I", str(work)]
                subprocess.run(
                    ["clang++-22", "-std=c++14", "-w", *NPB_FLAGS, *include]
                    + [str(s) for s in sources]
                    + ["-o", str(original), "-lm"],
                    check=True,
                )
                options = CompileOptions(
                    include_dirs=(str(npb / "common"), str(work)),
                    std="c++14",
                    extra_flags=("-w", *NPB_FLAGS),
                )
                started = time.perf_counter()
                accelerate(sources, into / "bin" / f"{stem}.accelerated", options)
                print(f"built {stem} ({time.perf_counter() - started:.1f} s to accelerate)")
                manifest = [m for m in manifest if m["stem"] != stem]
                manifest.append({"benchmark": name, "class": klass, "stem": stem})
    manifest_path.write_text(json.dumps(manifest, indent=1))


def _run_one(
    binary: Path, env: dict[str, str], timeout: float
) -> tuple[float, float | None, bool, str]:
    """The whole run's seconds, the benchmark's timed section (None if it printed none),
    whether it verified, and the last lines of its output."""
    started = time.perf_counter()
    try:
        result = subprocess.run(
            [str(binary)], capture_output=True, text=True, env=env, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return time.perf_counter() - started, None, False, "timed out"
    elapsed = time.perf_counter() - started
    verified = result.returncode == 0 and VERIFIED.search(result.stdout) is not None
    timed = TIMED.search(result.stdout)
    tail = (result.stdout + result.stderr).strip().splitlines()[-3:]
    return elapsed, float(timed.group(1)) if timed else None, verified, " | ".join(tail)


def run(
    bundle: Path,
    modes: list[str],
    *,
    timeout: float,
    stats: bool,
    jobs: int,
    only: list[str],
    log: Path | None,
    control: bool = False,
) -> list[dict[str, object]]:
    """Every original and every (program, mode), `jobs` at a time (timings taken side by side
    then: say so when reporting them). Each run is printed, and appended to `log` as a JSON
    line, as soon as it ends: a run cut short keeps what it had. With `control`, each
    original runs twice, beside the others: the two runs' difference is the noise that a
    ratio of the same runs must exceed to mean something."""
    manifest = json.loads((bundle / "manifest.json").read_text())
    manifest = [m for m in manifest if not only or m["stem"] in only or m["benchmark"] in only]
    base = dict(os.environ)
    library_path = str((bundle / "lib").resolve())
    base["LD_LIBRARY_PATH"] = ":".join(filter(None, [library_path, base.get("LD_LIBRARY_PATH")]))
    originals = ("original", CONTROL) if control else ("original",)
    tasks = [(entry, mode) for entry in manifest for mode in (*originals, *modes)]
    runs: dict[tuple[str, str], dict[str, object]] = {}
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {
            pool.submit(_task, bundle, base, entry, mode, timeout=timeout, stats=stats): (
                entry,
                mode,
            )
            for entry, mode in tasks
        }
        for future in as_completed(futures):
            entry, mode = futures[future]
            one = {"stem": entry["stem"], "mode": mode, **future.result()}
            runs[(entry["stem"], mode)] = one
            print(json.dumps(one), flush=True)
            if log is not None:
                with log.open("a") as out:
                    out.write(json.dumps(one) + "\n")
    rows = []
    for entry, mode in tasks:
        if mode not in originals:
            stem = entry["stem"]
            row = _row(entry, runs[(stem, "original")], runs[(stem, mode)])
            if control:
                row["control_s"] = runs[(stem, CONTROL)]["seconds"]
                row["control_timed_s"] = runs[(stem, CONTROL)]["timed_seconds"]
                row["control_verified"] = runs[(stem, CONTROL)]["verified"]
            rows.append(row)
    return rows


def _row(
    entry: dict[str, str], original: dict[str, object], accelerated: dict[str, object]
) -> dict[str, object]:
    return {
        "benchmark": entry["benchmark"],
        "class": entry["class"],
        "mode": accelerated["mode"],
        "device": accelerated["device"],
        "launches": accelerated["launches"],
        "original_s": original["seconds"],
        "accelerated_s": accelerated["seconds"],
        "original_timed_s": original["timed_seconds"],
        "accelerated_timed_s": accelerated["timed_seconds"],
        "original_verified": original["verified"],
        "accelerated_verified": accelerated["verified"],
        "tail": "" if accelerated["verified"] else accelerated["tail"],
        **{k: accelerated[k] for k in LAUNCH_FIGURES if k in accelerated},
    }


def _task(
    bundle: Path,
    base: dict[str, str],
    entry: dict[str, str],
    mode: str,
    *,
    timeout: float,
    stats: bool,
) -> dict[str, object]:
    plain = mode in ("original", CONTROL)
    binary = bundle / "bin" / f"{entry['stem']}.{'original' if plain else 'accelerated'}"
    env = base if plain else {**base, **MODES[mode]}
    with tempfile.TemporaryDirectory(prefix="idiom-npb-run-") as tmp:
        if stats and not plain:
            env = {**env, "IDIOM_STATS": f"{tmp}/stats.jsonl"}
        seconds, timed, verified, tail = _run_one(binary, env, timeout)
        calls = _read_stats(Path(tmp) / "stats.jsonl")
    devices = sorted({str(c.get("device", "")) for c in calls if c.get("device")})
    return {
        "seconds": round(seconds, 3),
        "timed_seconds": timed,
        "verified": verified,
        "tail": tail,
        "launches": sum(1 for c in calls if "kernel" in c),
        "faults": sum(1 for c in calls if c.get("entry") == "host_fault"),
        "device": ", ".join(devices) or "-",
        **_launch_figures(calls),
    }


def _by_kernel(calls: list[dict[str, object]]) -> dict[str, dict[str, object]]:
    """Per kernel (and for the host accesses): calls, launched, replayed checks, seconds
    inside the runtime, kernel seconds, bytes each way, and auto's choices."""
    kernels: dict[str, dict[str, object]] = {}
    for call in calls:
        name = str(call.get("kernel") or call.get("entry"))
        row = kernels.setdefault(
            name,
            {"calls": 0, "done": 0, "replayed": 0, "seconds": 0.0, "kernel_seconds": 0.0,
             "upload_bytes": 0, "download_bytes": 0, "policy": {}},
        )  # fmt: skip
        row["calls"] = int(row["calls"]) + 1  # type: ignore[call-overload]
        row["done"] = int(row["done"]) + (call.get("status") == 0)  # type: ignore[call-overload]
        row["replayed"] = int(row["replayed"]) + bool(call.get("replayed"))  # type: ignore[call-overload]
        for key in ("seconds", "kernel_seconds"):
            row[key] = round(float(row[key]) + float(call.get(key) or 0.0), 6)  # type: ignore[arg-type]
        for key in ("upload_bytes", "download_bytes"):
            row[key] = int(row[key]) + int(call.get(key) or 0)  # type: ignore[call-overload]
        if "policy" in call:
            reasons = row["policy"]
            assert isinstance(reasons, dict)
            reasons[str(call["policy"])] = reasons.get(str(call["policy"]), 0) + 1
    return kernels


def _launch_figures(calls: list[dict[str, object]]) -> dict[str, object]:
    """auto's choices by reason, and the median host time of a launch beside its kernel where
    its data was already on the device (at most the partial pages at its arrays' ends
    uploaded)."""
    sys.path.insert(0, str(ROOT))
    from measure.launches import host_seconds_on_device_data, policy_counts  # noqa: PLC0415

    reasons = policy_counts(calls)
    host = [h for h in map(host_seconds_on_device_data, calls) if h is not None]
    figures: dict[str, object] = {"policy": reasons} if reasons else {}
    moved = {
        key: sum(int(c.get(key, 0) or 0) for c in calls)  # type: ignore[call-overload]
        for key in ("upload_bytes", "download_bytes")
    }
    if any(moved.values()):
        figures.update(moved)
        figures["host_accesses"] = sum(1 for c in calls if c.get("entry") == "host_access")
        figures["seconds_in_runtime"] = round(
            sum(float(c.get("seconds", 0.0)) for c in calls),  # type: ignore[arg-type]
            3,
        )
        figures["by_kernel"] = _by_kernel(calls)
    if host:
        figures["median_host_us_resident"] = round(1e6 * statistics.median(host), 1)
    return figures


def _read_stats(path: Path) -> list[dict[str, object]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _print_row(row: dict[str, object]) -> None:
    def verdict(ok: object) -> str:
        return "SUCCESSFUL" if ok else "FAILED"

    print(
        f"{row['benchmark']:3} {row['class']:2} {row['mode']:10} {row['launches']!s:>7} "
        f"{row['original_s']!s:>9} {row['accelerated_s']!s:>9} "
        f"{row['original_timed_s']!s:>9} {row['accelerated_timed_s']!s:>9} "
        f"{verdict(row['original_verified']):>10} {verdict(row['accelerated_verified']):>10}"
        f"  {row['device']}  {row['tail']}",
        flush=True,
    )
    if "control_s" in row:
        print(
            f"{'':3} {'':2} {'control':10} {'':>7} {row['control_s']!s:>9} {'':>9} "
            f"{row['control_timed_s']!s:>9}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    verbs = parser.add_subparsers(dest="verb", required=True)
    make = verbs.add_parser("build")
    make.add_argument("--npb", type=Path, required=True, help="the NPB-SER folder")
    make.add_argument("--classes", nargs="+", default=["S", "W"])
    make.add_argument("--benchmarks", nargs="+", default=list(BENCHMARKS))
    make.add_argument("--into", type=Path, default=ROOT / ".npb")
    go = verbs.add_parser("run")
    go.add_argument("--from", dest="bundle", type=Path, default=ROOT / ".npb")
    go.add_argument("--modes", nargs="+", default=["forced-cpu", "auto"], choices=list(MODES))
    go.add_argument("--timeout", type=float, default=900.0)
    go.add_argument("--stats", action="store_true", help="count launches (IDIOM_STATS)")
    go.add_argument("--json", type=Path)
    go.add_argument("--jobs", type=int, default=1, help="runs side by side")
    go.add_argument("--only", nargs="*", default=[], help="benchmarks (CG) or stems (CG.S)")
    go.add_argument("--log", type=Path, help="append each run here as a JSON line")
    go.add_argument(
        "--control", action="store_true", help="each original run twice: the noise beside"
    )
    args = parser.parse_args()
    if args.verb == "build":
        build(args.npb, args.classes, args.benchmarks, args.into)
        return
    rows = run(
        args.bundle,
        args.modes,
        timeout=args.timeout,
        stats=args.stats,
        jobs=args.jobs,
        only=args.only,
        log=args.log,
        control=args.control,
    )
    print(
        f"\n{'prg':3} {'cl':2} {'mode':10} {'launch':>7} {'orig s':>9} {'accel s':>9} "
        f"{'orig timed':>9} {'acc timed':>9} "
        f"{'original':>10} {'accel':>10}  device"
    )
    for row in rows:
        _print_row(row)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    failed = [r for r in rows if r["original_verified"] and not r["accelerated_verified"]]
    print(f"\n{len(rows) - len(failed)} verified, {len(failed)} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
