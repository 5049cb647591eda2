"""Sparse matrix-vector products as OpenCL kernels, one work-item per row: compressed
sparse rows (CSR) here, jagged diagonal storage in mappers/targets/jds.py, and what both share.

Which positions a row reads and which columns of x it gathers are data, so a call runs
range-finding kernels first, each publishing only what the host needs next (the range
of positions over all rows, then the range of column indices found there), and the
product last, with exactly those ranges of values, columns and x copied to the device.
Each launch is made only once the ones before it succeeded and their ranges fit an int
(`Chain`); before the product the host checks that what it writes is disjoint from
everything read (a Gauss-Seidel sweep, which reads what it writes, keeps its original
code). A row's entries are added one after the other in the loop's own order, with
FP_CONTRACT off, so every row's sum is the original's to the last bit: no reassociation.

The arrays may be struct fields read inside the loop (fixed values, mappers/plan/region.py):
the guard loads them once, and checks that the written range holds none of their bytes.
A field the loop reads only for a row with entries is loaded once the first kernel has
found such a row (`late_arrays`, `load_late`): never where the original would not.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from lift.errors import LiftError
from lift.exploration.space import lower, lower_lanes
from lift.ir import expr as ir
from lift.ir.text import pretty
from lift.ir.types import Array
from lift.opencl.generate import Kernel
from mappers.plan.access import apart, apart_from_fixed, element_size, measure
from mappers.plan.loops import LoopView, loop_view, trip_count
from mappers.plan.plan import GeneratedKernel, KernelInstead, MapperContext, Plan, need
from mappers.plan.region import (
    Region,
    check_legal,
    guard_conditions,
    is_fixed_load,
    load_fixed,
    runs_with,
)
from mappers.plan.row_tables import declare_row_tables
from mappers.rewrite.emit import I64, Builder, NotReplaced, const
from mappers.rewrite.irtext import ModuleText, Operand
from mappers.targets.functional import (
    SparseRows,
    StencilExpression,
    generated_kernels,
    spmv_expression,
)
from mappers.targets.kernels import (
    BufferGroup,
    KernelArg,
    KernelBody,
    as_check,
    buffer_arg,
    buffer_declaration,
    c_type,
    group_lengths,
    in_elements,
    launch,
    long_and_int,
    pack_params,
    param_prelude,
    publish_range,
    range_cells,
    read_cells,
    size_args,
    sizes_fit,
)
from mappers.targets.reduction import (
    PRELUDE,
    arguments_by_name,
    require_worth_it,
    stack_saved,
)
from matcher.detect import Instance
from matcher.integers import int_constant
from matcher.ir import Function, Value

__all__ = [
    "GRID",
    "ROWS",
    "Chain",
    "Gather",
    "RowProduct",
    "Slice",
    "Translated",
    "cells_arg",
    "check_fixed",
    "check_indexed",
    "counter_offset",
    "data_loop",
    "entries",
    "entry_body",
    "generate_lanes",
    "generate_product",
    "indent",
    "late_arrays",
    "launch_generated",
    "load_late",
    "loop_bounds",
    "map_spmv_csr",
    "map_spmv_ell",
    "moved_index",
    "read_range",
    "row_product",
    "run_kernel",
    "slice_of",
    "succeeded",
]

GRID = 16384  # work-items of the range-finding kernels (each loops over its rows)
# The range-finding kernels' loop over rows (the product has one work-item per row).
ROWS = "for (long t0 = get_global_id(0); t0 < n0; t0 += get_global_size(0)) {"
# Rows shared by work-items: (the rows' average entries at least, work-items a row), the
# first that holds. On an H200 each beat the best one-row-an-item shape there (banded rows
# averaging 12 to 128 entries, 1.04-1.70 times its bandwidth; rows of 150-216 entries
# scattered over x, 1.34 times; docs/lift.md, "Rows shared by lanes"); shorter rows keep
# one row an item. In work-groups of LANES_GROUP, at most LANES_GRID groups (each then
# loops over more rows).
ROW_LANES = ((128, 32), (32, 8), (12, 4))
LANES_GROUP = 256
LANES_GRID = 65536


def lanes_kernel(lanes: int) -> str:
    return f"idiom_spmv_lanes{lanes}"


_GEP = re.compile(r"= getelementptr (?:(?:inbounds|nuw|nusw) )*(\S+), ptr ")


# -- the matched loops and reads --------------------------------------------------------------


def data_loop(function: Function, solution: Mapping[str, Value | None], prefix: str) -> LoopView:
    """A loop whose bounds are data (a row's entries, its diagonals): run by the kernels
    as `for (long qq = lo; qq < hi; qq++)`, so it must count up by one against `<`."""
    view = loop_view(function, solution, prefix)
    if (
        view.step != 1
        or view.predicate not in ("slt", "ult")
        or view.tests_current
        or view.compares_cast is not None
    ):
        raise NotReplaced(f"the loop {prefix.rstrip('.')} is not `p < end; p++` on its counter")
    c_type(view.iterator.type)
    return view


def counter_offset(value: Value, counter: Value) -> int | None:
    """c where `value` is the signed value `counter + c` (through adds and subs of
    constants that cannot wrap, nsw, and sign extensions); None otherwise."""
    if value is counter:
        return 0
    if value.opcode == "sext":
        return counter_offset(value.operands[0], counter)
    if value.opcode in ("add", "sub") and " nsw " in f" {value.text} ":
        left, right = value.operands
        amount = int_constant(right)
        if amount is None and value.opcode == "add":
            left, amount = right, int_constant(left)
        inner = counter_offset(left, counter) if amount is not None else None
        if inner is not None and amount is not None:
            return inner + (amount if value.opcode == "add" else -amount)
    return None


def loop_bounds(view: LoopView, start: str, stop: str) -> tuple[str, str, str]:
    """C longs for a data loop's first and end values as its comparison reads them, and
    a condition that holds where the kernel cannot run it with a long counter (unsigned
    64-bit bounds beyond LONG_MAX)."""
    kind = c_type(view.iterator.type)
    if view.predicate == "slt":
        return f"(long){start}", f"(long){stop}", "0"
    if kind == "long":
        return f"(long){start}", f"(long){stop}", f"((long){start} < 0 || (long){stop} < 0)"
    return f"(long)(u{kind}){start}", f"(long)(u{kind}){stop}", "0"


def check_indexed(address: Value, element: str, what: str) -> None:
    """Refuse unless `address` is `array[index]` over the element type accessed."""
    match = _GEP.search(address.text)
    if (
        address.opcode != "getelementptr"
        or len(address.operands) != 2
        or match is None
        or match.group(1) != element
    ):
        raise NotReplaced(f"{what} is not array[index] over its own element type")


def displaced_read(read: Value, what: str) -> int:
    """Check that the load `read` is `array[index + d]` over its own element type, and
    return d: 0 for a plain `array[index]`, or a whole number of elements when LLVM has
    folded d into a getelementptr of bytes after it (x[c - 1]: `x + c`, 8 bytes back)."""
    address = read.operands[0]
    match = _GEP.search(address.text)
    moved = int_constant(address.operands[1]) if len(address.operands) == 2 else None
    inner = address.operands[0] if address.operands else address
    if (
        match is not None
        and match.group(1) == "i8"
        and moved is not None
        and (inner.opcode == "getelementptr")
    ):
        size = element_size(read.type)
        if moved % size != 0:
            raise NotReplaced(f"{what} lies between two elements")
        check_indexed(inner, read.type, what)
        return moved // size
    check_indexed(address, read.type, what)
    return 0


def check_fixed(array: Value, region: Region) -> None:
    """Refuse an array pointer computed inside the loop, unless it is a fixed value (a
    struct field read there, region.py): the guard reads that once and checks that the
    loop cannot write it."""
    if array.block in region.blocks and not is_fixed_load(array, region):
        raise NotReplaced(f"the array {array.name} is computed inside the loop")


def late_arrays(
    builder: Builder,
    region: Region,
    conditions: Sequence[tuple[Value, bool]],
    loop: LoopView,
    arrays: Sequence[Value],
) -> list[Value]:
    """The arrays that are fixed values the guard could not load (`Builder.refused`):
    those the loop reads only inside the data loop `loop`, when a row enters it. A kernel
    finds whether some row does; `load_late` loads them then. Call after
    `guard_conditions`; raises for an array read under any other test."""
    late = [a for a in dict.fromkeys(arrays) if a in builder.refused]
    entered = runs_with(region, conditions, [loop])
    for array in late:
        if array.block not in entered:
            raise NotReplaced(builder.refused[array])
    return late


def load_late(builder: Builder, arrays: Sequence[Value], count: Operand) -> None:
    """Load the `late_arrays` when `count` (i64, the length of a range a kernel found
    over the rows that enter the data loop) is positive: then the original loads them
    too. Otherwise they are null placeholders, and every slice of them is empty."""
    if arrays:
        entered = builder.compare("sgt", count, const(I64, 0))
        for array in arrays:
            load_fixed(builder, array, entered)


@dataclass(frozen=True)
class Translated:
    """A row's entry as kernel lines: `lines[:at_column]` compute `position`, the lines
    up to `at_update` the column read there, and all of them the accumulator's update."""

    lines: list[str]
    position: str
    column: str
    update: str
    at_column: int
    at_update: int


class Gather:
    """The sum a row adds up (GatherDot in sparse.idl): values[p] * x[columns[p]] over the
    row's positions p, and the row's store (RowStore)."""

    def __init__(self, solution: Mapping[str, Value | None], region: Region) -> None:
        names = ("values", "columns", "x", "matrix.value", "column_read", "gathered.value")
        self.values, self.columns, self.x, self.matrix, self.column_read, self.gathered = (
            need(solution, n) for n in names
        )
        self.position, self.column = need(solution, "position"), need(solution, "column")
        self.acc, self.acc_init = need(solution, "acc"), need(solution, "acc_init")
        self.update, self.final = need(solution, "update"), need(solution, "final")
        self.stored, self.address = need(solution, "stored"), need(solution, "c.address")
        self.store, self.c_old = need(solution, "c.store"), solution.get("c_old")
        # Entries displaced by a constant (1-based storage, a[k-1], x[ja[k]-1]): both
        # matrix reads by the same one, folded into the position; x's into the column.
        reads = ((self.matrix, "values"), (self.column_read, "columns"))
        moved = {displaced_read(read, f"the read of {what}") for read, what in reads}
        if len(moved) != 1:
            raise NotReplaced("the values and the column indices are read at different positions")
        self.position_moved = moved.pop()
        self.column_moved = displaced_read(self.gathered, "the read of x")
        # The rows are kept in tables: values and columns are row pointers (RowRead).
        self.row_tables = solution.get("matrix.row_pointer.table") is not None
        for array in self.fixed_arrays:
            check_fixed(array, region)
        c_type(self.acc.type)

    @property
    def fixed_arrays(self) -> tuple[Value, ...]:
        if self.row_tables:
            return (self.x,)
        return (self.values, self.columns, self.x)

    def sparse_rows(
        self,
        entries: LoopView,
        cell_reads: Sequence[Value],
        row_start: tuple[Value, int] | None = None,
    ) -> SparseRows | None:
        """What a generated product's expression needs of the row, its entries the data
        loop `entries` (functional.SparseRows); None where the functional IR cannot say
        it: a column read other than as a signed index, a bound compared unsigned."""
        column = self.column
        plain_column = column is self.column_read or (
            column.opcode == "sext" and column.operands[0] is self.column_read
        )
        if not plain_column or entries.predicate != "slt":
            return None
        return SparseRows(
            entries.iter_begin, entries.iter_end, self.acc, self.acc_init, self.update,
            self.final, self.matrix, self.column_read, self.gathered, self.stored,
            tuple(cell_reads), row_start,
        )  # fmt: skip

    def translate(self, inner: KernelBody, rows: tuple[str, str] = ("", "")) -> Translated:
        """Translate an entry with `inner`, whose names already give the entry loop's
        counter, `acc` and what the position depends on: the reads become `V`, `C` and
        `X` at their index minus the slice's first index (`vlo`, `clo`, `xlo`). With
        the rows in tables, `rows` are the kernel's names of the row's pointers (longs)
        and the indices of V and C count from address 0."""
        position = moved_index(inner.value(self.position), self.position_moved)
        at_column = len(inner.lines)
        if self.row_tables:
            sizes = (element_size(self.matrix.type), element_size(self.column_read.type))
            value_at, column_at = (
                f"({row} / {size} + {position})" for row, size in zip(rows, sizes, strict=True)
            )
        else:
            value_at = column_at = position
        inner.names[self.matrix] = f"V[{value_at} - vlo]"
        inner.names[self.column_read] = f"C[{column_at} - clo]"
        column = moved_index(inner.value(self.column), self.column_moved)
        at_update = len(inner.lines)
        inner.names[self.gathered] = f"X[{column} - xlo]"
        update = inner.value(self.update)
        if inner.reads:
            raise NotReplaced("the product of a row reads more than the matrix and x")
        return Translated(list(inner.lines), position, column, update, at_column, at_update)


def entry_body(body: KernelBody, names: Mapping[Value, str]) -> KernelBody:
    """A body for the lines of one entry of a row, inside the row's `body`: it knows
    the row's names and `names`, and passes the values it needs from before the loop
    (ELLPACK's row count in `j*n + i`) as scalars of the row's kernel."""
    inner = KernelBody(Builder("unused"), body.region, [], [])
    inner.names.update(body.names)
    inner.names.update(names)
    inner.scalars = body.scalars  # one list: its names s0, s1, ... stay distinct
    return inner


def moved_index(index: str, by: int) -> str:
    """An index of the kernel as a long, moved by a whole number of elements."""
    return f"((long){index} + {by}L)" if by else f"(long){index}"


def entries(bounds: tuple[str, str, str], counter: Value, lines: Sequence[str], then: str) -> str:
    """Kernel lines (inside a row) running a data loop's iterations `lines` + `then`."""
    kind = c_type(counter.type)
    return f"""    for (long qq = {bounds[0]}; qq < {bounds[1]}; qq++) {{
      const {kind} q = ({kind})qq;
{indent(lines, 6)}
{then}
    }}"""


class RowProduct(Protocol):
    """What a sparse plan knows of a row once translated (CSR's and JDS's alike)."""

    gather: Gather
    head: list[str]
    init: str
    bounds: tuple[str, str, str]
    entry_lines: Translated
    tail: list[str]
    cell: str
    result: str


def row_product(plan: RowProduct, counter: Value) -> str:
    """The product kernel's body: one work-item per row, its entries (the data loop over
    `counter`) folded in the loop's order, the row's result stored at its cell."""
    t = plan.entry_lines
    return f"""  const long t0 = get_global_id(0);
  if (t0 >= n0) return;
{indent(plan.head, 2)}
  {c_type(plan.gather.acc.type)} acc = {plan.init};
{entries(plan.bounds, counter, t.lines, f"      acc = {t.update};")}
{indent(plan.tail, 2)}
  {plan.cell} = {plan.result};"""


def indent(lines: Sequence[str], depth: int) -> str:
    return "\n".join(" " * depth + line for line in lines)


# -- the host side -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Slice:
    """Elements [first, first + count) of an array as one buffer, and `{name}lo`, the
    index its first element has in the loop (kernels read `name[index - {name}lo]`)."""

    group: BufferGroup
    buffer: KernelArg
    first: KernelArg

    @property
    def args(self) -> list[KernelArg]:
        return [self.buffer, self.first]

    @property
    def by_name(self) -> dict[str, KernelArg]:
        """The two arguments by the names a generated kernel's parameters have."""
        name = self.group.name
        return {name: self.buffer, f"{name.lower()}lo": self.first}

    def apart(self, builder: Builder, written: tuple[Operand, Operand]) -> Operand:
        assert self.group.low is not None and self.group.high is not None
        return apart(builder, written, (self.group.low, self.group.high))


def slice_of(
    builder: Builder,
    name: str,
    array: Value,
    element: str,
    *,
    first: Operand,
    count: Operand,
    written: bool = False,
    base: Operand | None = None,
) -> Slice:
    """`count` elements of `array` from index `first`; with `base` (i64), of the memory
    from that address instead (rows kept in tables: their indices count from address 0)."""
    size = const(I64, element_size(element))
    if base is None:
        base = builder.to_i64(builder.ref(array))  # a fixed value's pointer: as loaded once
    low = builder.binary("add", base, builder.binary("mul", first, size))
    length = builder.binary("mul", count, size)
    high = builder.binary("add", low, length)
    group = BufferGroup(name, element, written=written, low=low, high=high, bytes=length)
    buffer = buffer_arg(group, 2 if written else 0, const_data=not written)
    return Slice(group, buffer, KernelArg(f"long {name.lower()}lo", 3, first, const(I64, 8)))


def cells_arg(name: str, cells: Operand) -> KernelArg:
    """The three cells of `range_cells` as the kernel parameter `name`."""
    return KernelArg(f"__global int* {name}", 2, cells, const(I64, 12))


def read_range(
    builder: Builder, cells: Operand, *, inclusive: bool
) -> tuple[Operand, Operand, Operand]:
    """The first index and the count (i64) of the range a kernel published, 0 and 0
    when it published none, and the cells' flag (i32, not 0: the range is not usable)."""
    low, high, flag = read_cells(builder, cells)
    low64, high64 = builder.to_i64(low), builder.to_i64(high)
    count = builder.binary("sub", high64, low64)
    if inclusive:
        count = builder.binary("add", count, const(I64, 1))
    empty = builder.compare("sgt", low, high)
    zero = const(I64, 0)
    return builder.select(empty, zero, low64), builder.select(empty, zero, count), flag


def succeeded(builder: Builder, status: Operand, *flags: Operand) -> Operand:
    """i1: a launch returned 0 and every i32 flag is 0."""
    checks = [builder.compare("eq", status, const("i32", 0))]
    checks += [builder.compare("eq", flag, const("i32", 0)) for flag in flags]
    return builder.all_of(checks)


class Chain:
    """Launches made one after another: `then(checks)` goes on only when they hold,
    otherwise to the end with status 1 (the original code runs)."""

    def __init__(self, builder: Builder) -> None:
        self.builder = builder
        self.skip, self.merge = (builder.fresh(part).lstrip("%") for part in ("skip", "merge"))
        self.current: str | None = None

    def then(self, checks: Sequence[Operand]) -> None:
        go = self.builder.fresh("go").lstrip("%")
        self.builder.branch_if(self.builder.all_of(checks), go, self.skip)
        self.builder.label(go)
        self.current = go

    def end(self, status: Operand) -> Operand:
        assert self.current is not None, "a chain goes through at least one check"
        builder = self.builder
        self.current = builder.current_block() or self.current  # a launch may branch
        builder.branch(self.merge)
        builder.label(self.skip)
        builder.branch(self.merge)
        builder.label(self.merge)
        return builder.emit(
            "i32", f"phi i32 [ {status.ref}, %{self.current} ], [ 1, %{self.skip} ]"
        )


def run_kernel(
    builder: Builder,
    module: ModuleText,
    name: str,
    *,
    args: Sequence[KernelArg],
    params: Sequence[tuple[str, Operand]],
    body: str,
    global_size: Operand,
    work: Operand,
) -> Operand:
    """Launch the kernel `name`, a program of its own whose parameters are `args`'
    declarations and whose code is the packed parameters' prelude and `body`."""
    declarations = ", ".join(arg.declaration for arg in args)
    prelude = indent(param_prelude(params), 2)
    source = f"""{PRELUDE}
__kernel void {name}({declarations}) {{
{prelude}
{body}
}}
"""
    return launch(builder, module, source=source, kernel=name, global_size=[global_size],
                  local_size=None, work=work, args=args)  # fmt: skip


# -- CSR ----------------------------------------------------------------------------------------


class _CsrPlan(Plan):
    target = "OpenCL CSR SpMV kernel"
    lanes = True  # rows by several items (ROW_LANES) where the sums may be regrouped

    def __init__(self, instance: Instance, context: MapperContext) -> None:
        solution, region = instance.solution, context.region
        self.context = context
        self.functional: StencilExpression | None = None  # a generated product's
        self.lanes_kernels: dict[int, tuple[Kernel, Kernel]] | None = None  # by lanes
        self.row = loop_view(region.function, solution, "row.")
        self.entry = data_loop(region.function, solution, "entry.")
        self.gather = Gather(solution, region)
        self.conditions = check_legal(
            region,
            stores=[self.gather.store],
            results=[],
            loops=[self.row],
            data_loops=[self.entry],
            fixed_loads=True,
        )
        if self.gather.row_tables:
            self.length_read = need(solution, "row_length")
            self._check_row_tables()

    def _check_row_tables(self) -> None:
        """The runtime reads every row's pointers and length: the loop must read them
        on every row too, each from a table indexed by the row's counter itself."""
        gather, region = self.gather, self.context.region
        every_row = runs_with(region, self.conditions)
        for read in (gather.values, gather.columns, self.length_read):
            if read.block not in every_row:
                raise NotReplaced(f"{read.name} is read only for some rows")
        if not self._position_is_counter():
            raise NotReplaced("a row kept in tables is read at positions other than 0, 1, ...")
        c_type(self.length_read.type)
        if _signed_length(self.entry.iter_end) is not self.length_read:
            # The runtime reads the lengths' table as signed integers, as the loop does.
            raise NotReplaced(f"a row's length ({self.length_read.name}) is not read as signed")

    def guard(self, builder: Builder) -> Operand:
        gather, region = self.gather, self.context.region
        # First: the fixed values it loads are what the trip count and the kernels use.
        checks = [guard_conditions(builder, region, self.conditions, fixed_loads=True)]
        arrays = gather.fixed_arrays
        self.late = late_arrays(builder, region, self.conditions, self.entry, arrays)
        counted = trip_count(builder, self.row)
        self.count = counted.count
        require_worth_it(builder, self.context.module, counted.count)
        body = KernelBody(builder, region, [self.row], [counted.count])
        self.body = body
        rows = self._row_pointers(body)
        start, stop = body.value(self.entry.iter_begin), body.value(self.entry.iter_end)
        self.bounds = loop_bounds(self.entry, start, stop)
        self.out = body.group(gather.address, gather.stored.type, written=True)
        out_index = body.index(gather.address, gather.stored.type, self.out)
        self.out_index = body.reads[-1][0]  # its offset and stride: `{out_index}_o`, `_s0`
        self.cell = f"{self.out.name}[{out_index}]"
        # The row's reads of its own cell (y[i] += ..., or the sum started from y[i]) read
        # the written buffer, copied in: a read group of y would overlap it.
        for read in self.cell_reads:
            body.names[read] = self.cell
        self.init = body.value(gather.acc_init)
        self.head = list(body.lines)  # lines above the loop over the row's entries
        inner = entry_body(body, {self.entry.iterator: "q", gather.acc: "acc"})
        self.entry_lines = gather.translate(inner, rows)
        body.names[gather.final] = "acc"
        self.result = body.value(gather.stored)
        self.tail = body.lines[len(self.head) :]
        body.close_groups()
        self.params, whole = body.read_params()
        self.kernels = self._generated_kernels() if generated_kernels() else None
        if self.lanes_kernels is not None and _floating(gather.stored):
            self.target = f"{self.target} (floating point, long rows reordered)"
        if self.kernels is not None:
            self.target = f"{self.target} (generated)"
        checks += [counted.exact, whole]
        checks += body.apart_from_reads(self.out)
        assert self.out.low is not None and self.out.high is not None
        checks.append(apart_from_fixed(builder, region, (self.out.low, self.out.high)))
        return builder.all_of(checks)

    @property
    def cell_reads(self) -> list[Value]:
        """The loads of the row's own cell: the update's (`c_old`) and a sum started from
        the cell's value (`sum = y[i]`)."""
        gather = self.gather
        reads = [gather.c_old] if gather.c_old is not None else []
        init = gather.acc_init
        if init.opcode == "load" and init.operands[0] is gather.address and init not in reads:
            reads.append(init)
        return reads

    def _generated_kernels(self) -> tuple[Kernel, Kernel] | None:
        """The product kernel generated by the Lift compiler, with long and with int
        indices; None where its expression cannot be said (a column read other than as a
        signed index, a bound compared unsigned, rows in tables whose entry loop does not
        run to the row's length) or the compiler declines it: the translated kernel runs.
        Positions that are the entry loop's counter (moved by a constant) make the row a
        segment; others (ELLPACK's i*w + j) are computed from the counter, which runs over
        a range."""
        gather = self.gather
        row_start = None
        if gather.row_tables:
            if not self._entries_within_lengths():
                return None
            row_start = (gather.values, element_size(gather.matrix.type))
        rows = gather.sparse_rows(self.entry, self.cell_reads, row_start)
        if rows is None:
            return None
        # Rows in tables read at the counter itself (its extension: `_check_row_tables`).
        moved = 0 if row_start else counter_offset(gather.position, self.entry.iterator)
        entries_at = None if moved is not None else (self.entry.iterator, gather.position)
        functional = spmv_expression(
            self.body, rows, (self.out, self.out_index),
            position_moved=(moved or 0) + gather.position_moved,
            column_moved=gather.column_moved, entries_at=entries_at,
        )  # fmt: skip
        generated = generate_product(self.body, functional, "idiom_spmv")
        if generated is None:
            return None
        kernels, self.generated = generated
        regroup = self.context.reassociate or not _floating(gather.stored)
        if regroup and self.lanes and entries_at is None and functional is not None:
            shared = generate_lanes(self.body, functional)
            if shared is not None:
                self.lanes_kernels, instead = shared
                self.generated = replace(self.generated, instead=instead)
        if entries_at is not None:
            # A range's length is the entry loop's trip count, which no checked size bounds
            # (a position need not move with the counter): the long kernel only.
            kernels = (kernels[0], kernels[0])
        self.functional = functional
        return kernels

    def _entries_within_lengths(self) -> bool:
        """Rows in tables: the entry loop runs from a constant not below 0 to the row's
        length (as read from the lengths' table), so a row whose length is not positive,
        whose pointer may be anything, has no entries, and the others' are in the block
        `idiom_rows_block` checked."""
        first = int_constant(self.entry.iter_begin)
        return (
            _signed_length(self.entry.iter_end) is self.length_read
            and first is not None
            and first >= 0
        )

    def _row_pointers(self, body: KernelBody) -> tuple[str, str]:
        """The kernel's names of a row's pointers to its values and columns, when the
        rows are kept in tables: each read from its table as a long (an address)."""
        if not self.gather.row_tables:
            return ("", "")
        names = []
        for load, name in ((self.gather.values, "rowv"), (self.gather.columns, "rowc")):
            body.lines.append(f"const long {name} = {body.load_as(load, I64)};")
            body.names[load] = name
            names.append(name)
        return names[0], names[1]

    def _positions(self) -> str:
        """The range of positions read: the entry loop's bounds where the position is
        its counter, otherwise the positions themselves (a[k-1], ELLPACK's i*w + j)."""
        lo, hi, unusable = self.bounds
        t = self.entry_lines
        if self._position_is_counter():
            found = "low = min(low, lo); high = max(high, hi);"
        else:
            each = (
                f"      const long p = (long){t.position};\n"
                "      low = min(low, p); high = max(high, p + 1);"
            )
            found = entries(self.bounds, self.entry.iterator, t.lines[: t.at_column], each)
        return f"""  long low = LONG_MAX, high = LONG_MIN;
  int bad = 0;
  {ROWS}
{indent(self.head, 4)}
    const long lo = {lo}, hi = {hi};
    if ({unusable}) bad = 1;
    else if (lo < hi) {{
{found}
    }}
  }}
  if (bad) atomic_or(&range[2], 1);
{publish_range("low", "high", "range")}"""

    def _position_is_counter(self) -> bool:
        position, counter = self.gather.position, self.entry.iterator
        same = position is counter or (
            position.opcode in ("sext", "zext") and position.operands[0] is counter
        )
        return same and self.gather.position_moved == 0

    def _columns(self) -> str:
        t = self.entry_lines
        found = f"      const long c = (long){t.column}; low = min(low, c); high = max(high, c);"
        return f"""  long low = LONG_MAX, high = LONG_MIN;
  {ROWS}
{indent(self.head, 4)}
{entries(self.bounds, self.entry.iterator, t.lines[: t.at_update], found)}
  }}
{publish_range("low", "high", "range")}"""

    def _product(self) -> str:
        return row_product(self, self.entry.iterator)

    def _matrix_ranges(
        self, builder: Builder, chain: Chain, common: Sequence[KernelArg]
    ) -> tuple[tuple[Operand, Operand], tuple[Operand, Operand]]:
        """The first index and the count of the values read, and of the column indices:
        one range of positions, which a kernel finds, unless the rows are in tables."""
        if self.gather.row_tables:
            return self._row_blocks(builder, chain)
        positions = range_cells(builder)
        status = run_kernel(builder, self.context.module, "idiom_csr_positions",
                            args=[*common, cells_arg("range", positions)], params=self.params,
                            body=self._positions(), global_size=const(I64, GRID),
                            work=as_check(builder, self.count))  # fmt: skip
        p_first, p_count, p_bad = read_range(builder, positions, inclusive=False)
        chain.then([succeeded(builder, status, p_bad)])
        return (p_first, p_count), (p_first, p_count)

    def _row_blocks(
        self, builder: Builder, chain: Chain
    ) -> tuple[tuple[Operand, Operand], tuple[Operand, Operand]]:
        """Rows kept in tables: the runtime reads the tables of row pointers and of
        lengths as the loop does, and gives the blocks of memory the rows make when they
        come in order, packed or padded, at the same index of the values' block and the
        columns' (idiom_rows_block); otherwise the original code runs. Indices count from
        address 0 (`slice_of`'s base)."""
        gather, region = self.gather, self.context.region
        declare_row_tables(self.context.module)
        loops, counts = [self.row], [self.count]
        lengths = measure(builder, region, self.length_read.operands[0], loops=loops,
                          counts=counts, element_type=self.length_read.type)  # fmt: skip
        tables, sizes = [], []
        for pointer, element in ((gather.values, gather.matrix.type),
                                 (gather.columns, gather.column_read.type)):  # fmt: skip
            tables.append(measure(builder, region, pointer.operands[0], loops=loops,
                                  counts=counts, element_type="ptr"))  # fmt: skip
            sizes.append(const(I64, element_size(element)))
        count = builder.call("i64", "idiom_rows_block", [
            tables[0].first, tables[0].strides[0], sizes[0],
            tables[1].first, tables[1].strides[0], sizes[1],
            lengths.first, lengths.strides[0], const("i32", element_size(self.length_read.type)),
            self.count])  # fmt: skip
        ranges = []
        for table, size in zip(tables, sizes, strict=True):
            first = builder.to_i64(
                builder.call("ptr", "idiom_row_first", [table.first, self.count])
            )
            ranges.append((builder.binary("sdiv", first, size), count))
        chain.then([builder.compare("sge", count, const(I64, 0))])
        return ranges[0], ranges[1]

    def call(self, builder: Builder) -> Operand:
        module, gather = self.context.module, self.gather
        saved = stack_saved(builder, module)
        packed = pack_params(builder, self.params)
        # The range-finding kernels get the arrays read, not y: only the product writes it.
        groups = self.body.groups.values()
        reads = [buffer_arg(g, 0, const_data=True) for g in groups if not g.written]
        common = [KernelArg("long n0", 3, self.count, const(I64, 8)), *self.body.scalar_args()]
        common += [*reads, packed]
        grid, chain = const(I64, GRID), Chain(builder)

        value_range, column_range = self._matrix_ranges(builder, chain, common)
        load_late(builder, self.late, value_range[1])  # before the slices: their bases
        base = const(I64, 0) if gather.row_tables else None
        column_type = gather.column_read.type
        columns = slice_of(builder, "C", gather.columns, column_type, first=column_range[0],
                           count=column_range[1], base=base)  # fmt: skip
        found = range_cells(builder)
        status = run_kernel(builder, module, "idiom_csr_columns",
                            args=[*common, *columns.args, cells_arg("range", found)],
                            params=self.params, body=self._columns(), global_size=grid,
                            work=as_check(builder, value_range[1]))  # fmt: skip
        c_first, c_count, c_bad = read_range(builder, found, inclusive=True)
        values = slice_of(builder, "V", gather.values, gather.matrix.type, first=value_range[0],
                          count=value_range[1], base=base)  # fmt: skip
        x = slice_of(builder, "X", gather.x, gather.gathered.type, first=c_first, count=c_count)
        assert self.out.low is not None and self.out.high is not None
        written = (self.out.low, self.out.high)
        apart_checks = [s.apart(builder, written) for s in (values, columns, x)]
        chain.then([succeeded(builder, status, c_bad), *apart_checks])

        y = buffer_arg(self.out, 2, const_data=False)
        # The work the device's cost model weighs: a row's loop and each of its entries.
        entries_and_rows = builder.binary("add", value_range[1], self.count)
        if self.kernels is not None:
            lengths = {"V_len": value_range[1], "X_len": c_count}
            slices = (values, columns, x)
            status = self._launch_generated(builder, slices, lengths, entries_and_rows)
        else:
            status = run_kernel(builder, module, "idiom_spmv",
                                args=[*common, y, *values.args, *columns.args, *x.args],
                                params=self.params, body=self._product(),
                                global_size=self.count, work=entries_and_rows)  # fmt: skip
        result = chain.end(status)
        builder.statement(f"call void @llvm.stackrestore.p0(ptr {saved.ref})")
        return result

    def _launch_generated(
        self,
        builder: Builder,
        slices: tuple[Slice, Slice, Slice],
        lengths: Mapping[str, Operand],
        work: Operand,
    ) -> Operand:
        assert self.kernels is not None and self.functional is not None
        module, program, kernels = self.context.module, self.functional.program, self.kernels

        def one_row_an_item() -> Operand:
            return launch_generated(builder, module, self.body, self.params, self.count,
                                    generated=(kernels, program), slices=slices,
                                    lengths=lengths, kernel="idiom_spmv", work=work)  # fmt: skip

        lanes_kernels = self.lanes_kernels
        if lanes_kernels is None:
            return one_row_an_item()
        # Rows sharing work-items where they are long enough on average (ROW_LANES;
        # docs/lift.md, "Rows shared by lanes") and the runtime wants it (not on a CPU
        # device, whose barriers cost more than the lanes gain).
        module.declare("idiom_row_lanes", "declare i32 @idiom_row_lanes()")
        wanted = builder.compare("ne", builder.call("i32", "idiom_row_lanes", []), const("i32", 0))
        merge = builder.fresh("launched").lstrip("%")
        arriving: list[tuple[Operand, str | None]] = []
        for least, lanes in ROW_LANES:
            taken, shorter = (builder.fresh(h).lstrip("%") for h in (f"lanes{lanes}", "shorter"))
            long_enough = builder.compare(
                "sge", lengths["V_len"], builder.binary("mul", self.count, const(I64, least))
            )
            builder.branch_if(builder.all_of([wanted, long_enough]), taken, shorter)
            builder.label(taken)
            status = launch_generated(builder, module, self.body, self.params, self.count,
                                      generated=(lanes_kernels[lanes], program), slices=slices,
                                      lengths=lengths, kernel=lanes_kernel(lanes), work=work,
                                      lanes=lanes)  # fmt: skip
            arriving.append((status, builder.current_block()))
            builder.branch(merge)
            builder.label(shorter)
        arriving.append((one_row_an_item(), builder.current_block()))
        builder.branch(merge)
        builder.label(merge)
        incoming = ", ".join(f"[ {status.ref}, %{block} ]" for status, block in arriving)
        return builder.emit("i32", f"phi i32 {incoming}")


def _declarations(body: KernelBody, functional: StencilExpression) -> dict[str, str]:
    """Each buffer of the program declared as the translated kernels declare it, a slice
    read only unless it is the output."""
    by_name = arguments_by_name(body)
    written = functional.output.name
    return {
        p.name: by_name[p.name].declaration if p.name in by_name
        else buffer_declaration(p.name, const_data=p.name != written)
        for p in functional.program.params if isinstance(p.type, Array)
    }  # fmt: skip


def generate_product(
    body: KernelBody, functional: StencilExpression | None, name: str
) -> tuple[tuple[Kernel, Kernel], GeneratedKernel] | None:
    """A sparse product's kernel generated by the Lift compiler with long and with int
    indices (each buffer of `body` declared as the translated kernels declare it, a slice
    read only unless it is the output), and what `idiom lift` shows of it; None where
    there is no expression or the compiler declines it."""
    if functional is None:
        return None
    declarations = _declarations(body, functional)
    try:
        lowered, rewrites = lower(functional.program)
        kernels = long_and_int(lowered, name, work_group=None, declarations=declarations,
                               output=functional.output, covered_twin=True)  # fmt: skip
    except (LiftError, RecursionError):
        return None
    shown = GeneratedKernel(
        pretty(functional.program), rewrites, pretty(lowered), kernels[0].source
    )
    return (kernels[0], kernels[1]), shown


def generate_lanes(
    body: KernelBody, functional: StencilExpression
) -> tuple[dict[int, tuple[Kernel, Kernel]], tuple[KernelInstead, ...]] | None:
    """The product's kernels with each of ROW_LANES's work-items a row (`lower_lanes`: a
    row's entries folded by its lanes side by side, then their sums in local memory), in
    work-groups of LANES_GROUP, long and int indices, named by `lanes_kernel`, and how
    `idiom lift` shows them; None where the rule does not apply or the compiler declines.
    A row's sum is regrouped: the caller allows it (a floating-point sum where
    reassociation is on)."""
    declarations = _declarations(body, functional)
    kernels = {}
    shown = []
    try:
        for least, lanes in ROW_LANES:
            lowered = lower_lanes(functional.program, lanes)
            if lowered is None:
                return None
            kernels[lanes] = long_and_int(
                lowered[0], lanes_kernel(lanes), work_group=LANES_GROUP,
                declarations=declarations, output=functional.output,
            )  # fmt: skip
            when = f"where rows average {least} entries or more on a GPU ({lanes} work-items a row)"
            shown.append(
                KernelInstead(when, lowered[1], pretty(lowered[0]), kernels[lanes][0].source)
            )
    except (LiftError, RecursionError):
        return None
    return kernels, tuple(shown)


def launch_generated(
    builder: Builder,
    module: ModuleText,
    body: KernelBody,
    params: Sequence[tuple[str, Operand]],
    count: Operand,
    *,
    generated: tuple[tuple[Kernel, Kernel], ir.Lambda],
    slices: Sequence[Slice],
    lengths: Mapping[str, Operand],
    kernel: str,
    work: Operand,
    lanes: int | None = None,
) -> Operand:
    """Launch a sparse product's generated kernel over its `count` rows: its buffers and
    scalars by the program's parameters (the slices and their first indices among them),
    then its sizes (the rows, the offsets and strides of the row's reads, the buffers'
    and slices' lengths); the int kernel where every size fits. With `lanes`, kernels of
    that many items a row (`generate_lanes`), in work-groups of LANES_GROUP, a group's
    rows at a time (the NDRange has one item for each lane of each row, at most
    LANES_GRID groups: the kernel loops over the rest)."""
    (wide, narrow), program = generated
    by_name = arguments_by_name(body)
    for piece in slices:
        by_name |= piece.by_name
    values = dict(params) | {"n0": count} | group_lengths(builder, body) | dict(lengths)
    args = in_elements([by_name[p.name] for p in program.params])
    args += size_args(wide, values)
    fits = sizes_fit(builder, wide, values)
    if lanes is not None:
        per_group = LANES_GROUP // lanes
        groups = builder.binary("sdiv", builder.binary("add", count, const(I64, per_group - 1)),
                                const(I64, per_group))  # fmt: skip
        few = builder.compare("slt", groups, const(I64, LANES_GRID))
        groups = builder.select(few, groups, const(I64, LANES_GRID))
        items = builder.binary("mul", groups, const(I64, LANES_GROUP))
        return launch(builder, module, source=wide, kernel=kernel, global_size=[items],
                      local_size=[LANES_GROUP], work=work, args=args,
                      alternatives=[(fits, narrow)])  # fmt: skip
    # The rows are a loop striding by the range's size: the runtime may tune the shape.
    return launch(builder, module, source=wide, kernel=kernel, global_size=[count],
                  local_size=None, work=work, args=args,
                  alternatives=[(fits, narrow)], any_range=True)  # fmt: skip


class _EllPlan(_CsrPlan):
    """ELLPACK: the CSR plan's kernels, with a row's entries between fixed bounds and
    its positions affine in the row and the entry (the padding is read as the loop does)."""

    target = "OpenCL ELLPACK SpMV kernel"
    lanes = False  # a row's entries are a column apart: its lanes would not read together


def map_spmv_csr(instance: Instance, context: MapperContext) -> Plan:
    return _CsrPlan(instance, context)


def map_spmv_ell(instance: Instance, context: MapperContext) -> Plan:
    return _EllPlan(instance, context)


def _floating(value: Value) -> bool:
    return value.type in ("float", "double", "half")


def _signed_length(bound: Value) -> Value:
    """The value a loop's bound is, through a sign extension (a row's length)."""
    return bound.operands[0] if bound.opcode == "sext" else bound
