"""Constructors for the shapes matches become: nested maps and zips over grids."""

from __future__ import annotations

from collections.abc import Sequence

from lift.ir import expr as ir
from lift.ir.types import Size

__all__ = ["fold_lanes", "map_nd", "tree_reduce", "zip_nd"]


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


def fold_lanes(ops: list[str]) -> ir.Lambda:
    """(lambda (a b) (tuple (op0 (get 0 a) (get 0 b)) ...)): the lanes folded pairwise."""
    a, b = ir.Param("a"), ir.Param("b")
    lanes = tuple(
        ir.Apply(ir.Op(op), (ir.Apply(ir.Get(k), (a,)), ir.Apply(ir.Get(k), (b,))))
        for k, op in enumerate(ops)
    )
    return ir.Lambda((a, b), ir.Apply(ir.Op("tuple"), lanes))


def tree_reduce(
    values: ir.Expr, fold: ir.Lambda, identity: ir.Expr, local: int, count: Size
) -> ir.Expr:
    """Lift's reduction in work-groups: the values padded with the identity to whole
    chunks of `local * per`; each work-item folds `per` of its chunk's values, `local`
    apart (neighbouring items read neighbouring values); the group folds the `local`
    results pairwise in local memory (log2(local) steps); one result per group."""
    steps = local.bit_length() - 1
    per, groups = Size.of("per"), Size.of("wg")
    chunk, xs, ys, c, v = (ir.Param(n) for n in ("chunk", "xs", "ys", "c", "v"))

    def fold_rows(rows: ir.Expr) -> ir.Expr:
        return ir.Apply(
            ir.Join(), (ir.Apply(ir.MapLocal(0, ir.ReduceSeq(fold, identity)), (rows,)),)
        )

    first = ir.ToLocal(
        ir.Lambda(
            (c,), fold_rows(ir.Apply(ir.Transpose(), (ir.Apply(ir.Split(Size.of(local)), (c,)),)))
        )
    )
    halve = ir.Lambda(
        (xs,),
        ir.Apply(
            ir.ToLocal(ir.Lambda((ys,), fold_rows(ir.Apply(ir.Split(Size.of(2)), (ys,))))), (xs,)
        ),
    )
    tree = ir.Apply(ir.Iterate(steps, halve), (ir.Apply(first, (chunk,)),))
    result = ir.Apply(ir.ToGlobal(ir.MapLocal(0, ir.Lambda((v,), v))), (tree,))
    padding = groups * local * per - count
    padded = ir.Apply(ir.Pad(0, padding, identity), (values,))
    chunks = ir.Apply(ir.Split(per * local), (padded,))
    return ir.Apply(
        ir.Join(), (ir.Apply(ir.MapWorkgroup(0, ir.Lambda((chunk,), result)), (chunks,)),)
    )
