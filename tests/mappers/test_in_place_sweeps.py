"""Stencils that sweep in place (matcher/sweeps.py) are found, marked and reported, never
replaced: a Gauss-Seidel sweep beside the Jacobi residual of the same program, which is
replaced."""

from __future__ import annotations

from pathlib import Path

from mappers.accelerate import accelerate
from matcher.frontend import CompileOptions

CORPUS = Path(__file__).resolve().parents[2] / "corpus"


def test_an_in_place_sweep_is_reported_not_replaced(tmp_path: Path) -> None:
    report = accelerate([CORPUS / "nm_stencil_sor_global.c"], tmp_path / "sor", CompileOptions())
    stencils = {
        o.instance.function: o
        for u in report.units
        for o in u.outcomes
        if o.instance.idiom == "Stencil" and o.instance.within is None
    }
    assert set(stencils) == {"sor_sweep", "residual"}
    sweep, residual = stencils["sor_sweep"], stencils["residual"]
    assert sweep.instance.in_place and not residual.instance.in_place
    assert not sweep.replaced
    assert sweep.detail.startswith("an in-place sweep: the read at line 1")
    assert residual.replaced, residual.detail
