"""What `map-stream` relies on: which lanes of a grid's points are the same element one
step further along its outermost dimension.

A stencil's grid is a zip of strided views of its buffers (`build.zip_nd`), one per read.
View k read at element i + 1 is view j read at element i when both view the same buffer
with the same strides and lengths and offset_k + stride_0 == offset_j. The offsets are
sizes bound at run time, so a pair is proposed from numbers (`propose_carries`, where the
sizes are known) or from the program's address arithmetic (the mapper), and the kernel's
caller checks each pair's condition (`carry_conditions`) before it launches a kernel that
carries values.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from lift.errors import LiftError
from lift.ir import expr as ir
from lift.ir.build import zip_nd
from lift.ir.types import Array, Size, Tuple, Type

__all__ = [
    "CarryCondition",
    "carries_hold",
    "carry_conditions",
    "check_carries",
    "conditions_hold",
    "grid_views",
    "propose_carries",
]


@dataclass(frozen=True)
class CarryCondition:
    """offset_k + stride == offset_j: lane k one element on is lane j."""

    offset: Size
    stride: Size
    next_offset: Size


def check_carries(carries: Sequence[tuple[int, int]], element: Type) -> None:
    """The pairs name lanes of the innermost tuples of `element`, of the same type."""
    while isinstance(element, Array):
        element = element.element
    if not carries:
        return
    if not isinstance(element, Tuple):
        raise LiftError("map-stream carries lanes of tuples: its points are not tuples")
    lanes = element.elements
    for k, j in carries:
        if not (0 <= k < len(lanes) and 0 <= j < len(lanes)):
            raise LiftError(f"map-stream's pair ({k} {j}) names a lane its points do not have")
        if lanes[k] != lanes[j]:
            raise LiftError(f"map-stream's pair ({k} {j}) joins lanes of different types")
    if len({k for k, _ in carries}) != len(carries):
        raise LiftError("map-stream carries a lane from two others")


def carries_hold(xs: Sequence[object], carries: Sequence[tuple[int, int]]) -> bool:
    """In the nested lists `xs`, lane k of each innermost tuple of element i + 1 equals
    lane j of element i's (by bits: a NaN equals a NaN)."""
    return all(_lanes_match(after, before, carries) for before, after in itertools.pairwise(xs))


def _lanes_match(after: object, before: object, carries: Sequence[tuple[int, int]]) -> bool:
    if isinstance(after, tuple) and isinstance(before, tuple):
        return all(_same(after[k], before[j]) for k, j in carries)
    if isinstance(after, list) and isinstance(before, list) and len(after) == len(before):
        return all(_lanes_match(a, b, carries) for a, b in zip(after, before, strict=True))
    return False


def _same(a: object, b: object) -> bool:
    """Equal as the bits a kernel keeps: a NaN is a NaN, -0.0 is not 0.0."""
    if isinstance(a, float | np.floating) and isinstance(b, float | np.floating):
        x, y = float(a), float(b)
        both_nan = math.isnan(x) and math.isnan(y)
        return both_nan or (x == y and math.copysign(1.0, x) == math.copysign(1.0, y))
    return a == b


def grid_views(x: ir.Expr) -> tuple[ir.Apply, ...] | None:
    """The strided views zipped into the grid `x` (`zip_nd` of them), else None."""
    inner = x
    if isinstance(inner, ir.Apply) and isinstance(inner.fun, ir.Map) and len(inner.args) == 1:
        inner = inner.args[0]
    if not (isinstance(inner, ir.Apply) and isinstance(inner.fun, ir.Zip)):
        return None
    views = inner.args
    if not all(_strided(v) for v in views):
        return None
    depth = len(cast(ir.Strided, cast(ir.Apply, views[0]).fun).lengths)
    if x != zip_nd(list(views), depth):
        return None
    return tuple(v for v in views if isinstance(v, ir.Apply))


def _strided(view: ir.Expr) -> bool:
    return (
        isinstance(view, ir.Apply)
        and isinstance(view.fun, ir.Strided)
        and len(view.args) == 1
        and isinstance(view.args[0], ir.Param)
    )


def carry_conditions(carries: Sequence[tuple[int, int]], x: ir.Expr) -> tuple[CarryCondition, ...]:
    """What the caller checks for `(map-stream d carries f x)`: each pair's views share
    a buffer, strides and lengths (known here), and their offsets differ by the outermost
    stride (returned)."""
    views = grid_views(x)
    if views is None:
        raise LiftError("map-stream carries lanes of a zip of strided views only")
    conditions = []
    for k, j in carries:
        a, b = views[k], views[j]
        assert isinstance(a.fun, ir.Strided) and isinstance(b.fun, ir.Strided)
        same = a.args == b.args and (a.fun.strides, a.fun.lengths) == (b.fun.strides, b.fun.lengths)
        if not same:
            raise LiftError(f"map-stream's pair ({k} {j}): views of different buffers or shapes")
        conditions.append(CarryCondition(a.fun.offset, a.fun.strides[0], b.fun.offset))
    return tuple(conditions)


def propose_carries(x: ir.Expr, sizes: Mapping[str, int]) -> tuple[tuple[int, int], ...]:
    """The pairs that hold for these sizes: each lane paired with the lane it becomes one
    element further on, where there is one."""
    views = grid_views(x)
    if views is None:
        return ()
    values = dict(sizes)
    pairs = []
    for k, a in enumerate(views):
        for j, b in enumerate(views):
            if k == j:
                continue
            assert isinstance(a.fun, ir.Strided) and isinstance(b.fun, ir.Strided)
            if a.args != b.args or (a.fun.strides, a.fun.lengths) != (b.fun.strides, b.fun.lengths):
                continue
            try:
                moved = a.fun.offset.evaluate(values) + a.fun.strides[0].evaluate(values)
                if moved == b.fun.offset.evaluate(values):
                    pairs.append((k, j))
                    break
            except (KeyError, LiftError):
                return ()
    return tuple(pairs)


def conditions_hold(conditions: Sequence[CarryCondition], sizes: Mapping[str, int]) -> bool:
    values = dict(sizes)
    return all(
        c.offset.evaluate(values) + c.stride.evaluate(values) == c.next_offset.evaluate(values)
        for c in conditions
    )
