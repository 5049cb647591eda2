"""Sparse formats beyond CSR from a row pointer array: a CSR product over tables of row
pointers and lengths (programs/sparse_row_blocks.c) runs as a kernel only where its rows
make a block of memory in row order, packed or padded, at the same index of the values'
block and the columns' (`idiom_rows_block`); every other layout runs the original loop
(an empty row's pointer, never followed, may be anything), and the results equal the
original's to the bit either way; so does the product with the rows' lengths as chars
(HPCG's). The kernel is generated: a row's entries are a segment of the values' and the
columns' blocks, at its row pointer's index in the values' block. A product in coordinate storage
(programs/coo_aliased.c) gathers x on the device only when x lies apart from y."""

from __future__ import annotations

from pathlib import Path

import pytest

from mappers.accelerate import Accelerated
from tests.mappers.differential import build_pair, run_binary

PROGRAM = Path(__file__).parents[1] / "programs" / "sparse_row_blocks.c"
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_VERBOSE": "1"}


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("sparse_row_blocks"))


def test_the_row_tables_product_is_replaced(builds: tuple[Path, Path, Accelerated]) -> None:
    _, _, report = builds
    outcomes = [o for u in report.units for o in u.outcomes if o.instance.function == "row_product"]
    # the row's dot product, a Reduction over a gather, goes with the product around it
    (outcome,) = [o for o in outcomes if o.instance.within is None]
    assert outcome.instance.idiom == "SpMV_CSR"
    assert outcome.replaced, outcome.detail
    # floating-point sums from zero: rows averaging 32 entries may be summed by 32 lanes
    assert outcome.detail == (
        "OpenCL CSR SpMV kernel (floating point, long rows reordered) (generated)"
    )
    assert all(o.instance.within for o in outcomes if o is not outcome)


def test_the_product_with_char_lengths_is_replaced(builds: tuple[Path, Path, Accelerated]) -> None:
    # LLVM tests `length[i] > 0` on the char before its extension: the row loop's own test.
    _, _, report = builds
    outcomes = [
        o
        for u in report.units
        for o in u.outcomes
        if o.instance.function == "row_product_chars" and o.instance.within is None
    ]
    assert [o.detail for o in outcomes] == [
        "OpenCL CSR SpMV kernel (floating point, long rows reordered) (generated)"
    ]


@pytest.mark.parametrize(("layout", "launches"), [(0, 4), (1, 4), (2, 0), (3, 0), (4, 4), (5, 0)])
def test_only_rows_in_one_block_run_as_a_kernel(
    builds: tuple[Path, Path, Accelerated], layout: int, launches: int
) -> None:
    original, accelerated, _ = builds
    assert (
        _same_output_launches(original, accelerated, ["40", str(layout)], "idiom_spmv") == launches
    )


COO = Path(__file__).parents[1] / "programs" / "coo_aliased.c"


@pytest.fixture(scope="module")
def coo_builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(COO, tmp_path_factory.mktemp("coo_aliased"))


@pytest.mark.parametrize(("aliased", "launches"), [(0, 1), (1, 0)])
def test_coo_gathers_only_from_a_vector_apart_from_y(
    coo_builds: tuple[Path, Path, Accelerated], aliased: int, launches: int
) -> None:
    original, accelerated, report = coo_builds
    kinds = {o.instance.idiom for u in report.units for o in u.outcomes if o.replaced}
    assert kinds == {"SpMV_COO"}
    args = ["50", str(aliased)]
    assert _same_output_launches(original, accelerated, args, "idiom_histogram") == launches


def _same_output_launches(original: Path, accelerated: Path, args: list[str], kernel: str) -> int:
    """Run both on PoCL; the outputs must be equal to the bit. The launches of `kernel`."""
    expected = run_binary(original, args, {})
    actual = run_binary(accelerated, args, ON_POCL)
    assert actual.returncode == 0, actual.stderr
    assert actual.stdout == expected.stdout
    done = f"cl_run kernel '{kernel}'"
    return sum(done in line and line.endswith("done") for line in actual.stderr.splitlines())
