"""A streamed run that keeps its chain's partial sums (lift/opencl/partial_sums.py): where
a point adds its lanes in one chain whose carried lanes lead it, block by block (the
plane behind, then its own), the kernel keeps one sum per block rather than the values.
The additions are the chain's own, so the kernel must write what the interpreter computes
bit for bit, for any run length and launch shape; where the chain's order or another
read of a carried lane does not allow it, the values are kept as before."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lift.ir import expr as ir
from lift.ir.build import zip_nd
from lift.ir.types import Array, Scalar, Size
from lift.opencl.generate import Output, generate
from lift.opencl.partial_sums import partial_sums

pytest.importorskip("pyopencl")

from lift.exploration.device import Device
from tests.lift.stream_grids import SHAPES, drawn_launch, interpreted, sizes_of, streamed

F64 = Scalar("f64")


def chained(
    offsets: list[tuple[int, ...]], extra: ir.Expr | None = None
) -> tuple[ir.Lambda, Output]:
    """A stencil adding its neighbours in the order of `offsets`, in one chain (with
    `extra` applied to the centre lane added last), scaled by a third."""
    depth = len(offsets[0])
    a = ir.Param("a", Array(F64, Size.of("L")))
    b = ir.Param("b", Array(F64, Size.of("L")))
    strides = tuple(Size.of(f"s{d}") for d in range(depth))
    lengths = tuple(Size.of(f"n{d}") for d in range(depth))
    views: list[ir.Expr] = [
        ir.Apply(ir.Strided(Size.of(f"o{k}"), strides, lengths), (a,)) for k in range(len(offsets))
    ]
    point = ir.Param("p")
    total: ir.Expr = ir.Apply(ir.Get(0), (point,))
    for k in range(1, len(offsets)):
        total = ir.Apply(ir.Op("+"), (total, ir.Apply(ir.Get(k), (point,))))
    if extra is not None:
        total = ir.Apply(ir.Op("+"), (total, extra))
    body = ir.Apply(ir.Op("*"), (total, ir.Literal(1.0 / 3.0, F64)))
    function: ir.Fun = ir.Lambda((point,), body)
    for d in range(depth - 1):
        function = ir.MapGlobal(d, function)
    program = ir.Apply(ir.MapGlobal(depth - 1, function), (zip_nd(views, depth),))
    return ir.Lambda((a, b), program), Output("b", True, Size.of("ow"), strides)


def point_of(program: ir.Lambda) -> tuple[ir.Lambda, tuple[tuple[int, int], ...]]:
    """The point's function of a streamed program, and its carries."""
    fun = program.body.fun  # type: ignore[attr-defined]
    assert isinstance(fun, ir.MapStream)
    carries, inner = fun.carries, fun.f
    while not isinstance(inner, ir.Lambda):
        inner = ir.mapped_function(inner)  # type: ignore[assignment]
    return inner, carries


BOX_3D = [(i, j, k) for i in (-1, 0, 1) for j in (-1, 0, 1) for k in (-1, 0, 1)]
COLUMN = [(-1, 0), (0, 0), (1, 0)]


def test_the_box_keeps_two_sums_of_nine_lanes() -> None:
    program, _ = chained(BOX_3D)
    point, carries = point_of(streamed(program, sizes_of((5, 6, 7), BOX_3D)))
    found = partial_sums(point, carries, 27)
    assert found is not None
    assert found.blocks == (tuple(range(9)), tuple(range(9, 18)), tuple(range(18, 27)))
    # the whole chain is now lane 27, the sum the generator binds
    assert found.prefix_lane == 27
    assert found.point.body == ir.Apply(
        ir.Op("*"), (ir.Apply(ir.Get(27), point.params), ir.Literal(1.0 / 3.0, F64))
    )


