"""Helpers for the matcher's solver tests: programs built directly, IR compiled once."""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path

from idl.program import (
    Atom,
    AtomKind,
    Collect,
    Conjunction,
    Disjunction,
    Formula,
    Program,
    formula_variables,
)
from matcher.frontend import compile_to_ir
from matcher.ir import Function, Module, Value
from matcher.ir_builder import build_module

__all__ = [
    "C_BRANCHES",
    "C_NESTED",
    "C_REDUCTION",
    "C_SCRATCH",
    "LL_FIELDS",
    "LL_ODD",
    "LL_RECORDS",
    "A",
    "And",
    "Gather",
    "Or",
    "compiled_c",
    "function_of",
    "ir_function",
    "make_program",
    "named",
    "value_of",
]


def A(kind: str, *variables: str, detail: str | int | None = None) -> Atom:
    """An atom: `A("opcode", "x", detail="load")`, `A("operand", "a", "b", detail=0)`."""
    return Atom(AtomKind(kind), tuple(variables), detail)


def And(*parts: Formula) -> Conjunction:
    return Conjunction(tuple(parts))


def Or(*parts: Formula) -> Disjunction:
    return Disjunction(tuple(parts))


def Gather(
    slots: int, body: Formula, inner: tuple[str, ...], local: tuple[str, ...] = ()
) -> Collect:
    """`collect i slots body` where body is written for slot 0 and each inner name ends
    in `[0]` (`read[0]`); slot k's names end in `[k]`. With `local`, the collect keeps
    `inner` only: `collect i slots keeping {inner...} body`."""
    assert all(name.endswith("[0]") for name in inner)
    slot_variables = tuple(tuple(name[:-3] + f"[{k}]" for name in inner) for k in range(slots))
    named = formula_variables(body)
    return Collect(slots, body, slot_variables, local=tuple(n for n in local if n in named))


def make_program(formula: Formula, name: str = "Test") -> Program:
    return Program(name, True, formula, formula_variables(formula))


@functools.cache
def compiled_c(source: str) -> Module:
    """A C snippet through the real front end, once per test session."""
    with tempfile.TemporaryDirectory(prefix="idiom-test-") as tmp:
        path = Path(tmp) / "snippet.c"
        path.write_text(source)
        return build_module(compile_to_ir(path), "snippet.c")


@functools.cache
def _ir_module(text: str) -> Module:
    return build_module(text)


def ir_function(text: str, name: str | None = None) -> Function:
    module = _ir_module(text)
    return function_of(module, name)


def function_of(module: Module, name: str | None = None) -> Function:
    if name is None:
        (function,) = module.functions
        return function
    found = module.function(name)
    assert found is not None, name
    return found


def named(function: Function, name: str) -> Value:
    return next(v for v in function.values if v.name == name)


def value_of(solution: dict[str, Value | None], name: str) -> Value:
    """The value of a variable that must not be unused."""
    value = solution[name]
    assert value is not None, name
    return value


# -- shared inputs -----------------------------------------------------------------------

C_REDUCTION = """
#include <math.h>
double norm(const double *a, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += a[i] * a[i];
  return sqrt(s);
}
"""

C_BRANCHES = """
extern void report(int);
int clamp_sum(const int *v, int n, int lo, int hi) {
  int total = 0;
  for (int i = 0; i < n; i++) {
    int x = v[i];
    if (x < lo) x = lo;
    else if (x > hi) { report(x); x = hi; }
    total += x;
  }
  return total;
}
"""

C_NESTED = """
void matvec(int n, int m, const float *A, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float acc = 0.0f;
    for (int j = 0; j < m; j++) acc += A[i * m + j] * x[j];
    y[i] = acc;
  }
}
"""

# A sweep that calls a helper filling a local array at every point (a scratch call).
C_SCRATCH = """
double coef[3][4];
__attribute__((noinline)) void fill(double x, double q[3]) {
  for (int m = 0; m < 3; m++)
    q[m] = coef[m][0] + x * (coef[m][1] + x * (coef[m][2] + x * coef[m][3]));
}
double sweep(const double *u, int n) {
  double q[3], s = 0.0;
  for (int i = 0; i < n; i++) {
    fill(u[i], q);
    s += q[0] * q[2];
  }
  return s;
}
"""

