"""The map mapper (programs/map_shapes.c): element-wise loops writing one or several
arrays run as kernels with launches forced on PoCL, and print what the original prints;
calls whose arrays overlap (an output that is also an input, or shifted by one element)
keep the original code (the guard)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mappers.accelerate import Accelerated, rewrite_file
from matcher.frontend import CompileOptions
from tests.mappers.differential import build_pair, replaced_everywhere, same_outputs

PROGRAM = Path(__file__).parents[1] / "programs" / "map_shapes.c"
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_VERBOSE": "1"}


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("map_shapes"))


def test_every_map_is_replaced(builds: tuple[Path, Path, Accelerated]) -> None:
    _, _, report = builds
    replaced_everywhere(
        report, {"Map"}, {"cg_update", "direction", "blend", "magnitude", "amplify"}
    )
    two_arrays = next(
        o for u in report.units for o in u.outcomes if o.instance.function == "cg_update"
    )
    assert two_arrays.detail == "OpenCL map kernel"  # the translated kernel: two outputs


@pytest.mark.parametrize("n", [4, 37, 1000])
def test_outputs_equal_and_overlapping_calls_stay_on_the_host(
    builds: tuple[Path, Path, Accelerated], n: int
) -> None:
    stderr = same_outputs(builds, [str(n), "5"], ON_POCL)
    launches = [
        line
        for line in stderr.splitlines()
        if "cl_run kernel 'idiom_map'" in line and line.endswith("done")
    ]
    # Five steps of three maps, then the second blend (rows apart) and the first
    # magnitude; the calls on overlapping arrays (z as p, r + 1 as p, p + 1 as p, grid as
    # its own input, mag + 1 as mag) never launch.
    assert len(launches) == 17


BATCH_AND_TIME_LOOP = """
void triangle(int rows, int n, const double *x, double *y) {
    for (int i = 0; i < rows; i++)
        for (int j = 0; j <= i; j++)
            y[i * n + j] = 2.0 * x[i * n + j];
}

void relax(int steps, int n, const double *x, double *y) {
    for (int s = 0; s < steps; s++)
        for (int j = 0; j < n; j++)
            y[j] = 0.5 * (y[j] + x[j]);
}
"""


def test_a_map_that_is_a_slice_of_a_batch_is_left_alone(tmp_path: Path) -> None:
    """The rows of a triangle are maps the idiom takes one at a time (the row loop's bound
    moves): a guard at every row would cost more than it saves. A time loop around a map
    writes the same elements at every step: the map is replaced."""
    source = tmp_path / "maps.c"
    source.write_text(BATCH_AND_TIME_LOOP)
    _, report = rewrite_file(source, CompileOptions())
    outcomes = {o.instance.function: o for o in report.outcomes if o.instance.idiom == "Map"}
    assert not outcomes["triangle"].replaced
    assert outcomes["triangle"].detail.startswith("the nest is all a loop around it does")
    assert outcomes["relax"].replaced, outcomes["relax"].detail
