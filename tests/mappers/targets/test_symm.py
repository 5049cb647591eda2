"""The symmetric matrix product written by rows of one triangle of A (blas.idl's SYMM,
mappers/targets/symm.py, `idiom_symm`): A on the left or on the right, its lower
triangle with the rows counting up or its upper one with the rows counting down, scaled
or not, float and double, the rows or the columns outermost, the element's three terms
in any order, every element of the block equal to the original's; the original code
where C overlaps A or B, under a zero or non-finite scale, where the rows count the
wrong way (a row would add to rows not finished yet: not found, blas.idl's
RowBoundedLoop) and where the sum loop takes the diagonal too or stops a row short
(k <= i, k >= i, k < j - 1: detected, declined by the guard's triangle)."""

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

PROGRAM = Path(__file__).parents[1] / "programs" / "symm_forms.c"
SEPARATE, C_OVERLAPS_A, C_OVERLAPS_B = range(3)
PRODUCTS = {
    "symm_flat",
    "symm_unscaled",
    "symm_float",
    "symm_columns_outer",
    "symm_terms_reordered",
    "symm_upper",
    "symm_upper_float",
    "symm_right",
    "symm_right_float",
    "symm_right_upper",
}
DECLINED_AT_RUN_TIME = {"symm_diagonal_twice", "symm_upper_diagonal_twice", "symm_right_short"}
UNSCALED = 2  # symm_unscaled and symm_upper_float have neither scale of their own


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("symm"))


def _products_done(builds: tuple[Path, Path, Accelerated], args: list[str]) -> int:
    return blas_calls_done(same_outputs(builds, args, BLAS_AT_ANY_SIZE), "symm")


def test_every_product_is_replaced(builds: tuple[Path, Path, Accelerated]) -> None:
    replaced_everywhere(builds[2], {"SYMM"}, PRODUCTS | DECLINED_AT_RUN_TIME)


@pytest.mark.parametrize("m, n", [(0, 3), (3, 0), (1, 1), (4, 1), (2, 5), (7, 3), (5, 9), (33, 17)])
@pytest.mark.parametrize("seed", [1, 8])
def test_separate_arrays_are_one_call_each(
    builds: tuple[Path, Path, Accelerated], m: int, n: int, seed: int
) -> None:
    expected = len(PRODUCTS) if m > 0 and n > 0 else 0  # an empty product: the loop runs
    if m > 0 and n == 1:
        expected += 1  # symm_right_short over one column: no sum, the product itself
    assert _products_done(builds, [str(m), str(n), str(seed), str(SEPARATE)]) == expected


@pytest.mark.parametrize("mode", [C_OVERLAPS_A, C_OVERLAPS_B])
def test_overlapping_arrays_run_the_original_code(
    builds: tuple[Path, Path, Accelerated], mode: int
) -> None:
    assert _products_done(builds, ["9", "7", "3", str(mode)]) == 0


@pytest.mark.parametrize("alpha, beta", [("0", "2"), ("1.5", "0"), ("inf", "1"), ("1", "nan")])
def test_zero_or_non_finite_scales_run_the_original_code(
    builds: tuple[Path, Path, Accelerated], alpha: str, beta: str
) -> None:
    assert _products_done(builds, ["6", "5", "2", str(SEPARATE), alpha, beta]) == UNSCALED
