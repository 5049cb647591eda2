"""Generated from corpus/direct/: each hand-written cblas counterpart (the ceiling of
`idiom bench`) has a corpus program of the same name, states itself, and prints what that
program prints at its test size."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from measure.bench import build_direct, build_original
from measure.compare import first_difference, program_tolerance
from matcher.expectations import read_program

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
DIRECT = sorted(p for p in (CORPUS / "direct").iterdir() if p.suffix in {".c", ".cpp"})
_BLAS_KINDS = {"GEMM", "GEMV", "GER", "SYMM", "SYRK", "SYR2K", "TRMM", "TRSV"}


def test_every_blas_program_has_a_counterpart() -> None:
    names = {p.name for p in DIRECT}
    for path in sorted(CORPUS.iterdir()):
        if path.suffix not in {".c", ".cpp"}:
            continue
        program = read_program(path)
        if not program.near_miss and {e.kind for e in program.expected} & _BLAS_KINDS:
            assert path.name in names, f"{path.name} has no direct/ counterpart"


@pytest.mark.parametrize("path", DIRECT, ids=[p.name for p in DIRECT])
def test_counterpart_prints_what_the_program_prints(path: Path, tmp_path: Path) -> None:
    counterpart = CORPUS / path.name
    assert counterpart.is_file(), f"no corpus program {path.name}"
    text = path.read_text(encoding="utf-8")
    assert text.startswith(f"// direct: {path.name}")
    assert not re.search(r"//\s*(expect|expect-none|near-miss):", text)
    assert re.search(r"\bcblas_[sd](gem[mv]|ger|symm|syr2?k|trmm|trsv)\(", text)
    args = read_program(counterpart).test_args
    build_original(counterpart, tmp_path / "original")
    build_direct(path, tmp_path / "direct")
    outputs = [
        subprocess.run(
            [str(tmp_path / name), *args], capture_output=True, text=True, check=True, timeout=60
        ).stdout
        for name in ("original", "direct")
    ]
    tolerance = program_tolerance(counterpart)
    assert first_difference(outputs[0], outputs[1], tolerance=tolerance) is None
