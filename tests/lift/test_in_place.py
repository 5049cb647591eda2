"""The one-pass scan's block scanned in place in local memory (lift/opencl/in_place.py):
which stages qualify, the one local copy of the block the kernel then keeps, and its
prefixes, run on the tests' OpenCL device against numpy's."""

from __future__ import annotations

import re

import numpy as np
import pytest

from lift.ir import expr as ir
from lift.ir.build import blocked_scan
from lift.ir.text import parse, pretty
from lift.ir.types import Array, Scalar, Size
from lift.opencl.generate import Output, generate
from lift.opencl.in_place import staged_in_place

pytest.importorskip("pyopencl")

from lift.exploration.device import Device, Launch

OUTPUT = Output("y", True, Size.of(0), (Size.of(1),), length=Size.of("n0"))


def chained(group: int, per: int, staging: tuple[bool, bool], *, inclusive: bool = True,
            kind: str = "i32") -> ir.Lambda:  # fmt: skip
    """`blocked_scan`'s one-pass program for a sum of `x` into `y`."""
    x = ir.Param("x", Array(Scalar(kind), Size.of("n0")))
    fold = parse("(lambda (a b) (+ a b))")
    assert isinstance(fold, ir.Lambda)
    programs = blocked_scan(
        [x], x, fold, ir.Literal(0, Scalar(kind)), Size.of("n0"), local=group,
        inclusive=inclusive, per=per, staging=staging,
    )  # fmt: skip
    assert programs.chained is not None
    y = ir.Param("y", Array(Scalar(kind), Size.of("wg") * (group * per)))
    return ir.Lambda((x, y, *programs.chained.params[1:]), programs.chained.body)


def each_of(program: ir.Lambda) -> ir.Fun:
    body = program.body
    assert isinstance(body, ir.Apply) and isinstance(body.args[0], ir.Apply)
    pattern = body.args[0].fun
    assert isinstance(pattern, ir.ScanWorkgroups)
    return pattern.each


def block_buffers(source: str, block: int) -> list[str]:
    return re.findall(rf"__local \w+ (\w+)\[{block}\];", source)


def test_a_staged_scan_of_the_loaded_block_is_found() -> None:
    stage = staged_in_place(each_of(chained(16, 4, (True, True))))
    assert stage is not None and isinstance(stage.fun, ir.ToLocal)
    assert "scan-seq" in pretty(stage)


def test_a_block_named_again_after_its_scan_is_not_scanned_in_place() -> None:
    """`each` reading its block a second time (the block's first value added to every
    prefix): the prefixes may not overwrite it."""
    each = each_of(chained(16, 4, (True, True)))
    assert isinstance(each, ir.Lambda)
    own = each.params[0]
    again = ir.Apply(ir.Get(0), (own,))
    added = ir.Lambda((q := ir.Param("w"),), ir.Apply(ir.Op("+"), (q, again)))
    body = ir.Apply(ir.Map(added), (ir.Apply(ir.Join(), (each.body,)),))
    assert staged_in_place(ir.Lambda(each.params, body)) is None


def test_a_stage_that_reads_its_neighbours_chunk_is_not_in_place() -> None:
    """A run scanned from the block's chunk of the next item (a different split of the
    block) would overwrite values another item has still to read."""
    each = each_of(chained(16, 4, (True, True)))
    assert isinstance(each, ir.Lambda)
    stage = staged_in_place(each)
    assert stage is not None
    zipped = stage.args[0]
    assert isinstance(zipped, ir.Apply)
    split = zipped.args[0]
    assert isinstance(split, ir.Apply)
    shifted_block = ir.Apply(ir.Pad(1, Size.of(0), ir.Literal(0, Scalar("i32"))), split.args)
    moved = ir.Apply(zipped.fun, (ir.Apply(split.fun, (shifted_block,)), *zipped.args[1:]))
    replaced = ir.Apply(stage.fun, (moved,))
    assert staged_in_place(ir.Lambda(each.params, _swap(each.body, stage, replaced))) is None


def _swap(expression: ir.Expr, old: ir.Expr, new: ir.Expr) -> ir.Expr:
    if expression is old:
        return new
    match expression:
        case ir.Apply(fun, args):
            return ir.Apply(fun, tuple(_swap(a, old, new) for a in args))
        case ir.Lambda(params, body):
            return ir.Lambda(params, _swap(body, old, new))
    return expression


def test_the_kernel_keeps_one_copy_of_a_block_copied_in_and_staged_out() -> None:
    copied = generate(chained(16, 4, (True, True)), "chained", output=OUTPUT, work_group=16)
    assert len(block_buffers(copied.source, 64)) == 1
    read_in_place = generate(chained(16, 4, (False, True)), "chained", output=OUTPUT,
                             work_group=16)  # fmt: skip
    assert len(block_buffers(read_in_place.source, 64)) == 1  # the prefixes' only


@pytest.mark.parametrize("kind", ["i32", "i64"])
@pytest.mark.parametrize("inclusive", [False, True])
@pytest.mark.parametrize(("per", "n"), [(1, 16), (3, 47), (4, 65), (5, 1000), (7, 100_003)])
def test_prefixes_written_where_the_values_were_are_numpys(
    device: Device, *, per: int, n: int, inclusive: bool, kind: str
) -> None:
    """Blocks copied in and their prefixes written over them: every prefix, past the end
    of a partial last block too, from a start other than zero."""
    program = chained(16, per, (True, True), inclusive=inclusive, kind=kind)
    kernel = generate(program, "chained", output=OUTPUT, work_group=16)
    if per > 1:  # (runs of one: the group's scan steps take buffers of the block's size too)
        assert len(block_buffers(kernel.source, 16 * per)) == 1
    dtype = np.int32 if kind == "i32" else np.int64
    blocks = -(-n // (16 * per))
    values = np.random.default_rng(n).integers(-1000, 1000, n).astype(dtype)
    sentinel = np.full(blocks * 16 * per, 99, dtype=dtype)
    written = np.zeros_like(sentinel)
    device.run(program, kernel, {"x": values, "y": sentinel, "z": 7}, {"n0": n, "wg": blocks},
               Launch((blocks * 16,), (16,)), written, repeat=2)  # fmt: skip
    running = np.cumsum(np.concatenate(([7], values)).astype(dtype), dtype=dtype)
    expected = running[1:] if inclusive else running[:-1]
    np.testing.assert_array_equal(written[:n], expected)
    np.testing.assert_array_equal(written[n:], sentinel[n:])
