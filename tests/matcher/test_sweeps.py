"""In-place sweeps (matcher/sweeps.py): a Gauss-Seidel sweep is a Stencil marked in place,
a Jacobi sweep is not marked, and a prefix sum (one read of what other points write) is
no Stencil at all."""

from __future__ import annotations

from pathlib import Path

from matcher.detect import Instance, detect_module
from matcher.frontend import compile_to_ir
from matcher.ir_builder import build_module
from matcher.pipeline import load_library

SOURCE = """
void gauss_seidel(int n, double *u) {
    for (int i = 1; i < n - 1; i++)
        u[i] = 0.5 * (u[i - 1] + u[i + 1]);
}
void jacobi(int n, const double *u, double *v) {
    for (int i = 1; i < n - 1; i++)
        v[i] = 0.5 * (u[i - 1] + u[i + 1]);
}
void prefix_sum(int n, long *a) {
    for (int j = 1; j < n; j++)
        a[j] = a[j] + a[j - 1];
}
"""


def _stencils(tmp_path: Path) -> dict[str, Instance]:
    path = tmp_path / "sweeps.c"
    path.write_text(SOURCE)
    module = build_module(compile_to_ir(path), str(path))
    report = detect_module(module, load_library().exported_programs())
    return {i.function: i for i in report.instances if i.idiom == "Stencil"}


def test_sweeps_are_told_apart(tmp_path: Path) -> None:
    stencils = _stencils(tmp_path)
    assert set(stencils) == {"gauss_seidel", "jacobi"}
    assert stencils["gauss_seidel"].in_place
    assert not stencils["jacobi"].in_place
