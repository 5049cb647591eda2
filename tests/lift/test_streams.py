"""`map-stream`: lanes carried from one element of the outermost map to the next
(lift/ir/streams.py, the Stream rule, the generator's runs, read by index or through
pointers advanced along the run).

A streamed kernel keeps the values a point reads that the next point along the outermost
dimension reads again. Its meaning is the map's where its pairs hold; the interpreter
refuses values where they do not, and the generated kernel must compute what the
interpreter does for any run length and launch shape, with long and int indices.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lift.errors import LiftError
from lift.ir import expr as ir
from lift.ir.build import zip_nd
from lift.ir.check import infer_function
from lift.ir.interpret import run
from lift.ir.streams import carries_hold, carry_conditions, grid_views, propose_carries
from lift.ir.text import parse, show
from lift.ir.types import Array, Scalar, Size
from lift.opencl.generate import Output, generate, requirements_hold
from lift.rewriting.rules import Stream

pytest.importorskip("pyopencl")

from lift.exploration.device import Device
from tests.lift.stream_grids import SHAPES, drawn_launch, interpreted, sizes_of, streamed

F64 = Scalar("f64")


def stencil(offsets: list[tuple[int, ...]]) -> tuple[ir.Lambda, Output]:
    """A sum of neighbours weighted by their position, over strided views of `a` (one per
    offset, sizes bound at run time), lowered onto map-global, written into `b`."""
    depth = len(offsets[0])
    a = ir.Param("a", Array(F64, Size.of("L")))
    b = ir.Param("b", Array(F64, Size.of("L")))
    strides = tuple(Size.of(f"s{d}") for d in range(depth))
    lengths = tuple(Size.of(f"n{d}") for d in range(depth))
    views: list[ir.Expr] = [
        ir.Apply(ir.Strided(Size.of(f"o{k}"), strides, lengths), (a,)) for k in range(len(offsets))
    ]
    point = ir.Param("p")
    total: ir.Expr = ir.Literal(0.5, F64)
    for k in range(len(offsets)):
        term = ir.Apply(ir.Op("*"), (ir.Literal(float(k + 1), F64), ir.Apply(ir.Get(k), (point,))))
        total = ir.Apply(ir.Op("+"), (total, term))
    function: ir.Fun = ir.Lambda((point,), total)
    for d in range(depth - 1):
        function = ir.MapGlobal(d, function)
    body = ir.Apply(ir.MapGlobal(depth - 1, function), (zip_nd(views, depth),))
    return ir.Lambda((a, b), body), Output("b", True, Size.of("ow"), strides)


BOX_3D = [(i, j, k) for i in (-1, 0, 1) for j in (-1, 0, 1) for k in (-1, 0, 1)]
FIVE = [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)]


def test_pairs_are_proposed_from_the_sizes_and_said_as_conditions() -> None:
    program, _ = stencil(FIVE)
    assert isinstance(program.body, ir.Apply)
    grid = program.body.args[0]
    assert grid_views(grid) is not None
    pairs = propose_carries(grid, sizes_of((6, 7), FIVE))
    assert sorted(pairs) == [(0, 2), (1, 0)]  # (i-1) becomes the centre, the centre (i+1)
    conditions = carry_conditions(pairs, grid)
    assert {(str(c.offset), str(c.stride), str(c.next_offset)) for c in conditions} == {
        ("o1", "s0", "o0"),
        ("o0", "s0", "o2"),
    }
    box, _ = stencil(BOX_3D)
    assert isinstance(box.body, ir.Apply)
    assert len(propose_carries(box.body.args[0], sizes_of((5, 6, 7), BOX_3D))) == 18


def test_text_form_round_trips_and_is_checked() -> None:
    program, _ = stencil(FIVE)
    rewritten = streamed(program, sizes_of((6, 7), FIVE))
    assert "(map-stream 1 ((0 2) (1 0))" in show(rewritten)
    assert parse(show(rewritten)) == rewritten
    types = [p.type for p in program.params if p.type is not None]
    assert infer_function(rewritten, types) == infer_function(program, types)
    text = show(rewritten).replace("((0 2) (1 0))", "((0 9))")
    with pytest.raises(LiftError, match="names a lane its points do not have"):
        infer_function(parse(text), types)  # type: ignore[arg-type]
    with pytest.raises(LiftError, match="pairs of lanes"):
        parse(show(rewritten).replace("((0 2) (1 0))", "(0 2)"))


def test_the_interpreter_refuses_values_where_the_pairs_do_not_hold() -> None:
    program, _ = stencil(FIVE)
    sizes = sizes_of((6, 7), FIVE)
    rewritten = streamed(program, sizes)
    grid = np.arange(42, dtype=np.float64)
    assert np.array_equal(interpreted(rewritten, grid, sizes), interpreted(program, grid, sizes))
    wrong = dict(sizes, o2=sizes["o2"] + 1)  # the (i+1) lane no longer the next centre
    with pytest.raises(LiftError, match="pairs do not hold"):
        run(rewritten, [list(grid), list(grid)], wrong)


def test_a_kernel_whose_pairs_do_not_hold_is_not_run() -> None:
    program, output = stencil(FIVE)
    sizes = sizes_of((6, 7), FIVE)
    kernel = generate(streamed(program, sizes), output=output)
    assert len(kernel.carries) == 2
    assert requirements_hold(kernel, sizes)
    assert not requirements_hold(kernel, dict(sizes, o0=sizes["o0"] + 7))


def test_the_rule_needs_a_grid_of_strided_views_and_pairs() -> None:
    program, _ = stencil(FIVE)
    assert isinstance(program.body, ir.Apply)
    assert Stream(()).apply(program.body) is None
    x = ir.Param("x", Array(Array(F64, Size.of("m")), Size.of("n")))
    plain = ir.Apply(ir.MapGlobal(1, ir.MapGlobal(0, ir.Op("neg"))), (x,))
    assert Stream(((0, 1),)).apply(plain) is None


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape=SHAPES, data=st.data())
def test_streamed_kernels_compute_what_the_interpreter_does(
    device: Device, shape: tuple[int, ...], data: st.DataObject
) -> None:
    """Random neighbourhoods of random grids, any run length and launch shape: the
    streamed kernel writes what the interpreter computes for the unstreamed program."""
    box = list(itertools.product((-1, 0, 1), repeat=len(shape)))
    drawn = data.draw(st.lists(st.sampled_from(box), min_size=1, max_size=8, unique=True))
    centre, next_one = (0,) * len(shape), (1,) + (0,) * (len(shape) - 1)
    offsets = [centre, next_one, *(o for o in drawn if o not in (centre, next_one))]  # a pair
    program, output = stencil(offsets)
    sizes = sizes_of(shape, offsets)
    rewritten = streamed(program, sizes)
    grid = np.random.default_rng(len(offsets)).random(sizes["L"])
    expected = interpreted(program, grid, sizes)
    launch = drawn_launch(data, shape)
    # The launch has an item for every element of the inner dimensions: `covered` holds.
    # Each form reads its lanes by index, and through pointers advanced along the run.
    forms = itertools.product(("long", "int"), (False, True), (False, True))
    for index, covered, pointers in forms:
        kernel = generate(rewritten, output=output, index=index, covered=covered,
                          stream_pointers=pointers)  # fmt: skip
        assert kernel.stream_pointers == pointers
        assert (" += (s0)" in kernel.source) == pointers
        out = np.zeros_like(grid)
        device.run(rewritten, kernel, {"a": grid, "b": out.copy()}, sizes, launch, out)
        interior = expected != 0
        assert np.array_equal(out[interior], expected[interior]), (kernel.source, launch)


STREAMED_2D_SOURCE = """\
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
__kernel void streamed(__global const double* restrict a, __global double* restrict b, long L, long n0, long n1, long o0, long o1, long o2, long ow, long s0, long s1) {
  const long lk_run1 = ((n0) + get_global_size(1) - 1) / get_global_size(1);
  const long lk_first2 = get_global_id(1) * lk_run1;
  const long lk_end3 = min(lk_first2 + lk_run1, (long)((n0)));
  for (long lk_i7 = get_global_id(0); lk_i7 < (n1); lk_i7 += get_global_size(0)) {
    if (lk_first2 >= lk_end3) break;
    {
      long lk_i4 = lk_first2;
      double lk_kept9 = a[((lk_i4)*(s0) + (lk_i7)*(s1)) + (o0)];
      double lk_kept10 = a[((lk_i4)*(s0) + (lk_i7)*(s1)) + (o1)];
      for (; lk_i4 < lk_end3; lk_i4++) {
        const double lk_lane11 = lk_kept9;
        const double lk_lane12 = lk_kept10;
        const double lk_lane13 = a[((lk_i4)*(s0) + (lk_i7)*(s1)) + (o2)];
        b[((lk_i4)*(s0) + (lk_i7)*(s1)) + (ow)] = (((0.5 + (1.0 * lk_lane11)) + (2.0 * lk_lane12)) + (3.0 * lk_lane13));
        lk_kept9 = lk_lane13;
        lk_kept10 = lk_lane11;
      }
    }
  }
}
"""  # noqa: E501


STREAMED_2D_COVERED_SOURCE = """\
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
__kernel void streamed(__global const double* restrict a, __global double* restrict b, int L, int n0, int n1, int o0, int o1, int o2, int ow, int s0, int s1) {
  const int lk_run1 = ((n0) + get_global_size(1) - 1) / get_global_size(1);
  const int lk_first2 = get_global_id(1) * lk_run1;
  const int lk_end3 = min(lk_first2 + lk_run1, (int)((n0)));
  if (get_global_id(0) < (n1)) { const int lk_i7 = get_global_id(0);
    if (lk_first2 < lk_end3) {
      int lk_i4 = lk_first2;
      double lk_kept9 = a[((lk_i4)*(s0) + (lk_i7)*(s1)) + (o0)];
      double lk_kept10 = a[((lk_i4)*(s0) + (lk_i7)*(s1)) + (o1)];
      for (; lk_i4 < lk_end3; lk_i4++) {
        const double lk_lane11 = lk_kept9;
        const double lk_lane12 = lk_kept10;
        const double lk_lane13 = a[((lk_i4)*(s0) + (lk_i7)*(s1)) + (o2)];
        b[((lk_i4)*(s0) + (lk_i7)*(s1)) + (ow)] = (((0.5 + (1.0 * lk_lane11)) + (2.0 * lk_lane12)) + (3.0 * lk_lane13));
        lk_kept9 = lk_lane13;
        lk_kept10 = lk_lane11;
      }
    }
  }
}
"""  # noqa: E501


def test_snapshot_of_a_streamed_kernel() -> None:
    offsets = [(0, 0), (-1, 0), (1, 0)]
    program, output = stencil(offsets)
    kernel = generate(streamed(program, sizes_of((5, 5), offsets)), "streamed", output)
    assert kernel.source == STREAMED_2D_SOURCE
    assert not kernel.covered


def test_snapshot_of_a_covered_streamed_kernel() -> None:
    """Covered, with int indices (as the tool launches it): the inner dimension is a test,
    an item an element; the streamed outermost one keeps its runs."""
    offsets = [(0, 0), (-1, 0), (1, 0)]
    program, output = stencil(offsets)
    rewritten = streamed(program, sizes_of((5, 5), offsets))
    kernel = generate(rewritten, "streamed", output, index="int", covered=True)
    assert kernel.source == STREAMED_2D_COVERED_SOURCE
    assert kernel.covered


def test_pairs_compare_values_as_the_kernel_keeps_their_bits() -> None:
    nan = float("nan")
    assert carries_hold([[(nan, 1.0)], [(2.0, nan)]], ((1, 0),))  # a NaN is kept a NaN
    assert not carries_hold([[(0.0, 1.0)], [(2.0, -0.0)]], ((1, 0),))  # -0.0 is not 0.0
    assert carries_hold([[(np.float32(3), 1)], [(5, np.float32(3))]], ((1, 0),))
