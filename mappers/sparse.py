"""Sparse matrix-vector products in CSR as OpenCL kernels: one work-item per row.

The positions a row reads (row_ptr[i] .. row_ptr[i+1]) and the columns of x it gathers
are data, so the call runs three kernels, each writing only what the host needs next:
the range of positions over all rows, then the range of column indices found there,
and finally the product itself, with exactly those ranges of values, columns and x
copied to the device. The host checks that y's range is disjoint from everything
read (a Gauss-Seidel sweep, which reads what it writes, keeps its original code).
"""

from __future__ import annotations

from mappers.access import apart, apart_from_fixed, element_size
from mappers.emit import I64, Builder, NotReplaced, const
from mappers.irtext import Operand
from mappers.kernels import (
    PUBLISH_RANGE,
    KernelArg,
    KernelBody,
    c_type,
    launch,
    pack_params,
    param_prelude,
    range_cells,
    read_cells,
)
from mappers.loops import loop_view, trip_count
from mappers.plan import MapperContext, Plan, need
from mappers.reduction import PRELUDE, require_worth_it, stack_saved
from mappers.region import check_legal, guard_conditions, is_fixed_load, load_fixed, runs_with
from matcher.detect import Instance
from matcher.ir import Value

__all__ = ["map_spmv_csr"]

_GRID = 16384  # work-items of the range-finding kernels (each loops over its rows)


