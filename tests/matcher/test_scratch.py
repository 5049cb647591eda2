"""Calls that fill a private scratch array (matcher/scratch.py, `fills a private scratch
array`): which calls qualify, on C snippets through the real front end, and what the
reduction mapper says of a loop with one."""

from __future__ import annotations

from pathlib import Path

import pytest
from solver_testkit import compiled_c, function_of

from mappers.accelerate import rewrite_file
from matcher.frontend import CompileOptions
from matcher.ir import Function, Value

CORPUS = Path(__file__).resolve().parents[2] / "corpus"

# The helpers a sweep may call; `q` has three doubles in the sweeps below.
HELPERS = """
double coef[3][4];
double shift;
long calls;
__attribute__((noinline)) void fill(double x, double q[3]) {
  for (int m = 0; m < 3; m++)
    q[m] = coef[m][0] + x * (coef[m][1] + x * (coef[m][2] + x * coef[m][3]));
}
__attribute__((noinline)) void fill_straight(double x, double q[3]) {
  q[0] = 1.0;
  q[2] = x * x;
  q[1] = x;
}
__attribute__((noinline)) void fill_counted(double x, double q[3]) {
  for (int m = 0; m < 3; m++)
    q[m] = coef[m][0] + x * coef[m][1];
  calls++;
}
__attribute__((noinline)) void fill_if(double x, double q[3]) {
  if (x > 0.5)
    for (int m = 0; m < 3; m++)
      q[m] = coef[m][0] + x * coef[m][1];
}
__attribute__((noinline)) void fill_two(double x, double q[3]) {
  for (int m = 0; m < 2; m++)
    q[m] = coef[m][0] + x * coef[m][1];
}
__attribute__((noinline)) void fill_some(double x, double q[3], int k) {
  for (int m = 0; m < k; m++)
    q[m] = coef[m][0] + x * coef[m][1];
}
__attribute__((noinline)) void fill_chained(double x, double q[3]) {
  q[0] = x * coef[0][0];
  for (int m = 1; m < 3; m++)
    q[m] = q[m - 1] * x;
}
__attribute__((noinline)) void fill_shifted(double x, double q[3]) {
  for (int m = 0; m < 3; m++)
    q[m] = coef[m][0] + (x + shift) * coef[m][1];
}
__attribute__((weak, noinline)) void fill_weak(double x, double q[3]) {
  for (int m = 0; m < 3; m++)
    q[m] = coef[m][0] + x * coef[m][1];
}
__attribute__((noinline)) void fill_grid(double x, double g[2][3]) {
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 3; b++)
      g[a][b] = coef[b][a] * x;
}
extern void consume(double *q);
"""


def sweep(body: str, before: str = "", after: str = "", declare: str = "double q[3];") -> str:
    return (
        HELPERS
        + "double sweep(const double *u, int n) {\n"
        + f"  {declare}\n  double s = 0.0;\n  {before}\n"
        + f"  for (int i = 0; i < n; i++) {{\n{body}\n  }}\n"
        + f"  {after}\n  return s;\n}}\n"
    )


def scratch_calls(source: str) -> dict[str, tuple[str, ...]]:
    """callee -> the arrays it fills, for every call in `sweep` that is not an intrinsic."""
    function: Function = function_of(compiled_c(source), "sweep")
    calls: list[Value] = [
        v
        for v in function.instructions
        if v.opcode == "call" and not (v.callee or "").startswith("llvm.")
    ]
    return {v.callee or "": tuple(a.name for a in v.fills) for v in calls}


def test_a_loop_that_fills_every_element() -> None:
    assert scratch_calls(sweep("fill(u[i], q); s += q[0] * q[2];")) == {"fill": ("%q",)}


def test_stores_at_constant_offsets_in_any_order() -> None:
    found = scratch_calls(sweep("fill_straight(u[i], q); s += q[1] + q[2];"))
    assert found == {"fill_straight": ("%q",)}


