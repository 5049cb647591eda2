"""What the differential tests share: a test program built twice (clang -O2 and idiom
accelerate), and a run of either binary with extra environment."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from idl.files import DEFAULT_FOLDER
from mappers.accelerate import Accelerated, accelerate, rewrite_file
from mappers.residency import placement
from matcher.frontend import CXX_SUFFIXES, CompileOptions, find_tool
from measure.compare import first_difference


def build_pair(
    program: Path, folder: Path, idiom_dirs: tuple[str, ...] = ()
) -> tuple[Path, Path, Accelerated]:
    """The original and the accelerated binary of `program` in `folder`, and the report."""
    original, accelerated = folder / "original", folder / "accelerated"
    driver = find_tool("clang++" if program.suffix in CXX_SUFFIXES else "clang")
    subprocess.run([driver, "-O2", str(program), "-o", str(original), "-lm"], check=True)
    report = accelerate([program], accelerated, CompileOptions(), idiom_dirs)
    return original, accelerated, report


def placed_ir(program: Path) -> str:
    """The rewritten IR of one program with its host accesses placed (residency on)."""
    text, _ = rewrite_file(program, CompileOptions())
    (placed,) = placement.with_host_access([text], [str(program)])
    return placed


def library_without_maps(folder: Path) -> tuple[str, ...]:
    """The shipped idiom library less the Map idiom, as idiom folders: for test programs
    whose element-wise loops stand for the host code between launches (residency tests),
    so that they stay on the host."""
    library = folder / "idioms"
    library.mkdir(exist_ok=True)
    for path in DEFAULT_FOLDER.glob("*.idl"):
        if path.name != "map.idl":
            shutil.copy(path, library / path.name)
    return (str(library),)


def run_binary(
    binary: Path, args: list[str], env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(binary), *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env={**os.environ, **env},
    )


BLAS_AT_ANY_SIZE = {"IDIOM_BLAS_MIN_WORK": "1", "IDIOM_VERBOSE": "1"}
"""BLAS takes any size, and each runtime call says what became of it on stderr."""


def same_outputs(pair: tuple[Path, Path, Accelerated], args: list[str], env: dict[str, str]) -> str:
    """Run the original and the accelerated binary of `pair` on `args` (the accelerated one
    with `env`), check they print the same, and return the accelerated run's stderr."""
    original, accelerated, _ = pair
    expected = run_binary(original, args, {})
    actual = run_binary(accelerated, args, env)
    assert actual.returncode == 0, actual.stderr
    assert first_difference(expected.stdout, actual.stdout) is None
    return actual.stderr


def blas_calls_done(stderr: str, entry: str) -> int:
    """How many calls of a BLAS entry ("gemm", "gemv") did the work (IDIOM_VERBOSE lines)."""
    return sum(
        1 for line in stderr.splitlines() if line.startswith(f"idiom: {entry} ") and "done" in line
    )


def kernel_launches(stderr: str, kernel: str) -> list[str]:
    """The IDIOM_VERBOSE lines of the launches of `kernel` that did the work."""
    return [
        line
        for line in stderr.splitlines()
        if f"cl_run kernel '{kernel}'" in line and line.endswith("done")
    ]


def syrk_calls_and_finishes(
    pair: tuple[Path, Path, Accelerated], args: list[str]
) -> tuple[int, int]:
    """Run `pair` as same_outputs does, BLAS at any size: (SYRK calls that did the work,
    finishes that ran: divisions, mirrors, diagonals kept and set)."""
    stderr = same_outputs(pair, args, BLAS_AT_ANY_SIZE)
    finishes = sum(1 for line in stderr.splitlines() if line.startswith("idiom: syrk finish"))
    return blas_calls_done(stderr, "syrk"), finishes


def replaced_everywhere(
    report: Accelerated,
    idioms: set[str],
    functions: set[str],
    declined: frozenset[str] = frozenset(),
) -> None:
    """Assert that the top-level instances of `idioms` are exactly in `functions` and
    `declined`, and that every one of them was replaced (the report's reason otherwise),
    except those in `declined`, which must not be."""
    outcomes = {
        o.instance.function: o
        for u in report.units
        for o in u.outcomes
        if o.instance.idiom in idioms and o.instance.within is None
    }
    assert set(outcomes) == functions | declined
    for function, outcome in outcomes.items():
        assert outcome.replaced == (function not in declined), f"{function}: {outcome.detail}"
