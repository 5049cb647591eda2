"""CSR products of long rows run 32 work-items a row (mappers/targets/sparse.py,
ROW_LANES; lift's `map-lanes` and `reduce-lanes`).

programs/csr_long_rows.c: with rows of 50-99 entries (LENGTH 100) the products of doubles
and of ints launch `idiom_spmv_lanes`, the sum started from y's old value one row an item
(`idiom_spmv`: its start is not the fold's identity); with rows of 4-7 entries (LENGTH 8)
every product runs one row an item. Launches forced on PoCL with lanes asked for
(`IDIOM_ROW_LANES=1`: by default a CPU device keeps one row an item), the outputs agree
with the original's (the doubles' sums regrouped: within the comparison's tolerance; the
ints' exactly). Built with `--no-reassociate`, the doubles' products keep one row an item
in every case and the ints' still share rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from mappers.accelerate import Accelerated, accelerate
from matcher.frontend import CompileOptions
from tests.mappers.differential import build_pair, run_binary, same_outputs

PROGRAM = Path(__file__).parents[1] / "programs" / "csr_long_rows.c"
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_VERBOSE": "1"}
LANES_ON_POCL = ON_POCL | {"IDIOM_ROW_LANES": "1"}


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("csr_long_rows"))


def _launches(stderr: str, kernel: str) -> int:
    return sum(
        1
        for line in stderr.splitlines()
        if f"cl_run kernel '{kernel}'" in line and line.endswith("done")
    )


def test_the_report_says_long_rows_are_regrouped(pair: tuple[Path, Path, Accelerated]) -> None:
    details = {
        o.instance.function: o.detail
        for u in pair[2].units
        for o in u.outcomes
        if o.instance.idiom == "SpMV_CSR" and o.replaced
    }
    assert details == {
        "plain": "OpenCL CSR SpMV kernel (floating point, long rows reordered) (generated)",
        "counts": "OpenCL CSR SpMV kernel (generated)",
        "started": "OpenCL CSR SpMV kernel (generated)",
    }


@pytest.mark.parametrize(
    ("args", "by_lanes", "by_rows"),
    [(["300", "2", "100"], 4, 2), (["300", "2", "8"], 0, 6), (["40", "1", "64"], 2, 1)],
    ids=["long", "short", "few"],
)
def test_long_rows_share_their_work_items(
    pair: tuple[Path, Path, Accelerated], args: list[str], by_lanes: int, by_rows: int
) -> None:
    stderr = same_outputs(pair, args, LANES_ON_POCL)
    assert _launches(stderr, "idiom_spmv_lanes") == by_lanes
    assert _launches(stderr, "idiom_spmv") == by_rows


@pytest.mark.parametrize("asked", [{}, {"IDIOM_ROW_LANES": "0"}], ids=["cpu-default", "off"])
def test_a_cpu_device_or_lanes_off_keeps_one_row_an_item(
    pair: tuple[Path, Path, Accelerated], asked: dict[str, str]
) -> None:
    stderr = same_outputs(pair, ["300", "2", "100"], ON_POCL | asked)
    assert _launches(stderr, "idiom_spmv_lanes") == 0
    assert _launches(stderr, "idiom_spmv") == 6


def test_without_reassociation_only_integer_rows_are_shared(
    pair: tuple[Path, Path, Accelerated], tmp_path: Path
) -> None:
    binary = tmp_path / "in_order"
    accelerate([PROGRAM], binary, CompileOptions(), reassociate=False)
    expected = run_binary(pair[0], ["300", "2", "100"], {})
    actual = run_binary(binary, ["300", "2", "100"], LANES_ON_POCL)
    assert actual.returncode == 0, actual.stderr
    assert actual.stdout == expected.stdout  # in order: to the last digit printed
    assert _launches(actual.stderr, "idiom_spmv_lanes") == 2
    assert _launches(actual.stderr, "idiom_spmv") == 4
