"""A correlation's strict triangle computed by a member function whose column count and
data pointer are fields that LLVM loads only under the test `i + 1 < m` of the row,
in the column loop's preheader (mappers/targets/syrk.py loads them ahead of the nest when
that test holds on the first row, and checks that the nest writes none of their bytes).
The row loop to m (leaving early on the last row) and to m - 1: one call and one finish
each where the arrays are separate, every element of the block equal to the original's;
the original code where the test fails on the first row (m == 1: the column loop never
runs), where the divisor n is 0, and where corr's storage overlaps the data."""

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

PROGRAM = Path(__file__).parents[1] / "programs" / "corr_fields.cpp"
SEPARATE, SAME, OVERLAPPING = range(3)
KERNELS = {"View::correlate_all_rows", "View::correlate_short_rows"}


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("corr_fields"))


def _calls(builds: tuple[Path, Path, Accelerated], args: list[str]) -> tuple[int, int]:
    """(SYRK calls that did the work, finishes that ran)."""
    stderr = same_outputs(builds, args, BLAS_AT_ANY_SIZE)
    finishes = sum(1 for line in stderr.splitlines() if line.startswith("idiom: syrk finish"))
    return blas_calls_done(stderr, "syrk"), finishes


def test_both_nests_are_replaced(builds: tuple[Path, Path, Accelerated]) -> None:
    replaced_everywhere(builds[2], {"SYRK"}, KERNELS)


@pytest.mark.parametrize(("n", "m"), [(3, 2), (7, 5), (2, 9), (33, 17)])
def test_separate_arrays_are_one_call_and_one_finish_each(
    builds: tuple[Path, Path, Accelerated], n: int, m: int
) -> None:
    assert _calls(builds, [str(n), str(m), str(SEPARATE)]) == (2, 2)


@pytest.mark.parametrize(("n", "m"), [(4, 1), (4, 0), (0, 5)])
def test_no_column_loop_or_a_zero_divisor_runs_the_original_code(
    builds: tuple[Path, Path, Accelerated], n: int, m: int
) -> None:
    assert _calls(builds, [str(n), str(m), str(SEPARATE)]) == (0, 0)


@pytest.mark.parametrize("mode", [SAME, OVERLAPPING])
@pytest.mark.parametrize(("n", "m"), [(5, 4), (9, 7)])
def test_corr_over_the_data_runs_the_original_code(
    builds: tuple[Path, Path, Accelerated], mode: int, n: int, m: int
) -> None:
    assert _calls(builds, [str(n), str(m), str(mode)]) == (0, 0)
