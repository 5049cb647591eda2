"""The stencil mapper on shapes beyond one value per point out of place
(programs/stencil_shapes.c): a row rebuilt in place from the next rows is replaced, a
cell pushing several values is replaced (one work-item stores them all), the same push
under a test of the cell's data is found and not replaced, and loops writing one element
again and again are left as compiled (work-items run in any order)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mappers.accelerate import Accelerated
from measure.compare import first_difference
from tests.mappers.differential import build_pair, run_binary

PROGRAM = Path(__file__).parents[1] / "programs" / "stencil_shapes.c"
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_VERBOSE": "1"}


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("stencil_shapes"))


def test_what_is_replaced_and_why_not(builds: tuple[Path, Path, Accelerated]) -> None:
    _, _, report = builds
    outcomes = {
        o.instance.function: o
        for u in report.units
        for o in u.outcomes
        if o.instance.idiom == "Stencil" and o.instance.within is None
    }
    assert set(outcomes) == {"edge_in_place", "push", "push_flagged", "last_value", "last_row"}
    assert outcomes["edge_in_place"].replaced
    assert outcomes["push"].replaced
    assert not outcomes["push_flagged"].replaced
    assert outcomes["push_flagged"].detail.startswith("the region has conditional code")
    # Every trip of the outer loop writes the same elements: the guard's test that the
    # points are apart could never pass, so neither nest is replaced (last_row's inner
    # loop is, instead: see the launches below).
    assert not outcomes["last_value"].replaced and not outcomes["last_row"].replaced
    assert outcomes["last_value"].detail == (
        "the store at line 49 writes the same elements at every trip of the loop at "
        "line 48: the points are not apart"
    )
    assert outcomes["last_row"].detail == (
        "the store at line 57 writes the same elements at every trip of the loop at "
        "line 55: the points are not apart"
    )


@pytest.mark.parametrize("n", [4, 20])
def test_outputs_equal_and_what_runs_as_kernels(
    builds: tuple[Path, Path, Accelerated], n: int
) -> None:
    original, accelerated, _ = builds
    expected = run_binary(original, [str(n), "5"], {})
    actual = run_binary(accelerated, [str(n), "5"], ON_POCL)
    assert actual.returncode == 0, actual.stderr
    assert first_difference(expected.stdout, actual.stdout) is None
    launches = [
        line
        for line in actual.stderr.splitlines()
        if "cl_run kernel 'idiom_stencil'" in line and line.endswith("done")
    ]
    # edge_in_place, 94 points, and push, 3648 cells, six times each; last_row's inner
    # loop once per row (n - 2 rows of n - 2 points: its outer loop writes the same
    # elements at every trip, so it is launched row after row, in order); last_value never.
    assert len(launches) == 12 + (n - 2)
    assert sum(" work 94 " in line for line in launches) == 6
    assert sum(" work 3648 " in line for line in launches) == 6
    assert sum(f" work {n - 2} " in line for line in launches) == n - 2
