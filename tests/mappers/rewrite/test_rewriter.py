"""The rewriter contains a failing mapper: its loop is left as compiled, the reason is
reported, and every other replacement of the module is still made."""

from __future__ import annotations

from pathlib import Path

import pytest

from mappers.plan.plan import MapperContext, Plan
from mappers.rewrite import rewriter
from matcher.detect import Instance
from tests.mappers.differential import build_pair, same_outputs

PROGRAM = Path(__file__).parents[1] / "programs" / "kernels.c"
ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_BLAS_MIN_WORK": "1"}


def _broken_mapper(instance: Instance, context: MapperContext) -> Plan:
    context.module.lines.append("garbage that would break the module")  # undone by the rewriter
    raise AssertionError("a bug in the mapper")


def test_a_failing_mapper_leaves_its_loop_and_the_others_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(rewriter.MAPPERS, "Reduction", _broken_mapper)
    pair = build_pair(PROGRAM, tmp_path)
    outcomes = [o for unit in pair[2].units for o in unit.outcomes if o.instance.within is None]
    reductions = [o for o in outcomes if o.instance.idiom == "Reduction"]
    assert reductions and not any(o.replaced for o in reductions)
    for outcome in reductions:
        assert "internal error in the Reduction mapper (AssertionError at " in outcome.detail
        assert "a bug in the mapper" in outcome.detail and outcome.internal_error
    assert {o.instance.idiom for o in outcomes if o.replaced} >= {"GEMM", "Stencil", "SpMV_CSR"}
    assert same_outputs(pair, ["65", "3"], ON_POCL) == ""
