"""The symmetric matrix product with A on the right written by the columns of C, as the
reference BLAS's right side is (blas.idl's SYMMColumns, mappers/targets/symm_columns.py,
`idiom_symm`): the diagonal's term with the scaling or in either sum, A's upper or lower
triangle, alpha or beta absent, float and double, the sums in either order, the sums
counted in a wider integer type than the columns (long or size_t beside int or unsigned),
every element of the block equal to the original's; the original code where C overlaps A or B,
under a zero or non-finite scale, and where the sums and the diagonal do not cover every
k once or read A unmirrored (detected, declined by the guard)."""

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

PROGRAM = Path(__file__).parents[1] / "programs" / "symm_columns.c"
SEPARATE, C_OVERLAPS_A, C_OVERLAPS_B = range(3)
PRODUCTS = {
    "cols_reference",
    "cols_float",
    "cols_diagonal_before",
    "cols_diagonal_after",
    "cols_no_beta",
    "cols_long_sums",  # int columns, long sums: the first column sign-extended
    "cols_size_t_sums",  # float, size_t sums and rows beside int columns
    "cols_unsigned_column",  # unsigned columns, size_t sums: zero-extended
}
DECLINED_AT_RUN_TIME = {"cols_diagonal_twice", "cols_not_mirrored", "cols_short"}
WITHOUT_ALPHA, WITHOUT_BETA = 1, 1  # cols_diagonal_after, cols_no_beta


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("symm_columns"))


def _products_done(builds: tuple[Path, Path, Accelerated], args: list[str]) -> int:
    return blas_calls_done(same_outputs(builds, args, BLAS_AT_ANY_SIZE), "symm")


def test_every_product_is_replaced(builds: tuple[Path, Path, Accelerated]) -> None:
    replaced_everywhere(builds[2], {"SYMM"}, PRODUCTS | DECLINED_AT_RUN_TIME)


@pytest.mark.parametrize("m, n", [(0, 3), (3, 0), (1, 1), (4, 1), (1, 4), (2, 5), (7, 3), (33, 17)])
@pytest.mark.parametrize("seed", [1, 8])
def test_separate_arrays_are_one_call_each(
    builds: tuple[Path, Path, Accelerated], m: int, n: int, seed: int
) -> None:
    expected = len(PRODUCTS) if m > 0 and n > 0 else 0  # an empty product: the loop runs
    if m > 0 and n == 1:
        expected += 2  # over one column A is its diagonal: unmirrored and short are the product
    assert _products_done(builds, [str(m), str(n), str(seed), str(SEPARATE)]) == expected


@pytest.mark.parametrize("mode", [C_OVERLAPS_A, C_OVERLAPS_B])
def test_overlapping_arrays_run_the_original_code(
    builds: tuple[Path, Path, Accelerated], mode: int
) -> None:
    assert _products_done(builds, ["9", "7", "3", str(mode)]) == 0


@pytest.mark.parametrize(
    "alpha, beta, expected",
    [
        ("0", "2", WITHOUT_ALPHA),
        ("1.5", "0", WITHOUT_BETA),
        ("inf", "1", WITHOUT_ALPHA),
        ("1", "nan", WITHOUT_BETA),
    ],
)
def test_zero_or_non_finite_scales_run_the_original_code(
    builds: tuple[Path, Path, Accelerated], alpha: str, beta: str, expected: int
) -> None:
    assert _products_done(builds, ["6", "5", "2", str(SEPARATE), alpha, beta]) == expected
