"""HPCCG (Mantevo's conjugate-gradient mini-app), original against accelerated.

HPCCG is never part of the repository or of a test: fetch it next to the project and
point this script at its folder:

    .venv/bin/python benchmarks/hpccg_differential.py --hpccg PATH/HPCCG [--size 40]
        [--modes forced-cpu off] [--json FILE]

It builds the program three ways from HPCCG's own source list (`clang++-22 -O2`; `idiom
accelerate`; `idiom accelerate --no-reassociate`, where only replacements that keep
every floating-point order are made) and runs each under each mode (as in
real_differential.py). HPCCG prints its residual every 15 iterations: the exact build
must print the original's lines to the last digit; the reassociating one (its dot
products are summed in another order) the same number of iterations and a final
residual within 1e-12 of the initial one's scale. It also counts the launches of each
kernel (`IDIOM_STATS`), so a replacement that silently fell back shows.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = (
    "main.cpp",
    "generate_matrix.cpp",
    "read_HPC_row.cpp",
    "compute_residual.cpp",
    "mytimer.cpp",
    "dump_matlab_matrix.cpp",
    "HPC_sparsemv.cpp",
    "HPCCG.cpp",
    "waxpby.cpp",
    "ddot.cpp",
    "make_local_matrix.cpp",
    "exchange_externals.cpp",
    "YAML_Element.cpp",
    "YAML_Doc.cpp",
)
FORCED = {"IDIOM_CL_MIN_WORK": "1", "IDIOM_BLAS_MIN_WORK": "1", "IDIOM_GPU_MIN_WORK": "1"}
MODES = {
    "forced-cpu": {"IDIOM_DEVICE": "cpu", **FORCED},
    "forced-gpu": {"IDIOM_DEVICE": "gpu", **FORCED},
    "auto": {"IDIOM_DEVICE": "auto"},
    "off": {"IDIOM_DEVICE": "off"},
}
RESIDUAL = re.compile(r"^(?:Initial Residual|Iteration) .*$", re.MULTILINE)
NUMBER = re.compile(r"Residual = (\S+)")


def build(hpccg: Path, into: Path) -> dict[str, Path]:
    sources = [str(hpccg / name) for name in SOURCES]
    binaries = {name: into / name for name in ("original", "accelerated", "exact")}
    subprocess.run(
        ["clang++-22", "-O2", "-w", "-o", str(binaries["original"]), *sources], check=True
    )
    idiom = [sys.executable, "-m", "cli.main", "accelerate", "-X=-w"]
    for name, extra in (("accelerated", []), ("exact", ["--no-reassociate"])):
        command = [*idiom, *extra, "-o", str(binaries[name]), *sources]
        subprocess.run(command, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    return binaries


@dataclass(frozen=True)
class Run:
    seconds: float
    lines: list[str]  # the residual lines HPCCG prints
    launches: dict[str, int]  # kernel: launches
    exit: int


def run(binary: Path, size: int, env: dict[str, str], scratch: Path) -> Run:
    stats = scratch / f"stats-{binary.name}-{time.monotonic_ns()}.jsonl"
    started = time.perf_counter()
    done = subprocess.run(
        [str(binary), str(size), str(size), str(size)],
        env={**os.environ, **env, "IDIOM_STATS": str(stats)},
        cwd=scratch,  # HPCCG writes its YAML report into the working folder
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - started
    kernels: Counter[str] = Counter()
    if stats.exists():
        for line in stats.read_text().splitlines():
            record = json.loads(line)
            kernels[str(record.get("kernel") or record.get("entry"))] += 1
    lines = RESIDUAL.findall(done.stdout)
    return Run(round(seconds, 3), lines, dict(kernels), done.returncode)


def agrees(original: list[str], other: list[str], *, exact: bool) -> bool:
    if exact or len(original) != len(other):
        return original == other and len(original) > 1
    first = float(NUMBER.findall(original[0])[0])
    last, other_last = (float(NUMBER.findall(lines[-1])[0]) for lines in (original, other))
    return abs(last - other_last) <= 1e-12 * first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hpccg", type=Path, required=True)
    parser.add_argument("--size", type=int, default=40)
    parser.add_argument("--modes", nargs="+", default=["forced-cpu", "off"], choices=MODES)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    rows, failed = [], False
    with tempfile.TemporaryDirectory(prefix="idiom-hpccg-") as folder:
        scratch = Path(folder)
        binaries = build(args.hpccg.resolve(), scratch)
        original = run(binaries["original"], args.size, {}, scratch)
        for mode in args.modes:
            for name in ("accelerated", "exact"):
                result = run(binaries[name], args.size, MODES[mode], scratch)
                same = result.exit == 0 and agrees(original.lines, result.lines,
                                                   exact=name == "exact")  # fmt: skip
                failed |= not same
                rows.append({"mode": mode, "build": name, "agrees": same,
                             "original_s": original.seconds, **asdict(result)})  # fmt: skip
                print(f"{mode:10} {name:11} agrees={same} original {original.seconds} s "
                      f"accelerated {result.seconds} s launches {result.launches}")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
