"""A fixed slice of the differential fuzzer: each program built as the original and
accelerated, run with every replacement forced onto PoCL, must print what the original
prints (benchmarks/fuzz_accelerate.py runs any other range of seeds)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fuzz.differential import check
from fuzz.generator import generate

SLICE = range(240)


@pytest.mark.parametrize("seed", SLICE)
def test_the_accelerated_program_prints_what_the_original_prints(seed: int, tmp_path: Path) -> None:
    program = generate(seed)
    outcome = check(program, tmp_path)
    assert outcome.status == "same", (
        f"seed {seed} ({program.shape}, {' '.join(program.features)}): "
        f"{outcome.status}: {outcome.detail}"
    )