def test_two_counters_fill_a_2d_array() -> None:
    source = sweep("fill_grid(u[i], g); s += g[1][2] - g[0][0];", declare="double g[2][3];")
    assert scratch_calls(source) == {"fill_grid": ("%g",)}


def test_an_array_declared_in_the_body_with_its_lifetime_markers() -> None:
    source = sweep("double t[3];\n fill(u[i], t); s += t[1];", declare="")
    function = function_of(compiled_c(source), "sweep")
    markers = [v for v in function.instructions if (v.callee or "").startswith("llvm.lifetime")]
    assert markers and all(m.fills for m in markers)
    assert scratch_calls(source) == {"fill": ("%t",)}


def test_one_array_shared_by_two_sweeps() -> None:
    source = sweep(
        "fill(u[i], q); s += q[0];",
        after="for (int i = 0; i < n; i++) { fill_straight(u[i], q); s += q[2]; }",
    )
    function = function_of(compiled_c(source), "sweep")
    fillers = [v for v in function.instructions if v.callee in ("fill", "fill_straight")]
    assert [bool(v.fills) for v in fillers] == [True, True]


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ("fill_counted(u[i], q); s += q[0];", "writes a global too"),
        ("fill_if(u[i], q); s += q[0];", "fills on some paths only"),
        ("fill_two(u[i], q); s += q[0];", "fills two of the three elements"),
        ("fill_some(u[i], q, 3); s += q[0];", "fills as many as an argument says"),
        ("fill_chained(u[i], q); s += q[2];", "reads what it wrote"),
        ("fill_weak(u[i], q); s += q[0];", "a weak definition may be replaced"),
        ("s += q[0]; fill(u[i], q);", "the loop reads q before the call"),
        ("fill(u[i], q); consume(q); s += q[0];", "q escapes to another function"),
        ("fill(u[i], q); q[1] = s; s += q[1];", "the loop stores into q too"),
        ("fill_shifted(u[i], q); s += q[0]; shift = s;", "reads a global the loop writes"),
    ],
)
def test_calls_that_do_not_qualify(body: str, why: str) -> None:
    before = "fill(0.0, q);" if body.startswith("s +=") else ""
    calls = scratch_calls(sweep(body, before=before))
    assert all(arrays == () for arrays in calls.values()), why


def test_read_after_the_loop_does_not_qualify() -> None:
    # The last point's values are used after the sweep: the loop is not just a sum.
    assert scratch_calls(sweep("fill(u[i], q); s += q[0];", after="s += q[1];")) == {"fill": ()}


def test_a_global_the_loop_does_not_write() -> None:
    found = scratch_calls(sweep("fill_shifted(u[i], q); s += q[0];"))
    assert found == {"fill_shifted": ("%q",)}


def test_the_reduction_mapper_says_why_it_keeps_such_a_loop() -> None:
    _, report = rewrite_file(CORPUS / "red_scratch.c", CompileOptions())
    why = {
        o.instance.function: o.detail
        for o in report.outcomes
        if not o.replaced and o.instance.idiom == "Reduction"
    }
    assert "fills the local array %p" in why["quadrature"]
    assert "fills the local array %q" in why["max_deviation"]
    assert why["error_norms"] == "the accumulator is kept in memory"


def test_a_callee_given_a_copy_fills_nothing_of_the_callers() -> None:
    # A struct passed by value (byval): the callee writes its own copy, v keeps its values.
    source = """
double coef[3][4];
struct V { double q[3]; };
__attribute__((noinline)) void fill_copy(double x, struct V v) {
  for (int m = 0; m < 3; m++)
    v.q[m] = coef[m][0] + x * coef[m][1];
}
double sweep(const double *u, int n) {
  struct V v = {{0, 0, 0}};
  double s = 0.0;
  for (int i = 0; i < n; i++) { fill_copy(u[i], v); s += v.q[0]; }
  return s;
}
"""
    function = function_of(compiled_c(source), "sweep")
    (call,) = [v for v in function.instructions if v.callee == "fill_copy"]
    assert "byval(" in call.text and call.fills == ()
