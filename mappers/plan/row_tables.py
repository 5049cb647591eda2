"""Matrices given as tables of row pointers (`double **A`, read as `A[i][j]`).

The address of `A[i][j]` is `row(i) + j * size`, where `row(i)` is loaded from the table:
not affine in `i`, so `access.locate` cannot measure it as it stands. When the rows lie
equally spaced (`row(i) = row(0) + i * step`, as rows allocated one after another usually
do), the access is a strided matrix after all. The guard asks the runtime to read the
table once (`idiom_row_first`, `idiom_row_step` in runtime/idiom_rows.c) for the first row
and the common distance, or learns that there is none (then the original code runs).
`access.locate` then evaluates the address with the row load replaced by that first row,
one step further along the loop that moves it.

A caller may accept rows picked by two loops (`most_loops=2`: a batch of rows read as
`A[r*nq + q][p]`): the rows must then lie on a grid, `row(r, q) = row(0, 0) + r * step_r +
q * step_q`, which `idiom_row_grid_step` checks entry by entry after `idiom_row_step` has
measured `step_q` along the first rows.

The table's own bytes are read memory like any other: the mapper checks them against its
written range (`RowTable.entries`). The runtime reads the table only when every matched
loop runs at least once, so that it reads entries the original reads too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mappers.plan.access import Access, measure
from mappers.plan.loops import LoopView
from mappers.plan.region import Region, depends_on
from mappers.rewrite.emit import I64, Builder, NotReplaced, const
from mappers.rewrite.irtext import ModuleText, Operand
from matcher.ir import Value

__all__ = ["RowTable", "declare_row_tables", "row_tables"]

_NO_STEP = -(2**63)  # IDIOM_NO_ROW_STEP
_DECLARATIONS = {
    "idiom_row_first": "declare ptr @idiom_row_first(ptr, i64)",
    "idiom_row_step": "declare i64 @idiom_row_step(ptr, i64, i64)",
    "idiom_rows_block": (
        "declare i64 @idiom_rows_block(ptr, i64, i64, ptr, i64, i64, ptr, i64, i32, i64)"
    ),
    "idiom_row_grid_step": "declare i64 @idiom_row_grid_step(ptr, i64, i64, i64, i64, i64)",
}


@dataclass(frozen=True)
class RowTable:
    """A row pointer loaded inside the region, measured at run time."""

    load: Value  # the load of the row pointer
    levels: tuple[int, ...]  # the loops whose counters pick the row, outermost first
    first: Operand  # ptr: the row at those loops' first iteration
    followings: tuple[Operand, ...]  # ptr: the row one iteration further along each
    entries: Access  # the table's entries the loop reads
    regular: Operand  # i1: every row lies one step further than the one before

    @property
    def level(self) -> int:
        """The innermost loop that moves the row."""
        return self.levels[-1]

    def following(self, level: int) -> Operand | None:
        """The row one iteration further along loop `level`; None if it does not move."""
        if level not in self.levels:
            return None
        return self.followings[self.levels.index(level)]


def declare_row_tables(module: ModuleText) -> None:
    for name, declaration in _DECLARATIONS.items():
        module.declare(name, declaration)


def row_tables(
    builder: Builder,
    region: Region,
    addresses: Iterable[Value],
    *,
    loops: Sequence[LoopView],
    counts: Sequence[Operand],
    entered: Operand,
    most_loops: int = 1,
) -> list[RowTable]:
    """Measure the row tables the `addresses` of the region load their rows from, each
    picked by at most `most_loops` (1 or 2) loops. `entered` (i1) holds when every matched
    loop runs at least once."""
    tables = []
    for load in _row_loads(region, addresses, builder):
        address = load.operands[0]
        # A row picked by a counter that starts from an outer one (j = i + 1 .. n: the
        # caller measures that loop from a first value fixed for the nest) moves with it
        # alone.
        counters = [loop.iterator for loop in loops]
        levels = [
            n
            for n, counter in enumerate(counters)
            if depends_on(address, counter, region, besides=counters)
        ]
        if not 1 <= len(levels) <= most_loops:
            many = "exactly one loop" if most_loops == 1 else f"one to {most_loops} loops"
            raise NotReplaced(f"the row pointer {load.name} does not move with {many}")
        entries = measure(builder, region, address, loops=loops, counts=counts, element_type="ptr")
        if len(levels) == 1:
            table = _line(builder, load, levels[0], entries=entries, counts=counts, entered=entered)
        else:
            table = _grid(builder, load, levels, entries=entries, counts=counts, entered=entered)
        tables.append(table)
    return tables


def _line(
    builder: Builder,
    load: Value,
    level: int,
    *,
    entries: Access,
    counts: Sequence[Operand],
    entered: Operand,
) -> RowTable:
    """A table read along one loop: its rows equally spaced."""
    rows = builder.select(entered, counts[level], const(I64, 0))
    table = entries.first
    first = builder.call("ptr", "idiom_row_first", [table, rows])
    step = builder.call("i64", "idiom_row_step", [table, entries.strides[level], rows])
    regular = builder.compare("ne", step, const(I64, _NO_STEP))
    following = builder.emit("ptr", f"getelementptr i8, {first}, {step}")
    return RowTable(load, (level,), first, (following,), entries, regular)


def _grid(
    builder: Builder,
    load: Value,
    levels: Sequence[int],
    *,
    entries: Access,
    counts: Sequence[Operand],
    entered: Operand,
) -> RowTable:
    """A table read along two loops: its rows on a grid, equally spaced along each."""
    outer, inner = levels
    zero = const(I64, 0)
    outer_rows = builder.select(entered, counts[outer], zero)
    inner_rows = builder.select(entered, counts[inner], zero)
    table = entries.first
    first = builder.call("ptr", "idiom_row_first", [table, inner_rows])
    inner_step = builder.call("i64", "idiom_row_step", [table, entries.strides[inner], inner_rows])
    outer_step = builder.call(
        "i64",
        "idiom_row_grid_step",
        [table, entries.strides[outer], outer_rows, entries.strides[inner], inner_rows, inner_step],
    )
    regular = builder.compare("ne", outer_step, const(I64, _NO_STEP))
    followings = tuple(
        builder.emit("ptr", f"getelementptr i8, {first}, {step}")
        for step in (outer_step, inner_step)
    )
    return RowTable(load, (outer, inner), first, followings, entries, regular)


def _row_loads(region: Region, addresses: Iterable[Value], builder: Builder) -> list[Value]:
    """The pointer loads inside the region that the addresses are computed from (not the
    fixed values, which the guard loaded ahead of the region), in first-seen order."""
    found: list[Value] = []
    seen: set[Value] = set()
    stack = list(addresses)
    while stack:
        current = stack.pop()
        if current in seen or current in builder.known or current.block not in region.blocks:
            continue
        seen.add(current)
        if current.opcode == "load":
            if current.type == "ptr" and _plain(current):
                found.append(current)
            continue  # its own address must be affine: `measure` says so if not
        stack.extend(current.operands)
    return found


def _plain(load: Value) -> bool:
    text = f" {load.text} "
    return " volatile " not in text and " atomic " not in text
