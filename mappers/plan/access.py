"""Affine accesses measured at run time: first address, stride along each loop, extent.

The address computation of a matched access is cloned ahead of the region twice per
loop: with every counter at its first value, and with one counter one step further.
The difference is that loop's stride in bytes. The clone accepts only affine arithmetic
(see `Cloner`), so base + sum(iteration * stride) is the exact address of every
iteration, whatever the layout (row or column major, transposed, leading dimensions,
struct fields, offsets).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mappers.plan.loops import LoopView
from mappers.plan.region import Region, fixed_values
from mappers.rewrite.emit import I1, I64, Builder, Cloner, const
from mappers.rewrite.irtext import Operand
from matcher.ir import Block, Value

if TYPE_CHECKING:
    from mappers.plan.row_tables import RowTable

__all__ = [
    "Access",
    "apart",
    "apart_from_fixed",
    "disjoint",
    "element_size",
    "locate",
    "measure",
    "same_first",
    "span",
]

_SIZES = {"double": 8, "float": 4, "i64": 8, "i32": 4, "i16": 2, "i8": 1, "ptr": 8}


@dataclass(frozen=True)
class Access:
    first: Operand  # ptr: the address at the first iteration of every loop
    strides: tuple[Operand, ...]  # i64 bytes per iteration, one per loop
    element_size: int
    low: Operand  # i64: lowest byte touched
    high: Operand  # i64: one past the highest byte touched

    def element_strides(self, builder: Builder) -> tuple[list[Operand], Operand]:
        """Strides in elements, and the condition that they are whole elements."""
        size = const(I64, self.element_size)
        strides = [builder.binary("sdiv", s, size) for s in self.strides]
        whole = [
            builder.compare("eq", builder.binary("srem", s, size), const(I64, 0))
            for s in self.strides
        ]
        return strides, builder.all_of(whole)


def element_size(type_text: str) -> int:
    return _SIZES.get(type_text, 8)


def measure(
    builder: Builder,
    region: Region,
    address: Value,
    *,
    loops: Sequence[LoopView],
    counts: Sequence[Operand],
    element_type: str,
    rows: Sequence[RowTable] = (),
    starts: Mapping[Value, Operand] | None = None,
) -> Access:
    """Emit the first address, the strides and the byte range of an affine access (affine
    once the row pointers of `rows` are taken as equally spaced: mappers/plan/row_tables.py).
    `starts` gives a loop counter a first value of the caller's instead of its loop's."""
    first, strides = locate(builder, region.blocks, address, loops, rows, starts=starts)
    size = element_size(element_type)
    low, high = span(builder, builder.to_i64(first), strides, counts, size=size)
    return Access(first, tuple(strides), size, low, high)


def locate(
    builder: Builder,
    blocks: frozenset[Block],
    address: Value,
    loops: Sequence[LoopView],
    rows: Sequence[RowTable] = (),
    *,
    wraps_checked: bool = False,
    starts: Mapping[Value, Operand] | None = None,
) -> tuple[Operand, list[Operand]]:
    """Emit the address computed in `blocks` at the first iteration of every loop, and its
    stride in bytes along each loop (the clone one step further, less the first). A row
    pointer of `rows` is its first row, or the following one along a loop that moves it.
    An 8- or 16-bit integer on the way is refused unless the caller checks the last
    iterations (`wraps_checked`). A counter in `starts` begins at the value given there
    (of its type) rather than at its loop's first value."""
    starts = starts or {}
    first_values = {
        loop.iterator: starts[loop.iterator]
        if loop.iterator in starts
        else builder.ref(loop.iter_begin)
        for loop in loops
    }
    first_values.update((table.load, table.first) for table in rows)
    affine = {"affine": True, "wraps_checked": wraps_checked}
    first = Cloner(builder, blocks, first_values, **affine).value(address)
    start = builder.to_i64(first)
    strides = []
    for level, loop in enumerate(loops):
        moved_values = dict(first_values)
        begin = first_values[loop.iterator]
        moved_values[loop.iterator] = builder.binary("add", begin, const(begin.type, loop.step))
        for table in rows:
            following = table.following(level)
            if following is not None:
                moved_values[table.load] = following
        moved = Cloner(builder, blocks, moved_values, **affine).value(address)
        strides.append(builder.binary("sub", builder.to_i64(moved), start))
    return first, strides


def span(
    builder: Builder,
    start: Operand,
    strides: Sequence[Operand],
    counts: Sequence[Operand],
    *,
    size: int,
    overflow: list[Operand] | None = None,
) -> tuple[Operand, Operand]:
    """Emit the byte range [low, high) of an affine access from its first address (i64),
    strides and iteration counts (at least 1 each). With `overflow`, the arithmetic is
    checked: an i1 that is true when it wrapped is appended for each step."""

    def checked(opcode: str, lhs: Operand, rhs: Operand) -> Operand:
        if overflow is None:
            return builder.binary(opcode, lhs, rhs)
        result, wrapped = builder.with_overflow(opcode, lhs, rhs)
        overflow.append(wrapped)
        return result

    low, high = start, checked("add", start, const(I64, size))
    for stride, count in zip(strides, counts, strict=True):
        last = checked("mul", stride, builder.binary("sub", count, const(I64, 1)))
        negative = builder.compare("slt", last, const(I64, 0))
        low = checked("add", low, builder.select(negative, last, const(I64, 0)))
        high = checked("add", high, builder.select(negative, const(I64, 0), last))
    return low, high


def apart(
    builder: Builder, first: tuple[Operand, Operand], second: tuple[Operand, Operand]
) -> Operand:
    """i1: the byte ranges [low, high) of `first` and `second` do not overlap."""
    before = builder.compare("sle", first[1], second[0])
    after = builder.compare("sle", second[1], first[0])
    return builder.binary("or", before, after)


def same_first(builder: Builder, one: Access, other: Access) -> Operand:
    """i1: the two accesses start at the same address."""
    return builder.compare("eq", builder.to_i64(one.first), builder.to_i64(other.first))


def disjoint(builder: Builder, written: Access, others: Sequence[Access]) -> Operand:
    """i1: the written range overlaps none of the others."""
    checks = [apart(builder, (written.low, written.high), (o.low, o.high)) for o in others]
    return builder.all_of(checks) if checks else const(I1, "true")


def apart_from_fixed(builder: Builder, region: Region, written: tuple[Operand, Operand]) -> Operand:
    """i1: the byte range `written` (low, high) holds none of the bytes the region's
    fixed values are loaded from (region.py), so a store there cannot change them."""
    checks = []
    for value in fixed_values(region):
        address = builder.to_i64(builder.ref(value.operands[0]))
        end = builder.binary("add", address, const(I64, element_size(value.type)))
        checks.append(apart(builder, written, (address, end)))
    return builder.all_of(checks)