def test_a_chain_in_another_order_or_a_lane_read_twice_keeps_the_values() -> None:
    sizes = sizes_of((6, 7), COLUMN)
    ahead_first = [(1, 0), (0, 0), (-1, 0)]  # the plane ahead first: not prefixes
    program, _ = chained(ahead_first)
    point, carries = point_of(streamed(program, sizes_of((6, 7), ahead_first)))
    assert carries and partial_sums(point, carries, 3) is None
    centre_again = ir.Apply(ir.Get(1), (ir.Param("p"),))  # a carried lane outside the chain
    program, _ = chained(COLUMN, extra=centre_again)
    point, carries = point_of(streamed(program, sizes))
    assert carries and partial_sums(point, carries, 3) is None
    ahead_again = ir.Apply(ir.Get(2), (ir.Param("p"),))  # the lane read at each element: fine
    program, _ = chained(COLUMN, extra=ahead_again)
    point, carries = point_of(streamed(program, sizes))
    found = partial_sums(point, carries, 3)
    assert found is not None and found.blocks == ((0,), (1,), (2,))


PARTIAL_2D_SOURCE = """\
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
__kernel void streamed(__global const double* restrict a, __global double* restrict b, int L, int n0, int n1, int o0, int o1, int o2, int ow, int s0, int s1) {
  const int lk_run1 = ((n0) + get_global_size(1) - 1) / get_global_size(1);
  const int lk_first2 = get_global_id(1) * lk_run1;
  const int lk_end3 = min(lk_first2 + lk_run1, (int)((n0)));
  if (get_global_id(0) < (n1)) { const int lk_i7 = get_global_id(0);
    if (lk_first2 < lk_end3) {
      int lk_i4 = lk_first2;
      double lk_sum9 = a[((lk_i4)*(s0) + (lk_i7)*(s1)) + (o1)];
      double lk_sum10 = (a[((lk_i4)*(s0) + (lk_i7)*(s1)) + (o0)] + a[((lk_i4)*(s0) + (lk_i7)*(s1)) + (o1)]);
      for (; lk_i4 < lk_end3; lk_i4++) {
        const double lk_lane13 = a[((lk_i4)*(s0) + (lk_i7)*(s1)) + (o2)];
        const double lk_sum14 = (lk_sum10 + lk_lane13);
        b[((lk_i4)*(s0) + (lk_i7)*(s1)) + (ow)] = (lk_sum14 * 0.3333333333333333);
        lk_sum10 = (lk_sum9 + lk_lane13);
        lk_sum9 = lk_lane13;
      }
    }
  }
}
"""  # noqa: E501


def test_snapshot_of_a_run_of_partial_sums() -> None:
    program, output = chained(COLUMN)
    rewritten = streamed(program, sizes_of((6, 7), COLUMN))
    kernel = generate(rewritten, "streamed", output, index="int", covered=True, partial_sums=True)
    assert kernel.source == PARTIAL_2D_SOURCE and kernel.partial_sums
    plain = generate(rewritten, "streamed", output, index="int", covered=True)
    assert "lk_kept" in plain.source and not plain.partial_sums  # only where asked


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape=SHAPES, data=st.data())
def test_partial_sums_compute_what_the_interpreter_does(
    device: Device, shape: tuple[int, ...], data: st.DataObject
) -> None:
    """Random neighbourhoods added plane by plane (the plane behind first, each plane's
    lanes in a random order), random grids of values of mixed magnitudes (so that the
    order of the additions shows), any run length and launch shape."""
    rest = list(itertools.product((-1, 0, 1), repeat=len(shape) - 1))
    row = data.draw(st.lists(st.sampled_from(rest), min_size=1, max_size=9, unique=True))
    offsets = [(plane, *r) for plane in (-1, 0, 1) for r in row]
    program, output = chained(offsets)
    sizes = sizes_of(shape, offsets)
    rewritten = streamed(program, sizes)
    point, carries = point_of(rewritten)
    assert partial_sums(point, carries, len(offsets)) is not None
    rng = np.random.default_rng(len(offsets))
    grid = rng.random(sizes["L"]) * 10.0 ** rng.integers(-8, 9, sizes["L"])
    expected = interpreted(program, grid, sizes)
    launch = drawn_launch(data, shape)
    forms = itertools.product(("long", "int"), (False, True), (False, True))
    for index, covered, pointers in forms:
        kernel = generate(rewritten, output=output, index=index, covered=covered,
                          partial_sums=True, stream_pointers=pointers)  # fmt: skip
        assert kernel.partial_sums and "lk_sum" in kernel.source
        out = np.zeros_like(grid)
        device.run(rewritten, kernel, {"a": grid, "b": out.copy()}, sizes, launch, out)
        interior = expected != 0
        assert np.array_equal(out[interior], expected[interior]), (index, offsets, launch)
