"""The NAS Parallel Benchmarks built by their own Makefiles, with idiom-c++ as the compiler.

The serial C++ port (GMAP/NPB-CPP, NPB-SER) is never part of the repository: point this
script at a copy. It copies the tree twice into a private temporary folder and builds
each benchmark with `make BENCH CLASS=K CC="COMPILER -std=c++14"`, once with clang++-22
and once with `idiom-c++` (launcher scripts that run this checkout's `wrapper`), then
runs the plain binary, the wrapper's binary as it is (`IDIOM_DEVICE` as set, default
`auto`) and the wrapper's binary forced (`IDIOM_DEVICE=cpu IDIOM_CL_MIN_WORK=1
IDIOM_BLAS_MIN_WORK=1`: every replacement runs on the OpenCL CPU device), and checks each
prints the benchmark's own "Verification = SUCCESSFUL".

    .venv/bin/python benchmarks/wrapper_nas.py --npb PATH/NPB-SER [--classes S W]
        [--benchmarks CG MG] [--json FILE] [--timeout SECONDS] [--bundle .npb-cc]

Columns: program and class, accelerated units (objects of the build carrying an idiom
record), whether the link kept arrays on the device (`yes`, `refused`, `-` where nothing
launches), build seconds (plain / wrapper: the whole `make`, shared objects included),
verification (plain / wrapper / forced), run seconds (the same three). Exits non-zero
when a wrapper binary fails to verify where the plain one verifies, or fails to build.
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
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wrapper.launchers import write_launchers  # noqa: E402
from wrapper.objects import read_input  # noqa: E402

BENCHMARKS = ("BT", "CG", "EP", "FT", "IS", "LU", "MG", "SP")
FORCED = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_BLAS_MIN_WORK": "1"}
VERIFIED = re.compile(r"Verification\s*=\s*SUCCESSFUL")


def launchers(folder: Path) -> dict[str, Path]:
    """`idiom-cc` and `idiom-c++` scripts running this checkout's wrapper."""
    return write_launchers(folder, ROOT)


def build(tree: Path, benchmark: str, klass: str, compiler: str) -> tuple[float, bool, str]:
    """`make` of one benchmark in `tree` (its shared objects removed first, so that each
    build compiles them): seconds, success, the log's tail."""
    for stale in (tree / "common").glob("*.o"):
        stale.unlink()
    for stale in (tree / benchmark).glob("*.o"):
        stale.unlink()
    command = [
        "make",
        benchmark,
        f"CLASS={klass}",
        f"CC={compiler} -std=c++14",
        "UCC=clang++-22",
    ]
    started = time.perf_counter()
    result = subprocess.run(
        command,
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "IDIOM_CC_VERBOSE": "1"},
    )
    seconds = time.perf_counter() - started
    log = (result.stdout + result.stderr).strip().splitlines()
    binary = tree / "bin" / f"{benchmark.lower()}.{klass}"
    return seconds, result.returncode == 0 and binary.exists(), "\n".join(log)


def residency(log: str) -> str:
    """What the wrapper's link step said about residency."""
    if "link: residency over" in log:
        return "yes"
    if "arrays are copied to the device and back" in log:
        return "refused"
    return "-"


def accelerated_units(tree: Path, benchmark: str) -> int:
    count = 0
    for path in [*(tree / benchmark).glob("*.o"), *(tree / "common").glob("*.o")]:
        content = read_input(path)
        if content is not None and not isinstance(content, list) and content.payload:
            count += 1
    return count


