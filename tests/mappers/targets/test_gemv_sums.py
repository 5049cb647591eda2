"""Two row products over one inner loop combined after it, y = alpha A x + beta B x
(blas.idl's GEMVDotSum, mappers/targets/blas.py's combined plan, `idiom_gemv_sum`): both sums kept
in memory, in registers with A x kept in tmp, or in locals with nothing kept; float and
double. One call makes both products and the combination, every element of the block
equal to the original's; the original code where tmp is y, where x overlaps tmp, where y
overlaps A, and under a zero scale; a product of the two sums is no combination."""

from __future__ import annotations

from pathlib import Path

import pytest

from mappers.accelerate import Accelerated
from tests.mappers.differential import (
    BLAS_AT_ANY_SIZE,
    blas_calls_done,
    build_pair,
    replaced_everywhere,
    same_outputs,
)

PROGRAM = Path(__file__).parents[1] / "programs" / "gemv_sums.c"
SEPARATE, TMP_IS_Y, X_OVERLAPS_TMP, Y_OVERLAPS_A = range(4)
COMBINED = {"sum_memory", "sum_registers", "sum_locals", "sum_float"}


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("gemv_sums"))


def _sums_done(builds: tuple[Path, Path, Accelerated], args: list[str]) -> int:
    return blas_calls_done(same_outputs(builds, args, BLAS_AT_ANY_SIZE), "gemv_sum")


def test_every_combination_is_replaced(builds: tuple[Path, Path, Accelerated]) -> None:
    replaced_everywhere(builds[2], {"GEMV"}, COMBINED)


@pytest.mark.parametrize("n, m", [(0, 3), (3, 0), (1, 1), (2, 5), (7, 3), (33, 17)])
@pytest.mark.parametrize("seed", [1, 8])
def test_separate_arrays_are_one_call_each(
    builds: tuple[Path, Path, Accelerated], n: int, m: int, seed: int
) -> None:
    expected = len(COMBINED) if n > 0 and m > 0 else 0  # an empty product: the loop runs
    assert _sums_done(builds, [str(n), str(m), str(seed), str(SEPARATE)]) == expected


@pytest.mark.parametrize("mode", [TMP_IS_Y, X_OVERLAPS_TMP, Y_OVERLAPS_A])
def test_overlapping_arrays_run_the_original_code(
    builds: tuple[Path, Path, Accelerated], mode: int
) -> None:
    done = _sums_done(builds, ["9", "7", "3", str(mode)])
    # sum_locals keeps nothing in tmp: only y overlapping A concerns it
    assert done == (1 if mode in (TMP_IS_Y, X_OVERLAPS_TMP) else 0)


@pytest.mark.parametrize("alpha, beta", [("0", "2"), ("1.5", "0"), ("inf", "1")])
def test_zero_or_infinite_scales_run_the_original_code(
    builds: tuple[Path, Path, Accelerated], alpha: str, beta: str
) -> None:
    done = _sums_done(builds, ["6", "5", "2", str(SEPARATE), alpha, beta])
    assert done == (1 if beta != "0" else 0)  # sum_locals has no alpha of its own
