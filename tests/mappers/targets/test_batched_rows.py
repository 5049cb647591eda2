"""In-place products of a batch of rows by one matrix (blas.idl's BatchedRowProducts,
mappers/targets/batched.py, `idiom_gemm_rows`): two batch loops with the sums kept in memory, one
batch loop in float with the sums in a register; one call each, every element of the
block equal to the original's (the rows and the last row's sums); the original code
where the sums or W overlap the rows, where the rows overlap one another, and where the
sums are copied into the next row instead of the row read."""

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

PROGRAM = Path(__file__).parents[1] / "programs" / "batched_rows.c"
SEPARATE, SUM_OVERLAPS_A, W_OVERLAPS_A, ROWS_OVERLAP = range(4)
BATCHES = {"rows_two_loops", "rows_one_loop_float"}
DECLINED_AT_RUN_TIME = "rows_shifted"  # the row written is not the row read


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("batched_rows"))


def _batches_done(builds: tuple[Path, Path, Accelerated], args: list[str]) -> int:
    return blas_calls_done(same_outputs(builds, args, BLAS_AT_ANY_SIZE), "gemm_rows")


def test_every_batch_is_replaced(builds: tuple[Path, Path, Accelerated]) -> None:
    replaced_everywhere(builds[2], {"GEMM"}, BATCHES | {DECLINED_AT_RUN_TIME})


@pytest.mark.parametrize(
    "rows, inner, size", [(0, 3, 3), (3, 0, 3), (3, 4, 0), (1, 1, 1), (3, 4, 5), (2, 7, 9)]
)
@pytest.mark.parametrize("seed", [1, 8])
def test_separate_arrays_are_one_call_each(
    builds: tuple[Path, Path, Accelerated], rows: int, inner: int, size: int, seed: int
) -> None:
    expected = len(BATCHES) if rows > 0 and inner > 0 and size > 0 else 0
    args = [str(rows), str(inner), str(size), str(seed), str(SEPARATE)]
    assert _batches_done(builds, args) == expected


@pytest.mark.parametrize("mode", [SUM_OVERLAPS_A, W_OVERLAPS_A, ROWS_OVERLAP])
def test_overlapping_arrays_run_the_original_code(
    builds: tuple[Path, Path, Accelerated], mode: int
) -> None:
    assert _batches_done(builds, ["3", "4", "5", "2", str(mode)]) == 0
