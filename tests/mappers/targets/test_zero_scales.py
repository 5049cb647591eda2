"""alpha and beta of 0 (mappers/targets/blas.py, mappers/targets/ger.py): BLAS reads neither
C nor the factors then, where the loop multiplies a NaN or an infinity by 0 and gets NaN. The
guard declines a zero scale the loop multiplies by; other values are one BLAS call each."""

from __future__ import annotations

from pathlib import Path

import pytest

from mappers.accelerate import Accelerated
from tests.mappers.differential import BLAS_AT_ANY_SIZE, blas_calls_done, build_pair, same_outputs

PROGRAM = Path(__file__).parents[1] / "programs" / "zero_scales.c"
IN_OUTPUTS, IN_INPUTS, NOWHERE = "0", "1", "2"


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("zero_scales"))


def _calls(builds: tuple[Path, Path, Accelerated], args: list[str]) -> int:
    stderr = same_outputs(builds, args, BLAS_AT_ANY_SIZE)
    return sum(blas_calls_done(stderr, entry) for entry in ("gemm", "gemv", "ger"))


@pytest.mark.parametrize("where", [IN_OUTPUTS, IN_INPUTS, NOWHERE])
@pytest.mark.parametrize("n", [1, 6, 17])
def test_nonzero_scales_are_one_call_each(
    builds: tuple[Path, Path, Accelerated], where: str, n: int
) -> None:
    assert _calls(builds, [str(n), "1.5", "-0.5", where]) == 3


@pytest.mark.parametrize("where", [IN_OUTPUTS, IN_INPUTS, NOWHERE])
@pytest.mark.parametrize(("alpha", "beta", "calls"), [("0", "1", 0), ("2", "0", 1)])
def test_a_zero_scale_runs_the_loop(
    builds: tuple[Path, Path, Accelerated], where: str, alpha: str, beta: str, calls: int
) -> None:
    # beta 0: GEMM and GEMV run their loops, GER (no beta) its call; alpha 0: all three loops
    assert _calls(builds, ["9", alpha, beta, where]) == calls
