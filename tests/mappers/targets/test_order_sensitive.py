"""Max and min reductions over floating-point values (mappers/targets/reduction.py): the device's
order agrees with the loop's except with a NaN among the values or a result of zero,
where the original loop runs again; and a sum whose magnitudes overflow, where some
order of the additions may overflow and another not. Outputs equal, NaN, infinities and
the sign of zero included."""

from __future__ import annotations

from pathlib import Path

import pytest

from mappers.accelerate import Accelerated
from tests.mappers.differential import build_pair, replaced_everywhere, same_outputs

PROGRAM = Path(__file__).parents[1] / "programs" / "minmax_order.c"
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1"}
PLAIN, NAN, SIGNED_ZEROS, HUGE = range(4)


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("minmax_order"))


def test_every_reduction_is_replaced(builds: tuple[Path, Path, Accelerated]) -> None:
    replaced_everywhere(
        builds[2], {"Reduction"}, {"max_keep", "max_take", "min_float", "max_call", "sum"}
    )


@pytest.mark.parametrize("n", [1, 2, 7, 1000, 70001])
def test_plain_values(builds: tuple[Path, Path, Accelerated], n: int) -> None:
    same_outputs(builds, [str(n), str(PLAIN)], ON_POCL)


@pytest.mark.parametrize("at", [0, 1, 500, 998, 999])
def test_a_nan_anywhere(builds: tuple[Path, Path, Accelerated], at: int) -> None:
    same_outputs(builds, ["1000", str(NAN), str(at)], ON_POCL)


@pytest.mark.parametrize("n", [4, 100, 70001])
def test_zeros_of_both_signs(builds: tuple[Path, Path, Accelerated], n: int) -> None:
    same_outputs(builds, [str(n), str(SIGNED_ZEROS)], ON_POCL)


@pytest.mark.parametrize("n", [4, 6, 1001])
def test_a_sum_that_overflows_in_the_loops_order(
    builds: tuple[Path, Path, Accelerated], n: int
) -> None:
    same_outputs(builds, [str(n), str(HUGE)], ON_POCL)
