"""SYRK nests that finish each element after the sum, as covariance code does
(mappers/syrk.py, `idiom_syrk_finish`): the sum divided by a value fixed for the nest
and stored again at the mirrored element. One BLAS call and its finish each on separate
arrays, every element of the block equal to the original's; the original code where A
is C or overlaps it, where the divisor is 0, and where the "mirror" is not C's element
with row and column swapped."""

from __future__ import annotations

from pathlib import Path

import pytest
from differential import (
    BLAS_AT_ANY_SIZE,
    blas_calls_done,
    build_pair,
    replaced_everywhere,
    same_outputs,
)

from mappers.accelerate import Accelerated

PROGRAM = Path(__file__).parent / "programs" / "syrk_finished.c"
SEPARATE, SAME, OVERLAPPING, DIVISOR_ZERO = range(4)
FINISHED = (
    "cov_dot_upper",
    "cov_stored_upper",
    "lower_scaled_mirrored",
    "lower_stored_mirrored",
    "upper_divided",
    "cov_float_lower",
)
DIVIDING = 4  # every kernel above but the two mirrored ones that do not divide
SHIFTED_MIRROR = "mirror_shifted"


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("syrk_finished"))


def _calls(builds: tuple[Path, Path, Accelerated], args: list[str]) -> tuple[int, int]:
    """(SYRK calls that did the work, finishes that ran)."""
    stderr = same_outputs(builds, args, BLAS_AT_ANY_SIZE)
    finishes = sum(1 for line in stderr.splitlines() if line.startswith("idiom: syrk finish"))
    return blas_calls_done(stderr, "syrk"), finishes


def test_every_finishing_nest_is_replaced(builds: tuple[Path, Path, Accelerated]) -> None:
    replaced_everywhere(builds[2], {"SYRK"}, set(FINISHED) | {SHIFTED_MIRROR})


@pytest.mark.parametrize("n", [0, 1, 2, 7, 33])
@pytest.mark.parametrize("seed", [3, 11])
def test_separate_arrays_are_one_call_and_one_finish_each(
    builds: tuple[Path, Path, Accelerated], n: int, seed: int
) -> None:
    # n == 0: the loops, and the calls, do not run; the shifted mirror always declines
    expected = len(FINISHED) if n > 0 else 0
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
