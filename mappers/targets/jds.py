"""Sparse matrix-vector products in jagged diagonal storage as OpenCL kernels.

Sorted row r adds values[jd_ptr[d] + r] * x[columns[jd_ptr[d] + r]] over its diagonals
d (from a bound that is data, nzcnt[r]), and stores the sum into y[perm[r]] (or y[r]).
Everything a row touches beyond its own entries is data, so a call runs four kernels
(the shared machinery of mappers/targets/sparse.py), each launched only when the ones before
succeeded and what they found fits:

1. over the rows: the range of diagonals (the jd_ptr entries read) and of the rows of y
   written; a negative diagonal index, or a bound beyond LONG_MAX, stops here;
2. with that slice of jd_ptr: the range of positions jd_ptr[d] + r;
3. with that slice of the column indices: the range of columns read, and every row's
   claim on its row of y (in a zeroed array over y's range that lives on the device
   only, IDIOM_ARG_SCRATCH): a row of y claimed twice
   would be written by two work-items, so that stops here too;
4. then, once the host has checked that y's range is disjoint from everything read,
   the product: one work-item per row, its diagonals in the loop's order (FP_CONTRACT
   off), so every row's sum is the original's to the last bit, and its result (scaled,
   or added to y's old value, as the loop does) stored into that row of a copy of y's
   range.
"""

from __future__ import annotations

from lift.opencl.generate import Kernel
from mappers.plan.access import apart_from_fixed
from mappers.plan.loops import loop_view, trip_count
from mappers.plan.plan import MapperContext, Plan, need
from mappers.plan.region import check_legal, guard_conditions
from mappers.rewrite.emit import I64, Builder, NotReplaced, const
from mappers.rewrite.irtext import Operand
from mappers.targets.functional import (
    JaggedRows,
    StencilExpression,
    generated_kernels,
    jds_expression,
)
from mappers.targets.kernels import (
    SCRATCH,
    KernelArg,
    KernelBody,
    as_check,
    pack_params,
    publish_range,
    range_cells,
)
from mappers.targets.reduction import require_worth_it, stack_saved
from mappers.targets.sparse import (
    GRID,
    ROWS,
    Chain,
    Gather,
    cells_arg,
    check_fixed,
    check_indexed,
    data_loop,
    entries,
    entry_body,
    generate_product,
    indent,
    late_arrays,
    launch_generated,
    load_late,
    loop_bounds,
    read_range,
    row_product,
    run_kernel,
    slice_of,
    succeeded,
)
from matcher.detect import Instance

__all__ = ["map_spmv_jds"]


