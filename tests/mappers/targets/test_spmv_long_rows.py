"""CSR products of long rows run several work-items a row (mappers/targets/sparse.py,
ROW_LANES; lift's `map-lanes` and `reduce-lanes`).

programs/csr_long_rows.c: with rows of 50-99 entries (LENGTH 100, 64 on average with the
empty ones) the products of doubles and of ints launch `idiom_spmv_lanes8`, with rows of
150-299 `idiom_spmv_lanes32`, with rows of 15-29 `idiom_spmv_lanes4`; the sum started
from y's old value runs one row an item (`idiom_spmv`: its start is not the fold's
identity); with rows of 4-7 entries (LENGTH 8) every product runs one row an item.
Launches forced on PoCL with lanes asked for (`IDIOM_ROW_LANES=1`: by default a CPU
device keeps one row an item), the outputs agree with the original's (the doubles' sums
regrouped: within the comparison's tolerance; the ints' exactly). Built with
`--no-reassociate`, the doubles' products keep one row an item in every case and the
ints' still share rows."""

from __future__ import annotations

from collections import Counter
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


def _launches(stderr: str) -> dict[str, int]:
    """Launches done by kernel name."""
    names = (
        line.split("cl_run kernel '", 1)[1].split("'", 1)[0]
        for line in stderr.splitlines()
        if "cl_run kernel '" in line and line.endswith("done")
    )
    return dict(Counter(names))


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
    ("args", "launches"),
    [
        (["300", "2", "100"], {"idiom_spmv_lanes8": 4, "idiom_spmv": 2}),
        (["300", "2", "300"], {"idiom_spmv_lanes32": 4, "idiom_spmv": 2}),
        (["300", "2", "30"], {"idiom_spmv_lanes4": 4, "idiom_spmv": 2}),
        (["300", "2", "8"], {"idiom_spmv": 6}),
        (["40", "1", "64"], {"idiom_spmv_lanes8": 2, "idiom_spmv": 1}),
    ],
    ids=["long", "longest", "middling", "short", "few"],
)
def test_long_rows_share_their_work_items(
    pair: tuple[Path, Path, Accelerated], args: list[str], launches: dict[str, int]
) -> None:
    stderr = same_outputs(pair, args, LANES_ON_POCL)
    assert {k: v for k, v in _launches(stderr).items() if k.startswith("idiom_spmv")} == launches


@pytest.mark.parametrize("asked", [{}, {"IDIOM_ROW_LANES": "0"}], ids=["cpu-default", "off"])
def test_a_cpu_device_or_lanes_off_keeps_one_row_an_item(
    pair: tuple[Path, Path, Accelerated], asked: dict[str, str]
) -> None:
    stderr = same_outputs(pair, ["300", "2", "100"], ON_POCL | asked)
    assert {k: v for k, v in _launches(stderr).items() if k.startswith("idiom_spmv")} == {
        "idiom_spmv": 6
    }


def test_without_reassociation_only_integer_rows_are_shared(
    pair: tuple[Path, Path, Accelerated], tmp_path: Path
) -> None:
    binary = tmp_path / "in_order"
    accelerate([PROGRAM], binary, CompileOptions(), reassociate=False)
    expected = run_binary(pair[0], ["300", "2", "100"], {})
    actual = run_binary(binary, ["300", "2", "100"], LANES_ON_POCL)
    assert actual.returncode == 0, actual.stderr
    assert actual.stdout == expected.stdout  # in order: to the last digit printed
    launched = _launches(actual.stderr)
    assert (launched["idiom_spmv_lanes8"], launched["idiom_spmv"]) == (2, 4)
