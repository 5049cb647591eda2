"""Strict upper triangles whose row loop runs over every row (`for (i = 0; i < n; i++)
{ C[i][i] = 1; for (j = i + 1; j < n; j++) ... }`): LLVM leaves the row loop on the last
row, where the column loop is empty, with a second exit on the latch's own test
(loops.idl's EarlyExit), which the SYRK mapper takes as a test that skips the column
loop there. One BLAS call and its finish each on separate arrays (flat, single precision
with the sum kept in C, rows in pointer tables), every element of the block equal to the
original's; the original code where A is C or overlaps it, and where the "diagonal" is
not C's."""

from __future__ import annotations

from pathlib import Path

import pytest

from mappers.accelerate import Accelerated
from tests.mappers.differential import (
    build_pair,
    replaced_everywhere,
    syrk_calls_and_finishes,
)

PROGRAM = Path(__file__).parents[1] / "programs" / "corr_all_rows.c"
SEPARATE, SAME, OVERLAPPING = range(3)
KERNELS = ("corr_flat", "corr_float_stored", "corr_rows")
DECLINED_AT_RUN_TIME = {"corr_diagonal_shifted"}  # replaced, its guard declines


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("corr_all_rows"))


def _calls(builds: tuple[Path, Path, Accelerated], args: list[str]) -> tuple[int, int]:
    return syrk_calls_and_finishes(builds, args)


def test_every_nest_is_replaced(builds: tuple[Path, Path, Accelerated]) -> None:
    replaced_everywhere(builds[2], {"SYRK"}, set(KERNELS) | DECLINED_AT_RUN_TIME)


@pytest.mark.parametrize("n", [0, 1, 2, 7, 33])
@pytest.mark.parametrize("seed", [5, 17])
def test_separate_arrays_are_one_call_and_one_finish_each(
    builds: tuple[Path, Path, Accelerated], n: int, seed: int
) -> None:
    # n == 0: the row loops do not run; n == 1: one row, its column loop empty, the 1 x 1
    # triangle still one call (its diagonal kept and set); the shifted diagonal declines
    expected = len(KERNELS) if n > 0 else 0
    assert _calls(builds, [str(n), str(seed), str(SEPARATE)]) == (expected, expected)


@pytest.mark.parametrize("mode", [SAME, OVERLAPPING])
@pytest.mark.parametrize("n", [2, 9])
def test_a_read_from_c_runs_the_original_code(
    builds: tuple[Path, Path, Accelerated], mode: int, n: int
) -> None:
    assert _calls(builds, [str(n), "6", str(mode)]) == (0, 0)
