"""Constructors for the shapes matches become: nested maps and zips over grids."""

from __future__ import annotations

from collections.abc import Sequence

from lift.ir import expr as ir

__all__ = ["map_nd", "zip_nd"]


def map_nd(f: ir.Fun, grid: ir.Expr, depth: int) -> ir.Apply:
    """`f` on every element of a `depth`-dimensional array: (map (map ... f) grid)."""
    function = f
    for _ in range(depth - 1):
        function = ir.Map(function)
    return ir.Apply(ir.Map(function), (grid,))


def zip_nd(arrays: Sequence[ir.Expr], depth: int) -> ir.Expr:
    """Arrays of the same `depth`-dimensional shape zipped element by element: a grid of
    tuples. Below the outermost level, each level zips the rows its tuple holds."""
    if len(arrays) == 1:
        return arrays[0]
    zipped: ir.Expr = ir.Apply(ir.Zip(), tuple(arrays))
    if depth == 1:
        return zipped
    row = ir.Param(f"row{depth}")
    inner = zip_nd([ir.Apply(ir.Get(k), (row,)) for k in range(len(arrays))], depth - 1)
    return ir.Apply(ir.Map(ir.Lambda((row,), inner)), (zipped,))