# Hand-written: an unreachable block, an infinite loop, a switch with a shared target,
# two returns and a phi over three edges.
LL_ODD = """
declare double @llvm.sqrt.f64(double)
declare double @cos(double)
declare void @sink(double)

define double @odd(ptr %p, i32 %n, double %x) {
entry:
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %loop, label %other
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc1, %loop ]
  %g = getelementptr inbounds double, ptr %p, i32 %i
  %v = load double, ptr %g
  %acc1 = fadd double %acc, %v
  %i1 = add i32 %i, 1
  %d = icmp slt i32 %i1, %n
  br i1 %d, label %loop, label %exit
other:
  switch i32 %n, label %spin [ i32 -1, label %exit
                               i32 -2, label %exit2 ]
spin:
  call void @sink(double %x)
  br label %spin
exit:
  %r = phi double [ %acc1, %loop ], [ %x, %other ]
  %s = call double @llvm.sqrt.f64(double %r)
  ret double %s
exit2:
  %k = call double @cos(double %x)
  %vec = insertelement <2 x double> zeroinitializer, double %k, i32 0
  %e = extractelement <2 x double> %vec, i32 1
  %z = fmul double %e, 0.0
  ret double %z
dead:
  %u = fadd double %x, 1.0
  br label %exit2
}
"""

# Hand-written: constant getelementptrs inside and outside the element their base points
# to (a field of a record, the next or previous record), for `is outside the element of`.
LL_FIELDS = """
%struct.P = type { double, i32, [3 x float] }

define double @fields(ptr %u, ptr %s, i64 %i) {
entry:
  %e = getelementptr inbounds [5 x double], ptr %u, i64 %i
  %f4 = getelementptr inbounds i8, ptr %e, i64 32
  %prev = getelementptr inbounds i8, ptr %e, i64 -40
  %next = getelementptr inbounds i8, ptr %e, i64 48
  %p = getelementptr inbounds %struct.P, ptr %s, i64 %i
  %pf = getelementptr inbounds %struct.P, ptr %p, i64 0, i32 2, i64 1
  %pn = getelementptr inbounds i8, ptr %p, i64 24
  %arg = getelementptr inbounds i8, ptr %u, i64 8
  %a = load double, ptr %f4
  %b = load double, ptr %prev
  %c = load double, ptr %next
  %d = load float, ptr %pf
  %dd = fpext float %d to double
  %g = load double, ptr %pn
  %h = load double, ptr %arg
  %s1 = fadd double %a, %b
  %s2 = fadd double %s1, %c
  %s3 = fadd double %s2, %dd
  %s4 = fadd double %s3, %g
  %s5 = fadd double %s4, %h
  ret double %s5
}
"""

# Hand-written: a flat array of records of 4 floats walked by a counter of step 4 from 0
# to 36 (10 records), for what an access touches (`never overlaps`, `has the same address
# as`) and for the element of a point (`is outside the element of`): %g's field 0 is
# written from its field 1 and from the record 10 further on (160 bytes, past the 144
# bytes the counter spans); %d's record is written at field 0 and its next record at
# field 0 too (iterations overwrite each other there).
LL_RECORDS = """
define void @records(ptr %g, ptr %d) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %x = zext nneg i32 %i to i64
  %p = getelementptr inbounds float, ptr %g, i64 %x
  %f1 = getelementptr inbounds i8, ptr %p, i64 4
  %up = getelementptr inbounds i8, ptr %p, i64 160
  %a = load float, ptr %up
  %b = load float, ptr %f1
  %s = fadd float %a, %b
  store float %s, ptr %p
  %q = getelementptr inbounds float, ptr %d, i64 %x
  %nb = getelementptr inbounds i8, ptr %q, i64 16
  store float %a, ptr %nb
  %q2 = getelementptr inbounds float, ptr %d, i64 %x
  %r = load float, ptr %q
  store float %b, ptr %q2
  %next = add nuw nsw i32 %i, 4
  %c = icmp samesign ult i32 %i, 36
  br i1 %c, label %loop, label %exit

exit:
  ret void
}
"""
