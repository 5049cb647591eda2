"""SYRK nests that finish each element after the sum, as covariance and correlation
code does (mappers/targets/syrk.py, `idiom_syrk_finish`): the sum divided by a value fixed for
the nest and stored again at the mirrored element, the strict upper triangle with the
diagonal kept or set by the row loop. One BLAS call and its finish each on separate
arrays, every element of the block equal to the original's; the original code where A
is C or overlaps it, where the divisor is 0, and where the "mirror" or the "diagonal" is
not C's element with row and column swapped or on the diagonal."""

from __future__ import annotations

from pathlib import Path

import pytest

from mappers.accelerate import Accelerated
from tests.mappers.differential import (
    build_pair,
    replaced_everywhere,
    syrk_calls_and_finishes,
)

PROGRAM = Path(__file__).parents[1] / "programs" / "syrk_finished.c"
SEPARATE, SAME, OVERLAPPING, DIVISOR_ZERO, ALPHA_INFINITE = range(5)
FINISHED = (
    "cov_dot_upper",
    "cov_stored_upper",
    "lower_scaled_mirrored",
    "lower_stored_mirrored",
    "upper_divided",
    "cov_float_lower",
    "corr_strict_diagonal",
    "strict_upper_only",
    "cov_strict_all_rows",  # the row loop to n, left early on the last row (EarlyExit)
)
# cov_dot_upper, cov_stored_upper, upper_divided, cov_float_lower, cov_strict_all_rows
DIVIDING = 5
SCALED = 2  # lower_scaled_mirrored, strict_upper_only
# replaced, their guards decline: a mirror or a diagonal one element off
DECLINED_AT_RUN_TIME = {"mirror_shifted", "diagonal_shifted"}


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("syrk_finished"))


def _calls(builds: tuple[Path, Path, Accelerated], args: list[str]) -> tuple[int, int]:
    return syrk_calls_and_finishes(builds, args)


def test_every_finishing_nest_is_replaced(builds: tuple[Path, Path, Accelerated]) -> None:
    replaced_everywhere(builds[2], {"SYRK"}, set(FINISHED) | DECLINED_AT_RUN_TIME)


@pytest.mark.parametrize("n", [0, 1, 2, 7, 33])
@pytest.mark.parametrize("seed", [3, 11])
def test_separate_arrays_are_one_call_and_one_finish_each(
    builds: tuple[Path, Path, Accelerated], n: int, seed: int
) -> None:
    # n == 0: the loops, and the calls, do not run (n == 1: the rows of the strict
    # triangles to n - 1 do not either; cov_strict_all_rows's one row is a 1 x 1
    # triangle, one call); the shifted mirror and diagonal always decline
    expected = len(FINISHED) - (2 if n == 1 else 0) if n > 0 else 0
    assert _calls(builds, [str(n), str(seed), str(SEPARATE)]) == (expected, expected)


@pytest.mark.parametrize("mode", [SAME, OVERLAPPING])
@pytest.mark.parametrize("n", [2, 9])
def test_a_read_from_c_runs_the_original_code(
    builds: tuple[Path, Path, Accelerated], mode: int, n: int
) -> None:
    assert _calls(builds, [str(n), "6", str(mode)]) == (0, 0)


def test_a_zero_divisor_runs_the_original_code(builds: tuple[Path, Path, Accelerated]) -> None:
    calls = len(FINISHED) - DIVIDING
    assert _calls(builds, ["6", "8", str(DIVISOR_ZERO)]) == (calls, calls)


def test_an_infinite_alpha_runs_the_original_code(builds: tuple[Path, Path, Accelerated]) -> None:
    calls = len(FINISHED) - SCALED
    assert _calls(builds, ["6", "8", str(ALPHA_INFINITE)]) == (calls, calls)
