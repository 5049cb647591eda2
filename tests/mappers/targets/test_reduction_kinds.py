"""Every kind of reduction runs kernels the Lift compiler generates (mappers/targets/
reduction.py `_lane_of`): integer sums, differences and products, which wrap around as
the loop's do, bitwise folds, minima and maxima of integers and of floating-point values
(a select, or a min/max call), counts under a test. The program is built original and
accelerated and run with launches forced on PoCL, at sizes that are not multiples of a
work-group, with small values and with values whose sums and products wrap around:
both print the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from mappers.accelerate import Accelerated
from tests.mappers.differential import build_pair, replaced_everywhere, same_outputs

PROGRAM = Path(__file__).parents[1] / "programs" / "reduction_kinds.c"
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_VERBOSE": "1"}
FUNCTIONS = {
    "sum_int", "sum_long", "less_int", "product_unsigned", "bits", "min_int", "max_long",
    "count_positive", "max_double", "min_float",
}  # fmt: skip
GENERATED = "OpenCL reduction kernel (generated)"

Builds = tuple[Path, Path, Accelerated]


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> Builds:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("reduction_kinds"))


def test_every_reduction_is_replaced_by_generated_kernels(builds: Builds) -> None:
    replaced_everywhere(builds[2], {"Reduction"}, FUNCTIONS)
    for unit in builds[2].units:
        for outcome in unit.outcomes:
            if outcome.instance.idiom == "Reduction" and outcome.instance.within is None:
                assert outcome.detail == GENERATED, (outcome.instance.function, outcome.detail)
                assert outcome.generated is not None
                assert "tree-reduce" in outcome.generated.rewrites[0]


def _launches(stderr: str) -> int:
    return sum(
        1
        for line in stderr.splitlines()
        if "cl_run kernel 'idiom_reduce'" in line and line.endswith("done")
    )


@pytest.mark.parametrize("n", [1, 2, 127, 1000, 70001])
def test_small_values(builds: Builds, n: int) -> None:
    stderr = same_outputs(builds, [str(n), "0"], ON_POCL)
    assert _launches(stderr) == len(FUNCTIONS), stderr[-2000:]


@pytest.mark.parametrize("n", [3, 1000, 70001])
def test_values_that_wrap_around(builds: Builds, n: int) -> None:
    stderr = same_outputs(builds, [str(n), "1"], ON_POCL)
    assert _launches(stderr) == len(FUNCTIONS), stderr[-2000:]
