"""A streamed run that carries partial sums instead of the values they add.

A point of a 27-point box stencil adds its lanes in one chain,
`((((l0 + l1) + l2) + ...) + l26)`, where the nine lanes of the plane behind come first,
then the nine of its own plane, then the nine ahead; `map-stream` keeps 18 of those
values from one element of the run to the next (its carries: the plane behind is the
previous element's own plane, its own plane the previous element's plane ahead) and
reads the 9 ahead. Its chain at element z is then a chain over blocks of lanes,
B0(z) B1(z) B2(z), each block the next one of the element before: B0(z) = B1(z - 1) =
B2(z - 2). So the chain's prefix through B0, B1 of element z + 1 is the prefix through B0
of element z + 1 followed by B2(z): each prefix is computed when the block ahead is read,
and what a work-item keeps from one element to the next is one partial sum per block
(2 rather than 18 values; on an H200 a hand-written kernel so took 40 rather than 80
registers and ran 4% faster, docs/lift.md). The additions are the chain's own, in its
order, so the result is the same bit for bit in any type.

`partial_sums` finds that structure in a point's function; the generator
(lift/opencl/generate.py `stream_loop`) writes the run with it where it is found and
asked to (`generate(partial_sums=True)`, a form the search tries).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from lift.ir import expr as ir

__all__ = ["PartialSums", "partial_sums"]


@dataclass(frozen=True)
class PartialSums:
    """The chain's blocks of lanes (each the next block one element before; the last one
    read at every element) and the point's function with the chain's prefix over them
    replaced by `(get prefix_lane p)`, a lane the generator binds to that sum."""

    blocks: tuple[tuple[int, ...], ...]
    point: ir.Lambda
    prefix_lane: int


def partial_sums(
    point: ir.Lambda, carries: Sequence[tuple[int, int]], lanes: int
) -> PartialSums | None:
    """The partial sums of `point`'s chain under `carries` ((k, j): lane k at the next
    element is lane j at this one), or None where the carried lanes are not the leading
    blocks of one chain of `+` that nothing else reads."""
    if len(point.params) != 1 or not carries:
        return None
    (p,) = point.params
    if not _scalar_code(point.body):
        return None  # a nested function could read a lane where this does not look
    carried = dict(carries)
    for chain in _chains(point.body):
        leaves = _spine(chain)
        blocks = _blocks([_lane(leaf, p) for leaf in leaves], carried)
        if blocks is None:
            continue
        prefix = _spine_node(chain, sum(len(b) for b in blocks))
        body = _replaced(point.body, prefix, ir.Apply(ir.Get(lanes), (p,)))
        if any(lane in _lanes_read(body, p) for lane in carried):
            return None  # a carried lane read outside the chain too
        return PartialSums(blocks, ir.Lambda(point.params, body), lanes)
    return None


def _scalar_code(expression: ir.Expr) -> bool:
    """Only scalar operations, lanes, parameters and literals: nothing that binds."""
    match expression:
        case ir.Apply(ir.Op() | ir.Get(), args):
            return all(_scalar_code(arg) for arg in args)
        case ir.Param() | ir.Literal():
            return True
    return False


def _is_add(expression: ir.Expr) -> bool:
    return isinstance(expression, ir.Apply) and expression.fun == ir.Op("+")


def _chains(expression: ir.Expr) -> list[ir.Apply]:
    """Every maximal chain of `+` in `expression`: an addition that is not the left
    operand of another, outermost first."""
    found: list[ir.Apply] = []

    def walk(node: ir.Expr, left_of_add: bool) -> None:
        if not isinstance(node, ir.Apply):
            return
        if _is_add(node) and not left_of_add:
            found.append(node)
        for position, arg in enumerate(node.args):
            walk(arg, _is_add(node) and position == 0)

    walk(expression, False)
    return found


def _spine(chain: ir.Expr) -> list[ir.Expr]:
    """The chain's operands in the order they are added: its leftmost operand first."""
    right: list[ir.Expr] = []
    while _is_add(chain):
        assert isinstance(chain, ir.Apply)
        right.append(chain.args[1])
        chain = chain.args[0]
    return [chain, *reversed(right)]


def _spine_node(chain: ir.Expr, leaves: int) -> ir.Expr:
    """The addition of the chain whose operands are its first `leaves` ones."""
    node = chain
    for _ in range(len(_spine(chain)) - leaves):
        assert isinstance(node, ir.Apply)
        node = node.args[0]
    return node


def _lane(leaf: ir.Expr, point: ir.Param) -> int | None:
    match leaf:
        case ir.Apply(ir.Get(k), (arg,)) if arg == point:
            return k
    return None


def _blocks(
    leaves: Sequence[int | None], carried: Mapping[int, int]
) -> tuple[tuple[int, ...], ...] | None:
    """The chain's leading lanes as blocks B0 .. Bd: each block's lanes carried from the
    next block's, position by position, every carried lane among them, the last block's
    lanes read (not carried); None where the chain does not start so."""
    first = leaves[0]
    if first is None or first not in carried or carried[first] not in leaves:
        return None
    size = leaves.index(carried[first])
    depth = len(carried) // size if size else 0
    if size == 0 or depth * size != len(carried) or len(leaves) < (depth + 1) * size:
        return None
    lanes = [lane for lane in leaves[: (depth + 1) * size] if lane is not None]
    if len(lanes) != (depth + 1) * size or len(set(lanes)) != len(lanes):
        return None
    for position in range(depth * size):
        if carried.get(lanes[position]) != lanes[position + size]:
            return None
    if any(lane in carried for lane in lanes[depth * size :]):
        return None
    return tuple(tuple(lanes[start : start + size]) for start in range(0, len(lanes), size))


def _replaced(expression: ir.Expr, old: ir.Expr, new: ir.Expr) -> ir.Expr:
    """`expression` with the node `old` (by identity) replaced by `new`."""
    if expression is old:
        return new
    if isinstance(expression, ir.Apply):
        args = tuple(_replaced(arg, old, new) for arg in expression.args)
        if any(a is not b for a, b in zip(args, expression.args, strict=True)):
            return ir.Apply(expression.fun, args)
    return expression


def _lanes_read(expression: ir.Expr, point: ir.Param) -> set[int]:
    lane = _lane(expression, point)
    if lane is not None:
        return {lane}
    if isinstance(expression, ir.Apply):
        return set().union(*(_lanes_read(arg, point) for arg in expression.args))
    return set()
