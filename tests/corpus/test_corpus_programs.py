"""Generated from corpus/: every program states itself, builds, runs and is deterministic."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from matcher.expectations import read_program
from matcher.frontend import CXX_SUFFIXES, find_tool

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
PROGRAMS = sorted(p for p in CORPUS.iterdir() if p.suffix in {".c", ".cpp"})
KINDS = {
    "Reduction",
    "Histogram",
    "Scan",
    "GEMV",
    "GEMM",
    "SYRK",
    "SYR2K",
    "SYMM",
    "TRMM",
    "TRSV",
    "GER",
    "SpMV_CSR",
    "SpMV_JDS",
    "SpMV_ELL",
    "SpMV_COO",
    "Stencil",
    "Map",
}


def test_corpus_size_and_coverage() -> None:
    programs = [read_program(p) for p in PROGRAMS]
    positive = [p for p in programs if not p.near_miss]
    assert len(positive) >= 40 and len(programs) - len(positive) >= 10
    for kind in KINDS:
        files = {p.path for p in programs for e in p.expected if e.kind == kind}
        assert len(files) >= 3, f"{kind} appears in only {len(files)} programs"


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_program_builds_and_is_deterministic(path: Path, tmp_path: Path) -> None:
    program = read_program(path)
    assert program.expectations, f"{path.name} states no expectation"
    assert all(e.kind in KINDS for e in program.expectations)
    if program.near_miss:
        assert program.rejected, "a near-miss marks its tempting loop with expect-none"
    driver = find_tool("clang++" if path.suffix in CXX_SUFFIXES else "clang")
    binary = tmp_path / "prog"
    subprocess.run([driver, "-O1", "-w", str(path), "-o", str(binary), "-lm"], check=True)
    runs = [
        subprocess.run(
            [str(binary), *program.test_args],
            check=False,
            capture_output=True,
            text=True,
            timeout=60,
        )
        for _ in range(2)
    ]
    assert runs[0].returncode == 0 and runs[0].stdout.strip()
    assert runs[0].stdout == runs[1].stdout
