"""GER (mappers/targets/ger.py): rank-1 and rank-2 updates of A, alpha on either vector, A row-
or column-major, the two products of a rank-2 update added one after the other or
together. One BLAS call each on separate arrays; the original code where a vector lies in
A (its first row, or overlapping its last element)."""

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

PROGRAM = Path(__file__).parents[1] / "programs" / "ger_forms.c"
SEPARATE, X_IN_A, Y_OVERLAPS_A = range(3)
FORMS = ("rank1_alpha_x", "rank1_column_major", "rank2_chained", "rank2_grouped")


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("ger_forms"))


def _ger_calls(builds: tuple[Path, Path, Accelerated], args: list[str]) -> int:
    return blas_calls_done(same_outputs(builds, args, BLAS_AT_ANY_SIZE), "ger")


def test_every_form_is_replaced(builds: tuple[Path, Path, Accelerated]) -> None:
    replaced_everywhere(builds[2], {"GER"}, set(FORMS))


@pytest.mark.parametrize("n", [0, 1, 2, 7, 33])
@pytest.mark.parametrize("seed", [5, 17])
def test_separate_arrays_are_one_call_each(
    builds: tuple[Path, Path, Accelerated], n: int, seed: int
) -> None:
    expected = len(FORMS) if n > 0 else 0  # n == 0: the loops, and the calls, do not run
    assert _ger_calls(builds, [str(n), str(seed), str(SEPARATE)]) == expected


@pytest.mark.parametrize("mode", [X_IN_A, Y_OVERLAPS_A])
@pytest.mark.parametrize("n", [2, 9])
def test_a_vector_in_a_runs_the_original_code(
    builds: tuple[Path, Path, Accelerated], mode: int, n: int
) -> None:
    assert _ger_calls(builds, [str(n), "3", str(mode)]) == 0
