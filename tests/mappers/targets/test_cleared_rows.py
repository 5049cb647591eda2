"""GEMM whose output rows a loop clears before the rank-1 updates (mappers/targets/blas.py): one
BLAS call with beta 0 when the clearing covers exactly what the updates write, the original
code when it covers less, more, or another array; clearing after the updates is no GEMM."""

from __future__ import annotations

from pathlib import Path

import pytest

from mappers.accelerate import Accelerated
from tests.mappers.differential import BLAS_AT_ANY_SIZE, blas_calls_done, build_pair, same_outputs

PROGRAM = Path(__file__).parents[1] / "programs" / "cleared_rows.c"
EXACT, FEWER, MORE, OTHER_ARRAY = range(4)


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("cleared_rows"))


def _gemm_calls_done(builds: tuple[Path, Path, Accelerated], args: list[str]) -> int:
    return blas_calls_done(same_outputs(builds, args, BLAS_AT_ANY_SIZE), "gemm")


def test_the_cleared_form_is_replaced_and_the_late_clearing_is_not(
    builds: tuple[Path, Path, Accelerated],
) -> None:
    _, _, report = builds
    gemms = {
        o.instance.function: o
        for u in report.units
        for o in u.outcomes
        if o.instance.idiom == "GEMM"
    }
    assert gemms["cleared_rows"].replaced, gemms["cleared_rows"].detail
    assert "cleared_after" not in gemms or not gemms["cleared_after"].replaced


@pytest.mark.parametrize("n", [1, 2, 7, 33])
@pytest.mark.parametrize("seed", [2, 9])
def test_exact_clearing_is_one_gemm(
    builds: tuple[Path, Path, Accelerated], n: int, seed: int
) -> None:
    assert _gemm_calls_done(builds, [str(n), str(seed), str(EXACT)]) == 1


@pytest.mark.parametrize("mode", [FEWER, MORE, OTHER_ARRAY])
@pytest.mark.parametrize("n", [3, 17])
def test_other_clearings_run_the_original_code(
    builds: tuple[Path, Path, Accelerated], mode: int, n: int
) -> None:
    assert _gemm_calls_done(builds, [str(n), "4", str(mode)]) == 0
