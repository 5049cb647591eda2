"""OpenCL C generated from lowered expressions (lift/opencl/generate.py, views.py).

Snapshots of the exact source for representative expressions; every kernel run on the
OpenCL CPU device (PoCL) and compared with the reference interpreter on random inputs;
the run-time requirements a split leaves; the kernels that compute with int indices;
and the expressions the generator refuses, with their messages.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from lift.errors import LiftError
from lift.exploration.space import lower_lanes
from lift.ir import expr as ir
from lift.ir.build import blocked_scan, chunked_scan, zip_nd
from lift.ir.check import infer_function
from lift.ir.interpret import run
from lift.ir.text import parse, pretty
from lift.ir.types import Array, Scalar, Size, Tuple, Type
from lift.opencl.generate import Dimension, Kernel, Output, generate, requirements_hold

pytest.importorskip("pyopencl")

from lift.exploration.device import Device, Launch, numpy_type

F64 = Scalar("f64")
NUMPY = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64}


# ---------------------------------------------------------------- the programs

ZIP_MAP = (
    "(lambda ((x (array f64 N)) (y (array f64 N)))"
    " (map-global 0 (lambda (p) (+ (* 2.0:f64 (get 0 p)) (get 1 p))) (zip x y)))"
)
VECTORISED = (
    "(lambda ((x (array f32 N)) (y (array f32 N)))"
    " (join-vec (map-global 0 (map-vec (lambda (p) (+ (* 2.0:f32 (get 0 p)) (get 1 p))))"
    " (zip (split-vec 4 x) (split-vec 4 y)))))"
)
WORKGROUP_REDUCTION = (
    "(lambda ((x (array f64 N)))"
    " (join (map-workgroup 0 (lambda (c) (to-global (map-local 0 (reduce-seq + 0.0:f64))"
    " (split 2 c))) (split 8 x))))"
)
# Tiles of 10 points overlapping by 2 (8 windows of 3 each), copied to local memory once.
STENCIL_1D = (
    "(lambda ((x (array f32 N)))"
    " (join (map-workgroup 0 (lambda (tile) (map-local 0"
    " (lambda (w) (+ (+ (* 0.25:f32 (get 0 w)) (* 0.5:f32 (get 1 w))) (* 0.25:f32 (get 2 w))))"
    " (slide 3 1 (to-local (map-local 0 (lambda (v) v)) tile))))"
    " (slide 10 8 (pad 1 1 clamp x)))))"
)

FIVE_POINTS = [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)]


def stencil_2d() -> tuple[ir.Lambda, Output]:
    """A 5-point Jacobi step as the tool builds it: one strided view of `a` per neighbour
    (offsets o0..o4, strides s0 s1, lengths n0 n1 all size variables), zipped row by row,
    lowered onto map-global 1 / map-global 0, written into `b` through a strided view."""
    a = ir.Param("a", Array(F64, Size.of("L")))
    b = ir.Param("b", Array(F64, Size.of("L")))
    strides = (Size.of("s0"), Size.of("s1"))
    lengths = (Size.of("n0"), Size.of("n1"))
    views: list[ir.Expr] = [
        ir.Apply(ir.Strided(Size.of(f"o{k}"), strides, lengths), (a,))
        for k in range(len(FIVE_POINTS))
    ]
    point = ir.Param("p")
    total: ir.Expr = ir.Apply(ir.Get(0), (point,))
    for k in range(1, len(FIVE_POINTS)):
        total = ir.Apply(ir.Op("+"), (total, ir.Apply(ir.Get(k), (point,))))
    body = ir.Apply(ir.Op("*"), (ir.Literal(0.2, F64), total))
    grid = zip_nd(views, 2)
    inner = ir.MapGlobal(0, ir.Lambda((point,), body))
    program = ir.Lambda((a, b), ir.Apply(ir.MapGlobal(1, inner), (grid,)))
    return program, Output("b", True, Size.of("ow"), strides)


def stencil_2d_sizes(rows: int, columns: int) -> dict[str, int]:
    """The sizes of the interior of a rows x columns grid, row-major."""
    centre = columns + 1
    sizes = {"L": rows * columns, "n0": rows - 2, "n1": columns - 2, "s0": columns, "s1": 1}
    sizes["ow"] = centre
    for k, (di, dj) in enumerate(FIVE_POINTS):
        sizes[f"o{k}"] = centre + di * columns + dj
    return sizes


def lam(source: str) -> ir.Lambda:
    program = parse(source)
    assert isinstance(program, ir.Lambda)
    return program


# ---------------------------------------------------------------- snapshots

ZIP_MAP_SOURCE = """\
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
__kernel void zip_map(__global const double* restrict x, __global const double* restrict y, __global double* restrict out, long N) {
  for (long lk_i1 = get_global_id(0); lk_i1 < (N); lk_i1 += get_global_size(0)) {
    out[lk_i1] = ((2.0 * x[lk_i1]) + y[lk_i1]);
  }
}
"""

VECTORISED_SOURCE = """\
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
__kernel void vectorised(__global const float* restrict x, __global const float* restrict y, __global float* restrict out, long N) {
  for (long lk_i1 = get_global_id(0); lk_i1 < ((N) / 4L); lk_i1 += get_global_size(0)) {
    vstore4(((2.0f * vload4(0, x + (lk_i1)*4)) + vload4(0, y + (lk_i1)*4)), 0, out + (lk_i1)*4);
  }
}
"""

WORKGROUP_REDUCTION_SOURCE = """\
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
__kernel void workgroup_reduction(__global const double* restrict x, __global double* restrict out, long N) {
  for (long lk_i1 = get_group_id(0); lk_i1 < ((N) / 8L); lk_i1 += get_num_groups(0)) {
    for (long lk_i3 = get_local_id(0); lk_i3 < 4L; lk_i3 += get_local_size(0)) {
      double lk_acc5 = 0.0;
      for (long lk_j6 = 0; lk_j6 < 2L; lk_j6++) {
        double lk_next9 = (lk_acc5 + x[(lk_i1)*8L + ((lk_i3)*2L + (lk_j6))]);
        lk_acc5 = lk_next9;
      }
      out[(lk_i1)*4L + (lk_i3) + 0] = lk_acc5;
    }
  }
}
"""

STENCIL_1D_SOURCE = """\
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
__kernel void stencil_1d(__global const float* restrict x, __global float* restrict out, long N) {
  __local float lk_l3[10];
  for (long lk_i1 = get_group_id(0); lk_i1 < ((N) / 8L); lk_i1 += get_num_groups(0)) {
    for (long lk_i4 = get_local_id(0); lk_i4 < 10L; lk_i4 += get_local_size(0)) {
      lk_l3[lk_i4] = x[clamp((long)((lk_i1)*8 + (lk_i4)) - 1, 0L, (N) - 1L)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (long lk_i6 = get_local_id(0); lk_i6 < 8L; lk_i6 += get_local_size(0)) {
      out[(lk_i1)*8L + (lk_i6)] = (((0.25f * lk_l3[(lk_i6)*1 + (0)]) + (0.5f * lk_l3[(lk_i6)*1 + (1)])) + (0.25f * lk_l3[(lk_i6)*1 + (2)]));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
"""

STENCIL_2D_LONG_SOURCE = """\
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
__kernel void jacobi(__global const double* restrict a, __global double* restrict b, long L, long n0, long n1, long o0, long o1, long o2, long o3, long o4, long ow, long s0, long s1) {
  for (long lk_i1 = get_global_id(1); lk_i1 < (n0); lk_i1 += get_global_size(1)) {
    for (long lk_i4 = get_global_id(0); lk_i4 < (n1); lk_i4 += get_global_size(0)) {
      b[((lk_i1)*(s0) + (lk_i4)*(s1)) + (ow)] = (0.2 * ((((a[((lk_i1)*(s0) + (lk_i4)*(s1)) + (o0)] + a[((lk_i1)*(s0) + (lk_i4)*(s1)) + (o1)]) + a[((lk_i1)*(s0) + (lk_i4)*(s1)) + (o2)]) + a[((lk_i1)*(s0) + (lk_i4)*(s1)) + (o3)]) + a[((lk_i1)*(s0) + (lk_i4)*(s1)) + (o4)]));
    }
  }
}
"""

STENCIL_2D_INT_SOURCE = """\
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
__kernel void jacobi(__global const double* restrict a, __global double* restrict b, int L, int n0, int n1, int o0, int o1, int o2, int o3, int o4, int ow, int s0, int s1) {
  for (int lk_i1 = get_global_id(1); lk_i1 < (n0); lk_i1 += get_global_size(1)) {
    for (int lk_i4 = get_global_id(0); lk_i4 < (n1); lk_i4 += get_global_size(0)) {
      b[((lk_i1)*(s0) + (lk_i4)*(s1)) + (ow)] = (0.2 * ((((a[((lk_i1)*(s0) + (lk_i4)*(s1)) + (o0)] + a[((lk_i1)*(s0) + (lk_i4)*(s1)) + (o1)]) + a[((lk_i1)*(s0) + (lk_i4)*(s1)) + (o2)]) + a[((lk_i1)*(s0) + (lk_i4)*(s1)) + (o3)]) + a[((lk_i1)*(s0) + (lk_i4)*(s1)) + (o4)]));
    }
  }
}
"""

N = Size.of("N")


@pytest.mark.parametrize(
    ("name", "source", "expected", "dimensions", "requirements"),
    [
        ("zip_map", ZIP_MAP, ZIP_MAP_SOURCE, (Dimension(length=N),), ()),
        ("vectorised", VECTORISED, VECTORISED_SOURCE, (Dimension(length=N.divide(4)),), ((N, 4),)),
        (
            "workgroup_reduction",
            WORKGROUP_REDUCTION,
            WORKGROUP_REDUCTION_SOURCE,
            (Dimension(groups=N.divide(8), local=Size.of(4)),),
            ((N, 8),),
        ),
        (
            "stencil_1d",
            STENCIL_1D,
            STENCIL_1D_SOURCE,
            (Dimension(groups=N.divide(8), local=Size.of(10)),),
            ((N - 8, 8),),  # whole tiles: (N + 2 - 10) a multiple of the tile step 8
        ),
    ],
    ids=["zip-map", "vectorised", "workgroup-reduction", "stencil-1d-local"],
)
def test_snapshot(
    name: str,
    source: str,
    expected: str,
    dimensions: tuple[Dimension, ...],
    requirements: tuple[tuple[Size, int], ...],
) -> None:
    kernel = generate(lam(source), name)
    assert kernel.source == expected
    assert kernel.name == name
    assert kernel.sizes == ("N",)
    assert kernel.parameters[-2:] == ("out", "N")
    assert kernel.dimensions == dimensions
    assert kernel.requirements == requirements
    assert kernel.index == "long"
    assert kernel.output == Output()


@pytest.mark.parametrize(
    ("index", "expected"),
    [("long", STENCIL_2D_LONG_SOURCE), ("int", STENCIL_2D_INT_SOURCE)],
)
def test_snapshot_stencil_2d_written_into_a_parameter(index: str, expected: str) -> None:
    program, output = stencil_2d()
    kernel = generate(program, "jacobi", output, index=index)
    assert kernel.source == expected
    names = ("L", "n0", "n1", "o0", "o1", "o2", "o3", "o4", "ow", "s0", "s1")
    assert kernel.sizes == names
    assert kernel.parameters == ("a", "b", *names)
    assert kernel.dimensions == (
        Dimension(length=Size.of("n1")),
        Dimension(length=Size.of("n0")),
    )
    assert kernel.requirements == ()
    assert kernel.index == index
    assert kernel.output is output


TWO_OUTPUTS_SOURCE = """\
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
__kernel void cg_update(__global double* restrict z, __global const double* restrict p, __global double* restrict r, __global const double* restrict q, double a, long Lp, long Lq, long Lr, long Lz, long n, long op, long oq, long or, long oz, long sp, long sq, long sr, long sz) {
  for (long lk_i1 = get_global_id(0); lk_i1 < (n); lk_i1 += get_global_size(0)) {
    const double lk_v3 = (z[((lk_i1)*(sz)) + (oz)] + (a * p[((lk_i1)*(sp)) + (op)]));
    const double lk_v4 = (r[((lk_i1)*(sr)) + (or)] - (a * q[((lk_i1)*(sq)) + (oq)]));
    z[((lk_i1)*(sz)) + (oz)] = lk_v3;
    r[((lk_i1)*(sr)) + (or)] = lk_v4;
  }
}
"""


def test_snapshot_a_tuple_written_into_two_parameters() -> None:
    """CG's vector update (z += a p; r -= a q): each lane of the point's tuple goes into its
    own array, with its own offset and stride; both arrays are written, so neither is const."""
    program = lam(
        "(lambda ((z (array f64 Lz)) (p (array f64 Lp)) (r (array f64 Lr)) (q (array f64 Lq))"
        " (a f64)) (map-global 0 (lambda (t) (tuple (+ (get 0 t) (* a (get 1 t)))"
        " (- (get 2 t) (* a (get 3 t))))) (zip (strided oz (sz) (n) z) (strided op (sp) (n) p)"
        " (strided or (sr) (n) r) (strided oq (sq) (n) q))))"
    )
    stride = {name: (Size.of(name),) for name in ("sz", "sr")}
    output = Output(
        "z", True, Size.of("oz"), stride["sz"], (Size.of("or"),), ("r",), (stride["sr"],)
    )
    kernel = generate(program, "cg_update", output)
    assert kernel.source == TWO_OUTPUTS_SOURCE
    assert output.written() == {"z", "r"}


TWO_VECTOR_OUTPUTS_SOURCE = """\
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
__kernel void cg_update(__global double* restrict z, __global const double* restrict p, __global double* restrict r, __global const double* restrict q, double a, long Lp, long Lq, long Lr, long Lz, long n, long op, long oq, long or, long oz) {
  for (long lk_i1 = get_global_id(0); lk_i1 < ((n) / 2L); lk_i1 += get_global_size(0)) {
    const double2 lk_v4 = (vload2(0, z + ((lk_i1)*2) + (oz)) + (a * vload2(0, p + ((lk_i1)*2) + (op))));
    const double2 lk_v5 = (vload2(0, r + ((lk_i1)*2) + (or)) - (a * vload2(0, q + ((lk_i1)*2) + (oq))));
    vstore2(lk_v4, 0, z + ((lk_i1)*2) + (oz));
    vstore2(lk_v5, 0, r + ((lk_i1)*2) + (or));
  }
}
"""


def test_snapshot_a_tuple_of_vectors_written_into_two_parameters() -> None:
    """The same update vectorised by 2 (its views contiguous): map-vec's tuple of results is
    a tuple of vectors, and join-vec stores each into its own array; the count must be even
    (a requirement the caller checks)."""
    program = lam(
        "(lambda ((z (array f64 Lz)) (p (array f64 Lp)) (r (array f64 Lr)) (q (array f64 Lq))"
        " (a f64)) (join-vec (map-global 0 (map-vec (lambda (t) (tuple (+ (get 0 t)"
        " (* a (get 1 t))) (- (get 2 t) (* a (get 3 t)))))) (zip (split-vec 2 (strided oz (1)"
        " (n) z)) (split-vec 2 (strided op (1) (n) p)) (split-vec 2 (strided or (1) (n) r))"
        " (split-vec 2 (strided oq (1) (n) q))))))"
    )
    one = (Size.of(1),)
    output = Output("z", True, Size.of("oz"), one, (Size.of("or"),), ("r",), (one,))
    kernel = generate(program, "cg_update", output)
    assert kernel.source == TWO_VECTOR_OUTPUTS_SOURCE
    assert kernel.requirements == ((Size.of("n"), 2),)


CSR_INT_SOURCE = """\
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
__kernel void csr(__global const int* restrict ptr, __global const double* restrict v, __global const int* restrict c, __global const double* restrict x, __global double* restrict out, int E, int R, int R1, int X) {
  for (int lk_i1 = get_global_id(0); lk_i1 < (R); lk_i1 += get_global_size(0)) {
    const long lk_lo3 = ptr[lk_i1];
    const long lk_hi4 = ptr[(lk_i1) + 1];
    const long entries = lk_hi4 > lk_lo3 ? lk_hi4 - lk_lo3 : 0L;
    double lk_p5[1];
    double lk_acc6 = 0.0;
    for (long lk_j7 = 0; lk_j7 < (entries); lk_j7++) {
      double lk_next11 = (lk_acc6 + (v[lk_lo3 + (lk_j7)] * x[c[lk_lo3 + (lk_j7)]]));
      lk_acc6 = lk_next11;
    }
    lk_p5[0] = lk_acc6;
    out[lk_i1] = lk_p5[0];
  }
}
"""


def test_snapshot_a_csr_product_over_segments() -> None:
    """A row's entries between its row pointers: the segment's bounds read once, its length
    a variable of the kernel (not an argument), the entries folded in order."""
    kernel = generate(lam(CSR_PRODUCT), "csr", index="int")
    assert kernel.source == CSR_INT_SOURCE
    assert "entries" not in kernel.sizes


JDS_INT_SOURCE = """\
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
__kernel void jds(__global const int* restrict perm, __global const int* restrict count, __global const int* restrict jd, __global const double* restrict v, __global const int* restrict c, __global const double* restrict x, __global double* restrict y, int D, int E, int R, int X, int Y) {
  for (int lk_i1 = get_global_id(0); lk_i1 < (R); lk_i1 += get_global_size(0)) {
    const long lk_lo5 = 0;
    const long lk_hi6 = count[lk_i1];
    const long diagonals = lk_hi6 > lk_lo5 ? lk_hi6 - lk_lo5 : 0L;
    double lk_p7[1];
    double lk_acc8 = 0.0;
    const long lk_at4 = ((int)((uint)perm[lk_i1] - (uint)1));
    for (long lk_j9 = 0; lk_j9 < (diagonals); lk_j9++) {
      double lk_next15 = (lk_acc8 + (v[((long)((ulong)((long)jd[lk_lo5 + (lk_j9)]) + (ulong)((long)(lk_i1))))] * x[c[((long)((ulong)((long)jd[lk_lo5 + (lk_j9)]) + (ulong)((long)(lk_i1))))]]));
      lk_acc8 = lk_next15;
    }
    lk_p7[0] = lk_acc8;
    y[lk_at4] = lk_p7[0];
  }
}
"""


def test_snapshot_a_jds_product_written_through_its_permutation() -> None:
    """A sorted row's diagonals a segment of jd, each moved to the row to gather its entry,
    folded in order; the row's value stored at its index of y, with no atomics."""
    case = jds_product_case()
    assert generate(case.program, "jds", case.output, index="int").source == JDS_INT_SOURCE


ELL_INT_SOURCE = """\
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
__kernel void ell(__global const double* restrict v, __global const int* restrict c, __global const double* restrict x, long w, __global double* restrict out, int E, int R, int X) {
  for (int lk_i1 = get_global_id(0); lk_i1 < (R); lk_i1 += get_global_size(0)) {
    const long lk_v3 = ((long)(lk_i1));
    double lk_p4[1];
    const long lk_lo5 = 0L;
    const long lk_hi6 = w;
    const long entries = lk_hi6 > lk_lo5 ? lk_hi6 - lk_lo5 : 0L;
    double lk_acc7 = 0.0;
    for (long lk_j8 = 0; lk_j8 < (entries); lk_j8++) {
      const long lk_v10 = (lk_lo5 + (lk_j8));
      const long lk_v12 = (lk_lo5 + (lk_j8));
      double lk_next16 = (lk_acc7 + (v[((long)((ulong)((long)((ulong)lk_v3 * (ulong)w)) + (ulong)lk_v10))] * x[c[((long)((ulong)((long)((ulong)lk_v3 * (ulong)w)) + (ulong)lk_v12))]]));
      lk_acc7 = lk_next16;
    }
    lk_p4[0] = lk_acc7;
    out[lk_i1] = lk_p4[0];
  }
}
"""


def test_snapshot_an_ellpack_product_over_a_range() -> None:
    """A row's entries gathered at i*w + j for the counter j of a range: its bounds
    declared where the row computes them, the counter its first value plus the step."""
    case = ell_product_case()
    assert generate(case.program, "ell", index="int").source == ELL_INT_SOURCE


def test_a_segment_named_twice_is_refused() -> None:
    program = lam(
        "(lambda ((a i64) (b i64) (x (array f64 N)) (y (array f64 N)))"
        " (map-global 0 (lambda (p) (+ (get 0 p) (get 1 p)))"
        " (zip (segment n a b x) (segment n a b y))))"
    )
    with pytest.raises(LiftError, match="the segment length n is named twice"):
        generate(program)


def test_generation_is_deterministic() -> None:
    program, output = stencil_2d()
    first = generate(program, "jacobi", output)
    assert generate(program, "jacobi", output) == first
    assert generate(lam(STENCIL_1D)).source == generate(lam(STENCIL_1D)).source


# ---------------------------------------------------------------- running on the device


def as_value(array: Any, kind: Type, sizes: dict[str, int]) -> Any:
    """A flat numpy input as the interpreter takes it: nested lists by the parameter's
    type, f32 elements as numpy float32 (so that the interpreter rounds as a kernel does)."""
    if not isinstance(kind, Array):
        return array
    shape = []
    element: Type = kind
    while isinstance(element, Array):
        shape.append(element.length.evaluate(sizes))
        element = element.element
    nested = np.asarray(array).reshape(shape)

    def convert(value: np.ndarray) -> Any:
        if value.ndim:
            return [convert(item) for item in value]
        return np.float32(value) if value.dtype == np.float32 else value.item()

    return convert(nested)


def flatten(value: Any) -> list[Any]:
    if isinstance(value, list | tuple):
        return [leaf for item in value for leaf in flatten(item)]
    return [value]


def innermost(kind: Type) -> Type:
    while isinstance(kind, Array):
        kind = kind.element
    return kind


@dataclass
class Case:
    program: ir.Lambda
    inputs: dict[str, Any]
    sizes: dict[str, int]
    launch: Launch
    output: Output | None = None
    check: Callable[[np.ndarray], None] | None = None


def interpreted(case: Case) -> np.ndarray:
    """What the interpreter computes, as the kernel leaves its output buffer."""
    program = case.program
    args = [as_value(case.inputs[p.name], p.type, case.sizes) for p in program.params if p.type]
    result = run(program, args, case.sizes)
    types = [p.type for p in program.params if p.type is not None]
    kind = infer_function(program, types)
    assert not isinstance(innermost(kind), Tuple)
    values = np.array(flatten(result), dtype=numpy_type(kind))
    output = case.output
    if output is None or not output.into:
        return values
    # Written into a parameter through a strided view: the rest of it is left as it was.
    written = np.array(case.inputs[output.name], copy=True)
    lengths = []
    while isinstance(kind, Array):
        lengths.append(kind.length.evaluate(case.sizes))
        kind = kind.element
    offset = output.offset.evaluate(case.sizes)
    strides = [s.evaluate(case.sizes) for s in output.strides]
    for position, value in zip(np.ndindex(*lengths), values, strict=True):
        written[offset + sum(i * s for i, s in zip(position, strides, strict=True))] = value
    return written


def on_device(device: Device, case: Case, index: str = "long") -> tuple[Kernel, np.ndarray]:
    kernel = generate(case.program, output=case.output, index=index)
    expected = interpreted(case)
    out = np.zeros_like(expected)
    device.run(case.program, kernel, case.inputs, case.sizes, case.launch, out)
    return kernel, out


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def zip_map_case() -> Case:
    n = 1000
    r = rng(1)
    # 256 work-items for 1000 elements: the loop strides, each computes several.
    return Case(lam(ZIP_MAP), {"x": r.random(n), "y": r.random(n)}, {"N": n}, Launch((256,), (64,)))


def axpy_case() -> Case:
    program = lam(
        "(lambda ((x (array f64 N)) (y (array f64 N)) (alpha f64))"
        " (map-global 0 (lambda (p) (+ (* alpha (get 0 p)) (get 1 p))) (zip x y)))"
    )
    r, n = rng(2), 777
    inputs = {"x": r.random(n), "y": r.random(n), "alpha": -1.25}
    return Case(program, inputs, {"N": n}, Launch((784,), (16,)))


def vectorised_case() -> Case:
    r, n = rng(3), 1024
    inputs = {"x": r.random(n).astype(np.float32), "y": r.random(n).astype(np.float32)}
    return Case(lam(VECTORISED), inputs, {"N": n}, Launch((64,), (16,)))


def workgroup_reduction_case() -> Case:
    r, n = rng(4), 2048

    def sums(out: np.ndarray) -> None:
        # The partial sums folded again: the algorithmic reduce's total, regrouped.
        (total,) = run(lam("(lambda ((x (array f64 N))) (reduce + 0.0:f64 x))"), [x.tolist()])
        assert math.isclose(float(out.sum()), total, rel_tol=1e-12)

    x = r.random(n)
    # 16 groups for 256 chunks, 3 work-items for 4 partial sums: both loops stride.
    return Case(lam(WORKGROUP_REDUCTION), {"x": x}, {"N": n}, Launch((48,), (3,)), check=sums)


def stencil_1d_case() -> Case:
    r, n = rng(5), 800
    x = r.random(n).astype(np.float32)
    return Case(lam(STENCIL_1D), {"x": x}, {"N": n}, Launch((64,), (16,)))


def stencil_2d_case() -> Case:
    program, output = stencil_2d()
    rows, columns = 23, 37
    r = rng(6)
    inputs = {"a": r.random(rows * columns), "b": r.random(rows * columns)}
    sizes = stencil_2d_sizes(rows, columns)
    return Case(program, inputs, sizes, Launch((16, 8), (8, 4)), output)


def gather_case() -> Case:
    program = lam(
        "(lambda ((idx (array i32 M)) (x (array f64 N)))"
        " (map-global 0 (lambda (v) (* v 3.0:f64)) (gather idx x)))"
    )
    r = rng(7)
    inputs = {"idx": r.integers(0, 500, 300).astype(np.int32), "x": r.random(500)}
    return Case(program, inputs, {"N": 500, "M": 300}, Launch((128,), (32,)))


def transpose_case() -> Case:
    program = lam(
        "(lambda ((x (array (array f64 M) N)))"
        " (map-global 1 (map-global 0 (lambda (v) (- v 0.5:f64))) (transpose x)))"
    )
    r = rng(8)
    return Case(program, {"x": r.random(24 * 40)}, {"N": 24, "M": 40}, Launch((8, 16), (4, 4)))


def pad_constant_case() -> Case:
    program = lam(
        "(lambda ((x (array f64 N)))"
        " (map-global 0 (lambda (v) (+ v 1.0:f64)) (pad 2 3 -1.5:f64 x)))"
    )
    return Case(program, {"x": rng(9).random(300)}, {"N": 300}, Launch((64,), (16,)))


def neighbour_case() -> Case:
    program = lam(
        "(lambda ((x (array f64 N)))"
        " (map-global 0 (lambda (w) (- (get 2 w) (* 2.0:f64 (get 0 w)))) (slide 3 1 x)))"
    )
    return Case(program, {"x": rng(10).random(500)}, {"N": 500}, Launch((128,), (32,)))


def map_seq_case() -> Case:
    program = lam(
        "(lambda ((x (array (array f64 8) N))) (map-global 0 (map-seq (lambda (v) (* v v))) x))"
    )
    return Case(program, {"x": rng(11).random(8 * 60)}, {"N": 60}, Launch((32,), (8,)))


def row_sums_case() -> Case:
    program = lam("(lambda ((x (array (array f64 M) N))) (map-global 0 (reduce-seq + 0.0:f64) x))")
    x = rng(12).random(50 * 33)

    def sums(out: np.ndarray) -> None:
        np.testing.assert_allclose(out, x.reshape(50, 33).sum(axis=1), rtol=1e-12)

    return Case(program, {"x": x}, {"N": 50, "M": 33}, Launch((32,), (8,)), check=sums)


def integer_fold_case(op: str, identity: str, expected: Callable[[np.ndarray], Any]) -> Case:
    program = lam(
        f"(lambda ((x (array (array i32 M) N))) (map-global 0 (reduce-seq {op} {identity}:i32) x))"
    )
    x = rng(13).integers(-(2**31), 2**31, 40 * 21, dtype=np.int64).astype(np.int32)
    x[:21] = -(2**31)  # a row of the smallest int: the identity of max itself

    def folds(out: np.ndarray) -> None:
        np.testing.assert_array_equal(out, expected(x.reshape(40, 21)))

    return Case(program, {"x": x}, {"N": 40, "M": 21}, Launch((32,), (8,)), check=folds)


def histogram_case(kind: str, pattern: str = "scatter-atomic 0", low_keys: int = 5) -> Case:
    """Keys less `lo` counted (or weighted) into the bins `h` they already hold, atomically
    (in each work-group's bins first, with `scatter-atomic-local`): weights of halves, so
    that every order of the additions gives the same sums. Keys from `low_keys`: those
    below `lo` (5) fall at negative places, and their values are dropped."""
    weight = {"i32": "1:i32", "i64": "3:i64", "f32": "(get 1 p)", "f64": "(get 1 p)"}[kind]
    program = lam(
        f"(lambda ((keys (array i32 N)) (w (array {kind} N)) (h (array {kind} B)) (lo i32))"
        f" (({pattern} +) (map (lambda (p) (i64 (- (get 0 p) lo))) (zip keys w))"
        f" (map (lambda (p) {weight}) (zip keys w)) h))"
    )
    r, n, bins = rng(14), 5000, 37
    keys = r.integers(low_keys, 5 + bins, n).astype(np.int32)
    weights = (r.integers(-8, 9, n) / 2).astype(NUMPY[kind])
    counts = r.integers(0, 4, bins).astype(NUMPY[kind])
    output = Output("h", True, Size.of(0), (Size.of(1),))
    inputs = {"keys": keys, "w": weights, "h": counts, "lo": 5}
    return Case(program, inputs, {"N": n, "B": bins}, Launch((256,), (64,)), output)


def to_private_case() -> Case:
    program = lam(
        "(lambda ((x (array (array f64 4) N)))"
        " (map-global 0 (lambda (row) (map-seq (lambda (v) (* v 2.0:f64))"
        " (to-private (map-seq (lambda (v) (+ v 1.0:f64))) row))) x))"
    )
    return Case(program, {"x": rng(13).random(4 * 70)}, {"N": 70}, Launch((32,), (8,)))


CSR_PRODUCT = """
(lambda ((ptr (array i32 R1)) (v (array f64 E)) (c (array i32 E)) (x (array f64 X)))
  (map-global 0
    (lambda (p)
      ((lambda (row)
         (get 0 (reduce-seq (lambda (acc e) (+ acc (* (get 0 (get 0 e)) (get 1 e)))) 0.0:f64
                  (zip row (gather (map (lambda (e) (get 1 e)) row) x)))))
       (segment entries (get 0 p) (get 1 p) (zip v c))))
    (zip (strided 0 (1) (R) ptr) (strided 1 (1) (R) ptr))))
"""


def csr_product_case() -> Case:
    """y = A x with A in compressed rows, a row's entries folded in order: rows of 0 to 7
    entries (empty ones among them), more rows than work-items."""
    r, rows, columns = rng(15), 300, 90
    lengths = r.integers(0, 8, rows)
    lengths[:5] = 0
    ptr = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    entries = int(ptr[-1])
    inputs = {
        "ptr": ptr,
        "v": r.random(entries),
        "c": r.integers(0, columns, entries).astype(np.int32),
        "x": r.random(columns),
    }

    def products(out: np.ndarray) -> None:
        dense = np.zeros((rows, columns))
        for i in range(rows):
            for k in range(ptr[i], ptr[i + 1]):
                dense[i, inputs["c"][k]] += inputs["v"][k]
        np.testing.assert_allclose(out, dense @ inputs["x"], rtol=1e-12)

    sizes = {"R1": rows + 1, "R": rows, "E": entries, "X": columns}
    return Case(lam(CSR_PRODUCT), inputs, sizes, Launch((128,), (32,)), check=products)


JDS_PRODUCT = """
(lambda ((perm (array i32 R)) (count (array i32 R)) (jd (array i32 D)) (v (array f64 E))
         (c (array i32 E)) (x (array f64 X)) (y (array f64 Y)))
  (permute (map (lambda (p) (- (get 0 p) 1:i32)) (zip perm count))
    (map-global 0
      (lambda (p)
        ((lambda (row)
           (get 0 (reduce-seq (lambda (acc e) (+ acc (* (get 0 (get 0 e)) (get 1 e)))) 0.0:f64
                    (zip row (gather (map (lambda (e) (get 1 e)) row) x)))))
         (gather (map (lambda (s) (+ (i64 s) (get 2 p))) (segment diagonals 0:i32 (get 1 p) jd))
           (zip v c))))
      (zip perm count (indices 0 (R))))
    y))
"""


def jds_product_case() -> Case:
    """y[perm[r] - 1] = row r's sum in jagged diagonal storage: row r's entries at
    jd[d] + r over its diagonals d < count[r], folded in order; the rows of y that perm
    leaves out keep their values."""
    r, rows, columns, spare = rng(17), 300, 90, 7
    count = np.sort(r.integers(0, 9, rows))[::-1].astype(np.int32)
    diagonals = int(count[0])
    on_diagonal = [int((count > d).sum()) for d in range(diagonals)]
    jd = np.concatenate([[0], np.cumsum(on_diagonal)]).astype(np.int32)
    entries = int(jd[-1])
    perm = (r.permutation(rows + spare)[:rows] + 1).astype(np.int32)
    inputs = {
        "perm": perm, "count": count, "jd": jd, "v": r.random(entries),
        "c": r.integers(0, columns, entries).astype(np.int32), "x": r.random(columns),
        "y": r.random(rows + spare),
    }  # fmt: skip

    def products(out: np.ndarray) -> None:
        expected = inputs["y"].copy()
        for row in range(rows):
            positions = [jd[d] + row for d in range(count[row])]
            values = inputs["v"][positions] * inputs["x"][inputs["c"][positions]]
            expected[perm[row] - 1] = sum(values, 0.0)
        np.testing.assert_allclose(out, expected, rtol=1e-12)

    sizes = {"R": rows, "D": diagonals + 1, "E": entries, "X": columns, "Y": rows + spare}
    output = Output("y", True, Size.of(0), (Size.of(1),))
    return Case(lam(JDS_PRODUCT), inputs, sizes, Launch((128,), (32,)), output, products)


# JDS_PRODUCT with jd a slice from `jlo` (the tool's form): a row's diagonals from 0 - jlo
# to count - jlo, each bound a 32-bit value widened less one parameter.
JDS_MOVED = JDS_PRODUCT.replace(
    "(segment diagonals 0:i32 (get 1 p) jd)",
    "(segment diagonals (- (i64 0:i32) jlo) (- (i64 (get 1 p)) jlo) jd)",
).replace("(y (array f64 Y)))", "(y (array f64 Y)) (jlo i64))")


def jds_moved_case() -> Case:
    """`jds_product_case` with jd given from two entries before its first (jlo = -2)."""
    case = jds_product_case()
    jd = case.inputs["jd"]
    case.inputs |= {"jd": np.concatenate([[-99, -99], jd]).astype(np.int32), "jlo": -2}
    case.sizes["D"] += 2
    return Case(lam(JDS_MOVED), case.inputs, case.sizes, case.launch, case.output, case.check)


ELL_PRODUCT = """
(lambda ((v (array f64 E)) (c (array i32 E)) (x (array f64 X)) (w i64))
  (map-global 0
    (lambda (i)
      (get 0 (reduce-seq (lambda (acc e) (+ acc (* (get 0 (get 0 e)) (get 1 e)))) 0.0:f64
               ((lambda (row) (zip row (gather (map (lambda (e) (get 1 e)) row) x)))
                (gather (map (lambda (j) (+ (* i w) j)) (range entries 0:i64 w)) (zip v c))))))
    (indices 0 (R))))
"""


def ell_product_case() -> Case:
    """y = A x with A in ELLPACK storage, row-major: row i's entries at i*w + j for the
    counter j of (range entries 0 w), its padding (zeros at column 0) folded as the loop
    folds it."""
    r, rows, width, columns = rng(18), 300, 6, 90
    values = r.random(rows * width)
    values[r.random(rows * width) < 0.3] = 0.0
    inputs = {
        "v": values, "c": r.integers(0, columns, rows * width).astype(np.int32),
        "x": r.random(columns), "w": width,
    }  # fmt: skip

    def products(out: np.ndarray) -> None:
        dense = np.zeros((rows, columns))
        for i in range(rows):
            for j in range(width):
                dense[i, inputs["c"][i * width + j]] += values[i * width + j]
        np.testing.assert_allclose(out, dense @ inputs["x"], rtol=1e-12)

    sizes = {"R": rows, "E": rows * width, "X": columns}
    return Case(lam(ELL_PRODUCT), inputs, sizes, Launch((128,), (32,)), check=products)


def coordinates_case() -> Case:
    """A point's value from its coordinates (a loop counter used as a value) and a read."""
    program = lam(
        "(lambda ((x (array f64 L)))"
        " (map-global 1 (map-global 0 (lambda (p) (+ (get 0 p) (f64 (- (* 3:i64 (get 1 p))"
        " (get 2 p)))))) (map (lambda (r) (zip (get 0 r) (get 1 r) (get 2 r)))"
        " (zip (strided 0 (M 1) (N M) x) (indices 0 (N M)) (indices 1 (N M))))))"
    )
    rows, columns = 13, 21
    return Case(
        program, {"x": rng(16).random(rows * columns)}, {"L": rows * columns, "N": rows,
        "M": columns}, Launch((16, 8), (8, 4)),
    )  # fmt: skip


CASES: dict[str, Callable[[], Case]] = {
    "zip-map": zip_map_case,
    "axpy-scalar-parameter": axpy_case,
    "vectorised": vectorised_case,
    "workgroup-reduction": workgroup_reduction_case,
    "stencil-1d-local": stencil_1d_case,
    "stencil-2d-into": stencil_2d_case,
    "gather": gather_case,
    "transpose": transpose_case,
    "pad-constant": pad_constant_case,
    "fixed-neighbour": neighbour_case,
    "map-seq-in-map-global": map_seq_case,
    "row-sums": row_sums_case,
    "to-private": to_private_case,
    "csr-product-segments": csr_product_case,
    "coordinates": coordinates_case,
    "jds-product-permuted": jds_product_case,
    "jds-product-moved": jds_moved_case,
    "ell-product-range": ell_product_case,
    # The smallest int is not a negated constant in C: its literal is written otherwise.
    "histogram-i32": lambda: histogram_case("i32"),
    "histogram-i64": lambda: histogram_case("i64"),
    "histogram-f32": lambda: histogram_case("f32"),
    "histogram-f64": lambda: histogram_case("f64"),
    "histogram-local-i32": lambda: histogram_case("i32", "scatter-atomic-local 0 64"),
    "histogram-local-i64": lambda: histogram_case("i64", "scatter-atomic-local 0 64"),
    "histogram-local-f32": lambda: histogram_case("f32", "scatter-atomic-local 0 64"),
    "histogram-local-f64": lambda: histogram_case("f64", "scatter-atomic-local 0 64"),
    "histogram-dropped-i32": lambda: histogram_case("i32", low_keys=-3),
    "histogram-local-dropped-f64": lambda: histogram_case(
        "f64", "scatter-atomic-local 0 64", low_keys=0
    ),
    "integer-max": lambda: integer_fold_case("max", "-2147483648", lambda r: r.max(axis=1)),
    "integer-and": lambda: integer_fold_case("&", "-1", lambda r: np.bitwise_and.reduce(r, 1)),
    "integer-xor": lambda: integer_fold_case("^", "0", lambda r: np.bitwise_xor.reduce(r, 1)),
}


@pytest.mark.parametrize("index", ["long", "int"])
@pytest.mark.parametrize("name", list(CASES))
def test_kernel_computes_what_the_interpreter_does(device: Device, name: str, index: str) -> None:
    case = CASES[name]()
    kernel, out = on_device(device, case, index)
    assert kernel.index == index
    # The lowered program folds in the kernel's order: bit for bit.
    np.testing.assert_array_equal(out, interpreted(case))
    if case.check is not None:
        case.check(out)


def test_written_parameter_keeps_what_the_view_does_not_cover(device: Device) -> None:
    case = stencil_2d_case()
    _, out = on_device(device, case)
    grid, before = out.reshape(23, 37), case.inputs["b"].reshape(23, 37)
    for edge in (np.s_[0, :], np.s_[-1, :], np.s_[:, 0], np.s_[:, -1]):
        np.testing.assert_array_equal(grid[edge], before[edge])
    a = case.inputs["a"].reshape(23, 37)
    centre = a[1:-1, 1:-1] + a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:]
    np.testing.assert_allclose(grid[1:-1, 1:-1], 0.2 * centre, rtol=1e-14)


def test_fewer_work_items_than_elements_still_compute_everything(device: Device) -> None:
    case = zip_map_case()
    case.launch = Launch((8,), (8,))
    _, out = on_device(device, case)
    np.testing.assert_array_equal(out, 2.0 * case.inputs["x"] + case.inputs["y"])


# ---------------------------------------------------------------- requirements and int indices

RECORD_CHUNKS = (
    "(lambda ((x (array f64 N)) (y (array f64 N)))"
    " (join (map-global 0 (map-seq (lambda (r) (- (get 0 r) (get 1 r)))) (split 4 (zip x y)))))"
)


def test_split_of_records_requires_its_size_to_divide() -> None:
    kernel = generate(lam(RECORD_CHUNKS))
    assert kernel.requirements == ((Size.of("N"), 4),)
    assert kernel.sizes == ("N",)
    assert requirements_hold(kernel, {"N": 12})
    assert requirements_hold(kernel, {"N": 4096})
    assert not requirements_hold(kernel, {"N": 10})
    assert not requirements_hold(kernel, {"N": 4097})


def test_split_of_a_known_multiple_requires_nothing() -> None:
    source = RECORD_CHUNKS.replace("(array f64 N)", "(array f64 16)")
    kernel = generate(lam(source))
    assert kernel.requirements == ()
    assert kernel.sizes == ()
    assert requirements_hold(kernel, {})


def test_split_of_records_runs_where_its_requirement_holds(device: Device) -> None:
    r, n = rng(14), 96
    case = Case(lam(RECORD_CHUNKS), {"x": r.random(n), "y": r.random(n)}, {"N": n}, Launch((8,)))
    kernel, out = on_device(device, case)
    assert requirements_hold(kernel, case.sizes)
    np.testing.assert_array_equal(out, case.inputs["x"] - case.inputs["y"])


def test_int_indices_take_sizes_as_ints() -> None:
    kernel = generate(lam(RECORD_CHUNKS), index="int")
    assert kernel.index == "int"
    assert kernel.sizes == ("N",)
    assert kernel.parameters == ("x", "y", "out", "N")
    assert "int N)" in kernel.source
    assert "long N)" not in kernel.source
    assert "for (int " in kernel.source
    assert "for (long " not in kernel.source
    assert kernel.requirements == ((Size.of("N"), 4),)


def test_long_indices_take_sizes_as_they_are() -> None:
    kernel = generate(lam(RECORD_CHUNKS))
    assert kernel.parameters == ("x", "y", "out", "N")
    assert "long N)" in kernel.source
    assert "_arg" not in kernel.source
    assert "for (int " not in kernel.source


# ---------------------------------------------------------------- what the generator refuses


@pytest.mark.parametrize(
    ("source", "message"),
    [
        # a to-local buffer whose size is symbolic
        (
            "(lambda ((x (array f64 N)))"
            " (map-global 0 (lambda (v) v) (to-local (map-local 0 (lambda (v) v)) x)))",
            "a local buffer of N elements: its size must be known",
        ),
        (
            "(lambda ((x (array (array f64 M) N)))"
            " (map-global 0 (lambda (row) (map-seq (lambda (v) v)"
            " (to-private (map-seq (lambda (v) (* v v))) row))) x))",
            "a private buffer of M elements: its size must be known",
        ),
        # a computed array read by another pattern, with no to-local / to-private
        (
            "(lambda ((x (array f64 N))) (join (map-workgroup 0 (lambda (c)"
            " (map-local 0 (lambda (v) (* v 2.0:f64)) (map-local 0 (lambda (v) (+ v 1.0:f64)) c)))"
            " (split 8 x))))",
            "the result of MapLocal is read by another pattern: say where it is kept "
            "(to-local or to-private)",
        ),
        (
            "(lambda ((x (array f64 N)))"
            " (map-global 0 (lambda (v) (+ v 1.0:f64)) (map-global 0 neg x)))",
            "the result of MapGlobal is read by another pattern: say where it is kept "
            "(to-local or to-private)",
        ),
        # a parameter without a declared type
        (
            "(lambda (x) (map-global 0 neg x))",
            "every parameter of a kernel's program has a declared type",
        ),
        (
            "(lambda ((x (array f64 N)) y) (map-global 0 neg x))",
            "every parameter of a kernel's program has a declared type",
        ),
    ],
    ids=[
        "local-symbolic",
        "private-symbolic",
        "map-local-read",
        "map-global-read",
        "untyped",
        "one-untyped",
    ],
)
def test_refused_with_a_message(source: str, message: str) -> None:
    with pytest.raises(LiftError) as raised:
        generate(lam(source))
    assert str(raised.value) == message


UNLOWERED = [
    "(lambda ((x (array f64 N))) (map neg x))",
    "(lambda ((x (array f64 N))) (map (lambda (v) (* v 2.0:f64)) x))",
    "(lambda ((x (array (array f64 4) N))) (map-global 0 (map neg) x))",
]


@pytest.mark.parametrize("source", UNLOWERED, ids=["map-op", "map-lambda", "inner-map"])
def test_unlowered_map_of_a_computing_function_is_refused(source: str) -> None:
    with pytest.raises(LiftError):
        generate(lam(source))


@pytest.mark.parametrize("source", UNLOWERED, ids=["map-op", "map-lambda", "inner-map"])
def test_unlowered_map_message_says_to_lower_it(source: str) -> None:
    with pytest.raises(LiftError, match=r"(?i)lower"):
        generate(lam(source))


def test_other_refusals() -> None:
    with pytest.raises(LiftError, match=r"^indices are long or int, not short$"):
        generate(lam(ZIP_MAP), index="short")
    program, output = stencil_2d()
    wrong = Output("b", True, Size.of("ow"), (Size.of("s0"),))
    with pytest.raises(
        LiftError, match=r"^the output's strides do not match the result's dimensions$"
    ):
        generate(program, output=wrong)
    assert generate(program, output=output).source  # the right number of strides


# ---------------------------------------------------------------- bugs found

# The type of a slide's windows, (n - size)/step + 1, is an exact division like a split's
# chunks, but the generator records no requirement for it: a size the step does not fit
# passes `requirements_hold` and the kernel leaves the tail of its typed result unwritten.
SLIDE_STEP_2 = (
    "(lambda ((x (array f32 N))) (map-global 0 (lambda (w) (+ (get 0 w) (get 1 w))) (slide 2 2 x)))"
)


@pytest.mark.parametrize(
    ("source", "size"), [(SLIDE_STEP_2, 7), (STENCIL_1D, 20)], ids=["slide-2-2", "tiled-1d"]
)
def test_slide_step_that_does_not_fit_fails_the_requirements(source: str, size: int) -> None:
    kernel = generate(lam(source))
    assert not requirements_hold(kernel, {"N": size})


def expect_agreement(device: Device, case: Case) -> None:
    """The kernel builds and writes what the interpreter computes, or the generator
    refuses the expression with a LiftError (both are acceptable)."""
    try:
        kernel = generate(case.program, output=case.output)
    except LiftError:
        return
    expected = interpreted(case)
    out = np.zeros_like(expected)
    device.run(case.program, kernel, case.inputs, case.sizes, case.launch, out)
    np.testing.assert_array_equal(out, expected)


def scalar_case(body: str, kind: str, values: Sequence[float], extra: str = "") -> Case:
    program = lam(f"(lambda ((x (array {kind} N)){extra}) (map-global 0 (lambda (v) {body}) x))")
    x = np.array(values, dtype=NUMPY[kind])
    return Case(program, {"x": x}, {"N": len(x)}, Launch((8,), (8,)))


def test_negation_of_a_negative_literal(device: Device) -> None:
    expect_agreement(device, scalar_case("(+ v (neg -1.5:f64))", "f64", [1.0, 2.0]))


@pytest.mark.parametrize(
    ("body", "kind"),
    [("(% v 2.0:f64)", "f64"), ("(pow v 2:i32)", "i32"), ("(floor v)", "i32")],
    ids=["fmod-f64", "pow-i32", "floor-i32"],
)
def test_operations_on_types_opencl_has_no_builtin_for(
    device: Device, body: str, kind: str
) -> None:
    expect_agreement(device, scalar_case(body, kind, [-3, -1, 0, 2, 5, 7, 4, 9]))


@pytest.mark.parametrize("kind", ["f64", "f32"])
@pytest.mark.parametrize("operation", ["floor", "ceil", "trunc"])
def test_rounding_to_an_integral_value_agrees_with_the_interpreter(
    device: Device, operation: str, kind: str
) -> None:
    values = [-2.5, -1.5, -0.5, -0.0, 0.5, 1.5, 2.7, 1e300 if kind == "f64" else 3e38]
    values += [math.inf, -math.inf, math.nan, -7.0]
    expect_agreement(device, scalar_case(f"({operation} v)", kind, values))


def test_abs_of_an_integer_stays_signed(device: Device) -> None:
    body = "(select (< (- (abs v) 10:i32) 0:i32) 1:i32 0:i32)"
    expect_agreement(device, scalar_case(body, "i32", [-3, -1, 0, 2, 5, 4, -7, 7]))


def test_min_with_a_nan_agrees_with_the_interpreter(device: Device) -> None:
    values = [-3.0, 0.5, math.nan, 2.0]
    expect_agreement(device, scalar_case("(min 1.0:f64 v)", "f64", values))


@pytest.mark.parametrize(
    "body", ["(< v 0.5:f32)", "(f32 (< v 0.5:f32))"], ids=["bool", "cast-to-f32"]
)
def test_vector_comparison_is_one_where_true(device: Device, body: str) -> None:
    program = lam(
        f"(lambda ((x (array f32 N))) (join-vec (map-global 0 (map-vec (lambda (v) {body}))"
        " (split-vec 4 x))))"
    )
    x = np.array([0.1, 0.9, 0.3, 0.7, 0.2, 0.8, 0.5, 0.6], dtype=np.float32)
    expect_agreement(device, Case(program, {"x": x}, {"N": 8}, Launch((2,), (2,))))


@pytest.mark.parametrize(
    "body",
    [
        "(select (< v 0.5:f32) v 2.0:f32)",
        "(select (< v 0.5:f32) 1.0:f32 2.0:f32)",
        "(select (> (sqrt v) 0.75:f32) (abs v) (max v 0.25:f32))",
    ],
    ids=["one-vector", "both-scalars", "both-vectors"],
)
def test_vector_select_picks_where_true(device: Device, body: str) -> None:
    """OpenCL's select on vectors picks by each lane's sign bit, and its choices must be
    vectors: true (1) is negated, a scalar choice broadcast."""
    program = lam(
        f"(lambda ((x (array f32 N))) (join-vec (map-global 0 (map-vec (lambda (v) {body}))"
        " (split-vec 4 x))))"
    )
    x = np.array([0.1, 0.9, 0.3, 0.7, 0.2, 0.8, 0.5, 0.6], dtype=np.float32)
    expect_agreement(device, Case(program, {"x": x}, {"N": 8}, Launch((2,), (2,))))


@pytest.mark.parametrize(
    ("source", "inputs"),
    [
        (
            "(lambda ((x (array i32 N)) (i1 i32)) (map-global 0 (lambda (v) (+ v i1)) x))",
            {"i1": 100},
        ),
        ("(lambda ((out (array i32 N))) (map-global 0 (lambda (v) (+ v 1:i32)) out))", {}),
    ],
    ids=["loop-counter", "output-buffer"],
)
def test_program_names_do_not_clash_with_generated_ones(
    device: Device, source: str, inputs: dict[str, Any]
) -> None:
    program = lam(source)
    array = program.params[0].name
    values = {array: np.arange(-4, 4, dtype=np.int32), **inputs}
    expect_agreement(device, Case(program, values, {"N": 8}, Launch((8,), (8,))))


def test_parameters_list_every_declared_argument() -> None:
    kernel = generate(lam(ZIP_MAP), declarations={"x": "__global char* g_mem, long g_at"})
    assert "__global char* g_mem, long g_at, __global const double* restrict y" in kernel.source
    assert kernel.parameters == ("g_mem", "g_at", "y", "out", "N")


# ---------------------------------------------------------------- scans


@pytest.mark.parametrize("inclusive", [False, True])
@pytest.mark.parametrize("n", [1, 5, 64, 1000])
def test_chunked_scan_kernels_compute_every_prefix(device: Device, n: int, inclusive: bool) -> None:
    """The two kernels of a scan (lift.ir.build.chunked_scan) with the host's starts between
    them: every prefix of int32 values that wrap, the padded chunk's elements past the
    output's length left as they were."""
    x = ir.Param("x", Array(Scalar("i32"), Size.of("n0")))
    fold = lam("(lambda (a b) (+ a b))")
    identity = ir.Literal(0, Scalar("i32"))
    programs = chunked_scan([x], x, fold, identity, Size.of("n0"), inclusive=inclusive)
    per, chunks = 3, -(-n // 3)
    sizes = {"n0": n, "m": chunks, "per": per}
    values = rng(21).integers(-(2**31), 2**31, n).astype(np.int32)
    totals = np.zeros(chunks, dtype=np.int32)
    first = generate(programs.totals, "totals")
    device.run(programs.totals, first, {"x": values}, sizes, Launch((8,)), totals)
    starts = np.array(run(programs.starts, [totals.tolist(), 17], sizes), dtype=np.int64)
    starts = ((starts + 2**31) % 2**32 - 2**31).astype(np.int32)  # as the host wraps them
    output = Output("y", True, Size.of(0), (Size.of(1),), length=Size.of("n0"))
    y = ir.Param("y", Array(Scalar("i32"), Size.of("m") * Size.of("per")))
    chunks_program = ir.Lambda((*programs.chunks.params, y), programs.chunks.body)
    second = generate(chunks_program, "chunks", output=output)
    sentinel = np.full(chunks * per, 99, dtype=np.int32)
    written = np.zeros_like(sentinel)
    inputs = {"x": values, "t": starts, "y": sentinel}
    device.run(chunks_program, second, inputs, sizes, Launch((4,)), written)
    running = (np.cumsum(values.astype(np.int64)) + 17 + 2**31) % 2**32 - 2**31
    expected = running if inclusive else np.concatenate(([17], running[:-1]))
    np.testing.assert_array_equal(written[:n], expected.astype(np.int32))
    np.testing.assert_array_equal(written[n:], sentinel[n:])
    assert "if (" in second.source  # stores guarded by the output's length


def test_the_steps_of_a_scan_in_local_memory_take_two_buffers() -> None:
    """Each step of a work-group's scan in local memory writes a new buffer from the one
    before; a buffer no later step reads is written again two steps on (log2(64) = 6
    steps in two buffers, beside the runs' totals). The kernels' outputs are checked by
    the tests around this one; without the reuse each step declares a buffer of its own."""
    x = ir.Param("x", Array(Scalar("i32"), Size.of("n0")))
    fold = lam("(lambda (a b) (+ a b))")
    programs = blocked_scan(
        [x], x, fold, ir.Literal(0, Scalar("i32")), Size.of("n0"), local=64, inclusive=True,
        per=4, staging=(True, True),
    )  # fmt: skip
    assert programs.chained is not None
    kernel = generate(programs.chained, "chained", work_group=64)
    steps = re.findall(r"(lk_l\d+)\[lk_i\d+\] = \(\(int\)", kernel.source)
    assert len(steps) == 6 and len(set(steps)) == 2
    assert len(re.findall(r"__local int lk_l\d+\[64\];", kernel.source)) == 3


# Programs where a local buffer must not be written again, or only after a barrier: the
# result's own index reads it (a gather's row chosen by the buffer's element), a let
# copies one of its elements after its last barrier, a sequential loop's next round
# writes it first while this round reads it last.
_ROW_BY_BUFFER = """(lambda ((idx (array i32 8)) (m (array (array f32 8) 4)) (y (array i32 8)))
  ((lambda (row) (map-local 0 (lambda (p) (get 0 p))
                   (zip row (to-local (map-local 0 (lambda (v) (+ v 1:i32))) y))))
   ((lambda (a) (get 0 (gather a m))) (to-local (map-local 0 (lambda (v) v)) idx))))"""
_LET_AFTER_BARRIER = """(lambda ((idx (array i32 8)) (m (array (array f32 8) 4)) (y (array i32 8)))
  ((lambda (row) (map-local 0 (lambda (p) (get 0 p))
                   (zip row (to-local (map-local 0 (lambda (v) (+ v 1:i32))) y))))
   ((lambda (a) ((lambda (t) (get 0 (gather (map (lambda (e) t) idx) m)))
                 (+ (get 0 a) 0:i32)))
    (to-local (map-local 0 (lambda (v) v)) idx))))"""
_ROUNDS = """(lambda ((x (array (array i32 8) 3)) (rev (array i32 8)))
  (map-seq (lambda (row) (map-local 0 (lambda (v) v) (gather rev
     ((lambda (b) (to-local (map-local 0 (lambda (v) (+ v 1:i32))) b))
      ((lambda (a) (to-local (map-local 0 (lambda (v) (+ v 1:i32))) a))
       (to-local (map-local 0 (lambda (v) v)) row)))))) x))"""


@pytest.mark.parametrize("source", [_ROW_BY_BUFFER, _LET_AFTER_BARRIER])
def test_a_buffer_still_read_is_not_written_again(device: Device, source: str) -> None:
    """Without the checks, both kernels write the buffer of `idx` again before its
    element is read (outputs 16..23 instead of 0..7)."""
    program = lam(source)
    inputs = {"idx": np.zeros(8, np.int32), "m": np.arange(32, dtype=np.float32),
              "y": np.ones(8, np.int32)}  # fmt: skip
    case = Case(program, inputs, {}, Launch((8,), (8,)))
    kernel = generate(program, work_group=8)
    out = np.zeros_like(interpreted(case))
    device.run(program, kernel, inputs, {}, case.launch, out)
    np.testing.assert_array_equal(out, interpreted(case))


def test_no_buffer_is_written_again_inside_a_sequential_loop(device: Device) -> None:
    """Each round of the map-seq reads its last buffer after its last barrier, and the
    next round's first copy would write it first: the buffers stay apart (PoCL gives the
    right output either way; a GPU need not)."""
    program = lam(_ROUNDS)
    inputs = {"x": np.arange(24, dtype=np.int32) * 10, "rev": np.arange(7, -1, -1, dtype=np.int32)}
    case = Case(program, inputs, {}, Launch((8,), (8,)))
    kernel = generate(program, work_group=8)
    assert len(re.findall(r"__local int lk_l\d+\[8\];", kernel.source)) == 3
    out = np.zeros_like(interpreted(case))
    device.run(program, kernel, inputs, {}, case.launch, out)
    np.testing.assert_array_equal(out, interpreted(case))


@pytest.mark.parametrize(
    ("per", "staging"), [(1, (True, True)), (4, (True, True)), (4, (False, True)),
                         (4, (True, False)), (4, (False, False))]
)  # fmt: skip
@pytest.mark.parametrize("work_group", [None, 16])
@pytest.mark.parametrize("inclusive", [False, True])
@pytest.mark.parametrize("n", [1, 5, 16, 17, 63, 64, 65, 1000])
def test_blocked_scan_kernels_compute_every_prefix(
    device: Device,
    *,
    n: int,
    inclusive: bool,
    work_group: int | None,
    per: int,
    staging: tuple[bool, bool],
) -> None:
    """The two kernels of a scan in blocks of 16 work-items (lift.ir.build.blocked_scan),
    `per` values an item: each block's total by a tree in local memory, the host's
    starts between them, then each block scanned in local memory from its start (with
    `per` > 1, each item's run of neighbouring values folded, the runs' totals scanned,
    each run scanned from its start): every prefix of int32 values that wrap, the padded
    block's elements past the output's length left as they were. Generated with loops
    over the items and groups, or for the launch's work-group of 16 (one block a group)."""
    x = ir.Param("x", Array(Scalar("i32"), Size.of("n0")))
    fold = lam("(lambda (a b) (+ a b))")
    identity = ir.Literal(0, Scalar("i32"))
    programs = blocked_scan(
        [x], x, fold, identity, Size.of("n0"), local=16, inclusive=inclusive, per=per,
        staging=staging,
    )  # fmt: skip
    block = 16 * per
    blocks = -(-n // block)
    sizes = {"n0": n, "wg": blocks, "per": per}
    values = rng(22).integers(-(2**31), 2**31, n).astype(np.int32)
    totals = np.zeros(blocks, dtype=np.int32)
    first = generate(programs.totals, "totals", work_group=work_group)
    device.run(programs.totals, first, {"x": values}, sizes, Launch((blocks * 16,), (16,)),
               totals)  # fmt: skip
    starts = np.array(run(programs.starts, [totals.tolist(), 17], sizes), dtype=np.int64)
    starts = ((starts + 2**31) % 2**32 - 2**31).astype(np.int32)  # as the host wraps them
    output = Output("y", True, Size.of(0), (Size.of(1),), length=Size.of("n0"))
    y = ir.Param("y", Array(Scalar("i32"), Size.of("wg") * block))
    chunks_program = ir.Lambda((*programs.chunks.params, y), programs.chunks.body)
    second = generate(chunks_program, "chunks", output=output, work_group=work_group)
    sentinel = np.full(blocks * block, 99, dtype=np.int32)
    written = np.zeros_like(sentinel)
    inputs = {"x": values, "t": starts, "y": sentinel}
    device.run(chunks_program, second, inputs, sizes, Launch((blocks * 16,), (16,)), written)
    running = (np.cumsum(values.astype(np.int64)) + 17 + 2**31) % 2**32 - 2**31
    expected = running if inclusive else np.concatenate(([17], running[:-1]))
    np.testing.assert_array_equal(written[:n], expected.astype(np.int32))
    np.testing.assert_array_equal(written[n:], sentinel[n:])
    assert second.source.count("barrier(CLK_LOCAL_MEM_FENCE);") >= 4  # log2(16) steps
    looped = "get_local_size(0)" in first.source + second.source
    assert looped == (work_group is None)
    # With the group's size known, the copies of a block take a constant count of rounds.
    in_rounds = r"< 4; lk_k\d+\+\+\) \{\n *const \w+ \w+ = get_local_id\(0\) \+ lk_k\d+ \* 16;"
    rounds = re.search(in_rounds, second.source)
    assert (rounds is not None) == (work_group is not None and per > 1 and any(staging))
    assert ("reqd_work_group_size(16, 1, 1)" in second.source) == (work_group is not None)


@pytest.mark.parametrize("kind", ["i32", "i64"])
@pytest.mark.parametrize("per", [1, 4])
@pytest.mark.parametrize("inclusive", [False, True])
@pytest.mark.parametrize("n", [1, 16, 17, 64, 65, 1000, 250_000])
def test_one_pass_scan_kernel_computes_every_prefix(
    device: Device, *, n: int, inclusive: bool, per: int, kind: str
) -> None:
    """`blocked_scan`'s one-pass program (scan-workgroups: blocks taken in order, each
    start folded from the totals and prefixes the blocks before it publish in status
    words): every prefix of values that wrap around, from a start that does too, the
    padded block's elements past the output's length left as they were; 64-bit values
    split over two status words. Up to 3,907 work-groups of 16 wait on each other."""
    dtype = NUMPY[kind]
    bits = 32 if kind == "i32" else 64
    x = ir.Param("x", Array(Scalar(kind), Size.of("n0")))
    fold = lam("(lambda (a b) (+ a b))")
    programs = blocked_scan(
        [x], x, fold, ir.Literal(0, Scalar(kind)), Size.of("n0"), local=16,
        inclusive=inclusive, per=per, staging=(False, False),
    )  # fmt: skip
    assert programs.chained is not None
    assert parse(pretty(programs.chained)) == programs.chained  # the text form reads back
    block = 16 * per
    blocks = -(-n // block)
    sizes = {"n0": n, "wg": blocks}
    values = rng(23).integers(-(2 ** (bits - 1)), 2 ** (bits - 1), n, dtype=dtype)
    start = int(rng(24).integers(-(2 ** (bits - 1)), 2 ** (bits - 1), dtype=dtype))
    y = ir.Param("y", Array(Scalar(kind), Size.of("wg") * block))
    program = ir.Lambda((x, y, *programs.chained.params[1:]), programs.chained.body)
    output = Output("y", True, Size.of(0), (Size.of(1),), length=Size.of("n0"))
    kernel = generate(program, "chained", output=output, work_group=16)
    assert kernel.scratch and kernel.sizes == ("n0", "wg")
    sentinel = np.full(blocks * block, 99, dtype=dtype)
    written = np.zeros_like(sentinel)
    inputs = {"x": values, "y": sentinel, "z": start}
    device.run(program, kernel, inputs, sizes, Launch((blocks * 16,), (16,)), written, repeat=2)
    with np.errstate(over="ignore"):
        running = np.cumsum(np.concatenate(([start], values)).astype(dtype), dtype=dtype)
    expected = running[1:] if inclusive else running[:-1]
    np.testing.assert_array_equal(written[:n], expected)
    np.testing.assert_array_equal(written[n:], sentinel[n:])
    if n <= 65:  # the interpreter's meaning of scan-workgroups, the same prefixes
        ran = run(program, [values.tolist(), sentinel.tolist(), start], sizes)
        wrapped = [(v + 2 ** (bits - 1)) % 2**bits - 2 ** (bits - 1) for v in ran[:n]]
        assert wrapped == expected.tolist()


@pytest.mark.parametrize("n", [64, 1000, 20_001])
def test_one_pass_scan_with_fewer_groups_than_blocks(device: Device, n: int) -> None:
    """Three work-groups of 16 for up to 313 blocks of 64: each group takes block after
    block from the counter, its local buffers used again for each, and every prefix is
    still numpy's."""
    x = ir.Param("x", Array(Scalar("i32"), Size.of("n0")))
    programs = blocked_scan(
        [x], x, lam("(lambda (a b) (+ a b))"), ir.Literal(0, Scalar("i32")), Size.of("n0"),
        local=16, inclusive=False, per=4, staging=(False, True),
    )  # fmt: skip
    assert programs.chained is not None
    blocks = -(-n // 64)
    y = ir.Param("y", Array(Scalar("i32"), Size.of("wg") * 64))
    program = ir.Lambda((x, y, *programs.chained.params[1:]), programs.chained.body)
    output = Output("y", True, Size.of(0), (Size.of(1),), length=Size.of("n0"))
    kernel = generate(program, "chained", output=output, work_group=16)
    values = rng(25).integers(-1000, 1000, n).astype(np.int32)
    written = np.zeros(blocks * 64, dtype=np.int32)
    inputs = {"x": values, "y": np.zeros_like(written), "z": 5}
    sizes = {"n0": n, "wg": blocks}
    device.run(program, kernel, inputs, sizes, Launch((3 * 16,), (16,)), written, repeat=2)
    expected = np.cumsum(np.concatenate(([5], values[:-1])), dtype=np.int32)
    np.testing.assert_array_equal(written[:n], expected)


def test_integer_arithmetic_wraps_in_generated_kernels() -> None:
    kernel = generate(lam("(lambda ((x (array i32 N))) (map-global 0 (lambda (v) (* v 3:i32)) x))"))
    assert "(int)((uint)" in kernel.source


UNSIGNED_OPS = {
    # (the lane's expression, what numpy computes from x, y as int32)
    "(lshr (get 0 p) 3:i32)": lambda x, y: (x.view(np.uint32) >> 3).view(np.int32),
    "(shl (get 0 p) 5:i32)": lambda x, y: (x.view(np.uint32) << 5).view(np.int32),
    "(ashr (get 0 p) 4:i32)": lambda x, y: x >> 4,
    "(urem (get 0 p) (get 1 p))": lambda x, y: (x.view(np.uint32) % y.view(np.uint32)).view(
        np.int32
    ),
    "(udiv (get 0 p) (get 1 p))": lambda x, y: (x.view(np.uint32) // y.view(np.uint32)).view(
        np.int32
    ),
    "(select (ult (get 0 p) (get 1 p)) 1:i32 0:i32)": lambda x, y: (
        x.view(np.uint32) < y.view(np.uint32)
    ),
    "(select (ule (get 0 p) (get 1 p)) 1:i32 0:i32)": lambda x, y: (
        x.view(np.uint32) <= y.view(np.uint32)
    ),
    "(select (ugt (get 0 p) (get 1 p)) 1:i32 0:i32)": lambda x, y: (
        x.view(np.uint32) > y.view(np.uint32)
    ),
    "(select (uge (get 1 p) (get 0 p)) 1:i32 0:i32)": lambda x, y: (
        y.view(np.uint32) >= x.view(np.uint32)
    ),
    "(/ (get 0 p) (get 1 p))": lambda x, y: np.abs(x) // np.abs(y) * np.sign(x) * np.sign(y),
    "(% (get 0 p) (get 1 p))": np.fmod,
}


@pytest.mark.parametrize("lane", sorted(UNSIGNED_OPS))
def test_integer_bit_operations_read_the_bits_as_llvm_does(device: Device, lane: str) -> None:
    """Shifts and divisions of negative values: unsigned where LLVM's operation is, C's
    truncating division where it is signed."""
    program = lam(
        "(lambda ((x (array i32 N)) (y (array i32 N)))"
        f" (map-global 0 (lambda (p) {lane}) (zip x y)))"
    )
    r, n = rng(15), 999
    x = r.integers(-(2**31), 2**31, n, dtype=np.int64).astype(np.int32)
    y = r.integers(1, 2**20, n, dtype=np.int64).astype(np.int32) * r.choice([-1, 1], n).astype(
        np.int32
    )
    if "urem" in lane or "udiv" in lane:
        y = np.abs(y)
    out = np.zeros(n, np.int32)
    device.run(program, generate(program), {"x": x, "y": y}, {"N": n}, Launch((64,), (16,)), out)
    np.testing.assert_array_equal(out, UNSIGNED_OPS[lane](x, y).astype(np.int32))


def test_unsigned_orders_of_longs_compare_their_bits(device: Device) -> None:
    program = lam(
        "(lambda ((x (array i64 N)) (y (array i64 N)))"
        " (map-global 0 (lambda (p) (select (ule (get 0 p) (get 1 p)) 1:i64 0:i64)) (zip x y)))"
    )
    x = np.array([-1, 0, 5, -(2**63), 2**63 - 1, 3], np.int64)
    y = np.array([0, -1, 5, 2**63 - 1, -(2**63), 2], np.int64)
    out = np.zeros(6, np.int64)
    kernel = generate(program)
    assert "((ulong)" in kernel.source
    device.run(program, kernel, {"x": x, "y": y}, {"N": 6}, Launch((8,), (8,)), out)
    np.testing.assert_array_equal(out, [0, 1, 1, 0, 1, 0])


@pytest.mark.parametrize(("integer", "floating"), [("i64", "f64"), ("i32", "f64"), ("i64", "f32")])
def test_integers_read_as_unsigned_convert_to_floating_point(
    device: Device, integer: str, floating: str
) -> None:
    program = lam(
        f"(lambda ((x (array {integer} N))) (map-global 0 (lambda (v) (u{floating} v)) x))"
    )
    signed = np.dtype(integer.replace("i", "int"))
    x = np.array([-1, 0, 7, np.iinfo(signed).min, np.iinfo(signed).max, -12345], signed)
    out = np.zeros(6, np.dtype(floating.replace("f", "float")))
    device.run(program, generate(program), {"x": x}, {"N": 6}, Launch((8,), (8,)), out)
    unsigned = x.view(np.dtype(integer.replace("i", "uint")))
    np.testing.assert_array_equal(out, unsigned.astype(out.dtype))


def test_u64_widens_an_int_read_as_unsigned(device: Device) -> None:
    program = lam("(lambda ((x (array i32 N))) (map-global 0 (lambda (v) (u64 v)) x))")
    x = np.array([-1, 0, 7, -(2**31), 2**31 - 1], np.int32)
    out = np.zeros(5, np.int64)
    device.run(program, generate(program), {"x": x}, {"N": 5}, Launch((8,), (8,)), out)
    np.testing.assert_array_equal(out, x.view(np.uint32).astype(np.int64))


def test_local_bins_are_limited_to_their_capacity() -> None:
    kernel = generate(histogram_case("i32", "scatter-atomic-local 0 64").program,
                      output=Output("h", True, Size.of(0), (Size.of(1),)))  # fmt: skip
    assert "__local int lk_bins" in kernel.source and "[64];" in kernel.source
    assert requirements_hold(kernel, {"N": 10, "B": 64})
    assert not requirements_hold(kernel, {"N": 10, "B": 65})


def test_doubles_are_added_into_global_memory_by_ptx_where_nvidia_builds_them() -> None:
    """An atomic add of a double into global memory calls `idiom_add_double`: PTX's
    `red.global.add.f64` under NVIDIA's compiler, the swap loop elsewhere (what PoCL runs
    in the histogram cases above); local bins and floats keep the loop (PTX's f32 add
    flushes subnormals)."""
    output = Output("h", True, Size.of(0), (Size.of(1),))
    double = generate(histogram_case("f64").program, output=output).source
    assert double.count("idiom_add_double(&") == 1
    nvidia, elsewhere = double.split("#else")
    assert "#ifdef __NV_CL_C_VERSION" in nvidia and "red.global.add.f64" in nvidia
    assert "atom_cmpxchg" in elsewhere and "red.global" not in elsewhere
    local = generate(histogram_case("f64", "scatter-atomic-local 0 64").program, output=output)
    assert local.source.count("idiom_add_double(&") == 1  # the merge into global memory
    assert "volatile __local ulong*" in local.source
    single = generate(histogram_case("f32").program, output=output).source
    assert "idiom_add_double" not in single and "red.global" not in single


COVERED_3D = """
(lambda ((x (array (array (array f64 K) M) N)))
  (map-global 2 (map-global 1 (map-global 0 neg)) x))
"""


def test_covered_kernels_test_the_inner_dimensions_and_loop_over_the_highest() -> None:
    kernel = generate(lam(COVERED_3D), covered=True)
    assert kernel.covered
    assert "for (long lk_i1 = get_global_id(2); lk_i1 < (N); lk_i1 += get_global_size(2))" in (
        kernel.source
    )
    for d, length in ((1, "M"), (0, "K")):
        assert f"if (get_global_id({d}) < ({length})) {{ const long " in kernel.source
        assert f"get_global_size({d})" not in kernel.source
    plain = generate(lam(COVERED_3D))
    assert not plain.covered
    assert plain.source.count("for (long ") == 3


def test_a_covered_kernel_computes_every_element_with_its_highest_dimension_coarsened(
    device: Device,
) -> None:
    program = lam(COVERED_3D)
    x = np.arange(5 * 6 * 7, dtype=np.float64)
    sizes = {"N": 5, "M": 6, "K": 7}
    kernel = generate(program, covered=True)
    out = np.zeros_like(x)
    # An item for every (k, m), two work-items over the five planes.
    device.run(program, kernel, {"x": x}, sizes, Launch((8, 8, 2), (4, 2, 1)), out)
    assert np.array_equal(out, -x)


def test_a_segment_between_widened_ints_less_one_value_counts_their_difference() -> None:
    """Bounds `(- (i64 a) c)` and `(- (i64 b) c)`: the length is max(b - a, 0), exact and
    without overflow, counted in `long` in an `int` kernel; the store's place is read after
    what the loop's bound reads and before the loop."""
    case = jds_moved_case()
    source = generate(case.program, "jds", case.output, index="int").source
    count = "const long diagonals = max((((long)count[lk_i1]) - ((long)0)), 0L);"
    assert count in source
    assert "for (long lk_j" in source
    place = source.index("const long lk_at")
    assert source.index(count) < place < source.index("for (long lk_j")
    other = generate(jds_product_case().program, "jds", case.output).source
    assert "max(" not in other  # bounds of no common form: compared


def test_a_kernel_covering_the_highest_dimension_takes_its_row_from_the_item(
    device: Device,
) -> None:
    """`covers_highest`: no loop striding by the range in any dimension; launched with an
    item for every row, it computes what the interpreter does."""
    case = jds_moved_case()
    for index in ("long", "int"):
        kernel = generate(case.program, output=case.output, index=index, covers_highest=True)
        assert kernel.covered
        assert "get_global_size" not in kernel.source
        assert f"if (get_global_id(0) < (R)) {{ const {index} " in kernel.source
        out = np.zeros_like(interpreted(case))
        device.run(case.program, kernel, case.inputs, case.sizes, Launch((320,), (32,)), out)
        np.testing.assert_array_equal(out, interpreted(case))


LANES_CSR = """
(lambda ((ptr (array i32 R1)) (V (array f64 E)) (C (array i32 E)) (X (array f64 N)))
  (map (lambda (p)
         ((lambda (row)
            (get 0 (reduce (lambda (acc e) (+ acc (* (get 0 (get 0 e)) (get 1 e)))) 0.0:f64
                     (zip row (gather (map (lambda (ce) (i64 (get 1 ce))) row) X)))))
          (segment entries (i64 (get 0 p)) (i64 (get 1 p)) (zip V C))))
       (zip (strided 0 (1) (R) ptr) (strided 1 (1) (R) ptr))))
"""


def test_snapshot_a_sparse_product_by_lanes() -> None:
    """`map-lanes` of 32 in groups of 256: 8 rows a group at a time, by a loop that is
    the same for the whole group; an item past the last row takes the last row again and
    stores nothing; each lane folds every 32nd entry, the lanes' sums are folded in local
    memory, halving, the other lane's slot read only by the lanes that fold it; the first
    lane stores."""
    program = parse(LANES_CSR)
    assert isinstance(program, ir.Lambda)
    lowered = lower_lanes(program, 32)
    assert lowered is not None
    assert lowered[1] == ("lanes(32)",)
    source = generate(lowered[0], "spmv", index="int", work_group=256).source
    body = source[source.index("{\n") + 2 :]
    assert (
        body
        == """\
  __local double lk_l16[256];
  for (int lk_base1 = (int)get_group_id(0) * 8; lk_base1 < (R); lk_base1 += (int)get_num_groups(0) * 8) {
    const int lk_first2 = lk_base1 + (int)(get_local_id(0) / 32);
    const int lk_lane4 = (int)(get_local_id(0) % 32);
    const int lk_i3 = lk_first2 < (R) ? lk_first2 : (R) - 1;
    const long lk_lo6 = ((long)ptr[lk_i3]);
    const long lk_hi7 = ((long)ptr[(lk_i3) + 1]);
    const long entries = lk_hi7 > lk_lo6 ? lk_hi7 - lk_lo6 : 0L;
    double lk_p8[1];
    double lk_acc9 = 0.0;
    for (int lk_j10 = lk_lane4; lk_j10 < (entries); lk_j10 += 32) {
      double lk_next15 = (lk_acc9 + (V[lk_lo6 + (lk_j10)] * X[((long)C[lk_lo6 + (lk_j10)])]));
      lk_acc9 = lk_next15;
    }
    lk_l16[get_local_id(0)] = lk_acc9;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int lk_h11 = 16; lk_h11 > 0; lk_h11 >>= 1) {
      if (lk_lane4 < lk_h11) {
        const double lk_v19 = lk_l16[get_local_id(0)];
        const double lk_v20 = lk_l16[get_local_id(0) + lk_h11];
        lk_l16[get_local_id(0)] = (lk_v19 + lk_v20);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    lk_p8[0] = lk_l16[get_local_id(0)];
    if (lk_first2 < (R) && lk_lane4 == 0) out[lk_i3] = lk_p8[0];
  }
}
"""
    )


def test_map_lanes_needs_its_work_group() -> None:
    program = parse(LANES_CSR)
    assert isinstance(program, ir.Lambda)
    lowered = lower_lanes(program, 32)
    assert lowered is not None
    with pytest.raises(LiftError, match="map-lanes needs a kernel generated for its work-group"):
        generate(lowered[0], "spmv", work_group=None)
    with pytest.raises(LiftError, match="a multiple of its lanes"):
        generate(lowered[0], "spmv", work_group=48)


def test_packed_sizes_are_one_struct_argument_unpacked_first(device: Device) -> None:
    """`packed_sizes`: the sizes travel in one struct (one enqueue argument rather than
    one each); the kernel computes what it computes with them apart."""
    case = zip_map_case()
    for index in ("long", "int"):
        kernel = generate(case.program, output=case.output, index=index, packed_sizes=True)
        assert kernel.packed_sizes and kernel.sizes == ("N",)
        assert kernel.parameters[-1] == "lk_sizes"
        assert f"typedef struct {{ {index} v[1]; }} lift_kernel_sizes;" in kernel.source
        assert "lift_kernel_sizes lk_sizes)" in kernel.source
        assert f"const {index} N = lk_sizes.v[0];" in kernel.source
        out = np.zeros_like(interpreted(case))
        device.run(case.program, kernel, case.inputs, case.sizes, case.launch, out)
        np.testing.assert_array_equal(out, interpreted(case))
    plain = generate(lam(ZIP_MAP), packed_sizes=False)
    assert not plain.packed_sizes and "lk_sizes" not in plain.source


def test_a_kernel_without_sizes_packs_nothing() -> None:
    kernel = generate(lam(RECORD_CHUNKS.replace("(array f64 N)", "(array f64 16)")),
                      packed_sizes=True)  # fmt: skip
    assert kernel.sizes == () and not kernel.packed_sizes and "typedef" not in kernel.source
