"""Matrices given as tables of row pointers (mappers/plan/row_tables.py): BLAS takes them when
the rows lie equally spaced, and the original code runs when they do not, when the product
is written over a factor, and when the rows run backwards or repeat."""

from __future__ import annotations

from pathlib import Path

import pytest

from mappers.accelerate import Accelerated
from tests.mappers.differential import BLAS_AT_ANY_SIZE, blas_calls_done, build_pair, same_outputs

PROGRAM = Path(__file__).parents[1] / "programs" / "row_tables.c"
REGULAR, SWAPPED, OVERLAPPING, DESCENDING, REPEATED = range(5)


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("row_tables"))


def _compare(builds: tuple[Path, Path, Accelerated], args: list[str]) -> str:
    return same_outputs(builds, args, BLAS_AT_ANY_SIZE)


def test_both_kernels_are_replaced(builds: tuple[Path, Path, Accelerated]) -> None:
    _, _, report = builds
    outcomes = {
        (o.instance.function, o.instance.idiom): o for u in report.units for o in u.outcomes
    }
    for key in (("gemm_rows", "GEMM"), ("gemv_rows_t", "GEMV")):
        assert outcomes[key].replaced, outcomes[key].detail


@pytest.mark.parametrize("n", [0, 1, 2, 7, 65])
@pytest.mark.parametrize("seed", [3, 11])
def test_equally_spaced_rows_go_to_blas(
    builds: tuple[Path, Path, Accelerated], n: int, seed: int
) -> None:
    stderr = _compare(builds, [str(n), str(seed), str(REGULAR)])
    if n >= 1:
        assert blas_calls_done(stderr, "gemm") == 1 and blas_calls_done(stderr, "gemv") == 1


# OVERLAPPING writes C over A only: the GEMV's rows are equally spaced there.
@pytest.mark.parametrize(("layout", "gemv_done"), [(SWAPPED, 0), (OVERLAPPING, 1), (REPEATED, 0)])
@pytest.mark.parametrize("n", [2, 9])
def test_other_layouts_run_the_original_code(
    builds: tuple[Path, Path, Accelerated], layout: int, gemv_done: int, n: int
) -> None:
    stderr = _compare(builds, [str(n), "5", str(layout)])
    assert blas_calls_done(stderr, "gemm") == 0
    assert blas_calls_done(stderr, "gemv") == gemv_done


def test_descending_rows_give_the_original_results(
    builds: tuple[Path, Path, Accelerated],
) -> None:
    """Rows in descending order of address are still equally spaced (a negative step); BLAS
    takes what it can express and the rest runs as written, with the same results."""
    _compare(builds, ["9", "5", str(DESCENDING)])


def test_cleared_output_rows_through_a_table(tmp_path: Path) -> None:
    """The loop clearing D's rows loads its own row pointers: they go through the table."""
    pair = build_pair(Path(__file__).parents[1] / "programs" / "cleared_row_tables.c", tmp_path)
    for n in ("1", "7", "40"):
        assert blas_calls_done(same_outputs(pair, [n], BLAS_AT_ANY_SIZE), "gemm") == 1
