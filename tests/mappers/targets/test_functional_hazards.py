"""Generated stencils where a point's values depend on what it overwrites, and bodies too
deep for the functional IR: the outputs stay the original's (PoCL, launches forced)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mappers.differential import build_pair, same_outputs

ON_POCL = {"IDIOM_DEVICE": "cpu", "IDIOM_CL_MIN_WORK": "1", "IDIOM_VERBOSE": "1"}

# Each record's y is computed from its x as it was before the point overwrites x: the
# generated kernel computes every stored value before storing any.
RECORDS = r"""
#include <stdio.h>
#include <stdlib.h>
struct cell { double x, y; };
__attribute__((noinline)) void rec(int n, const double *b, struct cell *a) {
  for (int i = 1; i <= n; i++) {
    double x = a[i].x;
    a[i].x = b[i - 1] + b[i + 1];
    a[i].y = x * 2.0 + b[i];
  }
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  double *b = malloc(sizeof(double) * (n + 2));
  struct cell *a = malloc(sizeof(struct cell) * (n + 2));
  for (int i = 0; i < n + 2; i++) { b[i] = i * 0.5; a[i].x = 100.0 + i; a[i].y = -1.0; }
  rec(n, b, a);
  for (int i = 0; i < n + 2; i++) printf("%a %a\n", a[i].x, a[i].y);
  return 0;
}
"""


def _deep(steps: int) -> str:
    """A 1D stencil whose value goes through `steps` dependent operations."""
    chain = "\n".join("    x = x * 0.5 + c;" for _ in range(steps))
    return rf"""
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) void deep(int n, double c, const double *a, double *b) {{
  for (int i = 1; i < n - 1; i++) {{
    double x = a[i - 1] + a[i + 1];
{chain}
    b[i] = x;
  }}
}}
int main(int argc, char **argv) {{
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  double *a = malloc(sizeof(double) * n), *b = calloc(n, sizeof(double));
  for (int i = 0; i < n; i++) a[i] = i * 0.25;
  deep(n, 0.125, a, b);
  for (int i = 0; i < n; i++) printf("%a\n", b[i]);
  return 0;
}}
"""


def _replaced_targets(report: object) -> list[str]:
    units = report.units
    return [
        o.detail for u in units for o in u.outcomes if o.replaced and o.instance.idiom == "Stencil"
    ]


def test_a_record_read_before_it_is_overwritten(tmp_path: Path) -> None:
    program = tmp_path / "records.c"
    program.write_text(RECORDS)
    pair = build_pair(program, tmp_path)
    assert _replaced_targets(pair[2]) == ["OpenCL stencil kernel (generated)"]
    for n in (1, 7, 100):
        stderr = same_outputs(pair, [str(n)], ON_POCL)
        assert "cl_run kernel 'idiom_stencil'" in stderr


@pytest.mark.parametrize("steps", [150])
def test_a_body_too_deep_for_the_functional_ir_keeps_the_translated_kernel(
    tmp_path: Path, steps: int
) -> None:
    program = tmp_path / "deep.c"
    program.write_text(_deep(steps))
    pair = build_pair(program, tmp_path)
    assert _replaced_targets(pair[2]) == ["OpenCL stencil kernel"]
    for n in (3, 50):
        same_outputs(pair, [str(n)], ON_POCL)