class _JdsPlan(Plan):
    target = "OpenCL JDS SpMV kernel"

    def __init__(self, instance: Instance, context: MapperContext) -> None:
        solution, region = instance.solution, context.region
        self.context = context
        self.functional: StencilExpression | None = None  # a generated product's
        self.row = loop_view(region.function, solution, "row.")
        self.diagonal = data_loop(region.function, solution, "diagonal.")
        self.gather = gather = Gather(solution, region)
        self.jd_ptr, self.start_read = need(solution, "jd_ptr"), need(solution, "start_read")
        self.jd_index = need(solution, "diagonal_start.index")
        self.y, self.y_index = need(solution, "y"), need(solution, "y_index")
        check_indexed(self.start_read.operands[0], self.start_read.type, "the read of jd_ptr")
        check_indexed(gather.address, gather.stored.type, "the store into y")
        check_fixed(self.jd_ptr, region)
        check_fixed(self.y, region)
        # The kernels index jd_ptr with the counter itself: the same value as the loop's
        # index while the counter is not negative (the first kernel checks that).
        counter = self.diagonal.iterator
        if self.jd_index is not counter and not (
            self.jd_index.opcode in ("sext", "zext") and self.jd_index.operands[0] is counter
        ):
            raise NotReplaced("jd_ptr is not indexed by the diagonal counter")
        if counter.type not in ("i32", "i64"):
            raise NotReplaced(f"no diagonal counter of type {counter.type}")
        self.conditions = check_legal(
            region,
            stores=[gather.store],
            results=[],
            loops=[self.row],
            data_loops=[self.diagonal],
            fixed_loads=True,
        )

    def guard(self, builder: Builder) -> Operand:
        gather, region = self.gather, self.context.region
        # First: the fixed values it loads are what the trip count and the kernels use.
        checks = [guard_conditions(builder, region, self.conditions, fixed_loads=True)]
        if self.y in builder.refused:  # every row stores: y is loaded for every row
            raise NotReplaced(builder.refused[self.y])
        arrays = (self.jd_ptr, gather.values, gather.columns, gather.x)
        self.late = late_arrays(builder, region, self.conditions, self.diagonal, arrays)
        counted = trip_count(builder, self.row)
        self.count = counted.count
        require_worth_it(builder, self.context.module, counted.count)
        body = KernelBody(builder, region, [self.row], [counted.count])
        self.body = body
        start, stop = body.value(self.diagonal.iter_begin), body.value(self.diagonal.iter_end)
        self.bounds = loop_bounds(self.diagonal, start, stop)
        self.init = body.value(gather.acc_init)
        self.row_of_y = f"(long){body.value(self.y_index)}"
        self.cell = f"Y[{self.row_of_y} - ylo]"
        self.head = list(body.lines)  # lines above the loop over the row's diagonals
        inner = entry_body(body, {self.diagonal.iterator: "q", gather.acc: "acc"})
        inner.names[self.start_read] = "J[qq - jlo]"
        self.entry_lines = gather.translate(inner)
        if gather.c_old is not None:
            body.names[gather.c_old] = self.cell
        body.names[gather.final] = "acc"
        self.result = body.value(gather.stored)
        self.tail = body.lines[len(self.head) :]
        body.close_groups()
        self.params, whole = body.read_params()
        self.kernels = self._generated_kernels() if generated_kernels() else None
        if self.kernels is not None:
            self.target = f"{self.target} (generated)"
        checks += [counted.exact, whole]
        return builder.all_of(checks)

    def _generated_kernels(self) -> tuple[Kernel, Kernel] | None:
        """The product kernel generated by the Lift compiler, with long and with int
        indices; None where its expression cannot be said (a column read other than as
        a signed index, a bound compared unsigned) or the compiler declines it: the
        translated kernel runs."""
        gather = self.gather
        rows = gather.sparse_rows(self.diagonal, [gather.c_old] if gather.c_old is not None else [])
        if rows is None:
            return None
        jagged = JaggedRows(rows, self.start_read, gather.position, self.y_index)
        functional = jds_expression(self.body, jagged, position_moved=gather.position_moved,
                                    column_moved=gather.column_moved)  # fmt: skip
        generated = generate_product(self.body, functional, "idiom_jds_spmv")
        if generated is None:
            return None
        kernels, self.generated = generated
        self.functional = functional
        return kernels

    def _rows(self) -> str:
        lo, hi, unusable = self.bounds
        return f"""  long low = LONG_MAX, high = LONG_MIN, ylow = LONG_MAX, yhigh = LONG_MIN;
  int bad = 0;
  {ROWS}
{indent(self.head, 4)}
    const long lo = {lo}, hi = {hi};
    if ({unusable}) bad = 1;
    else if (lo < hi) {{
      if (lo < 0) bad = 1;
      low = min(low, lo); high = max(high, hi);
    }}
    const long y = {self.row_of_y};
    ylow = min(ylow, y); yhigh = max(yhigh, y);
  }}
  if (bad) atomic_or(&diagonals[2], 1);
{publish_range("low", "high", "diagonals")}
{publish_range("ylow", "yhigh", "rows")}"""

    def _positions(self) -> str:
        t = self.entry_lines
        found = f"      const long p = (long){t.position}; low = min(low, p); high = max(high, p);"
        return f"""  long low = LONG_MAX, high = LONG_MIN;
  {ROWS}
{indent(self.head, 4)}
{entries(self.bounds, self.diagonal.iterator, t.lines[: t.at_column], found)}
  }}
{publish_range("low", "high", "range")}"""

    def _columns(self) -> str:
        t = self.entry_lines
        found = f"      const long c = (long){t.column}; low = min(low, c); high = max(high, c);"
        return f"""  long low = LONG_MAX, high = LONG_MIN;
  {ROWS}
{indent(self.head, 4)}
    if (atomic_inc(&W[{self.row_of_y} - ylo]) != 0) atomic_or(&range[2], 1);
{entries(self.bounds, self.diagonal.iterator, t.lines[: t.at_update], found)}
  }}
{publish_range("low", "high", "range")}"""

    def _product(self) -> str:
        return row_product(self, self.diagonal.iterator)

    def call(self, builder: Builder) -> Operand:
        module, gather = self.context.module, self.gather
        saved = stack_saved(builder, module)
        packed = pack_params(builder, self.params)
        common = [KernelArg("long n0", 3, self.count, const(I64, 8)), *self.body.scalar_args()]
        common += [*self.body.buffer_args(), packed]
        chain = Chain(builder)

        def run(name: str, args: list[KernelArg], body: str, *, per_row: bool = False) -> Operand:
            # Over the grid: a check of the ranges the product (per row) will use.
            size = self.count if per_row else const(I64, GRID)
            work = self.count if per_row else as_check(builder, self.count)
            return run_kernel(builder, module, name, args=[*common, *args], params=self.params,
                              body=body, global_size=size, work=work)  # fmt: skip

        diagonals, rows = range_cells(builder), range_cells(builder)
        cells = [cells_arg("diagonals", diagonals), cells_arg("rows", rows)]
        status = run("idiom_jds_rows", cells, self._rows())
        d_first, d_count, d_bad = read_range(builder, diagonals, inclusive=False)
        y_first, y_count, y_bad = read_range(builder, rows, inclusive=True)
        chain.then([succeeded(builder, status, d_bad, y_bad)])
        load_late(builder, self.late, d_count)  # some row has diagonals: before the slices

        jd_type = self.start_read.type
        jd = slice_of(builder, "J", self.jd_ptr, jd_type, first=d_first, count=d_count)
        positions = range_cells(builder)
        status = run("idiom_jds_positions", [*jd.args, cells_arg("range", positions)],
                     self._positions())  # fmt: skip
        p_first, p_count, p_bad = read_range(builder, positions, inclusive=True)
        chain.then([succeeded(builder, status, p_bad)])

        column_type = gather.column_read.type
        columns = slice_of(builder, "C", gather.columns, column_type, first=p_first, count=p_count)
        # A zeroed int per row of y's range, on the device only: an allocation on the host
        # would be a call the residency pass must assume touches the program's arrays.
        claims = KernelArg(
            "__global int* W", SCRATCH, None, builder.binary("mul", y_count, const(I64, 4))
        )
        found = range_cells(builder)
        y_first_arg = KernelArg("long ylo", 3, y_first, const(I64, 8))
        args = [*jd.args, *columns.args, claims, y_first_arg, cells_arg("range", found)]
        status = run("idiom_jds_columns", args, self._columns())
        c_first, c_count, c_bad = read_range(builder, found, inclusive=True)

        value_type, x_type, y_type = gather.matrix.type, gather.gathered.type, gather.stored.type
        values = slice_of(builder, "V", gather.values, value_type, first=p_first, count=p_count)
        x = slice_of(builder, "X", gather.x, x_type, first=c_first, count=c_count)
        y = slice_of(builder, "Y", self.y, y_type, first=y_first, count=y_count, written=True)
        assert y.group.low is not None and y.group.high is not None
        written = (y.group.low, y.group.high)
        checks = [succeeded(builder, status, c_bad)]
        checks += [part.apart(builder, written) for part in (jd, values, columns, x)]
        checks += self.body.apart_from_reads(written)
        checks.append(apart_from_fixed(builder, self.context.region, written))
        chain.then(checks)

        if self.kernels is not None and self.functional is not None:
            slices = (jd, values, columns, x, y)
            lengths = {"J_len": d_count, "V_len": p_count, "X_len": c_count, "Y_len": y_count}
            generated = (self.kernels, self.functional.program)
            status = launch_generated(builder, module, self.body, self.params, self.count,
                                      generated=generated, slices=slices, lengths=lengths,
                                      kernel="idiom_jds_spmv", work=self.count)  # fmt: skip
        else:
            args = [*jd.args, *values.args, *columns.args, *x.args, *y.args]
            status = run("idiom_jds_spmv", args, self._product(), per_row=True)
        result = chain.end(status)
        builder.statement(f"call void @llvm.stackrestore.p0(ptr {saved.ref})")
        return result


def map_spmv_jds(instance: Instance, context: MapperContext) -> Plan:
    return _JdsPlan(instance, context)