def run(binary: Path, env: dict[str, str], timeout: float) -> tuple[float, bool]:
    started = time.perf_counter()
    try:
        result = subprocess.run(
            [str(binary)], capture_output=True, text=True, env=env, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return time.perf_counter() - started, False
    seconds = time.perf_counter() - started
    return seconds, result.returncode == 0 and VERIFIED.search(result.stdout) is not None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--npb", type=Path, required=True, help="the NPB-SER folder")
    parser.add_argument("--classes", nargs="+", default=["S"])
    parser.add_argument("--benchmarks", nargs="+", default=list(BENCHMARKS))
    parser.add_argument("--json", type=Path, help="write the rows here")
    parser.add_argument("--timeout", type=float, default=600.0, help="per run, in seconds")
    parser.add_argument(
        "--bundle",
        type=Path,
        help="also keep the binaries there, as benchmarks/real_differential.py's `run` reads "
        "them (plain as `.original`, the wrapper's as `.accelerated`: for the GPU machine)",
    )
    args = parser.parse_args()
    rows: list[dict[str, object]] = []
    failed = False
    with tempfile.TemporaryDirectory(prefix="idiom-nas-") as tmp:
        scratch = Path(tmp)
        tools = launchers(scratch)
        trees = {"plain": scratch / "plain", "wrapper": scratch / "wrapper"}
        for tree in trees.values():
            shutil.copytree(args.npb, tree)
        compilers = {"plain": "clang++-22", "wrapper": str(tools["idiom-c++"])}
        base = dict(os.environ)
        print(
            f"{'program':<8} {'units':>5} {'resident':>8} {'build plain/wrapper s':>22} "
            f"{'verified plain/wrapper/forced':>30} {'run plain/wrapper/forced s':>28}",
            flush=True,
        )
        for benchmark in args.benchmarks:
            for klass in args.classes:
                row = _one(benchmark, klass, trees, compilers, base, timeout=args.timeout)
                rows.append(row)
                failed = failed or not row["ok"]
                if args.bundle is not None:
                    _bundle(args.bundle, trees, benchmark, klass)
                print(_line(row), flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 1 if failed else 0


def _one(
    benchmark: str,
    klass: str,
    trees: dict[str, Path],
    compilers: dict[str, str],
    base: dict[str, str],
    *,
    timeout: float,
) -> dict[str, object]:
    row: dict[str, object] = {"program": f"{benchmark}.{klass}"}
    for flavour in ("plain", "wrapper"):
        seconds, built, tail = build(trees[flavour], benchmark, klass, compilers[flavour])
        row[f"build_{flavour}_s"] = round(seconds, 1)
        row[f"built_{flavour}"] = built
        if not built:
            row[f"build_{flavour}_log"] = "\n".join(tail.splitlines()[-15:])
        if flavour == "wrapper":
            row["residency"] = residency(tail)
    row["units"] = accelerated_units(trees["wrapper"], benchmark)
    runs = {
        "plain": (trees["plain"], base),
        "wrapper": (trees["wrapper"], base),
        "forced": (trees["wrapper"], {**base, **FORCED}),
    }
    for name, (tree, env) in runs.items():
        binary = tree / "bin" / f"{benchmark.lower()}.{klass}"
        seconds, verified = run(binary, env, timeout) if binary.exists() else (0.0, False)
        row[f"run_{name}_s"] = round(seconds, 2)
        row[f"verified_{name}"] = verified
    row["ok"] = bool(row["built_wrapper"]) and (
        not row["verified_plain"]
        or (bool(row["verified_wrapper"]) and bool(row["verified_forced"]))
    )
    return row


def _bundle(into: Path, trees: dict[str, Path], benchmark: str, klass: str) -> None:
    from mappers.runtime.build import runtime_library  # noqa: PLC0415

    (into / "bin").mkdir(parents=True, exist_ok=True)
    (into / "lib").mkdir(exist_ok=True)
    for folder in runtime_library().library_dirs:
        for library in folder.glob("*.so*"):
            shutil.copy(library, into / "lib")
    stem = f"{benchmark}.{klass}"
    for flavour, kind in (("plain", "original"), ("wrapper", "accelerated")):
        binary = trees[flavour] / "bin" / f"{benchmark.lower()}.{klass}"
        if binary.exists():
            shutil.copy(binary, into / "bin" / f"{stem}.{kind}")
    manifest_path = into / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else []
    manifest = [m for m in manifest if m["stem"] != stem]
    manifest.append({"benchmark": benchmark, "class": klass, "stem": stem})
    manifest_path.write_text(json.dumps(manifest, indent=1))


def _line(row: dict[str, object]) -> str:
    def mark(name: str) -> str:
        return "yes" if row[f"verified_{name}"] else "NO"

    builds = f"{row['build_plain_s']} / {row['build_wrapper_s']}"
    verified = f"{mark('plain')} / {mark('wrapper')} / {mark('forced')}"
    runs = f"{row['run_plain_s']} / {row['run_wrapper_s']} / {row['run_forced_s']}"
    line = (
        f"{row['program']:<8} {row['units']:>5} {row['residency']:>8} {builds:>22} "
        f"{verified:>30} {runs:>28}"
    )
    for flavour in ("plain", "wrapper"):
        if not row[f"built_{flavour}"]:
            line += f"\n  {flavour} build failed:\n{row.get(f'build_{flavour}_log', '')}"
    return line


if __name__ == "__main__":
    sys.exit(main())
