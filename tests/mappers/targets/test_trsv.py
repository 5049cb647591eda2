"""TRSV (mappers/targets/trsv.py): the triangular solve by rows, lower or upper, unit diagonal
or not, the sum in a register or kept in x, from b or in place. One BLAS call each on
separate arrays, every element of the block equal to the original's; the original code
where T is x, where b overlaps x without being it, where the diagonal read is not T's,
where a zero on the diagonal makes a result infinite (the runtime declines, x as it
was), where T's entries are huge and cancel (some order of the sums overflows: the runtime
bounds them with T's largest magnitude, and declines), for a solve whose rows run the
wrong way (no TRSV) and an inner loop counting down that misses a column (declined by
the guard). Inner loops counting down are solves; a row multiplied by the diagonal's
reciprocal is not reported (not what BLAS computes)."""

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

PROGRAM = Path(__file__).parents[1] / "programs" / "trsv_forms.c"
SEPARATE, T_IS_X, B_OVERLAPS_X, ZERO_ON_DIAGONAL, NEAR_OVERFLOW, HUGE_T = range(6)
FORMS = (
    "forward",
    "backward_in_place",
    "forward_unit",
    "forward_stored",
    "backward_float",
    "forward_inner_down",
    "backward_inner_down",
)
IN_PLACE = 3  # backward_in_place, forward_unit and backward_inner_down read no b
UNIT = 1  # forward_unit divides by nothing
# replaced, their guards decline: the wrong diagonal, an inner loop missing column 0
DECLINED_AT_RUN_TIME = {"wrong_diagonal", "forward_inner_down_short"}


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("trsv_forms"))


def _trsv_calls(builds: tuple[Path, Path, Accelerated], args: list[str]) -> int:
    return blas_calls_done(same_outputs(builds, args, BLAS_AT_ANY_SIZE), "trsv")


def test_every_solve_is_replaced(builds: tuple[Path, Path, Accelerated]) -> None:
    # forward_reciprocal (s * (1 / T[i][i])) is not reported: BLAS divides
    replaced_everywhere(builds[2], {"TRSV"}, set(FORMS) | DECLINED_AT_RUN_TIME)


@pytest.mark.parametrize("n", [0, 1, 2, 7, 33])
@pytest.mark.parametrize("seed", [1, 6])
def test_separate_arrays_are_one_call_each(
    builds: tuple[Path, Path, Accelerated], n: int, seed: int
) -> None:
    expected = len(FORMS) if n > 0 else 0  # n == 0: the loops, and the calls, do not run
    if n == 1:
        expected += 1  # one row: no column to miss (forward_inner_down_short)
    assert _trsv_calls(builds, [str(n), str(seed), str(SEPARATE)]) == expected


@pytest.mark.parametrize(
    "mode, calls",
    [(T_IS_X, 0), (B_OVERLAPS_X, IN_PLACE), (ZERO_ON_DIAGONAL, UNIT), (NEAR_OVERFLOW, 0)],
)
@pytest.mark.parametrize("n", [3, 9])
def test_overlaps_and_infinite_results_run_the_original_code(
    builds: tuple[Path, Path, Accelerated], mode: int, calls: int, n: int
) -> None:
    assert _trsv_calls(builds, [str(n), "4", str(mode)]) == calls


@pytest.mark.parametrize("n", [64, 97])
def test_huge_entries_of_t_that_cancel_run_the_original_code(
    builds: tuple[Path, Path, Accelerated], n: int
) -> None:
    # the loop's order overflows to -inf where BLAS's blocks cancel: bounding b and x alone
    # let every solve through, and the outputs differed
    assert _trsv_calls(builds, [str(n), "4", str(HUGE_T)]) == 0
