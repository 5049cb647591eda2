"""In-place products of a batch of rows reached through a table of row pointers
(mappers/targets/batched.py with mappers/plan/row_tables.py): rows picked by two batch
loops (`A[r*nq + q]`) or one (`A[i]`) go to one `idiom_gemm_rows` call when they lie
equally spaced, and every other layout gives the original's output: rows allocated one by
one, shuffled, descending, in blocks with growing gaps, overlapping one another, or the
sums among the rows."""

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

PROGRAM = Path(__file__).parents[1] / "programs" / "batched_row_tables.c"
BLOCK, SEPARATE, SHUFFLED, DESCENDING, BLOCKS_APART, SUM_IN_ROW, OVERLAPPING, GAPS_GROW = range(8)
KERNELS = {"table_two_loops", "table_one_loop"}


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("batched_row_tables"))


def _batches_done(builds: tuple[Path, Path, Accelerated], args: list[int]) -> int:
    stderr = same_outputs(builds, [str(a) for a in args], BLAS_AT_ANY_SIZE)
    return blas_calls_done(stderr, "gemm_rows")


def test_both_kernels_are_replaced_as_batches(builds: tuple[Path, Path, Accelerated]) -> None:
    replaced_everywhere(builds[2], {"GEMM"}, KERNELS)


@pytest.mark.parametrize(
    "rows, inner, size", [(0, 3, 3), (3, 0, 3), (3, 4, 0), (1, 1, 1), (3, 4, 5), (2, 7, 9)]
)
def test_rows_of_one_block_are_one_call_each(
    builds: tuple[Path, Path, Accelerated], rows: int, inner: int, size: int
) -> None:
    expected = len(KERNELS) if rows > 0 and inner > 0 and size > 0 else 0
    assert _batches_done(builds, [rows, inner, size, 5, BLOCK]) == expected


@pytest.mark.parametrize("layout", [SHUFFLED, DESCENDING, GAPS_GROW, SUM_IN_ROW, OVERLAPPING])
@pytest.mark.parametrize("seed", [2, 9])
def test_other_layouts_run_the_original_code(
    builds: tuple[Path, Path, Accelerated], layout: int, seed: int
) -> None:
    assert _batches_done(builds, [3, 5, 7, seed, layout]) == 0


@pytest.mark.parametrize("shape", [(3, 5, 7), (1, 1, 1), (2, 1, 4)])
def test_rows_allocated_one_by_one_give_the_original_results(
    builds: tuple[Path, Path, Accelerated], shape: tuple[int, int, int]
) -> None:
    """Rows from malloc may happen to lie equally spaced (then BLAS takes them, a row
    apart at least): only the output is checked."""
    _batches_done(builds, [*shape, 4, SEPARATE])


def test_blocks_apart_make_a_grid_for_two_loops(
    builds: tuple[Path, Path, Accelerated],
) -> None:
    """One block per r, the blocks equally far apart: a grid for the two-loop kernel (one
    call), rows not equally spaced for the one-loop kernel (the original code); with a
    single row per r, equally spaced for both."""
    assert _batches_done(builds, [4, 3, 5, 1, BLOCKS_APART]) == 1
    assert _batches_done(builds, [4, 1, 5, 1, BLOCKS_APART]) == len(KERNELS)