class _CsrPlan(Plan):
    target = "OpenCL CSR SpMV kernel"

    def __init__(self, instance: Instance, context: MapperContext) -> None:
        solution, region = instance.solution, context.region
        self.context = context
        self.row = loop_view(region.function, solution, "row.")
        self.entry = loop_view(region.function, solution, "entry.")
        if (
            self.entry.step != 1
            or self.entry.predicate not in ("slt", "ult")
            or (self.entry.tests_current)
        ):
            raise NotReplaced("the loop over a row's entries is not `p < end; p++`")
        names = ("values", "columns", "x", "matrix.value", "column_read", "gathered.value")
        self.values, self.columns, self.x, self.matrix, self.column, self.gathered = (
            need(solution, n) for n in names
        )
        self.position, self.column_index = need(solution, "position"), need(solution, "column")
        self.acc, self.acc_init = need(solution, "acc"), need(solution, "acc_init")
        self.update, self.final = need(solution, "update"), need(solution, "final")
        self.stored, self.address = need(solution, "stored"), need(solution, "c.address")
        self.c_old = solution.get("c_old")
        for value in (self.matrix, self.column, self.gathered):
            if len(value.operands[0].operands) != 2:
                raise NotReplaced("a sparse read is not array[index]")
        for array in (self.values, self.columns, self.x):
            if array.block in region.blocks and not is_fixed_load(array, region):
                raise NotReplaced(f"the array {array.name} is computed inside the loop")
        if self.acc.type in ("float", "double") and not context.reassociate:
            raise NotReplaced("the row sums would be added in another order")  # see below
        self.conditions = check_legal(
            region,
            stores=[need(solution, "c.store")],
            results=[],
            loops=[self.row],
            data_loops=[self.entry],
            fixed_loads=True,
        )

    def guard(self, builder: Builder) -> Operand:
        region = self.context.region
        checks = [guard_conditions(builder, region, self.conditions, fixed_loads=True)]
        # The matrix and x, when they are fixed values the loop reads only for a row
        # with entries, are loaded once some row is known to have entries (see `call`).
        self.late = [a for a in (self.values, self.columns, self.x) if a in builder.refused]
        entered = runs_with(region, self.conditions, [self.entry])
        for array in self.late:
            if array.block not in entered:
                raise NotReplaced(builder.refused[array])
        counted = trip_count(builder, self.row)
        self.count = counted.count
        require_worth_it(builder, self.context.module, counted.count)
        body = KernelBody(builder, self.context.region, [self.row], [counted.count])
        self.body = body
        self.start = body.value(self.entry.iter_begin)
        self.stop = body.value(self.entry.iter_end)
        self.init = body.value(self.acc_init)
        self.before = len(body.lines)  # lines above the loop over the row's entries
        self.out_group = body.group(self.address, self.stored.type, written=True)
        self.out_index = body.index(self.address, self.stored.type, self.out_group)
        if self.c_old is not None:
            body.names[self.c_old] = f"{self.out_group.name}[{self.out_index}]"
        body.names[self.final] = "acc"
        self.result = body.value(self.stored)
        body.close_groups()
        self.params, whole = body.read_params()
        checks += [counted.exact, whole]
        out = self.out_group
        assert out.low is not None and out.high is not None
        checks += body.apart_from_reads(out)
        checks.append(apart_from_fixed(builder, region, (out.low, out.high)))
        self.inner = self._inner_loop()
        return builder.all_of(checks)

    def _inner_loop(self) -> list[str]:
        """The row's loop over its entries, translated with the gathers as buffer reads."""
        inner = KernelBody(Builder("unused"), self.context.region, [], [])
        kind = c_type(self.entry.iterator.type)
        inner.names.update({self.entry.iterator: "q", self.acc: "acc"})
        lines = [f"{kind} q = ({kind})qq;"]
        position = inner.value(self.position)
        inner.names[self.matrix] = f"V[(long){position} - vlo]"
        inner.names[self.column] = f"C[(long){position} - clo]"
        column = inner.value(self.column_index)
        inner.names[self.gathered] = f"X[(long){column} - xlo]"
        update = inner.value(self.update)
        if inner.scalars or inner.reads:
            raise NotReplaced("the product of a row uses more than the matrix and x")
        return [*lines, *inner.lines, f"acc = {update};"]

    def _source(self, args: list[KernelArg]) -> str:
        types = {
            n: c_type(v.type)
            for n, v in (("V", self.matrix), ("C", self.column), ("X", self.gathered))
        }
        declarations = ", ".join(["long n0", *(a.declaration for a in args)])
        prelude = "\n".join("  " + line for line in param_prelude(self.params))
        head = "\n".join("    " + line for line in self.body.lines[: self.before])
        tail = "\n".join("  " + line for line in self.body.lines[self.before :])
        inner = "\n".join("    " + line for line in self.inner)
        kind = c_type(self.acc.type)
        rows = "for (long t0 = get_global_id(0); t0 < n0; t0 += get_global_size(0)) {"
        return f"""{PRELUDE}
__kernel void idiom_csr_positions({declarations}, __global int* range) {{
{prelude}
  long low = LONG_MAX, high = LONG_MIN;
  {rows}
{head}
    if ((long){self.start} < (long){self.stop}) {{
      low = min(low, (long){self.start}); high = max(high, (long){self.stop});
    }}
  }}
{PUBLISH_RANGE}
}}

__kernel void idiom_csr_columns({declarations}, __global const {types["C"]}* C, long clo,
                                __global int* range) {{
{prelude}
  long low = LONG_MAX, high = LONG_MIN;
  {rows}
{head}
    for (long qq = (long){self.start}; qq < (long){self.stop}; qq++) {{
      const long c = (long)C[qq - clo];
      low = min(low, c); high = max(high, c);
    }}
  }}
{PUBLISH_RANGE}
}}

__kernel void idiom_spmv({declarations}, __global const {types["V"]}* V, long vlo,
                         __global const {types["C"]}* C, long clo,
                         __global const {types["X"]}* X, long xlo) {{
{prelude}
  const long t0 = get_global_id(0);
  if (t0 >= n0) return;
  {{
{head}
    {kind} acc = {self.init};
    for (long qq = (long){self.start}; qq < (long){self.stop}; qq++) {{
{inner}
    }}
{tail}
    {self.out_group.name}[{self.out_index}] = {self.result};
  }}
}}
"""

    def call(self, builder: Builder) -> Operand:
        module = self.context.module
        saved = stack_saved(builder, module)
        packed = pack_params(builder, self.params)
        args = [*self.body.scalar_args(), *self.body.buffer_args(), packed]
        source = self._source(args)
        common = [KernelArg("", 3, self.count, const(I64, 8)), *args]
        grid = [const(I64, _GRID)]
        positions = range_cells(builder)
        first = launch(builder, module, source=source, kernel="idiom_csr_positions",
                       global_size=grid, local_size=None, work=self.count,
                       args=[*common, KernelArg("", 2, positions, const(I64, 12))])  # fmt: skip
        p_low, p_high, p_bad = self._read_range(builder, positions)
        column_type = self.column.type
        p_count = builder.binary("sub", p_high, p_low)  # stop is exclusive
        if self.late:  # some row has entries: the loop reads them for it
            entries = builder.all_of(
                [
                    builder.compare("eq", first, const("i32", 0)),
                    builder.compare("sgt", p_count, const(I64, 0)),
                ]
            )
            for array in self.late:
                load_fixed(builder, array, entries)
        columns_arg, columns_low = self._slice(builder, self.columns, column_type, p_low, p_count)
        column_range = range_cells(builder)
        second = launch(builder, module, source=source, kernel="idiom_csr_columns",
                        global_size=grid, local_size=None, work=self.count,
                        args=[*common, columns_arg, columns_low,
                              KernelArg("", 2, column_range, const(I64, 12))])  # fmt: skip
        c_low, c_high, c_bad = self._read_range(builder, column_range)
        x_type = self.gathered.type
        values_arg, values_low = self._slice(builder, self.values, self.matrix.type, p_low, p_count)
        c_count = builder.binary("add", builder.binary("sub", c_high, c_low), const(I64, 1))
        c_empty = builder.compare("eq", p_count, const(I64, 0))
        c_count = builder.select(c_empty, const(I64, 0), c_count)  # no entry, no column
        x_arg, x_low = self._slice(builder, self.x, x_type, c_low, c_count)
        checks = [
            builder.compare("eq", builder.binary("or", first, second), const("i32", 0)),
            builder.compare("eq", builder.binary("or", p_bad, c_bad), const("i32", 0)),
        ]
        out = self.out_group
        assert out.low is not None and out.high is not None
        for arg in (values_arg, columns_arg, x_arg):
            assert arg.value is not None and arg.bytes is not None
            low = builder.to_i64(arg.value)
            checks.append(
                apart(builder, (out.low, out.high), (low, builder.binary("add", low, arg.bytes)))
            )
        fill, skip, merge = (builder.fresh(part).lstrip("%") for part in ("spmv", "skip", "merge"))
        builder.branch_if(builder.all_of(checks), fill, skip)
        builder.label(fill)
        third = launch(builder, module, source=source, kernel="idiom_spmv",
                       global_size=[self.count], local_size=None, work=self.count,
                       args=[*common, values_arg, values_low, columns_arg, columns_low,
                             x_arg, x_low])  # fmt: skip
        builder.branch(merge)
        builder.label(skip)
        builder.branch(merge)
        builder.label(merge)
        status = builder.emit("i32", f"phi i32 [ {third.ref}, %{fill} ], [ 1, %{skip} ]")
        builder.statement(f"call void @llvm.stackrestore.p0(ptr {saved.ref})")
        return status

    @staticmethod
    def _read_range(builder: Builder, cells: Operand) -> tuple[Operand, Operand, Operand]:
        low, high, bad = read_cells(builder, cells)
        empty = builder.compare("sgt", low, high)  # no row had an entry: an empty range
        low = builder.select(empty, const("i32", 0), low)
        high = builder.select(empty, const("i32", 0), high)
        return builder.to_i64(low), builder.to_i64(high), bad

    @staticmethod
    def _slice(
        builder: Builder, array: Value, element: str, low: Operand, count: Operand
    ) -> tuple[KernelArg, KernelArg]:
        """`count` elements of `array` from index `low`, as an input buffer, and `low`."""
        size = const(I64, element_size(element))
        start = builder.binary(
            "add", builder.to_i64(builder.ref(array)), builder.binary("mul", low, size)
        )
        buffer = KernelArg("", 0, start, builder.binary("mul", count, size))
        return buffer, KernelArg("", 3, low, const(I64, 8))


def map_spmv_csr(instance: Instance, context: MapperContext) -> Plan:
    return _CsrPlan(instance, context)
