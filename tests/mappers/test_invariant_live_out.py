"""End to end: a loop that stores a scalar global on every trip, a value the same in every
iteration (`scale = factor * 0.25`, NAS BT's `tmp1 = dt * tx1`), which licm stores once
after the loop: the value leaves the loop, and the rewriter computes it again after the
kernel from the fixed values the guard loaded (mappers/plan/region.py, `recomputable`).
A value that changes with the iteration still keeps the loop as it is, and where the
kernel would write over the scalar read, the guard keeps the original code."""

from __future__ import annotations

from pathlib import Path

import pytest

from mappers.accelerate import Accelerated
from mappers.plan import region
from tests.mappers.differential import build_pair, same_outputs

PROGRAM = Path(__file__).parent / "programs" / "invariant_live_out.c"
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_VERBOSE": "1"}


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Accelerated]:
    return build_pair(PROGRAM, tmp_path_factory.mktemp("invariant"))


def _stencils(report: Accelerated) -> dict[str, tuple[bool, str]]:
    return {
        o.instance.function: (o.replaced, o.detail)
        for unit in report.units
        for o in unit.outcomes
        if o.instance.idiom == "Stencil"
    }


def test_an_invariant_value_leaving_the_loop_is_computed_again(
    builds: tuple[Path, Path, Accelerated],
) -> None:
    outcomes = _stencils(builds[2])
    assert outcomes["smooth"][0], outcomes
    assert outcomes["smooth_into"][0], outcomes
    replaced, why = outcomes["smooth_last"]
    assert not replaced
    assert "used after the loop" in why


def test_without_computing_it_again_the_loops_stay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(region, "recomputable", lambda value, where: False)
    _, _, report = build_pair(PROGRAM, tmp_path)
    assert not any(replaced for replaced, _ in _stencils(report).values())


@pytest.mark.parametrize("n", [0, 1, 2, 3, 17, 64])
@pytest.mark.parametrize("aliased", ["0", "1"])
def test_outputs_are_the_originals(
    builds: tuple[Path, Path, Accelerated], n: int, aliased: str
) -> None:
    stderr = same_outputs(builds, [str(n), "7", aliased, "0.75"], ON_POCL)
    launched = sum(
        "kernel 'idiom_stencil'" in line and "done" in line for line in stderr.splitlines()
    )
    # smooth and smooth_into where a point has both neighbours; never the aliased call,
    # whose output covers the factor every point reads
    assert launched == (2 if n >= 3 else 0)
