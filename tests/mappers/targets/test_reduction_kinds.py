"""Every kind of reduction runs kernels the Lift compiler generates (mappers/targets/
reduction.py `_lane_of`): integer sums, differences and products, which wrap around as
the loop's do, sums of magnitudes (`llvm.abs`), a sum under two tests of its counter
joined by && (LLVM's select of two tests), bitwise folds, minima and maxima of
integers and of floating-point values (a select, or a min/max call), counts under a test
(a signed, floating-point or unsigned order: `ult` and the others compare as uint or
ulong), the largest of longs read as unsigned (`uf64`), of values rounded (`ceil`,
`trunc`), a sum of a value that reads nothing (the grid its indices), sums and a
product of a literal (the total, not the literal, folded with the start), the largest of
shorts and the smallest of chars (lanes of 16 and 8 bits, folded in 32). The program is
built original and accelerated and run with launches forced on
PoCL, at sizes that are not multiples of a work-group, with small values and with values
whose sums and products wrap around: both print the same."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from mappers.accelerate import Accelerated
from mappers.targets.reduction import _extremum
from tests.mappers.differential import build_pair, replaced_everywhere, same_outputs
from tests.matcher.solver_testkit import ir_function, named

PROGRAM = Path(__file__).parents[1] / "programs" / "reduction_kinds.c"
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_VERBOSE": "1"}
FUNCTIONS = {
    "sum_int", "sum_magnitudes", "band_sum", "sum_long", "less_int", "product_unsigned",
    "bits", "min_int", "max_long",
    "count_positive", "count_below_unsigned", "count_above_ulong", "max_unsigned_as_double",
    "max_rounded", "max_double", "min_float", "repeat_sum", "max_short", "min_chars",
    "literal_sum", "literal_product", "literal_quarters",
}  # fmt: skip
GENERATED = "OpenCL reduction kernel (generated)"
REORDERED = "OpenCL reduction kernel (floating point, reordered) (generated)"

Builds = tuple[Path, Path, Accelerated]


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> Builds:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("reduction_kinds"))


def test_every_reduction_is_replaced_by_generated_kernels(builds: Builds) -> None:
    replaced_everywhere(builds[2], {"Reduction"}, FUNCTIONS)
    for unit in builds[2].units:
        for outcome in unit.outcomes:
            if outcome.instance.idiom == "Reduction" and outcome.instance.within is None:
                assert outcome.detail in (GENERATED, REORDERED), (
                    outcome.instance.function,
                    outcome.detail,
                )
                if outcome.detail == REORDERED:
                    assert outcome.instance.function == "literal_quarters"
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


EXTREMA = """
define i32 @extrema(i32 %acc, i32 %x, float %facc, float %fx) {
  %c0 = icmp slt i32 %x, %acc
  %s0 = select i1 %c0, i32 %x, i32 %acc
  %c1 = icmp sgt i32 %acc, %x
  %s1 = select i1 %c1, i32 %acc, i32 %x
  %c2 = icmp ult i32 %x, %acc
  %s2 = select i1 %c2, i32 %x, i32 %acc
  %c3 = icmp ugt i32 %x, %acc
  %s3 = select i1 %c3, i32 %x, i32 %acc
  %c4 = fcmp ult float %fx, %facc
  %s4 = select i1 %c4, float %fx, float %facc
  %c5 = fcmp ogt float %facc, %fx
  %s5 = select i1 %c5, float %fx, float %facc
  %c6 = icmp eq i32 %x, %acc
  %s6 = select i1 %c6, i32 %x, i32 %acc
  ret i32 %s0
}
"""


@pytest.mark.parametrize(
    ("update", "expected"),
    [
        ("s0", "min"),  # x < acc ? x : acc
        ("s1", "max"),  # acc > x ? acc : x
        ("s2", None),  # unsigned: OpenCL's min of int is signed
        ("s3", None),
        ("s4", "min"),  # unordered or less: a NaN reaches the total, the host declines
        ("s5", "min"),  # acc > x ? x : acc
        ("s6", None),  # no order
    ],
)
def test_a_select_is_a_minimum_or_maximum_by_a_signed_or_floating_point_order(
    update: str, expected: str | None
) -> None:
    function = ir_function(EXTREMA)
    value = named(function, f"%{update}")
    floating = value.type == "float"
    accumulator = SimpleNamespace(
        update=value,
        acc=named(function, "%facc" if floating else "%acc"),
        operand=named(function, "%fx" if floating else "%x"),
    )
    assert _extremum(accumulator) == expected  # type: ignore[arg-type]
