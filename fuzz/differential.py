"""One program, built twice and compared: the original with `clang-22 -O2`, the accelerated
one with `mappers.accelerate.accelerate` in this process, run with every replacement forced
onto the OpenCL CPU device (PoCL), their outputs compared within the tool's tolerance."""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from fuzz.generator import Program
from mappers.accelerate import accelerate
from matcher.frontend import CXX_SUFFIXES, CompileOptions, find_tool
from measure.compare import first_difference

__all__ = ["FORCED", "STATUSES", "Outcome", "build_original", "check", "write_program"]

STATUSES = ("same", "differs", "original-failed", "build-failed", "crashed", "timeout")

FORCED = {
    "IDIOM_DEVICE": "cpu",
    "IDIOM_CL_MIN_WORK": "1",
    "IDIOM_BLAS_MIN_WORK": "1",
    "IDIOM_GPU_MIN_WORK": "1",
    "IDIOM_ROW_LANES": "1",
}
"""Every replacement runs: OpenCL on PoCL, BLAS at any size, long sparse rows shared by
work-items as on a GPU."""

RUN_TIMEOUT = 60.0


@dataclass(frozen=True)
class Outcome:
    seed: int
    shape: str
    features: tuple[str, ...]
    status: str
    detail: str = ""
    replaced: int = 0  # idiom instances the accelerated build replaced
    launches: int = 0  # runtime calls that did the work (IDIOM_STATS, status 0)
    declined: int = 0  # runtime calls that left the work to the original code
    faults: int = 0  # host accesses the placement missed, caught by the safety net
    idioms: tuple[str, ...] = ()  # "GEMM in p0_gemm: replaced" or ": kept (why)"


def write_program(program: Program, folder: Path) -> list[Path]:
    """The program's files in `folder`; the translation units, in a fixed order."""
    units = []
    for name, text in sorted(program.files.items()):
        path = folder / name
        path.write_text(text, encoding="utf-8")
        if path.suffix != ".h":
            units.append(path)
    return units


def _driver(units: list[Path]) -> str:
    return find_tool("clang++" if any(u.suffix in CXX_SUFFIXES for u in units) else "clang")


def build_original(units: list[Path], output: Path) -> subprocess.CompletedProcess[str]:
    command = [_driver(units), "-O2", "-w", *map(str, units), "-o", str(output), "-lm"]
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=300)


def _run(
    binary: Path, args: tuple[str, ...], env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(binary), *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=RUN_TIMEOUT,
        env={**os.environ, **env},
    )


def _counts(stats: Path) -> tuple[int, int, int]:
    """(calls that did the work, calls that declined it, host faults the safety net caught)
    from an IDIOM_STATS file."""
    if not stats.exists():
        return 0, 0, 0
    done = declined = faults = 0
    for line in stats.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if record.get("entry") == "host_fault":
            faults += 1
        elif record.get("status") == 0:
            done += 1
        else:
            declined += 1
    return done, declined, faults


def _failure(result: subprocess.CompletedProcess[str]) -> str:
    return f"exit status {result.returncode}: {(result.stderr or '').strip()[-2000:]}"


def check(program: Program, workdir: Path) -> Outcome:
    """Build and run `program` in `workdir` (which it fills), and say how the two agree."""

    idioms: tuple[str, ...] = ()

    def outcome(
        status: str,
        detail: str = "",
        *,
        replaced: int = 0,
        launches: int = 0,
        declined: int = 0,
        faults: int = 0,
    ) -> Outcome:
        return Outcome(
            program.seed,
            program.shape,
            program.features,
            status,
            detail,
            replaced=replaced,
            launches=launches,
            declined=declined,
            faults=faults,
            idioms=idioms,
        )

    units = write_program(program, workdir)
    original = workdir / "original"
    built = build_original(units, original)
    if built.returncode != 0:
        return outcome("original-failed", "compile: " + built.stderr.strip()[-2000:])
    try:
        expected = _run(original, program.args, {})
    except subprocess.TimeoutExpired:
        return outcome("original-failed", "the original timed out")
    if expected.returncode != 0:
        return outcome("original-failed", _failure(expected))
    accelerated = workdir / "accelerated"
    try:
        report = accelerate(units, accelerated, CompileOptions())
    except Exception as error:  # any exception on valid input is a finding
        return outcome("build-failed", f"{type(error).__name__}: {error}"[-4000:])
    idioms = tuple(
        f"{o.instance.idiom} in {o.instance.function}: "
        + ("replaced" if o.replaced else f"kept ({o.detail})")
        for unit in report.units
        for o in unit.outcomes
    )
    stats = workdir / "stats.jsonl"
    stats.unlink(missing_ok=True)
    try:
        actual = _run(accelerated, program.args, {**FORCED, "IDIOM_STATS": str(stats)})
    except subprocess.TimeoutExpired:
        return outcome("timeout", f"the accelerated program ran past {RUN_TIMEOUT:.0f} s")
    done, declined, faults = _counts(stats)
    replaced = report.replaced
    if actual.returncode != 0:
        return outcome(
            "crashed",
            _failure(actual),
            replaced=replaced,
            launches=done,
            declined=declined,
            faults=faults,
        )
    difference = first_difference(expected.stdout, actual.stdout)
    if difference is not None:
        return outcome(
            "differs",
            difference,
            replaced=replaced,
            launches=done,
            declined=declined,
            faults=faults,
        )
    return outcome("same", "", replaced=replaced, launches=done, declined=declined, faults=faults)
