"""Served against unserved `idiom detect` on real programs: the same report, and the times.

    .venv/bin/python benchmarks/served_equivalence.py --npb PATH/NPB-SER [--classes S]

Each NAS benchmark's source (fetched separately; its class header made by its own
`setparams` in a private folder) is detected three times with the `idiom` installed beside
this interpreter: with `IDIOM_SERVER=0`, then twice served from the benchmark's folder
(the second on the front end the server's waiting child started ahead for a request like
the first; matcher/frontend_standby.py). The reports must be the same but for their times;
prints one row a benchmark and exits non-zero when any differs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCHMARKS = ("cg", "mg", "is", "ep", "ft", "lu", "bt", "sp")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--npb", type=Path, required=True, help="the NPB-SER folder")
    parser.add_argument("--classes", default="S", help="the class of the headers")
    args = parser.parse_args()
    idiom = Path(sys.executable).parent / "idiom"
    with tempfile.TemporaryDirectory(prefix="idiom-served-") as scratch:
        sources = _sources(args.npb.resolve(), args.classes, Path(scratch))
        same = sum(_compare(idiom, source, args.npb.resolve()) for source in sources)
    print(f"{same} of {len(sources)} the same served and unserved")
    return 0 if same == len(sources) else 1


def _sources(npb: Path, klass: str, scratch: Path) -> list[Path]:
    """Each benchmark's source beside its class header, in a folder of its own."""
    shutil.copytree(npb / "config", scratch / "config")
    setparams = scratch / "setparams"
    build = ["clang++-22", "-w", "-O1", str(npb / "sys" / "setparams.cpp"), "-o", str(setparams)]
    subprocess.run(build, check=True)
    sources = []
    for name in BENCHMARKS:
        work = scratch / name
        work.mkdir()
        subprocess.run([str(setparams), name, klass], cwd=work, check=True, capture_output=True)
        shutil.copy(npb / name.upper() / f"{name}.cpp", work)
        sources.append(work / f"{name}.cpp")
    return sources


def _compare(idiom: Path, source: Path, npb: Path) -> bool:
    command = [str(idiom), "detect", source.name, "--json", "-I", str(npb / "common")]
    runs = [_detect(command, source.parent, served) for served in (False, True, True)]
    reports = [_timeless(result) for result, _ in runs]
    same = reports[0] == reports[1] == reports[2]
    first = runs[0][0]
    found = len(json.loads(first.stdout)[0]["instances"]) if first.returncode == 0 else "-"
    times = ", ".join(f"{seconds:.2f} s" for _, seconds in runs)
    print(f"{source.name:8} exit {first.returncode}  instances {found:>4}  same {same}  {times}")
    return same


def _detect(
    command: list[str], folder: Path, served: bool
) -> tuple[subprocess.CompletedProcess[str], float]:
    environment = {**os.environ, "IDIOM_SERVER": "1" if served else "0"}
    started = time.perf_counter()
    result = subprocess.run(
        command, cwd=folder, env=environment, capture_output=True, text=True, check=False
    )
    return result, time.perf_counter() - started


def _timeless(result: subprocess.CompletedProcess[str]) -> object:
    if result.returncode != 0:
        return (result.returncode, result.stderr)
    files = json.loads(result.stdout)
    return [{k: v for k, v in f.items() if k != "seconds"} for f in files]


if __name__ == "__main__":
    sys.exit(main())
